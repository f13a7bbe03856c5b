from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.get_series_data_metric_enum import GetSeriesDataMetricEnum
from ..models.interval_enum import IntervalEnum

if TYPE_CHECKING:
    from ..models.series_point import SeriesPoint


T = TypeVar("T", bound="GetSeriesData")


@_attrs_define
class GetSeriesData:
    """
    Attributes:
        points (list['SeriesPoint']):
        metric (GetSeriesDataMetricEnum): * `calls.booked` - calls.booked
            * `calls.cancelled` - calls.cancelled
            * `calls.taken` - calls.taken
            * `calls.no_show` - calls.no_show
            * `calls.awaiting_outcome` - calls.awaiting_outcome
            * `calls.upcoming` - calls.upcoming
            * `calls.closed` - calls.closed
            * `calls.show_rate` - calls.show_rate
            * `calls.close_rate` - calls.close_rate
            * `calls.offer_rate` - calls.offer_rate
            * `outcomes.closed` - outcomes.closed
            * `outcomes.deposit` - outcomes.deposit
            * `outcomes.follow_up` - outcomes.follow_up
            * `outcomes.no_sale` - outcomes.no_sale
            * `outcomes.disqualified` - outcomes.disqualified
            * `outcomes.no_show` - outcomes.no_show
            * `outcomes.cancelled` - outcomes.cancelled
            * `outcomes.awaiting` - outcomes.awaiting
            * `outcomes.total` - outcomes.total
            * `payments.cash_collected` - payments.cash_collected
            * `payments.refunded` - payments.refunded
            * `payments.net_cash` - payments.net_cash
            * `payments.sales` - payments.sales
            * `payments.revenue_booked` - payments.revenue_booked
            * `payments.average_sale` - payments.average_sale
            * `payments.collection_rate` - payments.collection_rate
            * `leads.created` - leads.created
            * `acquisition.spend` - acquisition.spend
            * `acquisition.cost_per_lead` - acquisition.cost_per_lead
            * `acquisition.roas` - acquisition.roas
        interval (IntervalEnum): * `day` - day
            * `week` - week
            * `month` - month
    """

    points: list["SeriesPoint"]
    metric: GetSeriesDataMetricEnum
    interval: IntervalEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        points = []
        for points_item_data in self.points:
            points_item = points_item_data.to_dict()
            points.append(points_item)

        metric = self.metric.value

        interval = self.interval.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "points": points,
                "metric": metric,
                "interval": interval,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.series_point import SeriesPoint

        d = dict(src_dict)
        points = []
        _points = d.pop("points")
        for points_item_data in _points:
            points_item = SeriesPoint.from_dict(points_item_data)

            points.append(points_item)

        metric = GetSeriesDataMetricEnum(d.pop("metric"))

        interval = IntervalEnum(d.pop("interval"))

        get_series_data = cls(
            points=points,
            metric=metric,
            interval=interval,
        )

        get_series_data.additional_properties = d
        return get_series_data

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
