from collections.abc import Mapping
from typing import Any, TypeVar, Union
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ConnectLinkIntegration")


@_attrs_define
class ConnectLinkIntegration:
    """
    Attributes:
        key (str):
        state (str): offered (not connected through this link yet), or the state of the connection the link made:
            connected, failing (a call to the provider failed; webhooks are still accepted) or disconnected.
        connection_id (Union[Unset, UUID]): Once connected: the connection the link made.
        webhook_url (Union[Unset, str]): Once connected, for a provider that sends webhooks (not the ad platforms, which
            are read on a schedule): the connection's own webhook endpoint, {BASE_URL}/hooks/{key}/{connection_id}, to paste
            at the provider.
    """

    key: str
    state: str
    connection_id: Union[Unset, UUID] = UNSET
    webhook_url: Union[Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        state = self.state

        connection_id: Union[Unset, str] = UNSET
        if not isinstance(self.connection_id, Unset):
            connection_id = str(self.connection_id)

        webhook_url = self.webhook_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key": key,
                "state": state,
            }
        )
        if connection_id is not UNSET:
            field_dict["connection_id"] = connection_id
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        state = d.pop("state")

        _connection_id = d.pop("connection_id", UNSET)
        connection_id: Union[Unset, UUID]
        if isinstance(_connection_id, Unset):
            connection_id = UNSET
        else:
            connection_id = UUID(_connection_id)

        webhook_url = d.pop("webhook_url", UNSET)

        connect_link_integration = cls(
            key=key,
            state=state,
            connection_id=connection_id,
            webhook_url=webhook_url,
        )

        connect_link_integration.additional_properties = d
        return connect_link_integration

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
