from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.field import Field
    from ..models.list_leads_data_leads_item import ListLeadsDataLeadsItem


T = TypeVar("T", bound="ListLeadsData")


@_attrs_define
class ListLeadsData:
    """
    Attributes:
        created (Field):
        leads (list['ListLeadsDataLeadsItem']): Newest first, at most `limit`: id, created_at, name, email, source,
            utm_source, utm_medium, utm_campaign, utm_content, status, setter {id, name, email} or null, first_contact_at.
    """

    created: "Field"
    leads: list["ListLeadsDataLeadsItem"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created = self.created.to_dict()

        leads = []
        for leads_item_data in self.leads:
            leads_item = leads_item_data.to_dict()
            leads.append(leads_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created": created,
                "leads": leads,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field
        from ..models.list_leads_data_leads_item import ListLeadsDataLeadsItem

        d = dict(src_dict)
        created = Field.from_dict(d.pop("created"))

        leads = []
        _leads = d.pop("leads")
        for leads_item_data in _leads:
            leads_item = ListLeadsDataLeadsItem.from_dict(leads_item_data)

            leads.append(leads_item)

        list_leads_data = cls(
            created=created,
            leads=leads,
        )

        list_leads_data.additional_properties = d
        return list_leads_data

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
