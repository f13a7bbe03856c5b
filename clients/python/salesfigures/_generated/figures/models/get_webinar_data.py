from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.field import Field
    from ..models.get_webinar_data_event_type_0 import GetWebinarDataEventType0


T = TypeVar("T", bound="GetWebinarData")


@_attrs_define
class GetWebinarData:
    """
    Attributes:
        event (Union['GetWebinarDataEventType0', None]):
        registrations (Field):
        attended (Field):
        stayed_to_pitch (Field):
        booked (Field):
        attendance_rate (Field):
        stay_rate (Field):
        booking_rate (Field):
    """

    event: Union["GetWebinarDataEventType0", None]
    registrations: "Field"
    attended: "Field"
    stayed_to_pitch: "Field"
    booked: "Field"
    attendance_rate: "Field"
    stay_rate: "Field"
    booking_rate: "Field"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.get_webinar_data_event_type_0 import GetWebinarDataEventType0

        event: Union[None, dict[str, Any]]
        if isinstance(self.event, GetWebinarDataEventType0):
            event = self.event.to_dict()
        else:
            event = self.event

        registrations = self.registrations.to_dict()

        attended = self.attended.to_dict()

        stayed_to_pitch = self.stayed_to_pitch.to_dict()

        booked = self.booked.to_dict()

        attendance_rate = self.attendance_rate.to_dict()

        stay_rate = self.stay_rate.to_dict()

        booking_rate = self.booking_rate.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event": event,
                "registrations": registrations,
                "attended": attended,
                "stayed_to_pitch": stayed_to_pitch,
                "booked": booked,
                "attendance_rate": attendance_rate,
                "stay_rate": stay_rate,
                "booking_rate": booking_rate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field
        from ..models.get_webinar_data_event_type_0 import GetWebinarDataEventType0

        d = dict(src_dict)

        def _parse_event(data: object) -> Union["GetWebinarDataEventType0", None]:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                event_type_0 = GetWebinarDataEventType0.from_dict(data)

                return event_type_0
            except:  # noqa: E722
                pass
            return cast(Union["GetWebinarDataEventType0", None], data)

        event = _parse_event(d.pop("event"))

        registrations = Field.from_dict(d.pop("registrations"))

        attended = Field.from_dict(d.pop("attended"))

        stayed_to_pitch = Field.from_dict(d.pop("stayed_to_pitch"))

        booked = Field.from_dict(d.pop("booked"))

        attendance_rate = Field.from_dict(d.pop("attendance_rate"))

        stay_rate = Field.from_dict(d.pop("stay_rate"))

        booking_rate = Field.from_dict(d.pop("booking_rate"))

        get_webinar_data = cls(
            event=event,
            registrations=registrations,
            attended=attended,
            stayed_to_pitch=stayed_to_pitch,
            booked=booked,
            attendance_rate=attendance_rate,
            stay_rate=stay_rate,
            booking_rate=booking_rate,
        )

        get_webinar_data.additional_properties = d
        return get_webinar_data

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
