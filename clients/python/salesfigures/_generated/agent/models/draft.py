import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse
from ..models.draft_status_enum import DraftStatusEnum
from ..models.form_enum import FormEnum

if TYPE_CHECKING:
    from ..models.actor import Actor
    from ..models.draft_fields import DraftFields


T = TypeVar("T", bound="Draft")


@_attrs_define
class Draft:
    """
    Attributes:
        id (UUID):
        form (FormEnum): * `post-call` - Post Call
            * `past-call` - Past Call
            * `dm-close` - Dm Close
            * `eod` - Eod
        member_id (UUID):
        fields (DraftFields):
        status (DraftStatusEnum): * `open` - Open
            * `filed` - Filed
        created_at (datetime.datetime):
        created_by (Actor):
    """

    id: UUID
    form: FormEnum
    member_id: UUID
    fields: "DraftFields"
    status: DraftStatusEnum
    created_at: datetime.datetime
    created_by: "Actor"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        form = self.form.value

        member_id = str(self.member_id)

        fields = self.fields.to_dict()

        status = self.status.value

        created_at = self.created_at.isoformat()

        created_by = self.created_by.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "form": form,
                "member_id": member_id,
                "fields": fields,
                "status": status,
                "created_at": created_at,
                "created_by": created_by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.actor import Actor
        from ..models.draft_fields import DraftFields

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        form = FormEnum(d.pop("form"))

        member_id = UUID(d.pop("member_id"))

        fields = DraftFields.from_dict(d.pop("fields"))

        status = DraftStatusEnum(d.pop("status"))

        created_at = isoparse(d.pop("created_at"))

        created_by = Actor.from_dict(d.pop("created_by"))

        draft = cls(
            id=id,
            form=form,
            member_id=member_id,
            fields=fields,
            status=status,
            created_at=created_at,
            created_by=created_by,
        )

        draft.additional_properties = d
        return draft

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
