import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

if TYPE_CHECKING:
    from ..models.goals_month import GoalsMonth


T = TypeVar("T", bound="EventGoalUpdated")


@_attrs_define
class EventGoalUpdated:
    """
    Attributes:
        data (GoalsMonth): A month's goals, workspace goals first, then by member name.
        id (str):
        type_ (str): `goal.updated`
        timestamp (datetime.datetime):
        workspace_id (UUID):
    """

    data: "GoalsMonth"
    id: str
    type_: str
    timestamp: datetime.datetime
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        id = self.id

        type_ = self.type_

        timestamp = self.timestamp.isoformat()

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "id": id,
                "type": type_,
                "timestamp": timestamp,
                "workspace_id": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.goals_month import GoalsMonth

        d = dict(src_dict)
        data = GoalsMonth.from_dict(d.pop("data"))

        id = d.pop("id")

        type_ = d.pop("type")

        timestamp = isoparse(d.pop("timestamp"))

        workspace_id = UUID(d.pop("workspace_id"))

        event_goal_updated = cls(
            data=data,
            id=id,
            type_=type_,
            timestamp=timestamp,
            workspace_id=workspace_id,
        )

        event_goal_updated.additional_properties = d
        return event_goal_updated

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
