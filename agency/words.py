"""A plan's changes said in words, as the console shows them."""

from integrations.providers import PROVIDERS

SETTING_NAMES = {
    "name": "the name",
    "timezone": "the time zone",
    "working_days": "the working days",
    "embedded_origins": "the embedded apps' origins",
    "embedded_redirect_uri": "the embedded app's return address",
    "logo": "the logo",
    "colours": "the colours",
    "labels": "the labels",
    "modules": "the modules",
}
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _value(key: str, value) -> str:
    if key == "working_days" and isinstance(value, list):
        return ", ".join(DAY_NAMES[day] for day in value if isinstance(day, int) and 0 <= day < 7)
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


def change_words(change: dict) -> str:
    """One change of a plan, as a sentence ("Invite closer ann@acme.example")."""
    op, target, detail = change.get("op"), change.get("target", ""), change.get("detail") or {}
    if op == "workspace.create":
        return f"Create workspace {detail.get('name') or target}"
    if op == "workspace.update":
        return f"Change workspace {target}"
    if op == "settings.update":
        key = detail.get("key", "")
        name = SETTING_NAMES.get(key, key.replace("_", " "))
        return f"Set {name} to {_value(key, detail.get('value'))}"
    if op == "member.add":
        return f"Invite {detail.get('role', 'member')} {detail.get('email') or target}"
    if op in {"programme.add", "programme.update"}:
        verb = "Add" if op == "programme.add" else "Change"
        price = detail.get("price")
        return f"{verb} programme {target}" + (f" at {price}" if price is not None else "")
    if op == "integration.connect":
        provider = PROVIDERS.get(target)
        return f"Make a connect link for {provider.name if provider else target}"
    return f"{op} {target}".strip()
