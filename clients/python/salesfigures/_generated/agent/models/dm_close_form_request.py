import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define

from .._dates import isoparse
from ..models.payment_plan_enum import PaymentPlanEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dm_close_form_request_lead_type_1 import DmCloseFormRequestLeadType1
    from ..models.instalment_request import InstalmentRequest


T = TypeVar("T", bound="DmCloseFormRequest")


@_attrs_define
class DmCloseFormRequest:
    """Refuses members it does not name.

    Attributes:
        submission_id (UUID):
        lead (Union['DmCloseFormRequestLeadType1', UUID]): The lead's id, or {"name", "email"}: an existing lead with
            that email, else a new one.
        platform (str): Where the conversation happened, e.g. instagram.
        closed_at (datetime.datetime): When the sale was agreed, with an offset.
        contract_value (Union[Unset, float, str]): The sale's full value, major units.
        cash_collected (Union[Unset, float, str]): Paid today, major units; default 0.
        payment_plan (Union[Unset, PaymentPlanEnum]): * `paid_in_full` - Paid In Full
            * `split` - Split
            * `financed` - Financed
        instalments (Union[Unset, list['InstalmentRequest']]):
        draft_id (Union[Unset, UUID]):
    """

    submission_id: UUID
    lead: Union["DmCloseFormRequestLeadType1", UUID]
    platform: str
    closed_at: datetime.datetime
    contract_value: Union[Unset, float, str] = UNSET
    cash_collected: Union[Unset, float, str] = UNSET
    payment_plan: Union[Unset, PaymentPlanEnum] = UNSET
    instalments: Union[Unset, list["InstalmentRequest"]] = UNSET
    draft_id: Union[Unset, UUID] = UNSET

    def to_dict(self) -> dict[str, Any]:
        submission_id = str(self.submission_id)

        lead: Union[dict[str, Any], str]
        if isinstance(self.lead, UUID):
            lead = str(self.lead)
        else:
            lead = self.lead.to_dict()

        platform = self.platform

        closed_at = self.closed_at.isoformat()

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

        draft_id: Union[Unset, str] = UNSET
        if not isinstance(self.draft_id, Unset):
            draft_id = str(self.draft_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "submission_id": submission_id,
                "lead": lead,
                "platform": platform,
                "closed_at": closed_at,
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
        if draft_id is not UNSET:
            field_dict["draft_id"] = draft_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dm_close_form_request_lead_type_1 import DmCloseFormRequestLeadType1
        from ..models.instalment_request import InstalmentRequest

        d = dict(src_dict)
        submission_id = UUID(d.pop("submission_id"))

        def _parse_lead(data: object) -> Union["DmCloseFormRequestLeadType1", UUID]:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                lead_type_0 = UUID(data)

                return lead_type_0
            except:  # noqa: E722
                pass
            if not isinstance(data, dict):
                raise TypeError()
            lead_type_1 = DmCloseFormRequestLeadType1.from_dict(data)

            return lead_type_1

        lead = _parse_lead(d.pop("lead"))

        platform = d.pop("platform")

        closed_at = isoparse(d.pop("closed_at"))

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

        _draft_id = d.pop("draft_id", UNSET)
        draft_id: Union[Unset, UUID]
        if isinstance(_draft_id, Unset):
            draft_id = UNSET
        else:
            draft_id = UUID(_draft_id)

        dm_close_form_request = cls(
            submission_id=submission_id,
            lead=lead,
            platform=platform,
            closed_at=closed_at,
            contract_value=contract_value,
            cash_collected=cash_collected,
            payment_plan=payment_plan,
            instalments=instalments,
            draft_id=draft_id,
        )

        return dm_close_form_request
