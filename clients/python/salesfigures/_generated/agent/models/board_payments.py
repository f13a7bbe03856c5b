from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.field import Field


T = TypeVar("T", bound="BoardPayments")


@_attrs_define
class BoardPayments:
    """
    Attributes:
        sales (Field):
        revenue_booked (Field):
        cash_collected (Field):
        refunded (Field):
        net_cash (Field):
    """

    sales: "Field"
    revenue_booked: "Field"
    cash_collected: "Field"
    refunded: "Field"
    net_cash: "Field"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sales = self.sales.to_dict()

        revenue_booked = self.revenue_booked.to_dict()

        cash_collected = self.cash_collected.to_dict()

        refunded = self.refunded.to_dict()

        net_cash = self.net_cash.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sales": sales,
                "revenue_booked": revenue_booked,
                "cash_collected": cash_collected,
                "refunded": refunded,
                "net_cash": net_cash,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field

        d = dict(src_dict)
        sales = Field.from_dict(d.pop("sales"))

        revenue_booked = Field.from_dict(d.pop("revenue_booked"))

        cash_collected = Field.from_dict(d.pop("cash_collected"))

        refunded = Field.from_dict(d.pop("refunded"))

        net_cash = Field.from_dict(d.pop("net_cash"))

        board_payments = cls(
            sales=sales,
            revenue_booked=revenue_booked,
            cash_collected=cash_collected,
            refunded=refunded,
            net_cash=net_cash,
        )

        board_payments.additional_properties = d
        return board_payments

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
