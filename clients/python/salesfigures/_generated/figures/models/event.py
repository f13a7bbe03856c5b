import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.event_type_enum import EventTypeEnum

if TYPE_CHECKING:
    from ..models.event_data import EventData


T = TypeVar("T", bound="Event")


@_attrs_define
class Event:
    """
    Attributes:
        id (str):
        type_ (EventTypeEnum): * `lead.created` - lead.created
            * `lead.updated` - lead.updated
            * `call.booked` - call.booked
            * `call.rescheduled` - call.rescheduled
            * `call.cancelled` - call.cancelled
            * `call.outcome_recorded` - call.outcome_recorded
            * `sale.closed` - sale.closed
            * `payment.succeeded` - payment.succeeded
            * `payment.failed` - payment.failed
            * `payment.refunded` - payment.refunded
            * `eod.submitted` - eod.submitted
            * `ad_spend.updated` - ad_spend.updated
            * `goal.updated` - goal.updated
            * `change.created` - change.created
            * `member.added` - member.added
            * `member.removed` - member.removed
            * `plan.applied` - plan.applied
            * `integration.failing` - integration.failing
        timestamp (datetime.datetime): When the event was recorded (UTC).
        workspace_id (UUID):
        data (EventData): The record, as the type's description shows it.
    """

    id: str
    type_: EventTypeEnum
    timestamp: datetime.datetime
    workspace_id: UUID
    data: "EventData"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        timestamp = self.timestamp.isoformat()

        workspace_id = str(self.workspace_id)

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "timestamp": timestamp,
                "workspace_id": workspace_id,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_data import EventData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = EventTypeEnum(d.pop("type"))

        timestamp = isoparse(d.pop("timestamp"))

        workspace_id = UUID(d.pop("workspace_id"))

        data = EventData.from_dict(d.pop("data"))

        event = cls(
            id=id,
            type_=type_,
            timestamp=timestamp,
            workspace_id=workspace_id,
            data=data,
        )

        event.additional_properties = d
        return event

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
