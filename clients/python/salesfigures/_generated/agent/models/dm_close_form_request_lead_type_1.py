from collections.abc import Mapping
from typing import Any, TypeVar, Union
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DmCloseFormRequestLeadType1")


@_attrs_define
class DmCloseFormRequestLeadType1:
    """{"id"}, or {"name", "email"}: the lead with that email, else a new one.

    Attributes:
        id (Union[Unset, UUID]):
        name (Union[Unset, str]):
        email (Union[Unset, str]):
    """

    id: Union[Unset, UUID] = UNSET
    name: Union[Unset, str] = UNSET
    email: Union[Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        id: Union[Unset, str] = UNSET
        if not isinstance(self.id, Unset):
            id = str(self.id)

        name = self.name

        email = self.email

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if id is not UNSET:
            field_dict["id"] = id
        if name is not UNSET:
            field_dict["name"] = name
        if email is not UNSET:
            field_dict["email"] = email

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _id = d.pop("id", UNSET)
        id: Union[Unset, UUID]
        if isinstance(_id, Unset):
            id = UNSET
        else:
            id = UUID(_id)

        name = d.pop("name", UNSET)

        email = d.pop("email", UNSET)

        dm_close_form_request_lead_type_1 = cls(
            id=id,
            name=name,
            email=email,
        )

        return dm_close_form_request_lead_type_1
