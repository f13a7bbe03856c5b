from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.field import Field


T = TypeVar("T", bound="AttributionRow")


@_attrs_define
class AttributionRow:
    """
    Attributes:
        utm_source (str):
        utm_medium (str):
        utm_campaign (str):
        utm_content (str):
        leads (Field):
        closes (Field):
        cash_collected (Field):
        close_rate (Field):
    """

    utm_source: str
    utm_medium: str
    utm_campaign: str
    utm_content: str
    leads: "Field"
    closes: "Field"
    cash_collected: "Field"
    close_rate: "Field"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        utm_source = self.utm_source

        utm_medium = self.utm_medium

        utm_campaign = self.utm_campaign

        utm_content = self.utm_content

        leads = self.leads.to_dict()

        closes = self.closes.to_dict()

        cash_collected = self.cash_collected.to_dict()

        close_rate = self.close_rate.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "utm_source": utm_source,
                "utm_medium": utm_medium,
                "utm_campaign": utm_campaign,
                "utm_content": utm_content,
                "leads": leads,
                "closes": closes,
                "cash_collected": cash_collected,
                "close_rate": close_rate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field

        d = dict(src_dict)
        utm_source = d.pop("utm_source")

        utm_medium = d.pop("utm_medium")

        utm_campaign = d.pop("utm_campaign")

        utm_content = d.pop("utm_content")

        leads = Field.from_dict(d.pop("leads"))

        closes = Field.from_dict(d.pop("closes"))

        cash_collected = Field.from_dict(d.pop("cash_collected"))

        close_rate = Field.from_dict(d.pop("close_rate"))

        attribution_row = cls(
            utm_source=utm_source,
            utm_medium=utm_medium,
            utm_campaign=utm_campaign,
            utm_content=utm_content,
            leads=leads,
            closes=closes,
            cash_collected=cash_collected,
            close_rate=close_rate,
        )

        attribution_row.additional_properties = d
        return attribution_row

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
