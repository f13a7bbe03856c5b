from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.plan_settings_colours import PlanSettingsColours
    from ..models.plan_settings_labels import PlanSettingsLabels


T = TypeVar("T", bound="PlanSettings")


@_attrs_define
class PlanSettings:
    """
    Attributes:
        name (Union[Unset, str]):
        timezone (Union[Unset, str]):
        working_days (Union[Unset, list[int]]): Weekday numbers, 0 (Monday) to 6 (Sunday).
        logo (Union[Unset, str]): An https URL of the logo image, or empty for none.
        colours (Union[Unset, PlanSettingsColours]):
        labels (Union[Unset, PlanSettingsLabels]):
        modules (Union[Unset, list[str]]):
        embedded_origins (Union[Unset, list[str]]): Origins of the embedded apps, as the settings page takes them:
            https://host[:port] (http on localhost or 127.0.0.1 only), no path; kept with the host in lowercase and without
            a trailing slash or default port.
        embedded_redirect_uri (Union[Unset, str]):
    """

    name: Union[Unset, str] = UNSET
    timezone: Union[Unset, str] = UNSET
    working_days: Union[Unset, list[int]] = UNSET
    logo: Union[Unset, str] = UNSET
    colours: Union[Unset, "PlanSettingsColours"] = UNSET
    labels: Union[Unset, "PlanSettingsLabels"] = UNSET
    modules: Union[Unset, list[str]] = UNSET
    embedded_origins: Union[Unset, list[str]] = UNSET
    embedded_redirect_uri: Union[Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        timezone = self.timezone

        working_days: Union[Unset, list[int]] = UNSET
        if not isinstance(self.working_days, Unset):
            working_days = self.working_days

        logo = self.logo

        colours: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.colours, Unset):
            colours = self.colours.to_dict()

        labels: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels.to_dict()

        modules: Union[Unset, list[str]] = UNSET
        if not isinstance(self.modules, Unset):
            modules = self.modules

        embedded_origins: Union[Unset, list[str]] = UNSET
        if not isinstance(self.embedded_origins, Unset):
            embedded_origins = self.embedded_origins

        embedded_redirect_uri = self.embedded_redirect_uri

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if working_days is not UNSET:
            field_dict["working_days"] = working_days
        if logo is not UNSET:
            field_dict["logo"] = logo
        if colours is not UNSET:
            field_dict["colours"] = colours
        if labels is not UNSET:
            field_dict["labels"] = labels
        if modules is not UNSET:
            field_dict["modules"] = modules
        if embedded_origins is not UNSET:
            field_dict["embedded_origins"] = embedded_origins
        if embedded_redirect_uri is not UNSET:
            field_dict["embedded_redirect_uri"] = embedded_redirect_uri

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plan_settings_colours import PlanSettingsColours
        from ..models.plan_settings_labels import PlanSettingsLabels

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        timezone = d.pop("timezone", UNSET)

        working_days = cast(list[int], d.pop("working_days", UNSET))

        logo = d.pop("logo", UNSET)

        _colours = d.pop("colours", UNSET)
        colours: Union[Unset, PlanSettingsColours]
        if isinstance(_colours, Unset):
            colours = UNSET
        else:
            colours = PlanSettingsColours.from_dict(_colours)

        _labels = d.pop("labels", UNSET)
        labels: Union[Unset, PlanSettingsLabels]
        if isinstance(_labels, Unset):
            labels = UNSET
        else:
            labels = PlanSettingsLabels.from_dict(_labels)

        modules = cast(list[str], d.pop("modules", UNSET))

        embedded_origins = cast(list[str], d.pop("embedded_origins", UNSET))

        embedded_redirect_uri = d.pop("embedded_redirect_uri", UNSET)

        plan_settings = cls(
            name=name,
            timezone=timezone,
            working_days=working_days,
            logo=logo,
            colours=colours,
            labels=labels,
            modules=modules,
            embedded_origins=embedded_origins,
            embedded_redirect_uri=embedded_redirect_uri,
        )

        plan_settings.additional_properties = d
        return plan_settings

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
