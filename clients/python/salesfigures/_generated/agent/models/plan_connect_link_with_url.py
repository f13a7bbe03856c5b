import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

T = TypeVar("T", bound="PlanConnectLinkWithUrl")


@_attrs_define
class PlanConnectLinkWithUrl:
    """
    Attributes:
        id (UUID):
        integrations (list[str]):
        expires_at (datetime.datetime):
        url (str): Shown in this answer only.
    """

    id: UUID
    integrations: list[str]
    expires_at: datetime.datetime
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        integrations = self.integrations

        expires_at = self.expires_at.isoformat()

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "integrations": integrations,
                "expires_at": expires_at,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        integrations = cast(list[str], d.pop("integrations"))

        expires_at = isoparse(d.pop("expires_at"))

        url = d.pop("url")

        plan_connect_link_with_url = cls(
            id=id,
            integrations=integrations,
            expires_at=expires_at,
            url=url,
        )

        plan_connect_link_with_url.additional_properties = d
        return plan_connect_link_with_url

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
