import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.payment_event_data_status_enum import PaymentEventDataStatusEnum

T = TypeVar("T", bound="PaymentEventData")


@_attrs_define
class PaymentEventData:
    """
    Attributes:
        id (UUID):
        external_id (Union[None, str]):
        currency (str):
        amount (float): Major units.
        sale_id (UUID):
        status (PaymentEventDataStatusEnum): * `succeeded` - succeeded
            * `failed` - failed
        paid_at (datetime.datetime):
    """

    id: UUID
    external_id: Union[None, str]
    currency: str
    amount: float
    sale_id: UUID
    status: PaymentEventDataStatusEnum
    paid_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        external_id: Union[None, str]
        external_id = self.external_id

        currency = self.currency

        amount = self.amount

        sale_id = str(self.sale_id)

        status = self.status.value

        paid_at = self.paid_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "external_id": external_id,
                "currency": currency,
                "amount": amount,
                "sale_id": sale_id,
                "status": status,
                "paid_at": paid_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_external_id(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        external_id = _parse_external_id(d.pop("external_id"))

        currency = d.pop("currency")

        amount = d.pop("amount")

        sale_id = UUID(d.pop("sale_id"))

        status = PaymentEventDataStatusEnum(d.pop("status"))

        paid_at = isoparse(d.pop("paid_at"))

        payment_event_data = cls(
            id=id,
            external_id=external_id,
            currency=currency,
            amount=amount,
            sale_id=sale_id,
            status=status,
            paid_at=paid_at,
        )

        payment_event_data.additional_properties = d
        return payment_event_data

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
