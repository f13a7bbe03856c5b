from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.goal_metric_enum import GoalMetricEnum
from ..models.goal_unit_enum import GoalUnitEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.goal_member import GoalMember


T = TypeVar("T", bound="Goal")


@_attrs_define
class Goal:
    """A goal as PUT /api/v1/goals/{month} answers it and the goal.updated event carries it.

    Attributes:
        metric (GoalMetricEnum): * `leads.created` - Leads Created
            * `calls.booked` - Calls Booked
            * `calls.taken` - Calls Taken
            * `calls.closed` - Calls Closed
            * `payments.cash_collected` - Cash Collected
            * `payments.revenue_booked` - Revenue Booked
        member (Union['GoalMember', None]): null: a goal of the whole workspace.
        unit (GoalUnitEnum): * `count` - count
            * `money` - money
        target (float): A count, or money in major units of the workspace currency.
        currency (Union[Unset, str]): Money goals only.
    """

    metric: GoalMetricEnum
    member: Union["GoalMember", None]
    unit: GoalUnitEnum
    target: float
    currency: Union[Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.goal_member import GoalMember

        metric = self.metric.value

        member: Union[None, dict[str, Any]]
        if isinstance(self.member, GoalMember):
            member = self.member.to_dict()
        else:
            member = self.member

        unit = self.unit.value

        target = self.target

        currency = self.currency

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "metric": metric,
                "member": member,
                "unit": unit,
                "target": target,
            }
        )
        if currency is not UNSET:
            field_dict["currency"] = currency

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.goal_member import GoalMember

        d = dict(src_dict)
        metric = GoalMetricEnum(d.pop("metric"))

        def _parse_member(data: object) -> Union["GoalMember", None]:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                member_type_0 = GoalMember.from_dict(data)

                return member_type_0
            except:  # noqa: E722
                pass
            return cast(Union["GoalMember", None], data)

        member = _parse_member(d.pop("member"))

        unit = GoalUnitEnum(d.pop("unit"))

        target = d.pop("target")

        currency = d.pop("currency", UNSET)

        goal = cls(
            metric=metric,
            member=member,
            unit=unit,
            target=target,
            currency=currency,
        )

        goal.additional_properties = d
        return goal

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
