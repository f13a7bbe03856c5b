from enum import Enum


class OpEnum(str, Enum):
    INTEGRATION_CONNECT = "integration.connect"
    MEMBER_ADD = "member.add"
    PROGRAMME_ADD = "programme.add"
    PROGRAMME_UPDATE = "programme.update"
    SETTINGS_UPDATE = "settings.update"
    WORKSPACE_CREATE = "workspace.create"
    WORKSPACE_UPDATE = "workspace.update"

    def __str__(self) -> str:
        return str(self.value)

    @classmethod
    def _missing_(cls, value: object) -> object:
        # A value added by the service after this client was made: kept as it came.
        if not isinstance(value, str):
            return None
        member = str.__new__(cls, value)
        member._name_ = value
        member._value_ = value
        return member
