from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.goal_metric_enum import GoalMetricEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="GoalItemRequest")


@_attrs_define
class GoalItemRequest:
    """Refuses members it does not name.

    Attributes:
        metric (GoalMetricEnum): * `leads.created` - Leads Created
            * `calls.booked` - Calls Booked
            * `calls.taken` - Calls Taken
            * `calls.closed` - Calls Closed
            * `payments.cash_collected` - Cash Collected
            * `payments.revenue_booked` - Revenue Booked
        target (float): A count: a whole number of zero or more. Money (payments.* metrics): major units of the
            workspace currency, zero or more.
        member (Union[None, UUID, Unset]): A member's id; absent or null: a goal of the whole workspace.
    """

    metric: GoalMetricEnum
    target: float
    member: Union[None, UUID, Unset] = UNSET

    def to_dict(self) -> dict[str, Any]:
        metric = self.metric.value

        target = self.target

        member: Union[None, Unset, str]
        if isinstance(self.member, Unset):
            member = UNSET
        elif isinstance(self.member, UUID):
            member = str(self.member)
        else:
            member = self.member

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "metric": metric,
                "target": target,
            }
        )
        if member is not UNSET:
            field_dict["member"] = member

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        metric = GoalMetricEnum(d.pop("metric"))

        target = d.pop("target")

        def _parse_member(data: object) -> Union[None, UUID, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                member_type_0 = UUID(data)

                return member_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID, Unset], data)

        member = _parse_member(d.pop("member", UNSET))

        goal_item_request = cls(
            metric=metric,
            target=target,
            member=member,
        )

        return goal_item_request
