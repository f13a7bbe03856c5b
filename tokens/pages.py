"""Server-rendered settings pages: API tokens, agency tokens and embedded apps.

Every page needs a signed-in person; workspace settings need an active owner or admin
membership of that workspace, agency pages need the person to be one of the agency's
users. To anyone else a workspace or agency does not exist (404). Every write goes through a service in tokens.services, which records its audit
event.
"""

from django.conf import settings as django_settings
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from audit.services import Actor
from core.crypto import decrypt_text, encrypt_text
from core.errors import InvalidField
from workspaces.access import agency_user_or_404, member_or_404, page
from workspaces.models import Agency, Member, Workspace

from . import selectors, services
from .forms import (
    EmbeddedAppCreateForm,
    OriginsForm,
    RedirectUrisForm,
    TokenMintForm,
    agency_token_form,
)

MINTED_SESSION_KEY = "tokens.minted"


def _actor(request) -> Actor:
    return Actor.for_user(request.user)


def _admin_workspace(request, workspace_id) -> Workspace:
    """The workspace, if the signed-in person is an active owner or admin of it (the page
    policy of workspaces.access: 404 for anyone else, 403 for another role)."""
    workspace, _member = member_or_404(
        request, workspace_id, roles=Member.ADMIN_ROLES, doing="manages its settings"
    )
    return workspace


def _user_agency(request, agency_id) -> Agency:
    return agency_user_or_404(request, agency_id)


# --- Sign-in --------------------------------------------------------------------------


# --- Tokens (workspace and agency share the page) ---------------------------------------


def _minted_once(request, *, owner_key: str):
    """The token minted just before this render, popped so that no reload shows it."""
    minted = request.session.pop(MINTED_SESSION_KEY, None)
    if not minted or minted.get("owner") != owner_key:
        return None
    return {
        "id": minted["id"],
        "name": minted["name"],
        "plaintext": decrypt_text(minted["secret"].encode()),
    }


def _minter(request, workspace):
    """The signed-in person's membership of the workspace, recorded on the token they mint."""
    if workspace is None:
        return None
    return Member.objects.filter(workspace=workspace, user=request.user, is_active=True).first()


def _tokens_page(request, *, workspace=None, agency=None):
    owner = workspace or agency
    owner_key = f"{'workspace' if workspace else 'agency'}:{owner.pk}"
    make_form = TokenMintForm if workspace is not None else agency_token_form
    status = 200
    if request.method == "POST":
        form = make_form(request.POST)
        if form.is_valid():
            try:
                minted = services.token_mint(
                    actor=_actor(request),
                    name=form.cleaned_data["name"],
                    scopes=form.cleaned_data["scopes"],
                    workspace=workspace,
                    agency=agency,
                    created_by=request.user,
                    member=_minter(request, workspace),
                )
            except InvalidField as error:
                form.add_error(error.extra.get("field", "name"), error.message)
            else:
                # Kept encrypted for the one redirect that follows, then popped.
                request.session[MINTED_SESSION_KEY] = {
                    "owner": owner_key,
                    "id": str(minted.token.pk),
                    "name": minted.token.name,
                    "secret": encrypt_text(minted.plaintext).decode(),
                }
                return redirect(request.path)
        status = 400
    else:
        form = make_form()
    context = {
        "workspace": workspace,
        "agency": agency,
        "owner": owner,
        "form": form,
        "tokens": selectors.api_token_list(workspace=workspace, agency=agency),
        "minted": _minted_once(request, owner_key=owner_key) if request.method == "GET" else None,
        "section": "tokens",
    }
    return render(request, "tokens/tokens.html", context, status=status)


def _token_revoke_page(request, *, workspace=None, agency=None, token_id):
    token = selectors.api_token_list(workspace=workspace, agency=agency).filter(pk=token_id).first()
    if token is None:
        raise Http404("No token of this workspace or agency has that id.")
    back = (
        reverse("settings-tokens", args=[workspace.pk])
        if workspace is not None
        else reverse("agency-tokens", args=[agency.pk])
    )
    if request.method == "POST":
        services.token_revoke(
            actor=_actor(request), token=token, reason=request.POST.get("reason", "")[:200]
        )
        messages.success(request, f"Revoked {token.name} ({token.display}).")
        return redirect(back)
    return render(
        request,
        "tokens/token_revoke.html",
        {
            "workspace": workspace,
            "agency": agency,
            "owner": workspace or agency,
            "token": token,
            "back": back,
            "section": "tokens",
        },
    )


@page
def workspace_tokens(request, workspace_id):
    return _tokens_page(request, workspace=_admin_workspace(request, workspace_id))


@page
def workspace_token_revoke(request, workspace_id, token_id):
    workspace = _admin_workspace(request, workspace_id)
    return _token_revoke_page(request, workspace=workspace, token_id=token_id)


@page
def agency_tokens(request, agency_id):
    return _tokens_page(request, agency=_user_agency(request, agency_id))


@page
def agency_token_revoke(request, agency_id, token_id):
    return _token_revoke_page(request, agency=_user_agency(request, agency_id), token_id=token_id)


# --- Embedded apps ----------------------------------------------------------------------


def _apps_forms(workspace, apps) -> dict:
    """The apps page's forms, unbound: allowed origins, a new app, each app's redirect URIs."""
    return {
        "origins_form": OriginsForm(initial={"origins": workspace.embedded_origins or []}),
        "create_form": EmbeddedAppCreateForm(
            initial={"name": f"{workspace.name} app"} if not apps else None
        ),
        "uri_forms": {
            app.pk: RedirectUrisForm(
                initial={"redirect_uris": app.application.redirect_uris.split()},
                prefix=str(app.pk),
            )
            for app in apps
        },
    }


# Each POST action of the apps page saves its form and redirects, or leaves the bound form
# in ``forms`` with its errors and returns None.


def _origins_save(request, *, workspace, apps, forms):
    form = forms["origins_form"] = OriginsForm(request.POST)
    if not form.is_valid():
        return None
    try:
        services.workspace_origins_set(
            actor=_actor(request), workspace=workspace, origins=form.cleaned_data["origins"]
        )
    except InvalidField as error:
        form.add_error("origins", error.message)
        return None
    messages.success(request, "Allowed origins saved.")
    return redirect(request.path)


def _app_create(request, *, workspace, apps, forms):
    form = forms["create_form"] = EmbeddedAppCreateForm(request.POST)
    if not form.is_valid():
        return None
    try:
        services.embedded_app_create(
            actor=_actor(request),
            workspace=workspace,
            name=form.cleaned_data["name"],
            redirect_uris=form.cleaned_data["redirect_uris"],
        )
    except InvalidField as error:
        form.add_error(error.extra.get("field", "name"), error.message)
        return None
    messages.success(request, "Embedded app created.")
    return redirect(request.path)


def _redirect_uris_save(request, *, workspace, apps, forms):
    app = next((a for a in apps if str(a.pk) == request.POST.get("app")), None)
    if app is None:
        raise Http404("No embedded app of this workspace has that id.")
    form = forms["uri_forms"][app.pk] = RedirectUrisForm(request.POST, prefix=str(app.pk))
    if not form.is_valid():
        return None
    try:
        services.embedded_app_update(
            actor=_actor(request),
            embedded_app=app,
            redirect_uris=form.cleaned_data["redirect_uris"],
        )
    except InvalidField as error:
        form.add_error("redirect_uris", error.message)
        return None
    messages.success(request, "Redirect URIs saved.")
    return redirect(request.path)


APP_ACTIONS = {
    "origins": _origins_save,
    "create_app": _app_create,
    "redirect_uris": _redirect_uris_save,
}


@page
def workspace_apps(request, workspace_id):
    workspace = _admin_workspace(request, workspace_id)
    apps = list(selectors.embedded_app_list(workspace=workspace))
    forms = _apps_forms(workspace, apps)
    status = 200
    if request.method == "POST":
        action = APP_ACTIONS.get(request.POST.get("action"))
        if action is None:
            raise Http404("Unknown action.")
        saved = action(request, workspace=workspace, apps=apps, forms=forms)
        if saved is not None:
            return saved
        status = 400
    return render(
        request,
        "tokens/apps.html",
        {
            "workspace": workspace,
            "owner": workspace,
            "origins_form": forms["origins_form"],
            "create_form": forms["create_form"],
            "apps": [(app, forms["uri_forms"][app.pk]) for app in apps],
            "section": "apps",
            "api_audience": django_settings.API_AUDIENCE,
        },
        status=status,
    )


# --- The landing of a plan's embedded app -----------------------------------------------


@never_cache
def embedded_app_landing(request):
    """The return address a plan gives a new workspace's embedded app until the workspace
    sets its own: the sign-in ends here, and the person goes on to their home."""
    response = render(request, "tokens/app_landing.html", {"error": request.GET.get("error")})
    # The address carries the sign-in's one-use code: no Referer takes it anywhere.
    response["Referrer-Policy"] = "no-referrer"
    return response
