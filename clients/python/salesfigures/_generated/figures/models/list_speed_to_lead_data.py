import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

if TYPE_CHECKING:
    from ..models.field import Field
    from ..models.waiting_lead import WaitingLead


T = TypeVar("T", bound="ListSpeedToLeadData")


@_attrs_define
class ListSpeedToLeadData:
    """
    Attributes:
        within_minutes (int):
        since (datetime.datetime):
        waiting (Field):
        contacted_rate (Field):
        leads (list['WaitingLead']):
    """

    within_minutes: int
    since: datetime.datetime
    waiting: "Field"
    contacted_rate: "Field"
    leads: list["WaitingLead"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        within_minutes = self.within_minutes

        since = self.since.isoformat()

        waiting = self.waiting.to_dict()

        contacted_rate = self.contacted_rate.to_dict()

        leads = []
        for leads_item_data in self.leads:
            leads_item = leads_item_data.to_dict()
            leads.append(leads_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "within_minutes": within_minutes,
                "since": since,
                "waiting": waiting,
                "contacted_rate": contacted_rate,
                "leads": leads,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field
        from ..models.waiting_lead import WaitingLead

        d = dict(src_dict)
        within_minutes = d.pop("within_minutes")

        since = isoparse(d.pop("since"))

        waiting = Field.from_dict(d.pop("waiting"))

        contacted_rate = Field.from_dict(d.pop("contacted_rate"))

        leads = []
        _leads = d.pop("leads")
        for leads_item_data in _leads:
            leads_item = WaitingLead.from_dict(leads_item_data)

            leads.append(leads_item)

        list_speed_to_lead_data = cls(
            within_minutes=within_minutes,
            since=since,
            waiting=waiting,
            contacted_rate=contacted_rate,
            leads=leads,
        )

        list_speed_to_lead_data.additional_properties = d
        return list_speed_to_lead_data

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
