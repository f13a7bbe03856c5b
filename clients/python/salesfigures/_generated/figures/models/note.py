from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.note_code_enum import NoteCodeEnum

T = TypeVar("T", bound="Note")


@_attrs_define
class Note:
    """
    Attributes:
        subject (str): A metric id for figure-unavailable; otherwise what the note is about.
        code (NoteCodeEnum): * `awaiting-outcome` - awaiting-outcome
            * `figure-unavailable` - figure-unavailable
            * `no-data-source` - no-data-source
            * `period-in-future` - period-in-future
            * `truncated` - truncated
            * `unplaced-events` - unplaced-events
        reason (str):
    """

    subject: str
    code: NoteCodeEnum
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        subject = self.subject

        code = self.code.value

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "subject": subject,
                "code": code,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        subject = d.pop("subject")

        code = NoteCodeEnum(d.pop("code"))

        reason = d.pop("reason")

        note = cls(
            subject=subject,
            code=code,
            reason=reason,
        )

        note.additional_properties = d
        return note

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
