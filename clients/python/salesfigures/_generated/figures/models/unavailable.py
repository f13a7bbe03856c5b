from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.unavailable_code_enum import UnavailableCodeEnum

T = TypeVar("T", bound="Unavailable")


@_attrs_define
class Unavailable:
    """
    Attributes:
        code (UnavailableCodeEnum): * `does-not-nest` - does-not-nest
            * `empty-denominator` - empty-denominator
            * `no-denominator` - no-denominator
            * `no-numerator` - no-numerator
            * `not-computed` - not-computed
        reason (str):
    """

    code: UnavailableCodeEnum
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = UnavailableCodeEnum(d.pop("code"))

        reason = d.pop("reason")

        unavailable = cls(
            code=code,
            reason=reason,
        )

        unavailable.additional_properties = d
        return unavailable

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
