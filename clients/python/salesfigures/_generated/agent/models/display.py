from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.display_colours import DisplayColours
    from ..models.display_labels import DisplayLabels


T = TypeVar("T", bound="Display")


@_attrs_define
class Display:
    """
    Attributes:
        workspace_id (UUID):
        name (str):
        logo (str): Address of the logo image, or empty.
        colours (DisplayColours):
        labels (DisplayLabels): Overrides of labels, by metric id or name.
        modules (list[str]):
        programmes (list[Any]):
        currency (str): ISO 4217 code.
        timezone (str): IANA timezone of the workspace.
    """

    workspace_id: UUID
    name: str
    logo: str
    colours: "DisplayColours"
    labels: "DisplayLabels"
    modules: list[str]
    programmes: list[Any]
    currency: str
    timezone: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workspace_id = str(self.workspace_id)

        name = self.name

        logo = self.logo

        colours = self.colours.to_dict()

        labels = self.labels.to_dict()

        modules = self.modules

        programmes = self.programmes

        currency = self.currency

        timezone = self.timezone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspace_id": workspace_id,
                "name": name,
                "logo": logo,
                "colours": colours,
                "labels": labels,
                "modules": modules,
                "programmes": programmes,
                "currency": currency,
                "timezone": timezone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.display_colours import DisplayColours
        from ..models.display_labels import DisplayLabels

        d = dict(src_dict)
        workspace_id = UUID(d.pop("workspace_id"))

        name = d.pop("name")

        logo = d.pop("logo")

        colours = DisplayColours.from_dict(d.pop("colours"))

        labels = DisplayLabels.from_dict(d.pop("labels"))

        modules = cast(list[str], d.pop("modules"))

        programmes = cast(list[Any], d.pop("programmes"))

        currency = d.pop("currency")

        timezone = d.pop("timezone")

        display = cls(
            workspace_id=workspace_id,
            name=name,
            logo=logo,
            colours=colours,
            labels=labels,
            modules=modules,
            programmes=programmes,
            currency=currency,
            timezone=timezone,
        )

        display.additional_properties = d
        return display

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
