import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

if TYPE_CHECKING:
    from ..models.plan_event_change import PlanEventChange
    from ..models.plan_event_invite import PlanEventInvite


T = TypeVar("T", bound="PlanEventData")


@_attrs_define
class PlanEventData:
    """
    Attributes:
        id (UUID):
        agency_id (UUID):
        state (str):
        applied_at (datetime.datetime):
        changes (list['PlanEventChange']):
        invited (list['PlanEventInvite']):
    """

    id: UUID
    agency_id: UUID
    state: str
    applied_at: datetime.datetime
    changes: list["PlanEventChange"]
    invited: list["PlanEventInvite"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        agency_id = str(self.agency_id)

        state = self.state

        applied_at = self.applied_at.isoformat()

        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)

        invited = []
        for invited_item_data in self.invited:
            invited_item = invited_item_data.to_dict()
            invited.append(invited_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "agency_id": agency_id,
                "state": state,
                "applied_at": applied_at,
                "changes": changes,
                "invited": invited,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plan_event_change import PlanEventChange
        from ..models.plan_event_invite import PlanEventInvite

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        agency_id = UUID(d.pop("agency_id"))

        state = d.pop("state")

        applied_at = isoparse(d.pop("applied_at"))

        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:
            changes_item = PlanEventChange.from_dict(changes_item_data)

            changes.append(changes_item)

        invited = []
        _invited = d.pop("invited")
        for invited_item_data in _invited:
            invited_item = PlanEventInvite.from_dict(invited_item_data)

            invited.append(invited_item)

        plan_event_data = cls(
            id=id,
            agency_id=agency_id,
            state=state,
            applied_at=applied_at,
            changes=changes,
            invited=invited,
        )

        plan_event_data.additional_properties = d
        return plan_event_data

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
