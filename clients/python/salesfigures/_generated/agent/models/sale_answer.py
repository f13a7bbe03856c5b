import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.origin_enum import OriginEnum

if TYPE_CHECKING:
    from ..models.instalment_answer import InstalmentAnswer


T = TypeVar("T", bound="SaleAnswer")


@_attrs_define
class SaleAnswer:
    """
    Attributes:
        id (UUID):
        origin (OriginEnum): * `call` - Call
            * `past_call` - Past Call
            * `dm` - Dm
        lead_id (UUID):
        call_id (Union[None, UUID]):
        closer_id (Union[None, UUID]):
        setter_id (Union[None, UUID]):
        closed_at (datetime.datetime):
        currency (str):
        contract_value (float): Major units.
        cash_collected (float): Major units; a succeeded payment.
        payment_id (Union[None, UUID]):
        payment_plan (str):
        instalments (list['InstalmentAnswer']):
    """

    id: UUID
    origin: OriginEnum
    lead_id: UUID
    call_id: Union[None, UUID]
    closer_id: Union[None, UUID]
    setter_id: Union[None, UUID]
    closed_at: datetime.datetime
    currency: str
    contract_value: float
    cash_collected: float
    payment_id: Union[None, UUID]
    payment_plan: str
    instalments: list["InstalmentAnswer"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        origin = self.origin.value

        lead_id = str(self.lead_id)

        call_id: Union[None, str]
        if isinstance(self.call_id, UUID):
            call_id = str(self.call_id)
        else:
            call_id = self.call_id

        closer_id: Union[None, str]
        if isinstance(self.closer_id, UUID):
            closer_id = str(self.closer_id)
        else:
            closer_id = self.closer_id

        setter_id: Union[None, str]
        if isinstance(self.setter_id, UUID):
            setter_id = str(self.setter_id)
        else:
            setter_id = self.setter_id

        closed_at = self.closed_at.isoformat()

        currency = self.currency

        contract_value = self.contract_value

        cash_collected = self.cash_collected

        payment_id: Union[None, str]
        if isinstance(self.payment_id, UUID):
            payment_id = str(self.payment_id)
        else:
            payment_id = self.payment_id

        payment_plan = self.payment_plan

        instalments = []
        for instalments_item_data in self.instalments:
            instalments_item = instalments_item_data.to_dict()
            instalments.append(instalments_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "origin": origin,
                "lead_id": lead_id,
                "call_id": call_id,
                "closer_id": closer_id,
                "setter_id": setter_id,
                "closed_at": closed_at,
                "currency": currency,
                "contract_value": contract_value,
                "cash_collected": cash_collected,
                "payment_id": payment_id,
                "payment_plan": payment_plan,
                "instalments": instalments,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.instalment_answer import InstalmentAnswer

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        origin = OriginEnum(d.pop("origin"))

        lead_id = UUID(d.pop("lead_id"))

        def _parse_call_id(data: object) -> Union[None, UUID]:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                call_id_type_0 = UUID(data)

                return call_id_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID], data)

        call_id = _parse_call_id(d.pop("call_id"))

        def _parse_closer_id(data: object) -> Union[None, UUID]:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                closer_id_type_0 = UUID(data)

                return closer_id_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID], data)

        closer_id = _parse_closer_id(d.pop("closer_id"))

        def _parse_setter_id(data: object) -> Union[None, UUID]:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                setter_id_type_0 = UUID(data)

                return setter_id_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID], data)

        setter_id = _parse_setter_id(d.pop("setter_id"))

        closed_at = isoparse(d.pop("closed_at"))

        currency = d.pop("currency")

        contract_value = d.pop("contract_value")

        cash_collected = d.pop("cash_collected")

        def _parse_payment_id(data: object) -> Union[None, UUID]:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                payment_id_type_0 = UUID(data)

                return payment_id_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID], data)

        payment_id = _parse_payment_id(d.pop("payment_id"))

        payment_plan = d.pop("payment_plan")

        instalments = []
        _instalments = d.pop("instalments")
        for instalments_item_data in _instalments:
            instalments_item = InstalmentAnswer.from_dict(instalments_item_data)

            instalments.append(instalments_item)

        sale_answer = cls(
            id=id,
            origin=origin,
            lead_id=lead_id,
            call_id=call_id,
            closer_id=closer_id,
            setter_id=setter_id,
            closed_at=closed_at,
            currency=currency,
            contract_value=contract_value,
            cash_collected=cash_collected,
            payment_id=payment_id,
            payment_plan=payment_plan,
            instalments=instalments,
        )

        sale_answer.additional_properties = d
        return sale_answer

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
