"""The account page's card of notification choices: one form per workspace the person is an
active member of, each kind ticked when they receive it."""

from django import template

from workspaces.models import Member

from ..models import Kind, OptOut

register = template.Library()


@register.inclusion_tag("notifications/_choices.html")
def notification_choices(user):
    members = list(
        Member.objects.filter(user=user, is_active=True, workspace__archived_at__isnull=True)
        .select_related("workspace")
        .order_by("workspace__name", "pk")
    )
    out = set(OptOut.objects.filter(member__in=members).values_list("member_id", "kind"))
    return {
        "memberships": [
            {
                "workspace": member.workspace,
                "kinds": [
                    {"value": value, "label": label, "on": (member.pk, value) not in out}
                    for value, label in Kind.choices
                ],
            }
            for member in members
        ]
    }
