import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

if TYPE_CHECKING:
    from ..models.waiting_lead_setter_type_0 import WaitingLeadSetterType0


T = TypeVar("T", bound="WaitingLead")


@_attrs_define
class WaitingLead:
    """
    Attributes:
        id (str):
        name (str):
        email (str):
        created_at (datetime.datetime):
        minutes_waited (int):
        setter (Union['WaitingLeadSetterType0', None]):
        open_url (str):
    """

    id: str
    name: str
    email: str
    created_at: datetime.datetime
    minutes_waited: int
    setter: Union["WaitingLeadSetterType0", None]
    open_url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.waiting_lead_setter_type_0 import WaitingLeadSetterType0

        id = self.id

        name = self.name

        email = self.email

        created_at = self.created_at.isoformat()

        minutes_waited = self.minutes_waited

        setter: Union[None, dict[str, Any]]
        if isinstance(self.setter, WaitingLeadSetterType0):
            setter = self.setter.to_dict()
        else:
            setter = self.setter

        open_url = self.open_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "email": email,
                "created_at": created_at,
                "minutes_waited": minutes_waited,
                "setter": setter,
                "open_url": open_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.waiting_lead_setter_type_0 import WaitingLeadSetterType0

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        email = d.pop("email")

        created_at = isoparse(d.pop("created_at"))

        minutes_waited = d.pop("minutes_waited")

        def _parse_setter(data: object) -> Union["WaitingLeadSetterType0", None]:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                setter_type_0 = WaitingLeadSetterType0.from_dict(data)

                return setter_type_0
            except:  # noqa: E722
                pass
            return cast(Union["WaitingLeadSetterType0", None], data)

        setter = _parse_setter(d.pop("setter"))

        open_url = d.pop("open_url")

        waiting_lead = cls(
            id=id,
            name=name,
            email=email,
            created_at=created_at,
            minutes_waited=minutes_waited,
            setter=setter,
            open_url=open_url,
        )

        waiting_lead.additional_properties = d
        return waiting_lead

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
