from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.attendance_enum import AttendanceEnum
from ..models.outcome_enum import OutcomeEnum
from ..models.payment_plan_enum import PaymentPlanEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.instalment_request import InstalmentRequest


T = TypeVar("T", bound="PostCallFormRequest")


@_attrs_define
class PostCallFormRequest:
    """Refuses members it does not name.

    Attributes:
        submission_id (UUID): Chosen by the caller; a second filing with it answers the first answer.
        call_id (UUID):
        attendance (AttendanceEnum): * `showed` - Showed
            * `no_show` - No Show
        contract_value (Union[Unset, float, str]): The sale's full value, major units.
        cash_collected (Union[Unset, float, str]): Paid today, major units; default 0.
        payment_plan (Union[Unset, PaymentPlanEnum]): * `paid_in_full` - Paid In Full
            * `split` - Split
            * `financed` - Financed
        instalments (Union[Unset, list['InstalmentRequest']]):
        outcome (Union[Unset, OutcomeEnum]): * `closed` - Closed
            * `deposit` - Deposit
            * `follow_up` - Follow Up
            * `no_sale` - No Sale
            * `disqualified` - Disqualified
        offer_made (Union[None, Unset, bool]):
        reason (Union[Unset, str]):
        notes (Union[Unset, str]):
        draft_id (Union[Unset, UUID]): The draft this filing checks; it closes.
    """

    submission_id: UUID
    call_id: UUID
    attendance: AttendanceEnum
    contract_value: Union[Unset, float, str] = UNSET
    cash_collected: Union[Unset, float, str] = UNSET
    payment_plan: Union[Unset, PaymentPlanEnum] = UNSET
    instalments: Union[Unset, list["InstalmentRequest"]] = UNSET
    outcome: Union[Unset, OutcomeEnum] = UNSET
    offer_made: Union[None, Unset, bool] = UNSET
    reason: Union[Unset, str] = UNSET
    notes: Union[Unset, str] = UNSET
    draft_id: Union[Unset, UUID] = UNSET

    def to_dict(self) -> dict[str, Any]:
        submission_id = str(self.submission_id)

        call_id = str(self.call_id)

        attendance = self.attendance.value

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

        outcome: Union[Unset, str] = UNSET
        if not isinstance(self.outcome, Unset):
            outcome = self.outcome.value

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
                "call_id": call_id,
                "attendance": attendance,
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
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
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

        d = dict(src_dict)
        submission_id = UUID(d.pop("submission_id"))

        call_id = UUID(d.pop("call_id"))

        attendance = AttendanceEnum(d.pop("attendance"))

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

        _outcome = d.pop("outcome", UNSET)
        outcome: Union[Unset, OutcomeEnum]
        if isinstance(_outcome, Unset):
            outcome = UNSET
        else:
            outcome = OutcomeEnum(_outcome)

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

        post_call_form_request = cls(
            submission_id=submission_id,
            call_id=call_id,
            attendance=attendance,
            contract_value=contract_value,
            cash_collected=cash_collected,
            payment_plan=payment_plan,
            instalments=instalments,
            outcome=outcome,
            offer_made=offer_made,
            reason=reason,
            notes=notes,
            draft_id=draft_id,
        )

        return post_call_form_request
