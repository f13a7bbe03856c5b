from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.board_calls import BoardCalls
    from ..models.board_commission import BoardCommission
    from ..models.board_eod import BoardEod
    from ..models.board_member import BoardMember
    from ..models.board_payments import BoardPayments


T = TypeVar("T", bound="BoardData")


@_attrs_define
class BoardData:
    """
    Attributes:
        member (BoardMember):
        calls (BoardCalls):
        payments (BoardPayments):
        commission (BoardCommission):
        eod (BoardEod):
    """

    member: "BoardMember"
    calls: "BoardCalls"
    payments: "BoardPayments"
    commission: "BoardCommission"
    eod: "BoardEod"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        member = self.member.to_dict()

        calls = self.calls.to_dict()

        payments = self.payments.to_dict()

        commission = self.commission.to_dict()

        eod = self.eod.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "member": member,
                "calls": calls,
                "payments": payments,
                "commission": commission,
                "eod": eod,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.board_calls import BoardCalls
        from ..models.board_commission import BoardCommission
        from ..models.board_eod import BoardEod
        from ..models.board_member import BoardMember
        from ..models.board_payments import BoardPayments

        d = dict(src_dict)
        member = BoardMember.from_dict(d.pop("member"))

        calls = BoardCalls.from_dict(d.pop("calls"))

        payments = BoardPayments.from_dict(d.pop("payments"))

        commission = BoardCommission.from_dict(d.pop("commission"))

        eod = BoardEod.from_dict(d.pop("eod"))

        board_data = cls(
            member=member,
            calls=calls,
            payments=payments,
            commission=commission,
            eod=eod,
        )

        board_data.additional_properties = d
        return board_data

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
