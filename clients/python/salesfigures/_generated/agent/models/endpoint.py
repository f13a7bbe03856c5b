import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.event_type_enum import EventTypeEnum

T = TypeVar("T", bound="Endpoint")


@_attrs_define
class Endpoint:
    """
    Attributes:
        id (UUID):
        url (str):
        events (list[EventTypeEnum]): The event types sent; empty: every type.
        description (str):
        enabled (bool): False while turned off, or after three days of failed deliveries.
        created_at (datetime.datetime):
    """

    id: UUID
    url: str
    events: list[EventTypeEnum]
    description: str
    enabled: bool
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        url = self.url

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        description = self.description

        enabled = self.enabled

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "events": events,
                "description": description,
                "enabled": enabled,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = EventTypeEnum(events_item_data)

            events.append(events_item)

        description = d.pop("description")

        enabled = d.pop("enabled")

        created_at = isoparse(d.pop("created_at"))

        endpoint = cls(
            id=id,
            url=url,
            events=events,
            description=description,
            enabled=enabled,
            created_at=created_at,
        )

        endpoint.additional_properties = d
        return endpoint

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
