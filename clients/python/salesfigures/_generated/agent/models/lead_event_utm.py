from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LeadEventUtm")


@_attrs_define
class LeadEventUtm:
    """
    Attributes:
        source (str):
        medium (str):
        campaign (str):
        content (str):
    """

    source: str
    medium: str
    campaign: str
    content: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        source = self.source

        medium = self.medium

        campaign = self.campaign

        content = self.content

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "source": source,
                "medium": medium,
                "campaign": campaign,
                "content": content,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        source = d.pop("source")

        medium = d.pop("medium")

        campaign = d.pop("campaign")

        content = d.pop("content")

        lead_event_utm = cls(
            source=source,
            medium=medium,
            campaign=campaign,
            content=content,
        )

        lead_event_utm.additional_properties = d
        return lead_event_utm

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
