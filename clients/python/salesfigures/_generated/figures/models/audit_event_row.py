import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

if TYPE_CHECKING:
    from ..models.audit_actor import AuditActor
    from ..models.audit_target import AuditTarget


T = TypeVar("T", bound="AuditEventRow")


@_attrs_define
class AuditEventRow:
    """
    Attributes:
        at (datetime.datetime):
        actor (AuditActor):
        action (str):
        target (AuditTarget):
        reason (str):
    """

    at: datetime.datetime
    actor: "AuditActor"
    action: str
    target: "AuditTarget"
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        actor = self.actor.to_dict()

        action = self.action

        target = self.target.to_dict()

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "actor": actor,
                "action": action,
                "target": target,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_actor import AuditActor
        from ..models.audit_target import AuditTarget

        d = dict(src_dict)
        at = isoparse(d.pop("at"))

        actor = AuditActor.from_dict(d.pop("actor"))

        action = d.pop("action")

        target = AuditTarget.from_dict(d.pop("target"))

        reason = d.pop("reason")

        audit_event_row = cls(
            at=at,
            actor=actor,
            action=action,
            target=target,
            reason=reason,
        )

        audit_event_row.additional_properties = d
        return audit_event_row

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
