import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.state_enum import StateEnum

if TYPE_CHECKING:
    from ..models.plan_applied_result import PlanAppliedResult


T = TypeVar("T", bound="PlanApplied")


@_attrs_define
class PlanApplied:
    """
    Attributes:
        id (UUID):
        state (StateEnum): * `drafted` - drafted
            * `waiting_for_approval` - waiting_for_approval
            * `approved` - approved
            * `refused` - refused
            * `applied` - applied
        blueprint (Union[None, str]):
        refused_reason (Union[None, str]):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        applied_at (Union[None, datetime.datetime]):
        result (PlanAppliedResult):
    """

    id: UUID
    state: StateEnum
    blueprint: Union[None, str]
    refused_reason: Union[None, str]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    applied_at: Union[None, datetime.datetime]
    result: "PlanAppliedResult"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        state = self.state.value

        blueprint: Union[None, str]
        blueprint = self.blueprint

        refused_reason: Union[None, str]
        refused_reason = self.refused_reason

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        applied_at: Union[None, str]
        if isinstance(self.applied_at, datetime.datetime):
            applied_at = self.applied_at.isoformat()
        else:
            applied_at = self.applied_at

        result = self.result.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "state": state,
                "blueprint": blueprint,
                "refused_reason": refused_reason,
                "created_at": created_at,
                "updated_at": updated_at,
                "applied_at": applied_at,
                "result": result,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plan_applied_result import PlanAppliedResult

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        state = StateEnum(d.pop("state"))

        def _parse_blueprint(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        blueprint = _parse_blueprint(d.pop("blueprint"))

        def _parse_refused_reason(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        refused_reason = _parse_refused_reason(d.pop("refused_reason"))

        created_at = isoparse(d.pop("created_at"))

        updated_at = isoparse(d.pop("updated_at"))

        def _parse_applied_at(data: object) -> Union[None, datetime.datetime]:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                applied_at_type_0 = isoparse(data)

                return applied_at_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, datetime.datetime], data)

        applied_at = _parse_applied_at(d.pop("applied_at"))

        result = PlanAppliedResult.from_dict(d.pop("result"))

        plan_applied = cls(
            id=id,
            state=state,
            blueprint=blueprint,
            refused_reason=refused_reason,
            created_at=created_at,
            updated_at=updated_at,
            applied_at=applied_at,
            result=result,
        )

        plan_applied.additional_properties = d
        return plan_applied

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
