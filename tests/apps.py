"""The project's apps: the packages whose modules the guard tests read (docs/architecture.md
lists each)."""

PROJECT_APPS = (
    "accounts",
    "agency",
    "agentapi",
    "audit",
    "config",
    "core",
    "dashboard",
    "demo",
    "events",
    "figures",
    "integrations",
    "mcpserver",
    "notifications",
    "tokens",
    "webhooks",
    "workspaces",
)
