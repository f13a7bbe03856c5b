from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.agent_envelope_workspace import AgentEnvelopeWorkspace
    from ..models.compare_data import CompareData
    from ..models.compare_period import ComparePeriod
    from ..models.note import Note


T = TypeVar("T", bound="CompareEnvelope")


@_attrs_define
class CompareEnvelope:
    """
    Attributes:
        workspace (AgentEnvelopeWorkspace):
        data (CompareData):
        period (ComparePeriod):
        notes (list['Note']):
    """

    workspace: "AgentEnvelopeWorkspace"
    data: "CompareData"
    period: "ComparePeriod"
    notes: list["Note"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workspace = self.workspace.to_dict()

        data = self.data.to_dict()

        period = self.period.to_dict()

        notes = []
        for notes_item_data in self.notes:
            notes_item = notes_item_data.to_dict()
            notes.append(notes_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspace": workspace,
                "data": data,
                "period": period,
                "notes": notes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_envelope_workspace import AgentEnvelopeWorkspace
        from ..models.compare_data import CompareData
        from ..models.compare_period import ComparePeriod
        from ..models.note import Note

        d = dict(src_dict)
        workspace = AgentEnvelopeWorkspace.from_dict(d.pop("workspace"))

        data = CompareData.from_dict(d.pop("data"))

        period = ComparePeriod.from_dict(d.pop("period"))

        notes = []
        _notes = d.pop("notes")
        for notes_item_data in _notes:
            notes_item = Note.from_dict(notes_item_data)

            notes.append(notes_item)

        compare_envelope = cls(
            workspace=workspace,
            data=data,
            period=period,
            notes=notes,
        )

        compare_envelope.additional_properties = d
        return compare_envelope

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
