import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, Union

from attrs import define as _attrs_define

from .._dates import isoparse
from ..models.kind_enum import KindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ChangeCreateRequest")


@_attrs_define
class ChangeCreateRequest:
    """Refuses members it does not name.

    Attributes:
        effective_at (datetime.datetime): When the change took effect, with an offset.
        kind (KindEnum): * `price` - Price
            * `offer` - Offer
            * `script` - Script
            * `rule` - Rule
            * `other` - Other
        title (str):
        what (str): What changed.
        why (Union[Unset, str]): Why it changed.
    """

    effective_at: datetime.datetime
    kind: KindEnum
    title: str
    what: str
    why: Union[Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        effective_at = self.effective_at.isoformat()

        kind = self.kind.value

        title = self.title

        what = self.what

        why = self.why

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "effective_at": effective_at,
                "kind": kind,
                "title": title,
                "what": what,
            }
        )
        if why is not UNSET:
            field_dict["why"] = why

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        effective_at = isoparse(d.pop("effective_at"))

        kind = KindEnum(d.pop("kind"))

        title = d.pop("title")

        what = d.pop("what")

        why = d.pop("why", UNSET)

        change_create_request = cls(
            effective_at=effective_at,
            kind=kind,
            title=title,
            what=what,
            why=why,
        )

        return change_create_request
