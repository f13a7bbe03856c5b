from dataclasses import dataclass, field

from audit.services import Actor


@dataclass
class Principal:
    """Who a request is authenticated as, and what it may reach.

    kind is "workspace_token" (an svc_ API token), "agency_token" (an agy_ token) or
    "session" (a member's OAuth access token from a workspace's embedded app).
    """

    kind: str
    scopes: frozenset[str]
    workspace: object = None
    agency: object = None
    member: object = None
    api_token: object = None
    access_token: object = None
    origin_checked: bool = field(default=False)

    is_authenticated = True
    is_anonymous = False

    @property
    def is_api_token(self) -> bool:
        return self.kind in {"workspace_token", "agency_token"}

    @property
    def is_session(self) -> bool:
        return self.kind == "session"

    @property
    def is_agency(self) -> bool:
        return self.kind == "agency_token"

    @property
    def principal_id(self) -> str:
        if self.api_token is not None:
            return str(self.api_token.pk)
        return str(self.member.pk)

    @property
    def idempotency_scope(self) -> str:
        owner = f"agency:{self.agency.pk}" if self.is_agency else f"workspace:{self.workspace.pk}"
        return f"{owner}|{self.kind}:{self.principal_id}"

    @property
    def actor(self) -> Actor:
        if self.api_token is not None:
            return Actor(kind=self.kind, id=str(self.api_token.pk), label=self.api_token.name)
        return Actor(kind="member", id=str(self.member.pk), label=self.member.email)
