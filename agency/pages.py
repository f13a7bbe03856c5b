"""Server-rendered pages: the agency console and the connect page a link opens.

Each action goes through a service, which records its audit event.
"""

from django.contrib import messages
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from core import choices
from core.errors import ApiError
from core.throttling import rate_require
from dashboard.pages import overview_page
from dashboard.periods import CHOICES as PERIOD_CHOICES
from dashboard.selectors import agency_headlines
from integrations.providers import PROVIDERS
from integrations.services import webhook_url
from workspaces.access import agency_user_or_404, page
from workspaces.models import Agency

from . import links, selectors, serializers, services
from .models import ConnectLink, Plan
from .plan_forms import PlanForm
from .tasks import apply_plan

HOURS_CHOICES = (24, 72, 168, 720)


def _agency_for(request, agency_id) -> Agency:
    return agency_user_or_404(request, agency_id)


def _overview_context(agency: Agency, params=None) -> dict:
    link_list = list(selectors.connect_link_list(agency=agency))
    workspaces = list(selectors.agency_workspace_list(agency=agency))
    live = selectors.live_connections({link.workspace_id for link in link_list})
    # Each workspace's headline figures for the picked period (the last 30 days unless the
    # picker names another) and the change from the period before, from the figures API's
    # selectors.
    headlines = agency_headlines(workspaces=workspaces, params=params or {})
    return {
        "agency": agency,
        "workspaces": workspaces,
        "headlines": headlines,
        "picked": headlines[0]["picked"] if headlines else None,
        "choices": PERIOD_CHOICES,
        "waiting": list(selectors.plans_waiting(agency=agency)),
        "recent": list(selectors.plans_recent(agency=agency)),
        "blueprints": list(selectors.blueprint_list(agency=agency)),
        "invitations": selectors.agency_invitations(agency=agency),
        "links": [_link_row(link, live) for link in link_list],
        "integrations": PROVIDERS.values(),
        "hours_choices": HOURS_CHOICES,
        "timezone_options": choices.timezone_choices(),
    }


def _plan_form(context: dict, data=None) -> PlanForm:
    return PlanForm(data, workspaces=context["workspaces"], blueprints=context["blueprints"])


def _link_row(link, live) -> tuple:
    """A console row: the link, its state read, each offered integration's state in the
    words the client's page and the Integrations page use, and why it no longer opens."""
    offered = selectors.connect_link_offered(link, live)
    return link, selectors.connect_link_data(link), offered, links.link_closed_reason(link, offered)


@page
def agency_overview(request, agency_id):
    agency = _agency_for(request, agency_id)
    context = _overview_context(agency, request.GET)
    # The tokens and link URLs of plans this person approved, which the worker applied
    # since: shown once, here.
    context["revealed"] = services.plan_reveal_take(agency=agency, user=request.user)
    context["path"] = request.path
    context["plan_form"] = _plan_form(context)
    return render(request, "agency/overview.html", context)


@require_POST
@page
def plan_make(request, agency_id):
    """Make a plan from the console's form and ask for its approval: the same checks and
    audit events as `POST /api/v1/plans` and its approval request."""
    agency = _agency_for(request, agency_id)
    context = _overview_context(agency)
    form = _plan_form(context, request.POST)
    if form.is_valid():
        actor = services.user_actor(request.user)
        try:
            parsed = serializers.body_parse(serializers.PlanBodySerializer, form.body())
            plan = services.plan_create(agency=agency, actor=actor, parsed=parsed)
            services.plan_request_approval(plan=plan, actor=actor)
        except ApiError as refused:
            field = form.field_of(str(refused.extra.get("field", "")))
            message = refused.message.split(": ", 1)[-1] if field else refused.message
            form.add_error(field, message[:1].upper() + message[1:])
        else:
            messages.success(
                request, "Plan made: check its changes below, then approve it to apply it."
            )
            return redirect(f"{reverse('agency-console', args=[agency.pk])}#plan-{plan.pk}")
    context.update(plan_form=form, revealed=[], path=request.path)
    return render(request, "agency/overview.html", context, status=400)


@page
def agency_workspace_overview(request, agency_id, workspace_id):
    """A client workspace's overview, read by one of its agency's users as a manager would;
    each reading is audited."""
    agency = _agency_for(request, agency_id)
    workspace = selectors.agency_workspace_list(agency=agency).filter(pk=workspace_id).first()
    if workspace is None:
        raise Http404("No such workspace.")
    viewer = services.agency_reader_record(agency=agency, workspace=workspace, user=request.user)
    return overview_page(request, workspace, viewer, agency=agency)


@require_POST
@page
def plan_decide(request, agency_id, plan_id):
    agency = _agency_for(request, agency_id)
    plan = Plan.objects.filter(agency=agency, pk=plan_id).first()
    if plan is None:
        raise Http404("No such plan.")
    approve = "approve" in request.POST
    if not approve and "decline" not in request.POST:
        messages.error(request, "Choose approve or decline.")
        return redirect("agency-console", agency_id=agency.pk)
    try:
        if approve:
            # An approval applies the plan: it counts against the agency's applies, as the
            # API's apply does.
            rate_require("plan_apply", f"agency:{agency.pk}")
        plan = services.plan_decide(
            plan=plan, user=request.user, approve=approve, reason=request.POST.get("reason", "")
        )
    except ApiError as error:
        messages.error(request, error.message)
    else:
        if approve:
            plan_id = str(plan.pk)
            transaction.on_commit(lambda: apply_plan.delay(plan_id))
        messages.success(
            request,
            "Plan approved: it is being applied now."
            if approve
            else "Plan declined; the reason is kept with it.",
        )
    return redirect("agency-console", agency_id=agency.pk)


@require_POST
@page
def connect_link_make(request, agency_id):
    agency = _agency_for(request, agency_id)
    context = _overview_context(agency)
    workspace = next(
        (w for w in context["workspaces"] if str(w.pk) == request.POST.get("workspace")), None
    )
    keys = [key for key in request.POST.getlist("integrations") if key in PROVIDERS]
    # ASCII digits only: int() also takes other scripts' digits, signs and underscores.
    raw_hours = request.POST.get("expires_in_hours", "72").strip()
    hours = int(raw_hours) if raw_hours.isascii() and raw_hours.isdigit() else 0
    problems = []
    if workspace is None:
        problems.append("Choose one of the agency's workspaces.")
    if not keys:
        problems.append("Offer at least one integration.")
    if not 1 <= hours <= 720:
        problems.append("The link lasts 1 to 720 hours.")
    if problems:
        for problem in problems:
            messages.error(request, problem)
        return redirect("agency-console", agency_id=agency.pk)
    link, url = links.connect_link_create(
        agency=agency,
        workspace=workspace,
        integrations=keys,
        expires_in_hours=hours,
        actor=services.user_actor(request.user),
    )
    # Rendered, not redirected: the URL exists only in this answer.
    return render(
        request,
        "agency/connect_link_created.html",
        {"agency": agency, "link": link, "url": url, "workspace": workspace},
    )


@require_http_methods(["GET", "POST"])
@page
def connect_link_revoke(request, agency_id, link_id):
    agency = _agency_for(request, agency_id)
    link = ConnectLink.objects.filter(agency=agency, pk=link_id).select_related("workspace").first()
    if link is None:
        raise Http404("No such connect link.")
    if request.method == "POST":
        links.connect_link_revoke(link=link, actor=services.user_actor(request.user))
        messages.success(request, "The link is revoked: it no longer opens.")
        return redirect("agency-console", agency_id=agency.pk)
    return render(request, "agency/connect_link_revoke.html", {"agency": agency, "link": link})


# The link's secret is in the page's path: "strict-origin" keeps the path out of every
# Referer (the page's own form post, its links and its assets alike) while the browser still
# sends the page's origin, which the CSRF check needs ("no-referrer" makes Chromium send
# `Origin: null` with the form, which the check refuses).
CONNECT_REFERRER_POLICY = "strict-origin"


@never_cache
@require_http_methods(["GET", "POST"])
def connect_page(request, secret):
    link = selectors.connect_link_by_secret(secret=secret)
    if link is None:
        return render(request, "agency/connect_closed.html", {"why": "unknown"}, status=404)
    errors, values, chosen = {}, {}, request.GET.get("integration")
    if request.method == "POST":
        chosen = request.POST.get("integration", "")
        values = {key: request.POST.get(key, "") for key in request.POST}
        try:
            errors = links.connection_create(link=link, integration_key=chosen, values=request.POST)
        except links.LinkClosed as closed:
            return _closed(request, closed.why)
        if not errors:
            integration = PROVIDERS[chosen]
            messages.success(request, f"{integration.name}'s credentials are saved. Thank you.")
            return redirect("connect-page", secret=secret)
        link = selectors.connect_link_by_secret(secret=secret)
    offered = selectors.connect_link_offered(link, selectors.live_connections([link.workspace_id]))
    why = links.link_closed_reason(link, offered)
    if why:
        return _closed(request, why, link=link)
    open_keys = [item["integration"].key for item in offered if item["open"]]
    if chosen not in open_keys:
        chosen = open_keys[0] if len(open_keys) == 1 else None
    safe_values = {
        field.name: values.get(field.name, "")
        for field in (PROVIDERS[chosen].credential_fields if chosen else ())
        if not field.secret
    }
    # The connection's id is known before the form is sent, so the page shows the webhook
    # URL to paste at the provider before it asks for the secret that signs its webhooks:
    # a failing connection's own (a new credential replaces its), else the link's.
    chosen_webhook_url = (
        webhook_url(links.link_connection_id(link, chosen, offered), chosen)
        if chosen and PROVIDERS[chosen].receives_webhooks
        else None
    )
    chosen_item = next((item for item in offered if item["integration"].key == chosen), None)
    response = render(
        request,
        "agency/connect.html",
        {
            "link": link,
            "workspace": link.workspace,
            "offered": offered,
            "chosen": PROVIDERS.get(chosen) if chosen else None,
            "replacing": chosen_item is not None and chosen_item["connection"] is not None,
            "errors": errors,
            "values": safe_values,
            "webhook_url": chosen_webhook_url,
        },
        status=400 if errors else 200,
    )
    response["Referrer-Policy"] = CONNECT_REFERRER_POLICY
    return response


def _closed(request, why: str, link=None):
    response = render(
        request,
        "agency/connect_closed.html",
        {"why": why, "link": link},
        status=200 if why == "completed" else 410,
    )
    response["Referrer-Policy"] = CONNECT_REFERRER_POLICY
    return response
