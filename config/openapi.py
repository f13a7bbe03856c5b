"""The two served API descriptions: one generator setting each, shared by the views,
`make openapi` (which writes the committed copies in docs/openapi/) and the tests."""

FIGURES = {
    "TITLE": "Read-Only Figures API",
    "DESCRIPTION": (
        "Live, read-only access to one workspace's sales figures. Every operation is a GET "
        "with a bearer token (a workspace API token `svc_…`, or the session token of an "
        "owner, admin or manager). Every answer except whoami is an envelope whose `notes` "
        "list what could not be answered; a figure that cannot be drawn honestly has "
        "`value: null` and `unavailable`. Errors: `{error: {reason, message}}`."
    ),
    "SECURITY": [{"bearer": []}],
}

AGENT = {
    "TITLE": "Agent and Agency API",
    "DESCRIPTION": (
        "Display config, member board, change log, forms and drafts for embedded apps and "
        "agents (workspace API tokens and members' session tokens), and the agency API: "
        "agency workspaces, plans, blueprints and connect links (agency tokens `agy_…`). "
        "Every write needs an `Idempotency-Key` header (8 to 200 characters); a retry with "
        "the same key answers the first answer with `Idempotent-Replayed: true`. "
        "Errors: `{error: {reason, message}}`."
    ),
    "SECURITY": [{"bearer": []}, {"agencyBearer": []}],
}
