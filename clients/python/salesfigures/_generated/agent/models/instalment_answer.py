import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

T = TypeVar("T", bound="InstalmentAnswer")


@_attrs_define
class InstalmentAnswer:
    """
    Attributes:
        due_date (datetime.date):
        amount (float): Major units.
    """

    due_date: datetime.date
    amount: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        due_date = self.due_date.isoformat()

        amount = self.amount

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "due_date": due_date,
                "amount": amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        due_date = isoparse(d.pop("due_date")).date()

        amount = d.pop("amount")

        instalment_answer = cls(
            due_date=due_date,
            amount=amount,
        )

        instalment_answer.additional_properties = d
        return instalment_answer

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
