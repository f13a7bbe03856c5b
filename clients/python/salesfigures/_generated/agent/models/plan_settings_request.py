from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.plan_settings_request_colours import PlanSettingsRequestColours
    from ..models.plan_settings_request_labels import PlanSettingsRequestLabels


T = TypeVar("T", bound="PlanSettingsRequest")


@_attrs_define
class PlanSettingsRequest:
    """
    Attributes:
        name (Union[Unset, str]):
        timezone (Union[Unset, str]):
        working_days (Union[Unset, list[int]]): Weekday numbers, 0 (Monday) to 6 (Sunday).
        logo (Union[Unset, str]): An https URL of the logo image, or empty for none.
        colours (Union[Unset, PlanSettingsRequestColours]):
        labels (Union[Unset, PlanSettingsRequestLabels]):
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
    colours: Union[Unset, "PlanSettingsRequestColours"] = UNSET
    labels: Union[Unset, "PlanSettingsRequestLabels"] = UNSET
    modules: Union[Unset, list[str]] = UNSET
    embedded_origins: Union[Unset, list[str]] = UNSET
    embedded_redirect_uri: Union[Unset, str] = UNSET

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
        from ..models.plan_settings_request_colours import PlanSettingsRequestColours
        from ..models.plan_settings_request_labels import PlanSettingsRequestLabels

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        timezone = d.pop("timezone", UNSET)

        working_days = cast(list[int], d.pop("working_days", UNSET))

        logo = d.pop("logo", UNSET)

        _colours = d.pop("colours", UNSET)
        colours: Union[Unset, PlanSettingsRequestColours]
        if isinstance(_colours, Unset):
            colours = UNSET
        else:
            colours = PlanSettingsRequestColours.from_dict(_colours)

        _labels = d.pop("labels", UNSET)
        labels: Union[Unset, PlanSettingsRequestLabels]
        if isinstance(_labels, Unset):
            labels = UNSET
        else:
            labels = PlanSettingsRequestLabels.from_dict(_labels)

        modules = cast(list[str], d.pop("modules", UNSET))

        embedded_origins = cast(list[str], d.pop("embedded_origins", UNSET))

        embedded_redirect_uri = d.pop("embedded_redirect_uri", UNSET)

        plan_settings_request = cls(
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

        return plan_settings_request
