import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

if TYPE_CHECKING:
    from ..models.connect_link_integration import ConnectLinkIntegration


T = TypeVar("T", bound="ConnectLinkCreated")


@_attrs_define
class ConnectLinkCreated:
    """
    Attributes:
        id (UUID):
        url (str): Shown in this answer only; never again.
        expires_at (datetime.datetime):
        integrations (list['ConnectLinkIntegration']):
    """

    id: UUID
    url: str
    expires_at: datetime.datetime
    integrations: list["ConnectLinkIntegration"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        url = self.url

        expires_at = self.expires_at.isoformat()

        integrations = []
        for integrations_item_data in self.integrations:
            integrations_item = integrations_item_data.to_dict()
            integrations.append(integrations_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "expires_at": expires_at,
                "integrations": integrations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.connect_link_integration import ConnectLinkIntegration

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        url = d.pop("url")

        expires_at = isoparse(d.pop("expires_at"))

        integrations = []
        _integrations = d.pop("integrations")
        for integrations_item_data in _integrations:
            integrations_item = ConnectLinkIntegration.from_dict(integrations_item_data)

            integrations.append(integrations_item)

        connect_link_created = cls(
            id=id,
            url=url,
            expires_at=expires_at,
            integrations=integrations,
        )

        connect_link_created.additional_properties = d
        return connect_link_created

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
