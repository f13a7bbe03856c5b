"""Invitations: the one way a person who already has an account joins a workspace.

A plan never links an existing account: it invites the email, and the person whose email
it is accepts (becoming a member with the invited role) or declines after signing in.
Each write is one transaction with its audit event.
"""

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from audit.services import Actor, audit_record

from .models import Invitation, Member, Workspace


class InvitationClosed(Exception):
    """No pending invitation with that id is addressed to this person."""


def _user_actor(user) -> Actor:
    return Actor(kind="user", id=str(user.pk), label=user.email or user.get_username())


def invitation_create(
    *, workspace: Workspace, email: str, name: str, role: str, plan_id, actor: Actor, agency=None
) -> Invitation:
    """Invite the email; an invitation already pending for it in the workspace is kept."""
    email = email.strip().lower()
    with transaction.atomic():
        invitation = Invitation.objects.filter(
            workspace=workspace, email=email, state=Invitation.State.PENDING
        ).first()
        if invitation is not None:
            return invitation
        invitation = Invitation.objects.create(
            workspace=workspace, email=email, name=name, role=role, plan_id=plan_id
        )
        audit_record(
            actor=actor,
            action="member.invited",
            target_type="invitation",
            target_id=invitation.pk,
            workspace=workspace,
            agency=agency,
            detail={"plan": str(plan_id) if plan_id else None, "email": email, "role": role},
        )
    return invitation


def invitations_pending_for(*, user) -> QuerySet[Invitation]:
    """The pending invitations addressed to the signed-in person's email."""
    if not user.is_authenticated or not user.email:
        return Invitation.objects.none()
    return (
        Invitation.objects.filter(
            email__iexact=user.email,
            state=Invitation.State.PENDING,
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
            member = Member.objects.filter(
                workspace=workspace, email__iexact=invitation.email
            ).first()
            if member is None:
                member = Member.objects.create(
                    workspace=workspace,
                    user=user,
                    name=invitation.name or user.get_full_name() or invitation.email,
                    email=invitation.email,
                    role=invitation.role,
                    joined_at=timezone.localdate(),
                )
            elif member.user_id in (None, user.pk):
                # A record of the person made meanwhile (an import): it becomes theirs.
                member.user = user
                member.is_active = True
                member.save(update_fields=["user", "is_active"])
            else:
                raise InvitationClosed(invitation_id)
            invitation.state = Invitation.State.ACCEPTED
            invitation.member = member
            audit_record(
                actor=actor,
                action="member.added",
                target_type="member",
                target_id=member.pk,
                workspace=workspace,
                agency=workspace.agency,
                detail={
                    "invitation": str(invitation.pk),
                    "email": member.email,
                    "role": member.role,
                },
            )
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
