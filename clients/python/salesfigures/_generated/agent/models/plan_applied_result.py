from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.plan_change import PlanChange
    from ..models.plan_connect_link_with_url import PlanConnectLinkWithUrl
    from ..models.plan_invited import PlanInvited
    from ..models.plan_member import PlanMember
    from ..models.plan_member_token import PlanMemberToken


T = TypeVar("T", bound="PlanAppliedResult")


@_attrs_define
class PlanAppliedResult:
    """
    Attributes:
        changes (list['PlanChange']):
        workspace_id (Union[None, UUID]):
        members (list['PlanMember']):
        member_tokens (list['PlanMemberToken']):
        invited (list['PlanInvited']): Team emails invited by email rather than made members: every team entry of a plan
            on a workspace that already exists, and any email that already has an account in the service. None is given a
            token; each person becomes a member with the role only when they accept the emailed invitation. On a workspace
            that already exists the invitation is first proposed: it is mailed only once an owner of the workspace approves
            it.
        connect_links (list['PlanConnectLinkWithUrl']):
    """

    changes: list["PlanChange"]
    workspace_id: Union[None, UUID]
    members: list["PlanMember"]
    member_tokens: list["PlanMemberToken"]
    invited: list["PlanInvited"]
    connect_links: list["PlanConnectLinkWithUrl"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)

        workspace_id: Union[None, str]
        if isinstance(self.workspace_id, UUID):
            workspace_id = str(self.workspace_id)
        else:
            workspace_id = self.workspace_id

        members = []
        for members_item_data in self.members:
            members_item = members_item_data.to_dict()
            members.append(members_item)

        member_tokens = []
        for member_tokens_item_data in self.member_tokens:
            member_tokens_item = member_tokens_item_data.to_dict()
            member_tokens.append(member_tokens_item)

        invited = []
        for invited_item_data in self.invited:
            invited_item = invited_item_data.to_dict()
            invited.append(invited_item)

        connect_links = []
        for connect_links_item_data in self.connect_links:
            connect_links_item = connect_links_item_data.to_dict()
            connect_links.append(connect_links_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "changes": changes,
                "workspace_id": workspace_id,
                "members": members,
                "member_tokens": member_tokens,
                "invited": invited,
                "connect_links": connect_links,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plan_change import PlanChange
        from ..models.plan_connect_link_with_url import PlanConnectLinkWithUrl
        from ..models.plan_invited import PlanInvited
        from ..models.plan_member import PlanMember
        from ..models.plan_member_token import PlanMemberToken

        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:
            changes_item = PlanChange.from_dict(changes_item_data)

            changes.append(changes_item)

        def _parse_workspace_id(data: object) -> Union[None, UUID]:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                workspace_id_type_0 = UUID(data)

                return workspace_id_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID], data)

        workspace_id = _parse_workspace_id(d.pop("workspace_id"))

        members = []
        _members = d.pop("members")
        for members_item_data in _members:
            members_item = PlanMember.from_dict(members_item_data)

            members.append(members_item)

        member_tokens = []
        _member_tokens = d.pop("member_tokens")
        for member_tokens_item_data in _member_tokens:
            member_tokens_item = PlanMemberToken.from_dict(member_tokens_item_data)

            member_tokens.append(member_tokens_item)

        invited = []
        _invited = d.pop("invited")
        for invited_item_data in _invited:
            invited_item = PlanInvited.from_dict(invited_item_data)

            invited.append(invited_item)

        connect_links = []
        _connect_links = d.pop("connect_links")
        for connect_links_item_data in _connect_links:
            connect_links_item = PlanConnectLinkWithUrl.from_dict(connect_links_item_data)

            connect_links.append(connect_links_item)

        plan_applied_result = cls(
            changes=changes,
            workspace_id=workspace_id,
            members=members,
            member_tokens=member_tokens,
            invited=invited,
            connect_links=connect_links,
        )

        plan_applied_result.additional_properties = d
        return plan_applied_result

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
