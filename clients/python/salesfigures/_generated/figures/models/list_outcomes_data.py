from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.field import Field
    from ..models.no_sale_reason import NoSaleReason


T = TypeVar("T", bound="ListOutcomesData")


@_attrs_define
class ListOutcomesData:
    """
    Attributes:
        closed (Field):
        deposit (Field):
        follow_up (Field):
        no_sale (Field):
        disqualified (Field):
        no_show (Field):
        cancelled (Field):
        awaiting (Field):
        total (Field):
        no_sale_reasons (list['NoSaleReason']):
    """

    closed: "Field"
    deposit: "Field"
    follow_up: "Field"
    no_sale: "Field"
    disqualified: "Field"
    no_show: "Field"
    cancelled: "Field"
    awaiting: "Field"
    total: "Field"
    no_sale_reasons: list["NoSaleReason"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        closed = self.closed.to_dict()

        deposit = self.deposit.to_dict()

        follow_up = self.follow_up.to_dict()

        no_sale = self.no_sale.to_dict()

        disqualified = self.disqualified.to_dict()

        no_show = self.no_show.to_dict()

        cancelled = self.cancelled.to_dict()

        awaiting = self.awaiting.to_dict()

        total = self.total.to_dict()

        no_sale_reasons = []
        for no_sale_reasons_item_data in self.no_sale_reasons:
            no_sale_reasons_item = no_sale_reasons_item_data.to_dict()
            no_sale_reasons.append(no_sale_reasons_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "closed": closed,
                "deposit": deposit,
                "follow_up": follow_up,
                "no_sale": no_sale,
                "disqualified": disqualified,
                "no_show": no_show,
                "cancelled": cancelled,
                "awaiting": awaiting,
                "total": total,
                "no_sale_reasons": no_sale_reasons,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field import Field
        from ..models.no_sale_reason import NoSaleReason

        d = dict(src_dict)
        closed = Field.from_dict(d.pop("closed"))

        deposit = Field.from_dict(d.pop("deposit"))

        follow_up = Field.from_dict(d.pop("follow_up"))

        no_sale = Field.from_dict(d.pop("no_sale"))

        disqualified = Field.from_dict(d.pop("disqualified"))

        no_show = Field.from_dict(d.pop("no_show"))

        cancelled = Field.from_dict(d.pop("cancelled"))

        awaiting = Field.from_dict(d.pop("awaiting"))

        total = Field.from_dict(d.pop("total"))

        no_sale_reasons = []
        _no_sale_reasons = d.pop("no_sale_reasons")
        for no_sale_reasons_item_data in _no_sale_reasons:
            no_sale_reasons_item = NoSaleReason.from_dict(no_sale_reasons_item_data)

            no_sale_reasons.append(no_sale_reasons_item)

        list_outcomes_data = cls(
            closed=closed,
            deposit=deposit,
            follow_up=follow_up,
            no_sale=no_sale,
            disqualified=disqualified,
            no_show=no_show,
            cancelled=cancelled,
            awaiting=awaiting,
            total=total,
            no_sale_reasons=no_sale_reasons,
        )

        list_outcomes_data.additional_properties = d
        return list_outcomes_data

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
