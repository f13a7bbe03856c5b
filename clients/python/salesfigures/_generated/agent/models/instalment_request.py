import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast

from attrs import define as _attrs_define

from .._dates import isoparse

T = TypeVar("T", bound="InstalmentRequest")


@_attrs_define
class InstalmentRequest:
    """Refuses members it does not name.

    Attributes:
        due_date (datetime.date): YYYY-MM-DD.
        amount (Union[float, str]): Major units of the workspace currency.
    """

    due_date: datetime.date
    amount: Union[float, str]

    def to_dict(self) -> dict[str, Any]:
        due_date = self.due_date.isoformat()

        amount: Union[float, str]
        amount = self.amount

        field_dict: dict[str, Any] = {}

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

        def _parse_amount(data: object) -> Union[float, str]:
            return cast(Union[float, str], data)

        amount = _parse_amount(d.pop("amount"))

        instalment_request = cls(
            due_date=due_date,
            amount=amount,
        )

        return instalment_request
