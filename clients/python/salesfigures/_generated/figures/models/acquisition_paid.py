from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.field import Field


T = TypeVar("T", bound="AcquisitionPaid")


@_attrs_define
class AcquisitionPaid:
    """
    Attributes:
        spend (Field):
        leads (Field):
        booked (Field):
        shows (Field):
        closes (Field):
        cash_collected (Field):
        cost_per_lead (Field):
        cost_per_booked_call (Field):
        cost_per_show (Field):
        cost_per_close (Field):
        roas (Field):
    """

    spend: "Field"
    leads: "Field"
    booked: "Field"
    shows: "Field"
    closes: "Field"
    cash_collected: "Field"
    cost_per_lead: "Field"
    cost_per_booked_call: "Field"
    cost_per_show: "Field"
    cost_per_close: "Field"
    roas: "Field"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        spend = self.spend.to_dict()

        leads = self.leads.to_dict()

        booked = self.booked.to_dict()

        shows = self.shows.to_dict()

        closes = self.closes.to_dict()

        cash_collected = self.cash_collected.to_dict()

        cost_per_lead = self.cost_per_lead.to_dict()

        cost_per_booked_call = self.cost_per_booked_call.to_dict()

        cost_per_show = self.cost_per_show.to_dict()

        cost_per_close = self.cost_per_close.to_dict()

        roas = self.roas.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "spend": spend,
                "leads": leads,
                "booked": booked,
                "shows": shows,
                "closes": closes,
                "cash_collected": cash_collected,
                "cost_per_lead": cost_per_lead,
                "cost_per_booked_call": cost_per_booked_call,
                "cost_per_show": cost_per_show,
                "cost_per_close": cost_per_close,
                "roas": roas,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field

        d = dict(src_dict)
        spend = Field.from_dict(d.pop("spend"))

        leads = Field.from_dict(d.pop("leads"))

        booked = Field.from_dict(d.pop("booked"))

        shows = Field.from_dict(d.pop("shows"))

        closes = Field.from_dict(d.pop("closes"))

        cash_collected = Field.from_dict(d.pop("cash_collected"))

        cost_per_lead = Field.from_dict(d.pop("cost_per_lead"))

        cost_per_booked_call = Field.from_dict(d.pop("cost_per_booked_call"))

        cost_per_show = Field.from_dict(d.pop("cost_per_show"))

        cost_per_close = Field.from_dict(d.pop("cost_per_close"))

        roas = Field.from_dict(d.pop("roas"))

        acquisition_paid = cls(
            spend=spend,
            leads=leads,
            booked=booked,
            shows=shows,
            closes=closes,
            cash_collected=cash_collected,
            cost_per_lead=cost_per_lead,
            cost_per_booked_call=cost_per_booked_call,
            cost_per_show=cost_per_show,
            cost_per_close=cost_per_close,
            roas=roas,
        )

        acquisition_paid.additional_properties = d
        return acquisition_paid

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
