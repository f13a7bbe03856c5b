from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.goal import Goal


T = TypeVar("T", bound="GoalsMonth")


@_attrs_define
class GoalsMonth:
    """A month's goals, workspace goals first, then by member name.

    Attributes:
        month (str): YYYY-MM.
        goals (list['Goal']):
    """

    month: str
    goals: list["Goal"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        month = self.month

        goals = []
        for goals_item_data in self.goals:
            goals_item = goals_item_data.to_dict()
            goals.append(goals_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "month": month,
                "goals": goals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.goal import Goal

        d = dict(src_dict)
        month = d.pop("month")

        goals = []
        _goals = d.pop("goals")
        for goals_item_data in _goals:
            goals_item = Goal.from_dict(goals_item_data)

            goals.append(goals_item)

        goals_month = cls(
            month=month,
            goals=goals,
        )

        goals_month.additional_properties = d
        return goals_month

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
