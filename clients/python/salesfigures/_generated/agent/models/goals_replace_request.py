from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.goal_item_request import GoalItemRequest


T = TypeVar("T", bound="GoalsReplaceRequest")


@_attrs_define
class GoalsReplaceRequest:
    """Refuses members it does not name.

    Attributes:
        goals (list['GoalItemRequest']): The month's goals: each metric at most once for the workspace and once per
            member. An empty list removes the month's goals.
    """

    goals: list["GoalItemRequest"]

    def to_dict(self) -> dict[str, Any]:
        goals = []
        for goals_item_data in self.goals:
            goals_item = goals_item_data.to_dict()
            goals.append(goals_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "goals": goals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.goal_item_request import GoalItemRequest

        d = dict(src_dict)
        goals = []
        _goals = d.pop("goals")
        for goals_item_data in _goals:
            goals_item = GoalItemRequest.from_dict(goals_item_data)

            goals.append(goals_item)

        goals_replace_request = cls(
            goals=goals,
        )

        return goals_replace_request
