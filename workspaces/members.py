"""The writers of people: accounts made for a workspace's new members, and memberships.

Every membership is made here, whoever asks (a plan, an invitation accepted, the members
page), each with its audit event in the caller's transaction.
"""

import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from audit.services import Actor, audit_record

from .models import Agency, Member, Workspace


def account_exists(email: str) -> bool:
    """Whether the email has an account anywhere in the service (any tenant)."""
    return get_user_model().objects.filter(email__iexact=email).exists()


def user_create(*, email: str, password: str | None = None):
    """A new account for an email that has none; without a password it cannot sign in
    until its owner chooses one through an invitation's link."""
    User = get_user_model()
    fits = len(email) <= 150 and not User.objects.filter(username=email).exists()
    username = email if fits else f"{email[:120]}-{secrets.token_hex(4)}"
    user = User(username=username, email=email)
    if password is None:
        user.set_unusable_password()
    else:
        user.set_password(password)
    user.full_clean(exclude=["password"])
    user.save()
    return user


def member_add(
    *,
    workspace: Workspace,
    user,
    email: str,
    name: str,
    role: str,
    actor: Actor,
    agency: Agency | None = None,
    detail: dict | None = None,
) -> Member:
    """A new member of the workspace, recorded with its audit event."""
    with transaction.atomic():
        member = Member(
            workspace=workspace,
            user=user,
            name=name or email,
            email=email.strip().lower(),
            role=role,
            joined_at=timezone.localdate(),
        )
        member.full_clean(exclude=["workspace", "user"])
        member.save()
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
