from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.approval_enum import ApprovalEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.error_detail import ErrorDetail


T = TypeVar("T", bound="Error")


@_attrs_define
class Error:
    """The one error shape of both APIs (component `Error`).

    Attributes:
        error (ErrorDetail):
        field (Union[Unset, str]): The parameter or body member, dotted when nested.
        required_scope (Union[Unset, str]):
        approval (Union[Unset, ApprovalEnum]): * `request` - request
    """

    error: "ErrorDetail"
    field: Union[Unset, str] = UNSET
    required_scope: Union[Unset, str] = UNSET
    approval: Union[Unset, ApprovalEnum] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        error = self.error.to_dict()

        field = self.field

        required_scope = self.required_scope

        approval: Union[Unset, str] = UNSET
        if not isinstance(self.approval, Unset):
            approval = self.approval.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "error": error,
            }
        )
        if field is not UNSET:
            field_dict["field"] = field
        if required_scope is not UNSET:
            field_dict["requiredScope"] = required_scope
        if approval is not UNSET:
            field_dict["approval"] = approval

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_detail import ErrorDetail

        d = dict(src_dict)
        error = ErrorDetail.from_dict(d.pop("error"))

        field = d.pop("field", UNSET)

        required_scope = d.pop("requiredScope", UNSET)

        _approval = d.pop("approval", UNSET)
        approval: Union[Unset, ApprovalEnum]
        if isinstance(_approval, Unset):
            approval = UNSET
        else:
            approval = ApprovalEnum(_approval)

        error = cls(
            error=error,
            field=field,
            required_scope=required_scope,
            approval=approval,
        )

        error.additional_properties = d
        return error

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
