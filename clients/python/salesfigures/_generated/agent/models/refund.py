import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.refund_kind_enum import RefundKindEnum

T = TypeVar("T", bound="Refund")


@_attrs_define
class Refund:
    """
    Attributes:
        id (UUID):
        external_id (Union[None, str]):
        currency (str):
        amount (float): Major units.
        payment_id (UUID):
        sale_id (UUID):
        kind (RefundKindEnum): * `refund` - refund
            * `chargeback` - chargeback
        at (datetime.datetime):
    """

    id: UUID
    external_id: Union[None, str]
    currency: str
    amount: float
    payment_id: UUID
    sale_id: UUID
    kind: RefundKindEnum
    at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        external_id: Union[None, str]
        external_id = self.external_id

        currency = self.currency

        amount = self.amount

        payment_id = str(self.payment_id)

        sale_id = str(self.sale_id)

        kind = self.kind.value

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "external_id": external_id,
                "currency": currency,
                "amount": amount,
                "payment_id": payment_id,
                "sale_id": sale_id,
                "kind": kind,
                "at": at,
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

        payment_id = UUID(d.pop("payment_id"))

        sale_id = UUID(d.pop("sale_id"))

        kind = RefundKindEnum(d.pop("kind"))

        at = isoparse(d.pop("at"))

        refund = cls(
            id=id,
            external_id=external_id,
            currency=currency,
            amount=amount,
            payment_id=payment_id,
            sale_id=sale_id,
            kind=kind,
            at=at,
        )

        refund.additional_properties = d
        return refund

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
