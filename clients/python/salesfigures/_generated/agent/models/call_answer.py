from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.attendance_enum import AttendanceEnum

T = TypeVar("T", bound="CallAnswer")


@_attrs_define
class CallAnswer:
    """
    Attributes:
        id (UUID):
        attendance (AttendanceEnum): * `showed` - Showed
            * `no_show` - No Show
        offer_made (Union[None, bool]):
        outcome (str): Its latest outcome's result.
    """

    id: UUID
    attendance: AttendanceEnum
    offer_made: Union[None, bool]
    outcome: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        attendance = self.attendance.value

        offer_made: Union[None, bool]
        offer_made = self.offer_made

        outcome = self.outcome

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "attendance": attendance,
                "offer_made": offer_made,
                "outcome": outcome,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        attendance = AttendanceEnum(d.pop("attendance"))

        def _parse_offer_made(data: object) -> Union[None, bool]:
            if data is None:
                return data
            return cast(Union[None, bool], data)

        offer_made = _parse_offer_made(d.pop("offer_made"))

        outcome = d.pop("outcome")

        call_answer = cls(
            id=id,
            attendance=attendance,
            offer_made=offer_made,
            outcome=outcome,
        )

        call_answer.additional_properties = d
        return call_answer

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
