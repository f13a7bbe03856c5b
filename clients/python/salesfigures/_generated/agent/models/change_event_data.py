import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.change_event_data_kind_enum import ChangeEventDataKindEnum

if TYPE_CHECKING:
    from ..models.change_event_actor import ChangeEventActor


T = TypeVar("T", bound="ChangeEventData")


@_attrs_define
class ChangeEventData:
    """
    Attributes:
        id (UUID):
        workspace_id (UUID):
        effective_at (datetime.datetime):
        kind (ChangeEventDataKindEnum): * `price` - price
            * `offer` - offer
            * `script` - script
            * `rule` - rule
            * `other` - other
        title (str):
        what (str):
        why (str):
        created_at (datetime.datetime):
        created_by (ChangeEventActor):
    """

    id: UUID
    workspace_id: UUID
    effective_at: datetime.datetime
    kind: ChangeEventDataKindEnum
    title: str
    what: str
    why: str
    created_at: datetime.datetime
    created_by: "ChangeEventActor"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        workspace_id = str(self.workspace_id)

        effective_at = self.effective_at.isoformat()

        kind = self.kind.value

        title = self.title

        what = self.what

        why = self.why

        created_at = self.created_at.isoformat()

        created_by = self.created_by.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspace_id": workspace_id,
                "effective_at": effective_at,
                "kind": kind,
                "title": title,
                "what": what,
                "why": why,
                "created_at": created_at,
                "created_by": created_by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.change_event_actor import ChangeEventActor

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        workspace_id = UUID(d.pop("workspace_id"))

        effective_at = isoparse(d.pop("effective_at"))

        kind = ChangeEventDataKindEnum(d.pop("kind"))

        title = d.pop("title")

        what = d.pop("what")

        why = d.pop("why")

        created_at = isoparse(d.pop("created_at"))

        created_by = ChangeEventActor.from_dict(d.pop("created_by"))

        change_event_data = cls(
            id=id,
            workspace_id=workspace_id,
            effective_at=effective_at,
            kind=kind,
            title=title,
            what=what,
            why=why,
            created_at=created_at,
            created_by=created_by,
        )

        change_event_data.additional_properties = d
        return change_event_data

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
