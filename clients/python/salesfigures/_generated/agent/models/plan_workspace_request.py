from collections.abc import Mapping
from typing import Any, TypeVar, Union
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PlanWorkspaceRequest")


@_attrs_define
class PlanWorkspaceRequest:
    """
    Attributes:
        id (Union[Unset, UUID]): To change one of the agency's.
        name (Union[Unset, str]):
        slug (Union[Unset, str]):
        currency (Union[Unset, str]): ISO 4217.
        timezone (Union[Unset, str]): IANA; default UTC.
    """

    id: Union[Unset, UUID] = UNSET
    name: Union[Unset, str] = UNSET
    slug: Union[Unset, str] = UNSET
    currency: Union[Unset, str] = UNSET
    timezone: Union[Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        id: Union[Unset, str] = UNSET
        if not isinstance(self.id, Unset):
            id = str(self.id)

        name = self.name

        slug = self.slug

        currency = self.currency

        timezone = self.timezone

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if id is not UNSET:
            field_dict["id"] = id
        if name is not UNSET:
            field_dict["name"] = name
        if slug is not UNSET:
            field_dict["slug"] = slug
        if currency is not UNSET:
            field_dict["currency"] = currency
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

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

        slug = d.pop("slug", UNSET)

        currency = d.pop("currency", UNSET)

        timezone = d.pop("timezone", UNSET)

        plan_workspace_request = cls(
            id=id,
            name=name,
            slug=slug,
            currency=currency,
            timezone=timezone,
        )

        return plan_workspace_request
