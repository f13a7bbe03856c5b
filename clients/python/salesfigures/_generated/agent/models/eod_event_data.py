import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

if TYPE_CHECKING:
    from ..models.eod_event_data_fields import EodEventDataFields


T = TypeVar("T", bound="EodEventData")


@_attrs_define
class EodEventData:
    """
    Attributes:
        id (UUID):
        external_id (Union[None, str]):
        member_id (UUID):
        date (datetime.date):
        submitted_at (datetime.datetime):
        fields (EodEventDataFields):
    """

    id: UUID
    external_id: Union[None, str]
    member_id: UUID
    date: datetime.date
    submitted_at: datetime.datetime
    fields: "EodEventDataFields"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        external_id: Union[None, str]
        external_id = self.external_id

        member_id = str(self.member_id)

        date = self.date.isoformat()

        submitted_at = self.submitted_at.isoformat()

        fields = self.fields.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "external_id": external_id,
                "member_id": member_id,
                "date": date,
                "submitted_at": submitted_at,
                "fields": fields,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.eod_event_data_fields import EodEventDataFields

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_external_id(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        external_id = _parse_external_id(d.pop("external_id"))

        member_id = UUID(d.pop("member_id"))

        date = isoparse(d.pop("date")).date()

        submitted_at = isoparse(d.pop("submitted_at"))

        fields = EodEventDataFields.from_dict(d.pop("fields"))

        eod_event_data = cls(
            id=id,
            external_id=external_id,
            member_id=member_id,
            date=date,
            submitted_at=submitted_at,
            fields=fields,
        )

        eod_event_data.additional_properties = d
        return eod_event_data

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
