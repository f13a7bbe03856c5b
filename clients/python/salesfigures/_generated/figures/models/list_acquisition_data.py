from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.acquisition_row import AcquisitionRow
    from ..models.acquisition_total import AcquisitionTotal


T = TypeVar("T", bound="ListAcquisitionData")


@_attrs_define
class ListAcquisitionData:
    """
    Attributes:
        total (AcquisitionTotal):
        rows (list['AcquisitionRow']):
        paid (AcquisitionTotal):
    """

    total: "AcquisitionTotal"
    rows: list["AcquisitionRow"]
    paid: "AcquisitionTotal"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total = self.total.to_dict()

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        paid = self.paid.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total": total,
                "rows": rows,
                "paid": paid,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.acquisition_row import AcquisitionRow
        from ..models.acquisition_total import AcquisitionTotal

        d = dict(src_dict)
        total = AcquisitionTotal.from_dict(d.pop("total"))

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = AcquisitionRow.from_dict(rows_item_data)

            rows.append(rows_item)

        paid = AcquisitionTotal.from_dict(d.pop("paid"))

        list_acquisition_data = cls(
            total=total,
            rows=rows,
            paid=paid,
        )

        list_acquisition_data.additional_properties = d
        return list_acquisition_data

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
