import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

if TYPE_CHECKING:
    from ..models.lead_event_utm import LeadEventUtm


T = TypeVar("T", bound="LeadEventData")


@_attrs_define
class LeadEventData:
    """
    Attributes:
        id (UUID):
        external_id (Union[None, str]):
        name (str):
        email (str):
        status (str):
        setter_id (Union[None, UUID]):
        created_at (datetime.datetime):
        utm (LeadEventUtm):
    """

    id: UUID
    external_id: Union[None, str]
    name: str
    email: str
    status: str
    setter_id: Union[None, UUID]
    created_at: datetime.datetime
    utm: "LeadEventUtm"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        external_id: Union[None, str]
        external_id = self.external_id

        name = self.name

        email = self.email

        status = self.status

        setter_id: Union[None, str]
        if isinstance(self.setter_id, UUID):
            setter_id = str(self.setter_id)
        else:
            setter_id = self.setter_id

        created_at = self.created_at.isoformat()

        utm = self.utm.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "external_id": external_id,
                "name": name,
                "email": email,
                "status": status,
                "setter_id": setter_id,
                "created_at": created_at,
                "utm": utm,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.lead_event_utm import LeadEventUtm

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_external_id(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        external_id = _parse_external_id(d.pop("external_id"))

        name = d.pop("name")

        email = d.pop("email")

        status = d.pop("status")

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

        created_at = isoparse(d.pop("created_at"))

        utm = LeadEventUtm.from_dict(d.pop("utm"))

        lead_event_data = cls(
            id=id,
            external_id=external_id,
            name=name,
            email=email,
            status=status,
            setter_id=setter_id,
            created_at=created_at,
            utm=utm,
        )

        lead_event_data.additional_properties = d
        return lead_event_data

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
