from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.get_lead_journey_data_events_item import GetLeadJourneyDataEventsItem
    from ..models.get_lead_journey_data_lead import GetLeadJourneyDataLead


T = TypeVar("T", bound="GetLeadJourneyData")


@_attrs_define
class GetLeadJourneyData:
    """
    Attributes:
        lead (GetLeadJourneyDataLead):
        events (list['GetLeadJourneyDataEventsItem']): In time order, each with `at` and `type`: lead.created, touch,
            webinar.registered, webinar.joined, webinar.left, call.booked, call.rescheduled, call.cancelled, call.showed,
            call.no_show, outcome, sale, payment, refund, chargeback, funnel.stage.
    """

    lead: "GetLeadJourneyDataLead"
    events: list["GetLeadJourneyDataEventsItem"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        lead = self.lead.to_dict()

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "lead": lead,
                "events": events,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_lead_journey_data_events_item import GetLeadJourneyDataEventsItem
        from ..models.get_lead_journey_data_lead import GetLeadJourneyDataLead

        d = dict(src_dict)
        lead = GetLeadJourneyDataLead.from_dict(d.pop("lead"))

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = GetLeadJourneyDataEventsItem.from_dict(events_item_data)

            events.append(events_item)

        get_lead_journey_data = cls(
            lead=lead,
            events=events,
        )

        get_lead_journey_data.additional_properties = d
        return get_lead_journey_data

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
