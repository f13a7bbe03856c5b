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
