"""Every signed-in page goes through the one page policy (workspaces.access.page: signed in,
never cached, the 403 page for a role that may not), and the public pages are named."""

from django.urls import get_resolver

# The pages a person reaches without an account, each for its reason.
PUBLIC = {
    "": "the home: sends a signed-in person on, anyone else to sign in",
    "accounts/login/": "signing in",
    "accounts/logout/": "signing out",
    "accounts/password-reset/": "a forgotten password",
    "accounts/password-reset/sent/": "a forgotten password",
    "accounts/reset/<uidb64>/<token>/": "a forgotten password's link",
    "accounts/reset/done/": "a forgotten password",
    "invite/<str:token>": "an invitation's link (a new person has no account yet)",
    "connect/<str:secret>": "a connect link (the client has no account)",
    "app/callback": "the end of an embedded app's sign-in",
}
SIGNED_IN_PREFIXES = ("app/", "settings/", "agency/", "accounts/", "invitations/")


def _routes(resolver, prefix=""):
    for pattern in resolver.url_patterns:
        if hasattr(pattern, "url_patterns"):
            yield from _routes(pattern, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern.callback


def pages_outside_the_policy(routes) -> list[str]:
    return sorted(
        route
        for route, view in routes
        if route.startswith(SIGNED_IN_PREFIXES)
        and route not in PUBLIC
        and not getattr(view, "page_policy", False)
    )


def test_every_signed_in_page_goes_through_the_page_policy():
    routes = list(_routes(get_resolver()))
    assert pages_outside_the_policy(routes) == []
    # The check sees the pages: the team's, the agency's, a person's invitations.
    seen = {route for route, view in routes if getattr(view, "page_policy", False)}
    assert {
        "settings/<uuid:workspace_id>/members/",
        "agency/<uuid:agency_id>/",
        "invitations/",
        "app/<uuid:workspace_id>/calls/",
    } <= seen
    assert set(PUBLIC) <= {route for route, _view in routes}


def test_the_check_sees_a_page_outside_it():
    def bare(request):
        return None

    assert pages_outside_the_policy([("settings/<uuid:workspace_id>/x/", bare)]) == [
        "settings/<uuid:workspace_id>/x/"
    ]
