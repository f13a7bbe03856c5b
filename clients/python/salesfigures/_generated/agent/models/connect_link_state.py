import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

if TYPE_CHECKING:
    from ..models.connect_link_integration import ConnectLinkIntegration


T = TypeVar("T", bound="ConnectLinkState")


@_attrs_define
class ConnectLinkState:
    """
    Attributes:
        id (UUID):
        workspace_id (UUID):
        expires_at (datetime.datetime):
        expired (bool):
        revoked (bool):
        completed (bool):
        integrations (list['ConnectLinkIntegration']):
    """

    id: UUID
    workspace_id: UUID
    expires_at: datetime.datetime
    expired: bool
    revoked: bool
    completed: bool
    integrations: list["ConnectLinkIntegration"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        workspace_id = str(self.workspace_id)

        expires_at = self.expires_at.isoformat()

        expired = self.expired

        revoked = self.revoked

        completed = self.completed

        integrations = []
        for integrations_item_data in self.integrations:
            integrations_item = integrations_item_data.to_dict()
            integrations.append(integrations_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspace_id": workspace_id,
                "expires_at": expires_at,
                "expired": expired,
                "revoked": revoked,
                "completed": completed,
                "integrations": integrations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.connect_link_integration import ConnectLinkIntegration

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        workspace_id = UUID(d.pop("workspace_id"))

        expires_at = isoparse(d.pop("expires_at"))

        expired = d.pop("expired")

        revoked = d.pop("revoked")

        completed = d.pop("completed")

        integrations = []
        _integrations = d.pop("integrations")
        for integrations_item_data in _integrations:
            integrations_item = ConnectLinkIntegration.from_dict(integrations_item_data)

            integrations.append(integrations_item)

        connect_link_state = cls(
            id=id,
            workspace_id=workspace_id,
            expires_at=expires_at,
            expired=expired,
            revoked=revoked,
            completed=completed,
            integrations=integrations,
        )

        connect_link_state.additional_properties = d
        return connect_link_state

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
