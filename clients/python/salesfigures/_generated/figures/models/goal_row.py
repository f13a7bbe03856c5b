from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.goal_metric_enum import GoalMetricEnum

if TYPE_CHECKING:
    from ..models.field import Field
    from ..models.goal_row_member import GoalRowMember


T = TypeVar("T", bound="GoalRow")


@_attrs_define
class GoalRow:
    """
    Attributes:
        metric (GoalMetricEnum): * `leads.created` - Leads Created
            * `calls.booked` - Calls Booked
            * `calls.taken` - Calls Taken
            * `calls.closed` - Calls Closed
            * `payments.cash_collected` - Cash Collected
            * `payments.revenue_booked` - Revenue Booked
        member (Union['GoalRowMember', None]): null: a goal of the whole workspace.
        actual (Field):
        target (Field):
        expected (Field):
        attainment (Field):
        pace (Field):
        projected (Field):
    """

    metric: GoalMetricEnum
    member: Union["GoalRowMember", None]
    actual: "Field"
    target: "Field"
    expected: "Field"
    attainment: "Field"
    pace: "Field"
    projected: "Field"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.goal_row_member import GoalRowMember

        metric = self.metric.value

        member: Union[None, dict[str, Any]]
        if isinstance(self.member, GoalRowMember):
            member = self.member.to_dict()
        else:
            member = self.member

        actual = self.actual.to_dict()

        target = self.target.to_dict()

        expected = self.expected.to_dict()

        attainment = self.attainment.to_dict()

        pace = self.pace.to_dict()

        projected = self.projected.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "metric": metric,
                "member": member,
                "actual": actual,
                "target": target,
                "expected": expected,
                "attainment": attainment,
                "pace": pace,
                "projected": projected,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field
        from ..models.goal_row_member import GoalRowMember

        d = dict(src_dict)
        metric = GoalMetricEnum(d.pop("metric"))

        def _parse_member(data: object) -> Union["GoalRowMember", None]:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                member_type_0 = GoalRowMember.from_dict(data)

                return member_type_0
            except:  # noqa: E722
                pass
            return cast(Union["GoalRowMember", None], data)

        member = _parse_member(d.pop("member"))

        actual = Field.from_dict(d.pop("actual"))

        target = Field.from_dict(d.pop("target"))

        expected = Field.from_dict(d.pop("expected"))

        attainment = Field.from_dict(d.pop("attainment"))

        pace = Field.from_dict(d.pop("pace"))

        projected = Field.from_dict(d.pop("projected"))

        goal_row = cls(
            metric=metric,
            member=member,
            actual=actual,
            target=target,
            expected=expected,
            attainment=attainment,
            pace=pace,
            projected=projected,
        )

        goal_row.additional_properties = d
        return goal_row

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
