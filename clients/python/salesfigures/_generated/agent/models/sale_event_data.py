import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.blank_enum import BlankEnum
from ..models.sale_event_data_origin_enum import SaleEventDataOriginEnum
from ..models.sale_event_data_payment_plan_enum import SaleEventDataPaymentPlanEnum

T = TypeVar("T", bound="SaleEventData")


@_attrs_define
class SaleEventData:
    """
    Attributes:
        id (UUID):
        external_id (Union[None, str]):
        origin (SaleEventDataOriginEnum): * `call` - call
            * `past_call` - past_call
            * `dm` - dm
        lead_id (UUID):
        call_id (Union[None, UUID]):
        closer_id (Union[None, UUID]):
        setter_id (Union[None, UUID]):
        closed_at (datetime.datetime):
        currency (str):
        contract_value (float): Major units.
        payment_plan (Union[BlankEnum, SaleEventDataPaymentPlanEnum]):
    """

    id: UUID
    external_id: Union[None, str]
    origin: SaleEventDataOriginEnum
    lead_id: UUID
    call_id: Union[None, UUID]
    closer_id: Union[None, UUID]
    setter_id: Union[None, UUID]
    closed_at: datetime.datetime
    currency: str
    contract_value: float
    payment_plan: Union[BlankEnum, SaleEventDataPaymentPlanEnum]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        external_id: Union[None, str]
        external_id = self.external_id

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

        payment_plan: str
        if isinstance(self.payment_plan, SaleEventDataPaymentPlanEnum):
            payment_plan = self.payment_plan.value
        else:
            payment_plan = self.payment_plan.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "external_id": external_id,
                "origin": origin,
                "lead_id": lead_id,
                "call_id": call_id,
                "closer_id": closer_id,
                "setter_id": setter_id,
                "closed_at": closed_at,
                "currency": currency,
                "contract_value": contract_value,
                "payment_plan": payment_plan,
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

        origin = SaleEventDataOriginEnum(d.pop("origin"))

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

        def _parse_payment_plan(data: object) -> Union[BlankEnum, SaleEventDataPaymentPlanEnum]:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                payment_plan_type_0 = SaleEventDataPaymentPlanEnum(data)

                return payment_plan_type_0
            except:  # noqa: E722
                pass
            if not isinstance(data, str):
                raise TypeError()
            payment_plan_type_1 = BlankEnum(data)

            return payment_plan_type_1

        payment_plan = _parse_payment_plan(d.pop("payment_plan"))

        sale_event_data = cls(
            id=id,
            external_id=external_id,
            origin=origin,
            lead_id=lead_id,
            call_id=call_id,
            closer_id=closer_id,
            setter_id=setter_id,
            closed_at=closed_at,
            currency=currency,
            contract_value=contract_value,
            payment_plan=payment_plan,
        )

        sale_event_data.additional_properties = d
        return sale_event_data

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
