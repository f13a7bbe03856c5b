"""The writers of tenancy: agencies, workspaces and their settings, accounts and memberships.

Every agency, workspace and membership is written here, whoever asks (a plan, the demo, an
invitation accepted, the settings pages), each validated by the model's own rules
(`full_clean`) and, where a person or program asked for it, recorded with its audit event
in the caller's transaction.
"""

import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from audit.services import Actor, audit_record
from core.emails import email_normalise
from core.errors import InvalidField
from core.transactions import in_transaction
from events.services import event_record

from .models import Agency, Member, Workspace
from .shapes import member_shape

# member_add's joined_at when none is given: the day the member is added.
TODAY = object()

# The settings a workspace's writer changes, and where each is kept.
COLUMN_SETTINGS = frozenset(
    {
        "name",
        "timezone",
        "locale",
        "working_days",
        "currency",
        "embedded_origins",
        "leaderboard_visible",
        "country",
    }
)
BRANDING_SETTINGS = frozenset({"logo", "colours", "labels", "modules", "programmes"})


def _validated(obj, *, exclude: list[str]) -> None:
    """The model's own field rules and clean(); the first problem as a 400 naming it."""
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise InvalidField(field, " ".join(messages)) from None


def agency_create(*, name: str, tier: str) -> Agency:
    agency = Agency(name=name, tier=tier)
    _validated(agency, exclude=[])
    agency.save()
    return agency


def agency_user_add(*, agency: Agency, user) -> None:
    """The person works in the agency's console."""
    agency.users.add(user)


def workspace_create(
    *,
    name: str,
    slug: str,
    currency: str,
    timezone: str,
    agency: Agency | None = None,
    embedded_origins: list[str] | None = None,
    actor: Actor | None = None,
    locale: str = "en",
) -> Workspace:
    """A new workspace; a slug taken meanwhile raises IntegrityError from the insert.
    With an actor, the creation is audited in the caller's transaction."""
    workspace = Workspace(
        agency=agency,
        name=name,
        slug=slug,
        currency=currency,
        timezone=timezone,
        locale=locale,
        embedded_origins=list(embedded_origins or []),
    )
    _validated(workspace, exclude=["agency"])
    workspace.save()
    if actor is not None:
        audit_record(
            actor=actor,
            action="workspace.created",
            target_type="workspace",
            target_id=workspace.pk,
            workspace=workspace,
            agency=agency,
            detail={"slug": workspace.slug},
        )
    return workspace


def workspace_update(
    *,
    workspace: Workspace,
    changes: dict,
    actor: Actor,
    action: str = "workspace.settings_changed",
    agency: Agency | None = None,
    detail: dict | None = None,
) -> list[str]:
    """Change the workspace's settings (columns and branding keys) under a row lock, with
    one audit event naming what changed. Returns the names of the settings that changed."""
    unknown = set(changes) - COLUMN_SETTINGS - BRANDING_SETTINGS
    if unknown:
        raise InvalidField(sorted(unknown)[0], "This setting cannot be changed here.")
    with transaction.atomic():
        locked = Workspace.objects.select_for_update().get(pk=workspace.pk)
        branding = dict(locked.branding or {})
        changed = []
        for key, value in changes.items():
            current = getattr(locked, key) if key in COLUMN_SETTINGS else branding.get(key)
            if current == value:
                continue
            changed.append(key)
            if key in COLUMN_SETTINGS:
                setattr(locked, key, value)
            else:
                branding[key] = value
        if not changed:
            return []
        locked.branding = branding
        _validated(locked, exclude=["agency", "slug"])
        locked.save()
        audit_record(
            actor=actor,
            action=action,
            target_type="workspace",
            target_id=locked.pk,
            workspace=locked,
            agency=agency,
            detail={**(detail or {"settings": sorted(changed)})},
        )
    for name in (
        "name",
        "timezone",
        "country",
        "working_days",
        "currency",
        "embedded_origins",
        "branding",
    ):
        setattr(workspace, name, getattr(locked, name))
    return changed


def account_exists(email: str) -> bool:
    """Whether the email has an account anywhere in the service (any tenant)."""
    return get_user_model().objects.filter(email=email_normalise(email)).exists()


def user_create(
    *,
    email: str,
    password: str | None = None,
    password_hash: str | None = None,
    name: str = "",
):
    """A new account for an email that has none; without a password it cannot sign in
    until its owner chooses one through an invitation's link."""
    User = get_user_model()
    fits = len(email) <= 150 and not User.objects.filter(username=email).exists()
    username = email if fits else f"{email[:120]}-{secrets.token_hex(4)}"
    first, _, last = name.partition(" ")
    user = User(username=username, email=email_normalise(email), first_name=first, last_name=last)
    if password_hash is not None:
        user.password = password_hash
    elif password is not None:
        user.set_password(password)
    else:
        user.set_unusable_password()
    user.full_clean(exclude=["password"], validate_unique=False)
    user.save()
    return user


def user_password_set(*, user, password: str) -> None:
    """The account's password, hashed under a new salt (the same password again ends every
    other browser's session: Django's session check follows the hash)."""
    user.set_password(password)
    user.save(update_fields=["password"])


def member_add(
    *,
    workspace: Workspace,
    user,
    email: str,
    name: str,
    role: str,
    actor: Actor | None,
    agency: Agency | None = None,
    detail: dict | None = None,
    joined_at=TODAY,
    external_id: str | None = None,
) -> Member:
    """A new member of the workspace, recorded with its audit event (unless actor is None:
    the demo's seeding, audited once as a whole). joined_at is today unless given (None:
    not known, as an import may say)."""
    with transaction.atomic():
        member = Member(
            workspace=workspace,
            user=user,
            name=name or email,
            email=email_normalise(email),
            role=role,
            joined_at=timezone.localdate() if joined_at is TODAY else joined_at,
            external_id=external_id,
        )
        _validated(member, exclude=["workspace", "user"])
        member.save()
        event_record(workspace=workspace, type="member.added", data=member_shape(member))
        if actor is not None:
            audit_record(
                actor=actor,
                action="member.added",
                target_type="member",
                target_id=member.pk,
                workspace=workspace,
                agency=agency if agency is not None else workspace.agency,
                detail={**(detail or {}), "email": member.email, "role": member.role},
            )
    return member


@in_transaction
def member_link_user(*, member: Member, user, actor: Actor, detail: dict | None = None) -> Member:
    """A member record made without an account (an import) becomes the person's."""
    member.user = user
    was_active = member.is_active
    member.is_active = True
    member.save(update_fields=["user", "is_active"])
    if not was_active:
        event_record(workspace=member.workspace, type="member.added", data=member_shape(member))
    audit_record(
        actor=actor,
        action="member.added",
        target_type="member",
        target_id=member.pk,
        workspace=member.workspace,
        agency=member.workspace.agency,
        detail={**(detail or {}), "email": member.email, "role": member.role},
    )
    return member


# --- The Members page's writes ---------------------------------------------------------

# Who may grant or take away each role: only an owner touches the roles that run the
# workspace (owner, admin); an admin manages the others.
OWNER_ONLY_ROLES = Member.ADMIN_ROLES


# The roles that may mint workspace tokens (the tokens page is theirs).
TOKEN_MINTING_ROLES = Member.ADMIN_ROLES

# What a member loses when their new role may no longer mint tokens, registered by the apps
# that hold it (the tokens app: the tokens they minted are revoked). Each runs inside the
# role change's transaction, with the member and the actor.
_ROLE_LOWERED: list = []


def on_role_lowered(callback) -> None:
    """Run `callback(member=..., actor=...)` in the transaction of every role change that
    takes a member out of the roles that mint tokens."""
    if callback not in _ROLE_LOWERED:
        _ROLE_LOWERED.append(callback)


def _role_changed(member: Member, before: str, actor: Actor) -> None:
    if before in TOKEN_MINTING_ROLES and member.role not in TOKEN_MINTING_ROLES:
        for callback in _ROLE_LOWERED:
            callback(member=member, actor=actor)


class MemberChangeRefused(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _owners_left(workspace: Workspace, without: Member) -> int:
    return (
        Member.objects.filter(workspace=workspace, role=Member.Role.OWNER, is_active=True)
        .exclude(pk=without.pk)
        .count()
    )


def _check_may_change(member: Member, *, by_role: str, new_role: str | None) -> None:
    touched = {member.role} | ({new_role} if new_role else set())
    if by_role != Member.Role.OWNER and touched & OWNER_ONLY_ROLES:
        raise MemberChangeRefused("Only an owner grants or takes away the owner and admin roles.")
    leaves = member.role == Member.Role.OWNER and new_role != Member.Role.OWNER
    if leaves and member.is_active and _owners_left(member.workspace, member) == 0:
        raise MemberChangeRefused("The workspace needs an owner: make someone else an owner first.")


def member_role_change(*, member: Member, role: str, by_role: str, actor: Actor) -> Member:
    """Give the member another role, with its audit event; a role that may not mint tokens
    revokes the tokens they minted, in the same transaction (on_role_lowered)."""
    if role not in Member.Role.values:
        raise InvalidField("role", f"Unknown role {role!r}.")
    with transaction.atomic():
        member = Member.objects.select_for_update().select_related("workspace").get(pk=member.pk)
        if member.role == role:
            return member
        _check_may_change(member, by_role=by_role, new_role=role)
        before = member.role
        member.role = role
        member.save(update_fields=["role"])
        audit_record(
            actor=actor,
            action="member.role_changed",
            target_type="member",
            target_id=member.pk,
            workspace=member.workspace,
            detail={"email": member.email, "before": before, "after": role},
        )
        _role_changed(member, before, actor)
    return member


def member_deactivate(*, member: Member, by_role: str, actor: Actor) -> Member:
    """The member can no longer sign in to the workspace; their records keep their name.
    The caller revokes their session tokens in the same transaction."""
    with transaction.atomic():
        member = Member.objects.select_for_update().select_related("workspace").get(pk=member.pk)
        if not member.is_active:
            return member
        _check_may_change(member, by_role=by_role, new_role=None)
        member.is_active = False
        member.save(update_fields=["is_active"])
        event_record(workspace=member.workspace, type="member.removed", data=member_shape(member))
        audit_record(
            actor=actor,
            action="member.removed",
            target_type="member",
            target_id=member.pk,
            workspace=member.workspace,
            detail={"email": member.email, "role": member.role},
        )
    return member


def member_reactivate(*, member: Member, by_role: str, actor: Actor) -> Member:
    """A deactivated member may sign in again, with the role they had; their old sessions
    and tokens stay revoked."""
    with transaction.atomic():
        member = Member.objects.select_for_update().select_related("workspace").get(pk=member.pk)
        if member.is_active:
            return member
        if by_role != Member.Role.OWNER and member.role in OWNER_ONLY_ROLES:
            raise MemberChangeRefused("Only an owner gives back the owner and admin roles.")
        member.is_active = True
        member.save(update_fields=["is_active"])
        event_record(workspace=member.workspace, type="member.added", data=member_shape(member))
        audit_record(
            actor=actor,
            action="member.reactivated",
            target_type="member",
            target_id=member.pk,
            workspace=member.workspace,
            detail={"email": member.email, "role": member.role},
        )
    return member


# --- Members from an import --------------------------------------------------------------


def _member_found(workspace: Workspace, external_id: str | None, email: str) -> Member | None:
    """The member a line names, by its own id first, then by email; refused when the two
    name different members."""
    members = Member.objects.select_for_update().filter(workspace=workspace)
    existing = None
    if external_id is not None:
        existing = members.filter(external_id=external_id).first()
    by_email = members.filter(email=email).first()
    if existing is None and by_email is not None:
        if by_email.external_id not in (None, external_id):
            raise InvalidField("email", f"{email} is already the member {by_email.external_id!r}.")
        return by_email
    if existing is not None and by_email is not None and by_email.pk != existing.pk:
        raise InvalidField("email", f"{email} is already another member of this workspace.")
    return existing


def _check_import_change(existing: Member, changed: dict, *, by_role: str) -> None:
    """The Members page's rules for a member line of an import, checked against the role of
    the person who brought the file: only an owner touches a member in a role that runs the
    workspace (its role, name, email or date); an account's email stays the account's."""
    if by_role != Member.Role.OWNER:
        new_role = changed.get("role", (None, None))[1]
        if existing.role in OWNER_ONLY_ROLES or new_role in OWNER_ONLY_ROLES:
            field = "role" if "role" in changed else next(iter(changed))
            raise InvalidField(
                field,
                f"Only an owner grants, takes away or changes the owner and admin roles; "
                f"{existing.email} is not changed.",
            )
    if "role" in changed:
        try:
            _check_may_change(existing, by_role=by_role, new_role=changed["role"][1])
        except MemberChangeRefused as refused:
            raise InvalidField("role", refused.message) from None
    if "email" in changed and existing.user_id is not None:
        account_email = email_normalise(existing.user.email or "")
        if changed["email"][1] != account_email:
            raise InvalidField(
                "email",
                f"{existing.email} signs in with their own account: its email changes on "
                "their account page, never by an import.",
            )


def member_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    name: str,
    email: str,
    role: str,
    actor: Actor,
    by_role: str,
    joined_at=None,
) -> tuple[Member, bool]:
    """A member as a record source states it (the import): made, or changed to match, with
    the rules of the Members page checked against `by_role`, the role of the person who
    brought the records (only an owner adds, changes or makes an owner or admin; the
    workspace keeps an active owner; an account's email is its own), and an audit event
    for each change. Returns the member and whether it was made."""
    if role not in Member.Role.values:
        raise InvalidField("role", f"Unknown role {role!r}; use one of {', '.join(Member.Role)}.")
    email = email_normalise(email)
    if not email or "@" not in email:
        raise InvalidField("email", "Give the member's email address.")
    with transaction.atomic():
        existing = _member_found(workspace, external_id, email)
        if existing is None:
            if by_role != Member.Role.OWNER and role in OWNER_ONLY_ROLES:
                raise InvalidField(
                    "role", f"Only an owner adds a member as {role}; {email} is not added."
                )
            member = member_add(
                workspace=workspace,
                user=None,
                email=email,
                name=name,
                role=role,
                actor=actor,
                joined_at=joined_at,
                external_id=external_id,
            )
            return member, True
        values = {
            "name": name or email,
            "email": email,
            "role": role,
            "joined_at": joined_at,
            "external_id": external_id if external_id is not None else existing.external_id,
        }
        changed = {
            key: (getattr(existing, key), value)
            for key, value in values.items()
            if getattr(existing, key) != value
        }
        if not changed:
            return existing, False
        _check_import_change(existing, changed, by_role=by_role)
        for key, (_before, after) in changed.items():
            setattr(existing, key, after)
        _validated(existing, exclude=["workspace", "user"])
        existing.save(update_fields=list(changed))
        if "role" in changed:
            audit_record(
                actor=actor,
                action="member.role_changed",
                target_type="member",
                target_id=existing.pk,
                workspace=workspace,
                detail={"email": existing.email, "before": changed["role"][0], "after": role},
            )
            _role_changed(existing, changed["role"][0], actor)
        others = {key: pair for key, pair in changed.items() if key != "role"}
        if others:
            audit_record(
                actor=actor,
                action="member.changed",
                target_type="member",
                target_id=existing.pk,
                workspace=workspace,
                detail={
                    "email": existing.email,
                    "changes": {
                        key: [_plain(before), _plain(after)]
                        for key, (before, after) in sorted(others.items())
                    },
                },
            )
    return existing, False


def _plain(value):
    """A changed value as the audit event's JSON keeps it."""
    return value.isoformat() if hasattr(value, "isoformat") else value
