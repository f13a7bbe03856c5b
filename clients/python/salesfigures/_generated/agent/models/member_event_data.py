from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.role_enum import RoleEnum

T = TypeVar("T", bound="MemberEventData")


@_attrs_define
class MemberEventData:
    """
    Attributes:
        id (UUID):
        name (str):
        email (str):
        role (RoleEnum): * `owner` - owner
            * `admin` - admin
            * `manager` - manager
            * `closer` - closer
            * `setter` - setter
            * `sdr` - sdr
        active (bool):
    """

    id: UUID
    name: str
    email: str
    role: RoleEnum
    active: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        email = self.email

        role = self.role.value

        active = self.active

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "email": email,
                "role": role,
                "active": active,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        email = d.pop("email")

        role = RoleEnum(d.pop("role"))

        active = d.pop("active")

        member_event_data = cls(
            id=id,
            name=name,
            email=email,
            role=role,
            active=active,
        )

        member_event_data.additional_properties = d
        return member_event_data

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
