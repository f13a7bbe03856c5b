import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.blank_enum import BlankEnum
from ..models.call_event_data_attendance_enum import CallEventDataAttendanceEnum
from ..models.call_event_data_status_enum import CallEventDataStatusEnum

T = TypeVar("T", bound="CallEventData")


@_attrs_define
class CallEventData:
    """
    Attributes:
        id (UUID):
        external_id (Union[None, str]):
        lead_id (UUID):
        closer_id (Union[None, UUID]):
        setter_id (Union[None, UUID]):
        booked_at (datetime.datetime):
        scheduled_for (datetime.datetime):
        status (CallEventDataStatusEnum): * `scheduled` - scheduled
            * `cancelled` - cancelled
        rescheduled_from (Union[None, UUID]): The call it replaces.
        attendance (Union[BlankEnum, CallEventDataAttendanceEnum]):
        offer_made (Union[None, bool]):
        outcome (str):
    """

    id: UUID
    external_id: Union[None, str]
    lead_id: UUID
    closer_id: Union[None, UUID]
    setter_id: Union[None, UUID]
    booked_at: datetime.datetime
    scheduled_for: datetime.datetime
    status: CallEventDataStatusEnum
    rescheduled_from: Union[None, UUID]
    attendance: Union[BlankEnum, CallEventDataAttendanceEnum]
    offer_made: Union[None, bool]
    outcome: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        external_id: Union[None, str]
        external_id = self.external_id

        lead_id = str(self.lead_id)

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

        booked_at = self.booked_at.isoformat()

        scheduled_for = self.scheduled_for.isoformat()

        status = self.status.value

        rescheduled_from: Union[None, str]
        if isinstance(self.rescheduled_from, UUID):
            rescheduled_from = str(self.rescheduled_from)
        else:
            rescheduled_from = self.rescheduled_from

        attendance: str
        if isinstance(self.attendance, CallEventDataAttendanceEnum):
            attendance = self.attendance.value
        else:
            attendance = self.attendance.value

        offer_made: Union[None, bool]
        offer_made = self.offer_made

        outcome = self.outcome

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "external_id": external_id,
                "lead_id": lead_id,
                "closer_id": closer_id,
                "setter_id": setter_id,
                "booked_at": booked_at,
                "scheduled_for": scheduled_for,
                "status": status,
                "rescheduled_from": rescheduled_from,
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

        def _parse_external_id(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        external_id = _parse_external_id(d.pop("external_id"))

        lead_id = UUID(d.pop("lead_id"))

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

        booked_at = isoparse(d.pop("booked_at"))

        scheduled_for = isoparse(d.pop("scheduled_for"))

        status = CallEventDataStatusEnum(d.pop("status"))

        def _parse_rescheduled_from(data: object) -> Union[None, UUID]:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                rescheduled_from_type_0 = UUID(data)

                return rescheduled_from_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID], data)

        rescheduled_from = _parse_rescheduled_from(d.pop("rescheduled_from"))

        def _parse_attendance(data: object) -> Union[BlankEnum, CallEventDataAttendanceEnum]:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                attendance_type_0 = CallEventDataAttendanceEnum(data)

                return attendance_type_0
            except:  # noqa: E722
                pass
            if not isinstance(data, str):
                raise TypeError()
            attendance_type_1 = BlankEnum(data)

            return attendance_type_1

        attendance = _parse_attendance(d.pop("attendance"))

        def _parse_offer_made(data: object) -> Union[None, bool]:
            if data is None:
                return data
            return cast(Union[None, bool], data)

        offer_made = _parse_offer_made(d.pop("offer_made"))

        outcome = d.pop("outcome")

        call_event_data = cls(
            id=id,
            external_id=external_id,
            lead_id=lead_id,
            closer_id=closer_id,
            setter_id=setter_id,
            booked_at=booked_at,
            scheduled_for=scheduled_for,
            status=status,
            rescheduled_from=rescheduled_from,
            attendance=attendance,
            offer_made=offer_made,
            outcome=outcome,
        )

        call_event_data.additional_properties = d
        return call_event_data

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
