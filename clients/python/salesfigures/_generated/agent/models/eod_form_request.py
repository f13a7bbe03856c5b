import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union
from uuid import UUID

from attrs import define as _attrs_define

from .._dates import isoparse
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.eod_form_request_fields import EodFormRequestFields


T = TypeVar("T", bound="EodFormRequest")


@_attrs_define
class EodFormRequest:
    """Refuses members it does not name.

    Attributes:
        fields (EodFormRequestFields): Counts and text, e.g. {"dials": 80, "conversations": 12, "notes": "..."}.
        submission_id (Union[Unset, UUID]): Optional; a second filing with it answers the first answer.
        date (Union[Unset, datetime.date]): The local day in the workspace timezone; default today there.
        draft_id (Union[Unset, UUID]):
    """

    fields: "EodFormRequestFields"
    submission_id: Union[Unset, UUID] = UNSET
    date: Union[Unset, datetime.date] = UNSET
    draft_id: Union[Unset, UUID] = UNSET

    def to_dict(self) -> dict[str, Any]:
        fields = self.fields.to_dict()

        submission_id: Union[Unset, str] = UNSET
        if not isinstance(self.submission_id, Unset):
            submission_id = str(self.submission_id)

        date: Union[Unset, str] = UNSET
        if not isinstance(self.date, Unset):
            date = self.date.isoformat()

        draft_id: Union[Unset, str] = UNSET
        if not isinstance(self.draft_id, Unset):
            draft_id = str(self.draft_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fields": fields,
            }
        )
        if submission_id is not UNSET:
            field_dict["submission_id"] = submission_id
        if date is not UNSET:
            field_dict["date"] = date
        if draft_id is not UNSET:
            field_dict["draft_id"] = draft_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.eod_form_request_fields import EodFormRequestFields

        d = dict(src_dict)
        fields = EodFormRequestFields.from_dict(d.pop("fields"))

        _submission_id = d.pop("submission_id", UNSET)
        submission_id: Union[Unset, UUID]
        if isinstance(_submission_id, Unset):
            submission_id = UNSET
        else:
            submission_id = UUID(_submission_id)

        _date = d.pop("date", UNSET)
        date: Union[Unset, datetime.date]
        if isinstance(_date, Unset):
            date = UNSET
        else:
            date = isoparse(_date).date()

        _draft_id = d.pop("draft_id", UNSET)
        draft_id: Union[Unset, UUID]
        if isinstance(_draft_id, Unset):
            draft_id = UNSET
        else:
            draft_id = UUID(_draft_id)

        eod_form_request = cls(
            fields=fields,
            submission_id=submission_id,
            date=date,
            draft_id=draft_id,
        )

        return eod_form_request
