from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.refund import Refund


T = TypeVar("T", bound="RefundEventData")


@_attrs_define
class RefundEventData:
    """
    Attributes:
        refunded (float): Everything refunded of the payment so far.
        refund (Refund):
    """

    refunded: float
    refund: "Refund"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        refunded = self.refunded

        refund = self.refund.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "refunded": refunded,
                "refund": refund,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.refund import Refund

        d = dict(src_dict)
        refunded = d.pop("refunded")

        refund = Refund.from_dict(d.pop("refund"))

        refund_event_data = cls(
            refunded=refunded,
            refund=refund,
        )

        refund_event_data.additional_properties = d
        return refund_event_data

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
