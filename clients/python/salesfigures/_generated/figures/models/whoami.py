from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.access_enum import AccessEnum

if TYPE_CHECKING:
    from ..models.whoami_token import WhoamiToken
    from ..models.whoami_workspace import WhoamiWorkspace


T = TypeVar("T", bound="Whoami")


@_attrs_define
class Whoami:
    """
    Attributes:
        workspace (WhoamiWorkspace):
        token (WhoamiToken):
        access (AccessEnum): * `read-only` - read-only
    """

    workspace: "WhoamiWorkspace"
    token: "WhoamiToken"
    access: AccessEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workspace = self.workspace.to_dict()

        token = self.token.to_dict()

        access = self.access.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspace": workspace,
                "token": token,
                "access": access,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.whoami_token import WhoamiToken
        from ..models.whoami_workspace import WhoamiWorkspace

        d = dict(src_dict)
        workspace = WhoamiWorkspace.from_dict(d.pop("workspace"))

        token = WhoamiToken.from_dict(d.pop("token"))

        access = AccessEnum(d.pop("access"))

        whoami = cls(
            workspace=workspace,
            token=token,
            access=access,
        )

        whoami.additional_properties = d
        return whoami

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
