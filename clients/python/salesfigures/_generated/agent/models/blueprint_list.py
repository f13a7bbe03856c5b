from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.blueprint import Blueprint


T = TypeVar("T", bound="BlueprintList")


@_attrs_define
class BlueprintList:
    """
    Attributes:
        blueprints (list['Blueprint']):
    """

    blueprints: list["Blueprint"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        blueprints = []
        for blueprints_item_data in self.blueprints:
            blueprints_item = blueprints_item_data.to_dict()
            blueprints.append(blueprints_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "blueprints": blueprints,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.blueprint import Blueprint

        d = dict(src_dict)
        blueprints = []
        _blueprints = d.pop("blueprints")
        for blueprints_item_data in _blueprints:
            blueprints_item = Blueprint.from_dict(blueprints_item_data)

            blueprints.append(blueprints_item)

        blueprint_list = cls(
            blueprints=blueprints,
        )

        blueprint_list.additional_properties = d
        return blueprint_list

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
