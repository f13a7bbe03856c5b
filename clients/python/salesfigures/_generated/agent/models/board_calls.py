from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.field import Field


T = TypeVar("T", bound="BoardCalls")


@_attrs_define
class BoardCalls:
    """
    Attributes:
        booked (Field):
        cancelled (Field):
        taken (Field):
        no_show (Field):
        awaiting_outcome (Field):
        upcoming (Field):
        closed (Field):
        show_rate (Field):
        close_rate (Field):
        offer_rate (Field):
    """

    booked: "Field"
    cancelled: "Field"
    taken: "Field"
    no_show: "Field"
    awaiting_outcome: "Field"
    upcoming: "Field"
    closed: "Field"
    show_rate: "Field"
    close_rate: "Field"
    offer_rate: "Field"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        booked = self.booked.to_dict()

        cancelled = self.cancelled.to_dict()

        taken = self.taken.to_dict()

        no_show = self.no_show.to_dict()

        awaiting_outcome = self.awaiting_outcome.to_dict()

        upcoming = self.upcoming.to_dict()

        closed = self.closed.to_dict()

        show_rate = self.show_rate.to_dict()

        close_rate = self.close_rate.to_dict()

        offer_rate = self.offer_rate.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "booked": booked,
                "cancelled": cancelled,
                "taken": taken,
                "no_show": no_show,
                "awaiting_outcome": awaiting_outcome,
                "upcoming": upcoming,
                "closed": closed,
                "show_rate": show_rate,
                "close_rate": close_rate,
                "offer_rate": offer_rate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field

        d = dict(src_dict)
        booked = Field.from_dict(d.pop("booked"))

        cancelled = Field.from_dict(d.pop("cancelled"))

        taken = Field.from_dict(d.pop("taken"))

        no_show = Field.from_dict(d.pop("no_show"))

        awaiting_outcome = Field.from_dict(d.pop("awaiting_outcome"))

        upcoming = Field.from_dict(d.pop("upcoming"))

        closed = Field.from_dict(d.pop("closed"))

        show_rate = Field.from_dict(d.pop("show_rate"))

        close_rate = Field.from_dict(d.pop("close_rate"))

        offer_rate = Field.from_dict(d.pop("offer_rate"))

        board_calls = cls(
            booked=booked,
            cancelled=cancelled,
            taken=taken,
            no_show=no_show,
            awaiting_outcome=awaiting_outcome,
            upcoming=upcoming,
            closed=closed,
            show_rate=show_rate,
            close_rate=close_rate,
            offer_rate=offer_rate,
        )

        board_calls.additional_properties = d
        return board_calls

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
