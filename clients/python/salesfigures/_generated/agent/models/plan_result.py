from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.plan_change import PlanChange
    from ..models.plan_connect_link import PlanConnectLink
    from ..models.plan_invited import PlanInvited
    from ..models.plan_member import PlanMember


T = TypeVar("T", bound="PlanResult")


@_attrs_define
class PlanResult:
    """
    Attributes:
        changes (list['PlanChange']):
        workspace_id (Union[None, UUID, Unset]):
        members (Union[Unset, list['PlanMember']]):
        invited (Union[Unset, list['PlanInvited']]): Team emails invited by email rather than made members: every team
            entry of a plan on a workspace that already exists, and any email that already has an account in the service.
            None is given a token; each person becomes a member with the role only when they accept the emailed invitation.
            On a workspace that already exists the invitation is first proposed: it is mailed only once an owner of the
            workspace approves it.
        connect_links (Union[Unset, list['PlanConnectLink']]):
    """

    changes: list["PlanChange"]
    workspace_id: Union[None, UUID, Unset] = UNSET
    members: Union[Unset, list["PlanMember"]] = UNSET
    invited: Union[Unset, list["PlanInvited"]] = UNSET
    connect_links: Union[Unset, list["PlanConnectLink"]] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)

        workspace_id: Union[None, Unset, str]
        if isinstance(self.workspace_id, Unset):
            workspace_id = UNSET
        elif isinstance(self.workspace_id, UUID):
            workspace_id = str(self.workspace_id)
        else:
            workspace_id = self.workspace_id

        members: Union[Unset, list[dict[str, Any]]] = UNSET
        if not isinstance(self.members, Unset):
            members = []
            for members_item_data in self.members:
                members_item = members_item_data.to_dict()
                members.append(members_item)

        invited: Union[Unset, list[dict[str, Any]]] = UNSET
        if not isinstance(self.invited, Unset):
            invited = []
            for invited_item_data in self.invited:
                invited_item = invited_item_data.to_dict()
                invited.append(invited_item)

        connect_links: Union[Unset, list[dict[str, Any]]] = UNSET
        if not isinstance(self.connect_links, Unset):
            connect_links = []
            for connect_links_item_data in self.connect_links:
                connect_links_item = connect_links_item_data.to_dict()
                connect_links.append(connect_links_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "changes": changes,
            }
        )
        if workspace_id is not UNSET:
            field_dict["workspace_id"] = workspace_id
        if members is not UNSET:
            field_dict["members"] = members
        if invited is not UNSET:
            field_dict["invited"] = invited
        if connect_links is not UNSET:
            field_dict["connect_links"] = connect_links

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plan_change import PlanChange
        from ..models.plan_connect_link import PlanConnectLink
        from ..models.plan_invited import PlanInvited
        from ..models.plan_member import PlanMember

        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:
            changes_item = PlanChange.from_dict(changes_item_data)

            changes.append(changes_item)

        def _parse_workspace_id(data: object) -> Union[None, UUID, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                workspace_id_type_0 = UUID(data)

                return workspace_id_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID, Unset], data)

        workspace_id = _parse_workspace_id(d.pop("workspace_id", UNSET))

        members = []
        _members = d.pop("members", UNSET)
        for members_item_data in _members or []:
            members_item = PlanMember.from_dict(members_item_data)

            members.append(members_item)

        invited = []
        _invited = d.pop("invited", UNSET)
        for invited_item_data in _invited or []:
            invited_item = PlanInvited.from_dict(invited_item_data)

            invited.append(invited_item)

        connect_links = []
        _connect_links = d.pop("connect_links", UNSET)
        for connect_links_item_data in _connect_links or []:
            connect_links_item = PlanConnectLink.from_dict(connect_links_item_data)

            connect_links.append(connect_links_item)

        plan_result = cls(
            changes=changes,
            workspace_id=workspace_id,
            members=members,
            invited=invited,
            connect_links=connect_links,
        )

        plan_result.additional_properties = d
        return plan_result

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
