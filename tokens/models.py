import hashlib
import re
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

WORKSPACE_PREFIX = "svc_"
AGENCY_PREFIX = "agy_"
TOKEN_PATTERN = re.compile(r"^(svc_|agy_)[0-9a-f]{64}$")

WORKSPACE_SCOPES = ("read", "data:write")
AGENCY_SCOPES = ("read", "config:plan", "config:apply", "connect:links")


def token_digest(raw: str) -> str:
    """The tagged digest under which a token is stored; the token itself never is."""
    return "sha256$" + hashlib.sha256(raw.encode("utf-8")).hexdigest()


class ApiToken(models.Model):
    class Kind(models.TextChoices):
        WORKSPACE = "workspace"
        AGENCY = "agency"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    workspace = models.ForeignKey(
        "workspaces.Workspace",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    agency = models.ForeignKey(
        "workspaces.Agency",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    name = models.CharField(max_length=100)
    digest = models.CharField(max_length=80, unique=True)
    prefix = models.CharField(max_length=8)
    last_four = models.CharField(max_length=4)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Who minted a workspace token: the member (settings page), whose deactivation revokes
    # it, or the program that did (`minted_by` names it: a command, the demo).
    minted_by_member = models.ForeignKey(
        "workspaces.Member",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="minted_tokens",
    )
    minted_by = models.CharField(max_length=200, blank=True, default="")
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(kind="workspace", workspace__isnull=False, agency__isnull=True)
                    | models.Q(kind="agency", agency__isnull=False, workspace__isnull=True)
                ),
                name="token_owner_matches_kind",
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.display})"

    @property
    def display(self) -> str:
        return f"{self.prefix}…{self.last_four}"

    @property
    def is_active(self) -> bool:
        if self.revoked_at is not None:
            return False
        return self.expires_at is None or self.expires_at > timezone.now()


class EmbeddedApp(models.Model):
    """A workspace's embedded app: an OAuth application whose users are its members."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(
        "workspaces.Workspace", on_delete=models.CASCADE, related_name="embedded_apps"
    )
    application = models.OneToOneField(
        settings.OAUTH2_PROVIDER_APPLICATION_MODEL,
        on_delete=models.CASCADE,
        related_name="embedded_app",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.application.name} ({self.workspace})"


class RedeemedCode(models.Model):
    """An authorization code exchanged for tokens, kept (as a digest) to detect a replay.

    A code presented again means it leaked: the tokens issued from it are revoked
    (RFC 6749, section 4.1.2).
    """

    digest = models.CharField(max_length=80, unique=True)
    application = models.ForeignKey(
        settings.OAUTH2_PROVIDER_APPLICATION_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    # The refresh token family started by the code: every token refreshed from it.
    token_family = models.UUIDField(null=True, blank=True)
    access_token = models.ForeignKey(
        settings.OAUTH2_PROVIDER_ACCESS_TOKEN_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    redeemed_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self):
        return f"code redeemed at {self.redeemed_at:%Y-%m-%d %H:%M}"
