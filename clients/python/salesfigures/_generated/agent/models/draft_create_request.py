from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union
from uuid import UUID

from attrs import define as _attrs_define

from ..models.form_enum import FormEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.draft_create_request_fields import DraftCreateRequestFields


T = TypeVar("T", bound="DraftCreateRequest")


@_attrs_define
class DraftCreateRequest:
    """Refuses members it does not name.

    Attributes:
        form (FormEnum): * `post-call` - Post Call
            * `past-call` - Past Call
            * `dm-close` - Dm Close
            * `eod` - Eod
        member_id (Union[Unset, UUID]): The member who must check and file it; required with an API token, defaults to
            the signed-in member with a session token.
        fields (Union[Unset, DraftCreateRequestFields]): The form's members, any may be left out; never money.
    """

    form: FormEnum
    member_id: Union[Unset, UUID] = UNSET
    fields: Union[Unset, "DraftCreateRequestFields"] = UNSET

    def to_dict(self) -> dict[str, Any]:
        form = self.form.value

        member_id: Union[Unset, str] = UNSET
        if not isinstance(self.member_id, Unset):
            member_id = str(self.member_id)

        fields: Union[Unset, dict[str, Any]] = UNSET
        if not isinstance(self.fields, Unset):
            fields = self.fields.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "form": form,
            }
        )
        if member_id is not UNSET:
            field_dict["member_id"] = member_id
        if fields is not UNSET:
            field_dict["fields"] = fields

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.draft_create_request_fields import DraftCreateRequestFields

        d = dict(src_dict)
        form = FormEnum(d.pop("form"))

        _member_id = d.pop("member_id", UNSET)
        member_id: Union[Unset, UUID]
        if isinstance(_member_id, Unset):
            member_id = UNSET
        else:
            member_id = UUID(_member_id)

        _fields = d.pop("fields", UNSET)
        fields: Union[Unset, DraftCreateRequestFields]
        if isinstance(_fields, Unset):
            fields = UNSET
        else:
            fields = DraftCreateRequestFields.from_dict(_fields)

        draft_create_request = cls(
            form=form,
            member_id=member_id,
            fields=fields,
        )

        return draft_create_request
