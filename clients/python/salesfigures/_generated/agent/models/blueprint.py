import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.plan_programme import PlanProgramme
    from ..models.plan_settings import PlanSettings
    from ..models.plan_team_member import PlanTeamMember


T = TypeVar("T", bound="Blueprint")


@_attrs_define
class Blueprint:
    """
    Attributes:
        name (str):
        key (str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        settings (Union[Unset, PlanSettings]):
        team (Union[Unset, list['PlanTeamMember']]):
        programmes (Union[Unset, list['PlanProgramme']]):
        integrations (Union[Unset, list[str]]): Integration keys to connect: stripe, calendly, zoom, hubspot, meta,
            google. Any other key is kept as asked, and a plan lists it as a blocked change (code integration_unknown).
    """

    name: str
    key: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    settings: Union[Unset, "PlanSettings"] = UNSET
    team: Union[Unset, list["PlanTeamMember"]] = UNSET
    programmes: Union[Unset, list["PlanProgramme"]] = UNSET
    integrations: Union[Unset, list[str]] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        key = self.key

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "key": key,
                "created_at": created_at,
                "updated_at": updated_at,
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

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plan_programme import PlanProgramme
        from ..models.plan_settings import PlanSettings
        from ..models.plan_team_member import PlanTeamMember

        d = dict(src_dict)
        name = d.pop("name")

        key = d.pop("key")

        created_at = isoparse(d.pop("created_at"))

        updated_at = isoparse(d.pop("updated_at"))

        _settings = d.pop("settings", UNSET)
        settings: Union[Unset, PlanSettings]
        if isinstance(_settings, Unset):
            settings = UNSET
        else:
            settings = PlanSettings.from_dict(_settings)

        team = []
        _team = d.pop("team", UNSET)
        for team_item_data in _team or []:
            team_item = PlanTeamMember.from_dict(team_item_data)

            team.append(team_item)

        programmes = []
        _programmes = d.pop("programmes", UNSET)
        for programmes_item_data in _programmes or []:
            programmes_item = PlanProgramme.from_dict(programmes_item_data)

            programmes.append(programmes_item)

        integrations = cast(list[str], d.pop("integrations", UNSET))

        blueprint = cls(
            name=name,
            key=key,
            created_at=created_at,
            updated_at=updated_at,
            settings=settings,
            team=team,
            programmes=programmes,
            integrations=integrations,
        )

        blueprint.additional_properties = d
        return blueprint

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
