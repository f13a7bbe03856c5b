from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.agent_envelope_workspace import AgentEnvelopeWorkspace
    from ..models.board_data import BoardData
    from ..models.board_period import BoardPeriod
    from ..models.note import Note


T = TypeVar("T", bound="BoardEnvelope")


@_attrs_define
class BoardEnvelope:
    """
    Attributes:
        data (BoardData):
        workspace (AgentEnvelopeWorkspace):
        period (BoardPeriod):
        notes (list['Note']):
    """

    data: "BoardData"
    workspace: "AgentEnvelopeWorkspace"
    period: "BoardPeriod"
    notes: list["Note"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        workspace = self.workspace.to_dict()

        period = self.period.to_dict()

        notes = []
        for notes_item_data in self.notes:
            notes_item = notes_item_data.to_dict()
            notes.append(notes_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "workspace": workspace,
                "period": period,
                "notes": notes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_envelope_workspace import AgentEnvelopeWorkspace
        from ..models.board_data import BoardData
        from ..models.board_period import BoardPeriod
        from ..models.note import Note

        d = dict(src_dict)
        data = BoardData.from_dict(d.pop("data"))

        workspace = AgentEnvelopeWorkspace.from_dict(d.pop("workspace"))

        period = BoardPeriod.from_dict(d.pop("period"))

        notes = []
        _notes = d.pop("notes")
        for notes_item_data in _notes:
            notes_item = Note.from_dict(notes_item_data)

            notes.append(notes_item)

        board_envelope = cls(
            data=data,
            workspace=workspace,
            period=period,
            notes=notes,
        )

        board_envelope.additional_properties = d
        return board_envelope

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
