from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.metric_enum import MetricEnum
from ..models.unit_enum import UnitEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.field_side import FieldSide
    from ..models.unavailable import Unavailable


T = TypeVar("T", bound="Field")


@_attrs_define
class Field:
    """
    Attributes:
        metric (MetricEnum): * `acquisition.booked` - acquisition.booked
            * `acquisition.cash_collected` - acquisition.cash_collected
            * `acquisition.closes` - acquisition.closes
            * `acquisition.cost_per_booked_call` - acquisition.cost_per_booked_call
            * `acquisition.cost_per_close` - acquisition.cost_per_close
            * `acquisition.cost_per_lead` - acquisition.cost_per_lead
            * `acquisition.cost_per_show` - acquisition.cost_per_show
            * `acquisition.leads` - acquisition.leads
            * `acquisition.roas` - acquisition.roas
            * `acquisition.shows` - acquisition.shows
            * `acquisition.spend` - acquisition.spend
            * `attribution.cash_collected` - attribution.cash_collected
            * `attribution.close_rate` - attribution.close_rate
            * `attribution.closes` - attribution.closes
            * `attribution.leads` - attribution.leads
            * `calls.awaiting_outcome` - calls.awaiting_outcome
            * `calls.booked` - calls.booked
            * `calls.cancelled` - calls.cancelled
            * `calls.close_rate` - calls.close_rate
            * `calls.closed` - calls.closed
            * `calls.no_show` - calls.no_show
            * `calls.offer_rate` - calls.offer_rate
            * `calls.show_rate` - calls.show_rate
            * `calls.taken` - calls.taken
            * `calls.upcoming` - calls.upcoming
            * `commission.owed` - commission.owed
            * `eod.compliance_rate` - eod.compliance_rate
            * `eod.expected` - eod.expected
            * `eod.submitted` - eod.submitted
            * `funnel.stage_count` - funnel.stage_count
            * `funnel.stage_rate` - funnel.stage_rate
            * `goal.actual` - goal.actual
            * `goal.attainment` - goal.attainment
            * `goal.expected` - goal.expected
            * `goal.pace` - goal.pace
            * `goal.projected` - goal.projected
            * `goal.target` - goal.target
            * `leads.created` - leads.created
            * `outcomes.awaiting` - outcomes.awaiting
            * `outcomes.cancelled` - outcomes.cancelled
            * `outcomes.closed` - outcomes.closed
            * `outcomes.deposit` - outcomes.deposit
            * `outcomes.disqualified` - outcomes.disqualified
            * `outcomes.follow_up` - outcomes.follow_up
            * `outcomes.no_sale` - outcomes.no_sale
            * `outcomes.no_show` - outcomes.no_show
            * `outcomes.total` - outcomes.total
            * `payments.average_sale` - payments.average_sale
            * `payments.cash_collected` - payments.cash_collected
            * `payments.collection_rate` - payments.collection_rate
            * `payments.net_cash` - payments.net_cash
            * `payments.refunded` - payments.refunded
            * `payments.revenue_booked` - payments.revenue_booked
            * `payments.sales` - payments.sales
            * `speed_to_lead.contacted_rate` - speed_to_lead.contacted_rate
            * `speed_to_lead.waiting` - speed_to_lead.waiting
            * `webinar.attendance_rate` - webinar.attendance_rate
            * `webinar.attended` - webinar.attended
            * `webinar.booked` - webinar.booked
            * `webinar.booking_rate` - webinar.booking_rate
            * `webinar.registrations` - webinar.registrations
            * `webinar.stay_rate` - webinar.stay_rate
            * `webinar.stayed_to_pitch` - webinar.stayed_to_pitch
        label (str): Display label; the workspace's own label when it sets one.
        unit (UnitEnum): * `count` - count
            * `money` - money
            * `rate` - rate
        value (Union[None, float]): Counts are integers (goal.expected and goal.projected, pro-rated, carry 2 decimals);
            money is in major units of the workspace currency (1234.5); a rate is a fraction in [0, 1] rounded to 4 decimals
            (acquisition.roas, a return, and goal.attainment and goal.pace, since a goal can be beaten, may exceed 1). null
            whenever the figure cannot be drawn honestly; then `unavailable` says why.
        unavailable (Union['Unavailable', None]): Why the value is null; null when there is a value.
        currency (Union[Unset, str]): Money figures only.
        numerator (Union[Unset, FieldSide]):
        denominator (Union[Unset, FieldSide]):
    """

    metric: MetricEnum
    label: str
    unit: UnitEnum
    value: Union[None, float]
    unavailable: Union["Unavailable", None]
    currency: Union[Unset, str] = UNSET
    numerator: Union[Unset, "FieldSide"] = UNSET
    denominator: Union[Unset, "FieldSide"] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.unavailable import Unavailable

        metric = self.metric.value

        label = self.label

        unit = self.unit.value

        value: Union[None, float]
        value = self.value

        unavailable: Union[None, dict[str, Any]]
        if isinstance(self.unavailable, Unavailable):
            unavailable = self.unavailable.to_dict()
        else:
            unavailable = self.unavailable

        currency = self.currency

        numerator: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.numerator, Unset):
            numerator = self.numerator.to_dict()

        denominator: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.denominator, Unset):
            denominator = self.denominator.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "metric": metric,
                "label": label,
                "unit": unit,
                "value": value,
                "unavailable": unavailable,
            }
        )
        if currency is not UNSET:
            field_dict["currency"] = currency
        if numerator is not UNSET:
            field_dict["numerator"] = numerator
        if denominator is not UNSET:
            field_dict["denominator"] = denominator

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field_side import FieldSide
        from ..models.unavailable import Unavailable

        d = dict(src_dict)
        metric = MetricEnum(d.pop("metric"))

        label = d.pop("label")

        unit = UnitEnum(d.pop("unit"))

        def _parse_value(data: object) -> Union[None, float]:
            if data is None:
                return data
            return cast(Union[None, float], data)

        value = _parse_value(d.pop("value"))

        def _parse_unavailable(data: object) -> Union["Unavailable", None]:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                unavailable_type_0 = Unavailable.from_dict(data)

                return unavailable_type_0
            except:  # noqa: E722
                pass
            return cast(Union["Unavailable", None], data)

        unavailable = _parse_unavailable(d.pop("unavailable"))

        currency = d.pop("currency", UNSET)

        _numerator = d.pop("numerator", UNSET)
        numerator: Union[Unset, FieldSide]
        if isinstance(_numerator, Unset):
            numerator = UNSET
        else:
            numerator = FieldSide.from_dict(_numerator)

        _denominator = d.pop("denominator", UNSET)
        denominator: Union[Unset, FieldSide]
        if isinstance(_denominator, Unset):
            denominator = UNSET
        else:
            denominator = FieldSide.from_dict(_denominator)

        field = cls(
            metric=metric,
            label=label,
            unit=unit,
            value=value,
            unavailable=unavailable,
            currency=currency,
            numerator=numerator,
            denominator=denominator,
        )

        field.additional_properties = d
        return field

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
