import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.result_enum import ResultEnum

T = TypeVar("T", bound="OutcomeEventData")


@_attrs_define
class OutcomeEventData:
    """
    Attributes:
        id (UUID):
        external_id (Union[None, str]):
        call_id (Union[None, UUID]):
        lead_id (Union[None, UUID]):
        member_id (Union[None, UUID]):
        result (ResultEnum): * `closed` - closed
            * `deposit` - deposit
            * `follow_up` - follow_up
            * `no_sale` - no_sale
            * `disqualified` - disqualified
        offer_made (Union[None, bool]):
        reason (str):
        at (datetime.datetime):
    """

    id: UUID
    external_id: Union[None, str]
    call_id: Union[None, UUID]
    lead_id: Union[None, UUID]
    member_id: Union[None, UUID]
    result: ResultEnum
    offer_made: Union[None, bool]
    reason: str
    at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        external_id: Union[None, str]
        external_id = self.external_id

        call_id: Union[None, str]
        if isinstance(self.call_id, UUID):
            call_id = str(self.call_id)
        else:
            call_id = self.call_id

        lead_id: Union[None, str]
        if isinstance(self.lead_id, UUID):
            lead_id = str(self.lead_id)
        else:
            lead_id = self.lead_id

        member_id: Union[None, str]
        if isinstance(self.member_id, UUID):
            member_id = str(self.member_id)
        else:
            member_id = self.member_id

        result = self.result.value

        offer_made: Union[None, bool]
        offer_made = self.offer_made

        reason = self.reason

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "external_id": external_id,
                "call_id": call_id,
                "lead_id": lead_id,
                "member_id": member_id,
                "result": result,
                "offer_made": offer_made,
                "reason": reason,
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

        def _parse_lead_id(data: object) -> Union[None, UUID]:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                lead_id_type_0 = UUID(data)

                return lead_id_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID], data)

        lead_id = _parse_lead_id(d.pop("lead_id"))

        def _parse_member_id(data: object) -> Union[None, UUID]:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                member_id_type_0 = UUID(data)

                return member_id_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID], data)

        member_id = _parse_member_id(d.pop("member_id"))

        result = ResultEnum(d.pop("result"))

        def _parse_offer_made(data: object) -> Union[None, bool]:
            if data is None:
                return data
            return cast(Union[None, bool], data)

        offer_made = _parse_offer_made(d.pop("offer_made"))

        reason = d.pop("reason")

        at = isoparse(d.pop("at"))

        outcome_event_data = cls(
            id=id,
            external_id=external_id,
            call_id=call_id,
            lead_id=lead_id,
            member_id=member_id,
            result=result,
            offer_made=offer_made,
            reason=reason,
            at=at,
        )

        outcome_event_data.additional_properties = d
        return outcome_event_data

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
