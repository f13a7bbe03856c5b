"""Invitations: how a person joins a workspace by email.

A plan never links an existing account: it invites the email, and the person whose email
it is accepts (becoming a member with the invited role) or declines after signing in. A
person with no account opens the emailed link, chooses a password, and is a member at once.
A member a plan made with its new workspace is invited too, so that they can choose their
first password through the link. Each write is one transaction with its audit event; the
mail is sent after it commits.

A link is a signed token of the invitation's id and the time its mail was sent: it opens
for INVITATION_MAX_AGE seconds, only until a newer link is sent, and only while the
invitation is pending (so once).
"""

from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from audit.services import Actor, audit_record
from core.emails import email_normalise
from core.mail import mail_send

from .models import Agency, Invitation, Member, Workspace
from .tenancy import member_add, member_link_user, user_create, user_password_set

LINK_SALT = "workspaces.invitation-link"


class InvitationClosed(Exception):
    """No pending invitation with that id is addressed to this person."""


class InvitationLinkInvalid(Exception):
    """The link was not made by this service, or a newer link replaced it."""


class InvitationLinkExpired(Exception):
    def __init__(self, invitation: Invitation):
        super().__init__(invitation.pk)
        self.invitation = invitation


class InvitationLinkUsed(Exception):
    """The invitation is no longer pending: accepted, declined, or withdrawn (revoked)."""

    def __init__(self, invitation: Invitation):
        super().__init__(invitation.pk)
        self.invitation = invitation
        self.withdrawn = invitation.state == Invitation.State.REVOKED


def _user_actor(user) -> Actor:
    return Actor.for_user(user)


def _stamp(moment: datetime) -> int:
    """The mail's time to the microsecond: a link sent again at once is still a new link."""
    return int(moment.timestamp() * 1_000_000)


def invitation_link(invitation: Invitation) -> str:
    token = signing.dumps(
        {"i": str(invitation.pk), "t": _stamp(invitation.sent_at or invitation.created_at)},
        salt=LINK_SALT,
    )
    return settings.BASE_URL + reverse("invitation-link", args=[token])


def _account_with_password(email: str):
    return next(
        (
            user
            for user in get_user_model().objects.filter(
                email=email_normalise(email), is_active=True
            )
            if user.has_usable_password()
        ),
        None,
    )


def _invitation_mail(invitation: Invitation, *, invited_by: str) -> None:
    has_account = _account_with_password(invitation.email) is not None
    mail_send(
        to=[invitation.email],
        template="invitation",
        context={
            "workspace": invitation.workspace,
            "invitation": invitation,
            "role": invitation.get_role_display(),
            "invited_by": invited_by,
            "link": invitation_link(invitation),
            "has_account": has_account,
            "expires_at": invitation.link_expires_at,
        },
    )


def _proposal_mail(invitation: Invitation) -> None:
    """The workspace's active owners hear that a proposal waits for one of them."""
    owners = Member.objects.filter(
        workspace=invitation.workspace, role=Member.Role.OWNER, is_active=True
    )
    mail_send(
        to=list(owners.values_list("email", flat=True)),
        template="owners_proposal",
        context={
            "workspace": invitation.workspace,
            "invitation": invitation,
            "role": invitation.get_role_display(),
            "proposed_by": invitation.proposed_by,
            "members_url": settings.BASE_URL
            + reverse("settings-members", args=[invitation.workspace_id]),
        },
    )


def invitation_create(
    *,
    workspace: Workspace,
    email: str,
    name: str,
    role: str,
    plan_id,
    actor: Actor,
    agency: Agency | None = None,
    member: Member | None = None,
    proposed: bool = False,
) -> Invitation:
    """Invite the email and mail it the link; an invitation already open for it in the
    workspace is kept (and not mailed again).

    A proposed invitation (an agency's plan on a workspace that already exists) mails
    nothing to the person: the workspace's owners are mailed that it waits for one of them,
    and it becomes an invitation only when an owner approves it (invitation_approve)."""
    email = email_normalise(email)
    invited_by = agency.name if agency is not None else actor.label
    with transaction.atomic():
        invitation = Invitation.objects.filter(
            workspace=workspace,
            email=email,
            state__in=[Invitation.State.PENDING, Invitation.State.PROPOSED],
        ).first()
        if invitation is not None:
            return invitation
        invitation = Invitation(
            workspace=workspace,
            email=email,
            name=name,
            role=role,
            plan_id=plan_id,
            member=member,
            state=Invitation.State.PROPOSED if proposed else Invitation.State.PENDING,
            proposed_by=invited_by if proposed else "",
            sent_at=None if proposed else timezone.now(),
        )
        invitation.full_clean(exclude=["workspace", "member", "decided_by"])
        invitation.save()
        audit_record(
            actor=actor,
            action="invitation.proposed" if proposed else "member.invited",
            target_type="invitation",
            target_id=invitation.pk,
            workspace=workspace,
            agency=agency,
            detail={"plan": str(plan_id) if plan_id else None, "email": email, "role": role},
        )
        if proposed:
            _proposal_mail(invitation)
        else:
            _invitation_mail(invitation, invited_by=invited_by)
    return invitation


def _proposal_decide(
    *, invitation_id, workspace: Workspace, actor: Actor, approve: bool
) -> Invitation | None:
    """An owner's answer to a proposed invitation, audited; None when none waits."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .filter(pk=invitation_id, workspace=workspace, state=Invitation.State.PROPOSED)
            .first()
        )
        if invitation is None:
            return None
        if approve:
            invitation.state = Invitation.State.PENDING
            invitation.sent_at = timezone.now()
            invitation.save(update_fields=["state", "sent_at"])
        else:
            invitation.state = Invitation.State.REFUSED
            invitation.decided_at = timezone.now()
            invitation.save(update_fields=["state", "decided_at"])
        audit_record(
            actor=actor,
            action="invitation.approved" if approve else "invitation.refused",
            target_type="invitation",
            target_id=invitation.pk,
            workspace=workspace,
            agency=workspace.agency,
            detail={
                "email": invitation.email,
                "role": invitation.role,
                "proposed_by": invitation.proposed_by,
            },
        )
        if approve:
            _invitation_mail(invitation, invited_by=invitation.proposed_by or workspace.name)
    return invitation


def invitation_approve(*, invitation_id, workspace: Workspace, actor: Actor) -> Invitation | None:
    """An owner approves a proposed invitation: it becomes an invitation like any other,
    mailed to the person now. None when no such proposal waits."""
    return _proposal_decide(
        invitation_id=invitation_id, workspace=workspace, actor=actor, approve=True
    )


def invitation_refuse(*, invitation_id, workspace: Workspace, actor: Actor) -> Invitation | None:
    """An owner declines a proposed invitation: nothing ever reaches the person."""
    return _proposal_decide(
        invitation_id=invitation_id, workspace=workspace, actor=actor, approve=False
    )


def invitation_resend(*, invitation_id, actor: Actor) -> Invitation:
    """A new link for a pending invitation, mailed to the invited address only; older links
    stop opening."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update(of=("self",))
            .select_related("workspace")
            .get(pk=invitation_id, state=Invitation.State.PENDING)
        )
        invitation.sent_at = timezone.now()
        invitation.save(update_fields=["sent_at"])
        audit_record(
            actor=actor,
            action="invitation.resent",
            target_type="invitation",
            target_id=invitation.pk,
            workspace=invitation.workspace,
            agency=invitation.workspace.agency,
            detail={"email": invitation.email, "role": invitation.role},
        )
        _invitation_mail(invitation, invited_by=invitation.workspace.name)
    return invitation


def invitation_by_link(token: str) -> Invitation:
    """The invitation a link opens; raises when it is not ours, replaced, expired or used."""
    try:
        payload = signing.loads(token, salt=LINK_SALT)
        invitation = (
            Invitation.objects.select_related("workspace", "member")
            .filter(pk=payload["i"], workspace__archived_at__isnull=True)
            .first()
        )
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise InvitationLinkInvalid(token) from None
    if invitation is None:
        raise InvitationLinkInvalid(token)
    if invitation.state != Invitation.State.PENDING:
        raise InvitationLinkUsed(invitation)
    if payload.get("t") != _stamp(invitation.sent_at or invitation.created_at):
        raise InvitationLinkInvalid(token)
    if timezone.now() >= invitation.link_expires_at:
        raise InvitationLinkExpired(invitation)
    return invitation


def invitation_needs_password(invitation: Invitation) -> bool:
    """Whether the link's page asks for a new password (no account can sign in as the
    email yet), rather than sending the person to sign in and accept."""
    return _account_with_password(invitation.email) is None


def invitation_accept_with_password(*, token: str, password: str):
    """Through the link: the email's first password, and the membership. Returns the user."""
    with transaction.atomic():
        invitation = invitation_by_link(token)
        invitation = Invitation.objects.select_for_update(of=("self",)).get(pk=invitation.pk)
        if invitation.state != Invitation.State.PENDING:
            raise InvitationLinkUsed(invitation)
        if not invitation_needs_password(invitation):
            raise InvitationClosed(invitation.pk)
        workspace = invitation.workspace
        member = invitation.member
        user = member.user if member is not None and member.user_id else None
        if user is None:
            user = get_user_model().objects.filter(email=invitation.email).first()
        if user is None:
            user = user_create(email=invitation.email, password=password)
        else:
            # An account made for this email with no password yet (a plan's new member).
            user_password_set(user=user, password=password)
        actor = _user_actor(user)
        if member is None:
            member = member_add(
                workspace=workspace,
                user=user,
                email=invitation.email,
                name=invitation.name,
                role=invitation.role,
                actor=actor,
                detail={"invitation": str(invitation.pk)},
            )
        invitation.state = Invitation.State.ACCEPTED
        invitation.member = member
        invitation.decided_at = timezone.now()
        invitation.decided_by = user
        invitation.save(update_fields=["state", "member", "decided_at", "decided_by"])
        audit_record(
            actor=actor,
            action="invitation.accepted",
            target_type="invitation",
            target_id=invitation.pk,
            workspace=workspace,
            agency=workspace.agency,
            detail={"email": invitation.email, "role": invitation.role},
        )
    return user


def invitations_pending_for(*, user) -> QuerySet[Invitation]:
    """The pending invitations addressed to the signed-in person's email."""
    if not user.is_authenticated or not user.email:
        return Invitation.objects.none()
    return (
        Invitation.objects.filter(
            email=email_normalise(user.email),
            state=Invitation.State.PENDING,
            member__isnull=True,
            workspace__archived_at__isnull=True,
        )
        .select_related("workspace")
        .order_by("created_at")
    )


def invitation_decide(*, invitation_id, user, accept: bool) -> Invitation:
    """Accept (the person becomes a member with the invited role) or decline.

    Only the person whose email the invitation names can decide it, once.
    """
    with transaction.atomic():
        invitation = (
            invitations_pending_for(user=user)
            .select_for_update(of=("self",))
            .filter(pk=invitation_id)
            .first()
        )
        if invitation is None:
            raise InvitationClosed(invitation_id)
        workspace = invitation.workspace
        actor = _user_actor(user)
        now = timezone.now()
        invitation.decided_at = now
        invitation.decided_by = user
        if accept:
            member = _member_for_acceptance(invitation, user, actor)
            invitation.state = Invitation.State.ACCEPTED
            invitation.member = member
        else:
            invitation.state = Invitation.State.DECLINED
        invitation.save(update_fields=["state", "decided_at", "decided_by", "member"])
        audit_record(
            actor=actor,
            action="invitation.accepted" if accept else "invitation.declined",
            target_type="invitation",
            target_id=invitation.pk,
            workspace=workspace,
            agency=workspace.agency,
            detail={"email": invitation.email, "role": invitation.role},
        )
    return invitation


def _member_for_acceptance(invitation: Invitation, user, actor: Actor) -> Member:
    workspace = invitation.workspace
    member = Member.objects.filter(workspace=workspace, email=invitation.email).first()
    if member is None:
        return member_add(
            workspace=workspace,
            user=user,
            email=invitation.email,
            name=invitation.name or user.get_full_name() or invitation.email,
            role=invitation.role,
            actor=actor,
            detail={"invitation": str(invitation.pk)},
        )
    if member.user_id not in (None, user.pk):
        raise InvitationClosed(invitation.pk)
    return member_link_user(
        member=member, user=user, actor=actor, detail={"invitation": str(invitation.pk)}
    )


def invitation_revoke(*, invitation_id, workspace: Workspace, actor: Actor) -> Invitation | None:
    """Withdraw a pending invitation of the workspace: its links stop opening."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .filter(pk=invitation_id, workspace=workspace, state=Invitation.State.PENDING)
            .first()
        )
        if invitation is None:
            return None
        invitation.state = Invitation.State.REVOKED
        invitation.decided_at = timezone.now()
        invitation.save(update_fields=["state", "decided_at"])
        audit_record(
            actor=actor,
            action="invitation.revoked",
            target_type="invitation",
            target_id=invitation.pk,
            workspace=workspace,
            agency=workspace.agency,
            detail={"email": invitation.email, "role": invitation.role},
        )
    return invitation
