from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.change_entry import ChangeEntry
    from ..models.compare_data_figures import CompareDataFigures
    from ..models.compare_side import CompareSide


T = TypeVar("T", bound="CompareData")


@_attrs_define
class CompareData:
    """
    Attributes:
        after (CompareSide):
        change (ChangeEntry):
        days (int):
        figures (CompareDataFigures): By metric id: calls.booked, calls.show_rate, ...
    """

    after: "CompareSide"
    change: "ChangeEntry"
    days: int
    figures: "CompareDataFigures"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        after = self.after.to_dict()

        change = self.change.to_dict()

        days = self.days

        figures = self.figures.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "after": after,
                "change": change,
                "days": days,
                "figures": figures,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.change_entry import ChangeEntry
        from ..models.compare_data_figures import CompareDataFigures
        from ..models.compare_side import CompareSide

        d = dict(src_dict)
        after = CompareSide.from_dict(d.pop("after"))

        change = ChangeEntry.from_dict(d.pop("change"))

        days = d.pop("days")

        figures = CompareDataFigures.from_dict(d.pop("figures"))

        compare_data = cls(
            after=after,
            change=change,
            days=days,
            figures=figures,
        )

        compare_data.additional_properties = d
        return compare_data

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
