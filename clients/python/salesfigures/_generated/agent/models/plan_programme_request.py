from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PlanProgrammeRequest")


@_attrs_define
class PlanProgrammeRequest:
    """
    Attributes:
        name (str):
        price (str): Major units of the workspace currency.
    """

    name: str
    price: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        price = self.price

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "price": price,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        price = d.pop("price")

        plan_programme_request = cls(
            name=name,
            price=price,
        )

        return plan_programme_request
