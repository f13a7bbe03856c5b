from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlanMemberToken")


@_attrs_define
class PlanMemberToken:
    """
    Attributes:
        member_id (UUID):
        email (str):
        role (str):
        token (str): A member session token, valid 30 days.
    """

    member_id: UUID
    email: str
    role: str
    token: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        member_id = str(self.member_id)

        email = self.email

        role = self.role

        token = self.token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "member_id": member_id,
                "email": email,
                "role": role,
                "token": token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        member_id = UUID(d.pop("member_id"))

        email = d.pop("email")

        role = d.pop("role")

        token = d.pop("token")

        plan_member_token = cls(
            member_id=member_id,
            email=email,
            role=role,
            token=token,
        )

        plan_member_token.additional_properties = d
        return plan_member_token

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
