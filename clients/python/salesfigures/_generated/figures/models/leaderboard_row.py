from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.field import Field


T = TypeVar("T", bound="LeaderboardRow")


@_attrs_define
class LeaderboardRow:
    """
    Attributes:
        rank (int): Equal members share a rank (1, 1, 3).
        taken (Union[Unset, Field]):
        closed (Union[Unset, Field]):
        close_rate (Union[Unset, Field]):
        cash_collected (Union[Unset, Field]):
        booked (Union[Unset, Field]):
        show_rate (Union[Unset, Field]):
    """

    rank: int
    taken: Union[Unset, "Field"] = UNSET
    closed: Union[Unset, "Field"] = UNSET
    close_rate: Union[Unset, "Field"] = UNSET
    cash_collected: Union[Unset, "Field"] = UNSET
    booked: Union[Unset, "Field"] = UNSET
    show_rate: Union[Unset, "Field"] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        taken: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.taken, Unset):
            taken = self.taken.to_dict()

        closed: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.closed, Unset):
            closed = self.closed.to_dict()

        close_rate: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.close_rate, Unset):
            close_rate = self.close_rate.to_dict()

        cash_collected: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.cash_collected, Unset):
            cash_collected = self.cash_collected.to_dict()

        booked: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.booked, Unset):
            booked = self.booked.to_dict()

        show_rate: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.show_rate, Unset):
            show_rate = self.show_rate.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rank": rank,
            }
        )
        if taken is not UNSET:
            field_dict["taken"] = taken
        if closed is not UNSET:
            field_dict["closed"] = closed
        if close_rate is not UNSET:
            field_dict["close_rate"] = close_rate
        if cash_collected is not UNSET:
            field_dict["cash_collected"] = cash_collected
        if booked is not UNSET:
            field_dict["booked"] = booked
        if show_rate is not UNSET:
            field_dict["show_rate"] = show_rate

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field

        d = dict(src_dict)
        rank = d.pop("rank")

        _taken = d.pop("taken", UNSET)
        taken: Union[Unset, Field]
        if isinstance(_taken, Unset):
            taken = UNSET
        else:
            taken = Field.from_dict(_taken)

        _closed = d.pop("closed", UNSET)
        closed: Union[Unset, Field]
        if isinstance(_closed, Unset):
            closed = UNSET
        else:
            closed = Field.from_dict(_closed)

        _close_rate = d.pop("close_rate", UNSET)
        close_rate: Union[Unset, Field]
        if isinstance(_close_rate, Unset):
            close_rate = UNSET
        else:
            close_rate = Field.from_dict(_close_rate)

        _cash_collected = d.pop("cash_collected", UNSET)
        cash_collected: Union[Unset, Field]
        if isinstance(_cash_collected, Unset):
            cash_collected = UNSET
        else:
            cash_collected = Field.from_dict(_cash_collected)

        _booked = d.pop("booked", UNSET)
        booked: Union[Unset, Field]
        if isinstance(_booked, Unset):
            booked = UNSET
        else:
            booked = Field.from_dict(_booked)

        _show_rate = d.pop("show_rate", UNSET)
        show_rate: Union[Unset, Field]
        if isinstance(_show_rate, Unset):
            show_rate = UNSET
        else:
            show_rate = Field.from_dict(_show_rate)

        leaderboard_row = cls(
            rank=rank,
            taken=taken,
            closed=closed,
            close_rate=close_rate,
            cash_collected=cash_collected,
            booked=booked,
            show_rate=show_rate,
        )

        leaderboard_row.additional_properties = d
        return leaderboard_row

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
