from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.role_enum import RoleEnum

T = TypeVar("T", bound="PlanTeamMemberRequest")


@_attrs_define
class PlanTeamMemberRequest:
    """
    Attributes:
        email (str):
        name (str):
        role (RoleEnum): * `owner` - owner
            * `admin` - admin
            * `manager` - manager
            * `closer` - closer
            * `setter` - setter
            * `sdr` - sdr
    """

    email: str
    name: str
    role: RoleEnum

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        name = self.name

        role = self.role.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "name": name,
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email")

        name = d.pop("name")

        role = RoleEnum(d.pop("role"))

        plan_team_member_request = cls(
            email=email,
            name=name,
            role=role,
        )

        return plan_team_member_request
