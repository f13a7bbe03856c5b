import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

T = TypeVar("T", bound="OutcomeAnswer")


@_attrs_define
class OutcomeAnswer:
    """
    Attributes:
        id (UUID):
        result (str): closed, deposit, follow_up, no_sale or disqualified.
        offer_made (Union[None, bool]):
        reason (str):
        at (datetime.datetime):
    """

    id: UUID
    result: str
    offer_made: Union[None, bool]
    reason: str
    at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        result = self.result

        offer_made: Union[None, bool]
        offer_made = self.offer_made

        reason = self.reason

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
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

        result = d.pop("result")

        def _parse_offer_made(data: object) -> Union[None, bool]:
            if data is None:
                return data
            return cast(Union[None, bool], data)

        offer_made = _parse_offer_made(d.pop("offer_made"))

        reason = d.pop("reason")

        at = isoparse(d.pop("at"))

        outcome_answer = cls(
            id=id,
            result=result,
            offer_made=offer_made,
            reason=reason,
            at=at,
        )

        outcome_answer.additional_properties = d
        return outcome_answer

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
