import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.form_enum import FormEnum

if TYPE_CHECKING:
    from ..models.eod_report_answer import EodReportAnswer


T = TypeVar("T", bound="EodAnswer")


@_attrs_define
class EodAnswer:
    """
    Attributes:
        form (FormEnum): * `post-call` - Post Call
            * `past-call` - Past Call
            * `dm-close` - Dm Close
            * `eod` - Eod
        submission_id (Union[None, UUID]):
        member_id (UUID):
        filed_at (datetime.datetime):
        draft_id (Union[None, UUID]):
        edited (bool): True when this filing edited the day's earlier report.
        report (EodReportAnswer):
    """

    form: FormEnum
    submission_id: Union[None, UUID]
    member_id: UUID
    filed_at: datetime.datetime
    draft_id: Union[None, UUID]
    edited: bool
    report: "EodReportAnswer"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        form = self.form.value

        submission_id: Union[None, str]
        if isinstance(self.submission_id, UUID):
            submission_id = str(self.submission_id)
        else:
            submission_id = self.submission_id

        member_id = str(self.member_id)

        filed_at = self.filed_at.isoformat()

        draft_id: Union[None, str]
        if isinstance(self.draft_id, UUID):
            draft_id = str(self.draft_id)
        else:
            draft_id = self.draft_id

        edited = self.edited

        report = self.report.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "form": form,
                "submission_id": submission_id,
                "member_id": member_id,
                "filed_at": filed_at,
                "draft_id": draft_id,
                "edited": edited,
                "report": report,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.eod_report_answer import EodReportAnswer

        d = dict(src_dict)
        form = FormEnum(d.pop("form"))

        def _parse_submission_id(data: object) -> Union[None, UUID]:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                submission_id_type_0 = UUID(data)

                return submission_id_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID], data)

        submission_id = _parse_submission_id(d.pop("submission_id"))

        member_id = UUID(d.pop("member_id"))

        filed_at = isoparse(d.pop("filed_at"))

        def _parse_draft_id(data: object) -> Union[None, UUID]:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                draft_id_type_0 = UUID(data)

                return draft_id_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, UUID], data)

        draft_id = _parse_draft_id(d.pop("draft_id"))

        edited = d.pop("edited")

        report = EodReportAnswer.from_dict(d.pop("report"))

        eod_answer = cls(
            form=form,
            submission_id=submission_id,
            member_id=member_id,
            filed_at=filed_at,
            draft_id=draft_id,
            edited=edited,
            report=report,
        )

        eod_answer.additional_properties = d
        return eod_answer

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
