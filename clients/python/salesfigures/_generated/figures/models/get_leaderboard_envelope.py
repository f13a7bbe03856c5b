from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.envelope_period import EnvelopePeriod
    from ..models.envelope_workspace import EnvelopeWorkspace
    from ..models.get_leaderboard_data import GetLeaderboardData
    from ..models.note import Note


T = TypeVar("T", bound="GetLeaderboardEnvelope")


@_attrs_define
class GetLeaderboardEnvelope:
    """
    Attributes:
        workspace (EnvelopeWorkspace):
        data (GetLeaderboardData):
        notes (list['Note']):
        period (Union['EnvelopePeriod', None, Unset]):
    """

    workspace: "EnvelopeWorkspace"
    data: "GetLeaderboardData"
    notes: list["Note"]
    period: Union["EnvelopePeriod", None, Unset] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.envelope_period import EnvelopePeriod

        workspace = self.workspace.to_dict()

        data = self.data.to_dict()

        notes = []
        for notes_item_data in self.notes:
            notes_item = notes_item_data.to_dict()
            notes.append(notes_item)

        period: Union[None, Unset, dict[str, Any]]
        if isinstance(self.period, Unset):
            period = UNSET
        elif isinstance(self.period, EnvelopePeriod):
            period = self.period.to_dict()
        else:
            period = self.period

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspace": workspace,
                "data": data,
                "notes": notes,
            }
        )
        if period is not UNSET:
            field_dict["period"] = period

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.envelope_period import EnvelopePeriod
        from ..models.envelope_workspace import EnvelopeWorkspace
        from ..models.get_leaderboard_data import GetLeaderboardData
        from ..models.note import Note

        d = dict(src_dict)
        workspace = EnvelopeWorkspace.from_dict(d.pop("workspace"))

        data = GetLeaderboardData.from_dict(d.pop("data"))

        notes = []
        _notes = d.pop("notes")
        for notes_item_data in _notes:
            notes_item = Note.from_dict(notes_item_data)

            notes.append(notes_item)

        def _parse_period(data: object) -> Union["EnvelopePeriod", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                period_type_0 = EnvelopePeriod.from_dict(data)

                return period_type_0
            except:  # noqa: E722
                pass
            return cast(Union["EnvelopePeriod", None, Unset], data)

        period = _parse_period(d.pop("period", UNSET))

        get_leaderboard_envelope = cls(
            workspace=workspace,
            data=data,
            notes=notes,
            period=period,
        )

        get_leaderboard_envelope.additional_properties = d
        return get_leaderboard_envelope

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
