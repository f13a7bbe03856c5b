from collections.abc import Mapping
from typing import Any, TypeVar, Union

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.plan_event_change_status_enum import PlanEventChangeStatusEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PlanEventChange")


@_attrs_define
class PlanEventChange:
    """
    Attributes:
        op (str):
        target (str):
        status (PlanEventChangeStatusEnum): * `applied` - applied
            * `blocked` - blocked
        reason (Union[Unset, str]):
    """

    op: str
    target: str
    status: PlanEventChangeStatusEnum
    reason: Union[Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        op = self.op

        target = self.target

        status = self.status.value

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "op": op,
                "target": target,
                "status": status,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        op = d.pop("op")

        target = d.pop("target")

        status = PlanEventChangeStatusEnum(d.pop("status"))

        reason = d.pop("reason", UNSET)

        plan_event_change = cls(
            op=op,
            target=target,
            status=status,
            reason=reason,
        )

        plan_event_change.additional_properties = d
        return plan_event_change

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
