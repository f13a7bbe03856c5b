from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EndpointCreateRequest")


@_attrs_define
class EndpointCreateRequest:
    """Refuses members it does not name.

    Attributes:
        url (str): https://… (at most 2,000 characters).
        events (Union[Unset, list[str]]): The event types to send; omitted or empty: every type.
        description (Union[Unset, str]):
        enabled (Union[Unset, bool]):  Default: True.
    """

    url: str
    events: Union[Unset, list[str]] = UNSET
    description: Union[Unset, str] = UNSET
    enabled: Union[Unset, bool] = True

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events: Union[Unset, list[str]] = UNSET
        if not isinstance(self.events, Unset):
            events = self.events

        description = self.description

        enabled = self.enabled

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if events is not UNSET:
            field_dict["events"] = events
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        events = cast(list[str], d.pop("events", UNSET))

        description = d.pop("description", UNSET)

        enabled = d.pop("enabled", UNSET)

        endpoint_create_request = cls(
            url=url,
            events=events,
            description=description,
            enabled=enabled,
        )

        return endpoint_create_request
