from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.field import Field


T = TypeVar("T", bound="BoardEod")


@_attrs_define
class BoardEod:
    """
    Attributes:
        expected (Field):
        submitted (Field):
        compliance_rate (Field):
    """

    expected: "Field"
    submitted: "Field"
    compliance_rate: "Field"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expected = self.expected.to_dict()

        submitted = self.submitted.to_dict()

        compliance_rate = self.compliance_rate.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expected": expected,
                "submitted": submitted,
                "compliance_rate": compliance_rate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field

        d = dict(src_dict)
        expected = Field.from_dict(d.pop("expected"))

        submitted = Field.from_dict(d.pop("submitted"))

        compliance_rate = Field.from_dict(d.pop("compliance_rate"))

        board_eod = cls(
            expected=expected,
            submitted=submitted,
            compliance_rate=compliance_rate,
        )

        board_eod.additional_properties = d
        return board_eod

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
