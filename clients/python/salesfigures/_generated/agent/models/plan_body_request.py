from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.plan_programme_request import PlanProgrammeRequest
    from ..models.plan_settings_request import PlanSettingsRequest
    from ..models.plan_team_member_request import PlanTeamMemberRequest
    from ..models.plan_workspace_request import PlanWorkspaceRequest


T = TypeVar("T", bound="PlanBodyRequest")


@_attrs_define
class PlanBodyRequest:
    """
    Attributes:
        workspace (PlanWorkspaceRequest):
        settings (Union[Unset, PlanSettingsRequest]):
        team (Union[Unset, list['PlanTeamMemberRequest']]):
        programmes (Union[Unset, list['PlanProgrammeRequest']]):
        integrations (Union[Unset, list[str]]): Integration keys to connect: stripe, calendly, zoom, hubspot, meta,
            google. Any other key is kept as asked, and a plan lists it as a blocked change (code integration_unknown).
        blueprint (Union[Unset, str]): A blueprint key to start from.
    """

    workspace: "PlanWorkspaceRequest"
    settings: Union[Unset, "PlanSettingsRequest"] = UNSET
    team: Union[Unset, list["PlanTeamMemberRequest"]] = UNSET
    programmes: Union[Unset, list["PlanProgrammeRequest"]] = UNSET
    integrations: Union[Unset, list[str]] = UNSET
    blueprint: Union[Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        workspace = self.workspace.to_dict()

        settings: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.settings, Unset):
            settings = self.settings.to_dict()

        team: Union[Unset, list[dict[str, Any]]] = UNSET
        if not isinstance(self.team, Unset):
            team = []
            for team_item_data in self.team:
                team_item = team_item_data.to_dict()
                team.append(team_item)

        programmes: Union[Unset, list[dict[str, Any]]] = UNSET
        if not isinstance(self.programmes, Unset):
            programmes = []
            for programmes_item_data in self.programmes:
                programmes_item = programmes_item_data.to_dict()
                programmes.append(programmes_item)

        integrations: Union[Unset, list[str]] = UNSET
        if not isinstance(self.integrations, Unset):
            integrations = self.integrations

        blueprint = self.blueprint

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "workspace": workspace,
            }
        )
        if settings is not UNSET:
            field_dict["settings"] = settings
        if team is not UNSET:
            field_dict["team"] = team
        if programmes is not UNSET:
            field_dict["programmes"] = programmes
        if integrations is not UNSET:
            field_dict["integrations"] = integrations
        if blueprint is not UNSET:
            field_dict["blueprint"] = blueprint

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plan_programme_request import PlanProgrammeRequest
        from ..models.plan_settings_request import PlanSettingsRequest
        from ..models.plan_team_member_request import PlanTeamMemberRequest
        from ..models.plan_workspace_request import PlanWorkspaceRequest

        d = dict(src_dict)
        workspace = PlanWorkspaceRequest.from_dict(d.pop("workspace"))

        _settings = d.pop("settings", UNSET)
        settings: Union[Unset, PlanSettingsRequest]
        if isinstance(_settings, Unset):
            settings = UNSET
        else:
            settings = PlanSettingsRequest.from_dict(_settings)

        team = []
        _team = d.pop("team", UNSET)
        for team_item_data in _team or []:
            team_item = PlanTeamMemberRequest.from_dict(team_item_data)

            team.append(team_item)

        programmes = []
        _programmes = d.pop("programmes", UNSET)
        for programmes_item_data in _programmes or []:
            programmes_item = PlanProgrammeRequest.from_dict(programmes_item_data)

            programmes.append(programmes_item)

        integrations = cast(list[str], d.pop("integrations", UNSET))

        blueprint = d.pop("blueprint", UNSET)

        plan_body_request = cls(
            workspace=workspace,
            settings=settings,
            team=team,
            programmes=programmes,
            integrations=integrations,
            blueprint=blueprint,
        )

        return plan_body_request
