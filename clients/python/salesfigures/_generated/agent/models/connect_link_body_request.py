from collections.abc import Mapping
from typing import Any, TypeVar, Union

from attrs import define as _attrs_define

from ..models.integrations_enum import IntegrationsEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ConnectLinkBodyRequest")


@_attrs_define
class ConnectLinkBodyRequest:
    """
    Attributes:
        integrations (list[IntegrationsEnum]):
        expires_in_hours (Union[Unset, int]):  Default: 72.
    """

    integrations: list[IntegrationsEnum]
    expires_in_hours: Union[Unset, int] = 72

    def to_dict(self) -> dict[str, Any]:
        integrations = []
        for integrations_item_data in self.integrations:
            integrations_item = integrations_item_data.value
            integrations.append(integrations_item)

        expires_in_hours = self.expires_in_hours

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "integrations": integrations,
            }
        )
        if expires_in_hours is not UNSET:
            field_dict["expires_in_hours"] = expires_in_hours

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        integrations = []
        _integrations = d.pop("integrations")
        for integrations_item_data in _integrations:
            integrations_item = IntegrationsEnum(integrations_item_data)

            integrations.append(integrations_item)

        expires_in_hours = d.pop("expires_in_hours", UNSET)

        connect_link_body_request = cls(
            integrations=integrations,
            expires_in_hours=expires_in_hours,
        )

        return connect_link_body_request
