import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.integrations_enum import IntegrationsEnum

T = TypeVar("T", bound="IntegrationEventData")


@_attrs_define
class IntegrationEventData:
    """
    Attributes:
        id (UUID):
        provider (IntegrationsEnum): * `stripe` - stripe
            * `calendly` - calendly
            * `zoom` - zoom
            * `hubspot` - hubspot
            * `meta` - meta
            * `google` - google
        state (str):
        error (str):
        failing_since (datetime.datetime):
    """

    id: UUID
    provider: IntegrationsEnum
    state: str
    error: str
    failing_since: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        provider = self.provider.value

        state = self.state

        error = self.error

        failing_since = self.failing_since.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "provider": provider,
                "state": state,
                "error": error,
                "failing_since": failing_since,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        provider = IntegrationsEnum(d.pop("provider"))

        state = d.pop("state")

        error = d.pop("error")

        failing_since = isoparse(d.pop("failing_since"))

        integration_event_data = cls(
            id=id,
            provider=provider,
            state=state,
            error=error,
            failing_since=failing_since,
        )

        integration_event_data.additional_properties = d
        return integration_event_data

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
