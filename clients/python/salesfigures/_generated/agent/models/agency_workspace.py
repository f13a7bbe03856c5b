import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.agency_workspace_status_enum import AgencyWorkspaceStatusEnum

T = TypeVar("T", bound="AgencyWorkspace")


@_attrs_define
class AgencyWorkspace:
    """
    Attributes:
        id (UUID):
        name (str):
        slug (str):
        currency (str):
        status (AgencyWorkspaceStatusEnum): * `active` - active
        created_at (datetime.datetime):
    """

    id: UUID
    name: str
    slug: str
    currency: str
    status: AgencyWorkspaceStatusEnum
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        slug = self.slug

        currency = self.currency

        status = self.status.value

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "slug": slug,
                "currency": currency,
                "status": status,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        slug = d.pop("slug")

        currency = d.pop("currency")

        status = AgencyWorkspaceStatusEnum(d.pop("status"))

        created_at = isoparse(d.pop("created_at"))

        agency_workspace = cls(
            id=id,
            name=name,
            slug=slug,
            currency=currency,
            status=status,
            created_at=created_at,
        )

        agency_workspace.additional_properties = d
        return agency_workspace

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
