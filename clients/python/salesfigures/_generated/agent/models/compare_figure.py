from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.field import Field


T = TypeVar("T", bound="CompareFigure")


@_attrs_define
class CompareFigure:
    """
    Attributes:
        before (Field):
        after (Field):
        difference (Union[None, float]): after - before, in the figure's unit (money in major units, a rate as a
            fraction rounded to 4 decimals); null when either side is null.
    """

    before: "Field"
    after: "Field"
    difference: Union[None, float]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        before = self.before.to_dict()

        after = self.after.to_dict()

        difference: Union[None, float]
        difference = self.difference

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "before": before,
                "after": after,
                "difference": difference,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field

        d = dict(src_dict)
        before = Field.from_dict(d.pop("before"))

        after = Field.from_dict(d.pop("after"))

        def _parse_difference(data: object) -> Union[None, float]:
            if data is None:
                return data
            return cast(Union[None, float], data)

        difference = _parse_difference(d.pop("difference"))

        compare_figure = cls(
            before=before,
            after=after,
            difference=difference,
        )

        compare_figure.additional_properties = d
        return compare_figure

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
