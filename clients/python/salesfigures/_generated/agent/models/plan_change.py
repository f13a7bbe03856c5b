from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.op_enum import OpEnum
from ..models.plan_change_status_enum import PlanChangeStatusEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.plan_change_detail import PlanChangeDetail


T = TypeVar("T", bound="PlanChange")


@_attrs_define
class PlanChange:
    """
    Attributes:
        op (OpEnum): * `workspace.create` - workspace.create
            * `workspace.update` - workspace.update
            * `settings.update` - settings.update
            * `member.add` - member.add
            * `programme.add` - programme.add
            * `programme.update` - programme.update
            * `integration.connect` - integration.connect
        target (str):
        detail (PlanChangeDetail):
        status (PlanChangeStatusEnum): * `ready` - ready
            * `blocked` - blocked
            * `applied` - applied
        reason (Union[Unset, str]): Why the change is blocked.
        code (Union[Unset, str]): The same, as a stable code.
    """

    op: OpEnum
    target: str
    detail: "PlanChangeDetail"
    status: PlanChangeStatusEnum
    reason: Union[Unset, str] = UNSET
    code: Union[Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        op = self.op.value

        target = self.target

        detail = self.detail.to_dict()

        status = self.status.value

        reason = self.reason

        code = self.code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "op": op,
                "target": target,
                "detail": detail,
                "status": status,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason
        if code is not UNSET:
            field_dict["code"] = code

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plan_change_detail import PlanChangeDetail

        d = dict(src_dict)
        op = OpEnum(d.pop("op"))

        target = d.pop("target")

        detail = PlanChangeDetail.from_dict(d.pop("detail"))

        status = PlanChangeStatusEnum(d.pop("status"))

        reason = d.pop("reason", UNSET)

        code = d.pop("code", UNSET)

        plan_change = cls(
            op=op,
            target=target,
            detail=detail,
            status=status,
            reason=reason,
            code=code,
        )

        plan_change.additional_properties = d
        return plan_change

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
