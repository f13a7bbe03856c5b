from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.commission_row_rule_type_0 import CommissionRowRuleType0
    from ..models.field import Field


T = TypeVar("T", bound="CommissionRow")


@_attrs_define
class CommissionRow:
    """
    Attributes:
        id (str):
        name (str):
        email (str):
        role (str):
        rule (Union['CommissionRowRuleType0', None]):
        owed (Field):
    """

    id: str
    name: str
    email: str
    role: str
    rule: Union["CommissionRowRuleType0", None]
    owed: "Field"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.commission_row_rule_type_0 import CommissionRowRuleType0

        id = self.id

        name = self.name

        email = self.email

        role = self.role

        rule: Union[None, dict[str, Any]]
        if isinstance(self.rule, CommissionRowRuleType0):
            rule = self.rule.to_dict()
        else:
            rule = self.rule

        owed = self.owed.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "email": email,
                "role": role,
                "rule": rule,
                "owed": owed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.commission_row_rule_type_0 import CommissionRowRuleType0
        from ..models.field import Field

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        email = d.pop("email")

        role = d.pop("role")

        def _parse_rule(data: object) -> Union["CommissionRowRuleType0", None]:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rule_type_0 = CommissionRowRuleType0.from_dict(data)

                return rule_type_0
            except:  # noqa: E722
                pass
            return cast(Union["CommissionRowRuleType0", None], data)

        rule = _parse_rule(d.pop("rule"))

        owed = Field.from_dict(d.pop("owed"))

        commission_row = cls(
            id=id,
            name=name,
            email=email,
            role=role,
            rule=rule,
            owed=owed,
        )

        commission_row.additional_properties = d
        return commission_row

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
