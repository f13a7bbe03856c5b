from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.ad_spend_record import AdSpendRecord
    from ..models.field import Field


T = TypeVar("T", bound="ListAdSpendData")


@_attrs_define
class ListAdSpendData:
    """
    Attributes:
        spend (Field):
        records (list['AdSpendRecord']): Oldest day first (then platform and id), at most `limit`.
    """

    spend: "Field"
    records: list["AdSpendRecord"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        spend = self.spend.to_dict()

        records = []
        for records_item_data in self.records:
            records_item = records_item_data.to_dict()
            records.append(records_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "spend": spend,
                "records": records,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ad_spend_record import AdSpendRecord
        from ..models.field import Field

        d = dict(src_dict)
        spend = Field.from_dict(d.pop("spend"))

        records = []
        _records = d.pop("records")
        for records_item_data in _records:
            records_item = AdSpendRecord.from_dict(records_item_data)

            records.append(records_item)

        list_ad_spend_data = cls(
            spend=spend,
            records=records,
        )

        list_ad_spend_data.additional_properties = d
        return list_ad_spend_data

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
