import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define

from .._dates import isoparse
from ..models.attendance_enum import AttendanceEnum
from ..models.outcome_enum import OutcomeEnum
from ..models.payment_plan_enum import PaymentPlanEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.instalment_request import InstalmentRequest
    from ..models.past_call_form_request_lead_type_1 import PastCallFormRequestLeadType1


T = TypeVar("T", bound="PastCallFormRequest")


@_attrs_define
class PastCallFormRequest:
    """Refuses members it does not name.

    Attributes:
        submission_id (UUID):
        lead (Union['PastCallFormRequestLeadType1', UUID]): The lead's id, or {"name", "email"}: an existing lead with
            that email, else a new one.
        occurred_at (datetime.datetime): When the call happened, with an offset.
        outcome (OutcomeEnum): * `closed` - Closed
            * `deposit` - Deposit
            * `follow_up` - Follow Up
            * `no_sale` - No Sale
            * `disqualified` - Disqualified
        contract_value (Union[Unset, float, str]): The sale's full value, major units.
        cash_collected (Union[Unset, float, str]): Paid today, major units; default 0.
        payment_plan (Union[Unset, PaymentPlanEnum]): * `paid_in_full` - Paid In Full
            * `split` - Split
            * `financed` - Financed
        instalments (Union[Unset, list['InstalmentRequest']]):
        attendance (Union[Unset, AttendanceEnum]): * `showed` - Showed
            * `no_show` - No Show
        offer_made (Union[None, Unset, bool]):
        reason (Union[Unset, str]):
        notes (Union[Unset, str]):
        draft_id (Union[Unset, UUID]):
    """

    submission_id: UUID
    lead: Union["PastCallFormRequestLeadType1", UUID]
    occurred_at: datetime.datetime
    outcome: OutcomeEnum
    contract_value: Union[Unset, float, str] = UNSET
    cash_collected: Union[Unset, float, str] = UNSET
    payment_plan: Union[Unset, PaymentPlanEnum] = UNSET
    instalments: Union[Unset, list["InstalmentRequest"]] = UNSET
    attendance: Union[Unset, AttendanceEnum] = UNSET
    offer_made: Union[None, Unset, bool] = UNSET
    reason: Union[Unset, str] = UNSET
    notes: Union[Unset, str] = UNSET
    draft_id: Union[Unset, UUID] = UNSET

    def to_dict(self) -> dict[str, Any]:
        submission_id = str(self.submission_id)

        lead: Union[dict[str, Any], str]
        if isinstance(self.lead, UUID):
            lead = str(self.lead)
        else:
            lead = self.lead.to_dict()

        occurred_at = self.occurred_at.isoformat()

        outcome = self.outcome.value

        contract_value: Union[Unset, float, str]
        if isinstance(self.contract_value, Unset):
            contract_value = UNSET
        else:
            contract_value = self.contract_value

        cash_collected: Union[Unset, float, str]
        if isinstance(self.cash_collected, Unset):
            cash_collected = UNSET
        else:
            cash_collected = self.cash_collected

        payment_plan: Union[Unset, str] = UNSET
        if not isinstance(self.payment_plan, Unset):
            payment_plan = self.payment_plan.value

        instalments: Union[Unset, list[dict[str, Any]]] = UNSET
        if not isinstance(self.instalments, Unset):
            instalments = []
            for instalments_item_data in self.instalments:
                instalments_item = instalments_item_data.to_dict()
                instalments.append(instalments_item)

        attendance: Union[Unset, str] = UNSET
        if not isinstance(self.attendance, Unset):
            attendance = self.attendance.value

        offer_made: Union[None, Unset, bool]
        if isinstance(self.offer_made, Unset):
            offer_made = UNSET
        else:
            offer_made = self.offer_made

        reason = self.reason

        notes = self.notes

        draft_id: Union[Unset, str] = UNSET
        if not isinstance(self.draft_id, Unset):
            draft_id = str(self.draft_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "submission_id": submission_id,
                "lead": lead,
                "occurred_at": occurred_at,
                "outcome": outcome,
            }
        )
        if contract_value is not UNSET:
            field_dict["contract_value"] = contract_value
        if cash_collected is not UNSET:
            field_dict["cash_collected"] = cash_collected
        if payment_plan is not UNSET:
            field_dict["payment_plan"] = payment_plan
        if instalments is not UNSET:
            field_dict["instalments"] = instalments
        if attendance is not UNSET:
            field_dict["attendance"] = attendance
        if offer_made is not UNSET:
            field_dict["offer_made"] = offer_made
        if reason is not UNSET:
            field_dict["reason"] = reason
        if notes is not UNSET:
            field_dict["notes"] = notes
        if draft_id is not UNSET:
            field_dict["draft_id"] = draft_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.instalment_request import InstalmentRequest
        from ..models.past_call_form_request_lead_type_1 import PastCallFormRequestLeadType1

        d = dict(src_dict)
        submission_id = UUID(d.pop("submission_id"))

        def _parse_lead(data: object) -> Union["PastCallFormRequestLeadType1", UUID]:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                lead_type_0 = UUID(data)

                return lead_type_0
            except:  # noqa: E722
                pass
            if not isinstance(data, dict):
                raise TypeError()
            lead_type_1 = PastCallFormRequestLeadType1.from_dict(data)

            return lead_type_1

        lead = _parse_lead(d.pop("lead"))

        occurred_at = isoparse(d.pop("occurred_at"))

        outcome = OutcomeEnum(d.pop("outcome"))

        def _parse_contract_value(data: object) -> Union[Unset, float, str]:
            if isinstance(data, Unset):
                return data
            return cast(Union[Unset, float, str], data)

        contract_value = _parse_contract_value(d.pop("contract_value", UNSET))

        def _parse_cash_collected(data: object) -> Union[Unset, float, str]:
            if isinstance(data, Unset):
                return data
            return cast(Union[Unset, float, str], data)

        cash_collected = _parse_cash_collected(d.pop("cash_collected", UNSET))

        _payment_plan = d.pop("payment_plan", UNSET)
        payment_plan: Union[Unset, PaymentPlanEnum]
        if isinstance(_payment_plan, Unset):
            payment_plan = UNSET
        else:
            payment_plan = PaymentPlanEnum(_payment_plan)

        instalments = []
        _instalments = d.pop("instalments", UNSET)
        for instalments_item_data in _instalments or []:
            instalments_item = InstalmentRequest.from_dict(instalments_item_data)

            instalments.append(instalments_item)

        _attendance = d.pop("attendance", UNSET)
        attendance: Union[Unset, AttendanceEnum]
        if isinstance(_attendance, Unset):
            attendance = UNSET
        else:
            attendance = AttendanceEnum(_attendance)

        def _parse_offer_made(data: object) -> Union[None, Unset, bool]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, bool], data)

        offer_made = _parse_offer_made(d.pop("offer_made", UNSET))

        reason = d.pop("reason", UNSET)

        notes = d.pop("notes", UNSET)

        _draft_id = d.pop("draft_id", UNSET)
        draft_id: Union[Unset, UUID]
        if isinstance(_draft_id, Unset):
            draft_id = UNSET
        else:
            draft_id = UUID(_draft_id)

        past_call_form_request = cls(
            submission_id=submission_id,
            lead=lead,
            occurred_at=occurred_at,
            outcome=outcome,
            contract_value=contract_value,
            cash_collected=cash_collected,
            payment_plan=payment_plan,
            instalments=instalments,
            attendance=attendance,
            offer_made=offer_made,
            reason=reason,
            notes=notes,
            draft_id=draft_id,
        )

        return past_call_form_request
