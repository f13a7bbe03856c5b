import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.form_enum import FormEnum

if TYPE_CHECKING:
    from ..models.lead_answer import LeadAnswer
    from ..models.outcome_answer import OutcomeAnswer
    from ..models.sale_answer import SaleAnswer


T = TypeVar("T", bound="PastCallAnswer")


@_attrs_define
class PastCallAnswer:
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
        lead (LeadAnswer):
        outcome (OutcomeAnswer):
        sale (Union['SaleAnswer', None]):
    """

    form: FormEnum
    submission_id: Union[None, UUID]
    member_id: UUID
    filed_at: datetime.datetime
    draft_id: Union[None, UUID]
    lead: "LeadAnswer"
    outcome: "OutcomeAnswer"
    sale: Union["SaleAnswer", None]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.sale_answer import SaleAnswer

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

        lead = self.lead.to_dict()

        outcome = self.outcome.to_dict()

        sale: Union[None, dict[str, Any]]
        if isinstance(self.sale, SaleAnswer):
            sale = self.sale.to_dict()
        else:
            sale = self.sale

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "form": form,
                "submission_id": submission_id,
                "member_id": member_id,
                "filed_at": filed_at,
                "draft_id": draft_id,
                "lead": lead,
                "outcome": outcome,
                "sale": sale,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.lead_answer import LeadAnswer
        from ..models.outcome_answer import OutcomeAnswer
        from ..models.sale_answer import SaleAnswer

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

        lead = LeadAnswer.from_dict(d.pop("lead"))

        outcome = OutcomeAnswer.from_dict(d.pop("outcome"))

        def _parse_sale(data: object) -> Union["SaleAnswer", None]:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                sale_type_0 = SaleAnswer.from_dict(data)

                return sale_type_0
            except:  # noqa: E722
                pass
            return cast(Union["SaleAnswer", None], data)

        sale = _parse_sale(d.pop("sale"))

        past_call_answer = cls(
            form=form,
            submission_id=submission_id,
            member_id=member_id,
            filed_at=filed_at,
            draft_id=draft_id,
            lead=lead,
            outcome=outcome,
            sale=sale,
        )

        past_call_answer.additional_properties = d
        return past_call_answer

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
