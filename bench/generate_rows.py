"""The rows of bench/generate.py's load, drawn from one ``random.Random``: the ids and
times, what a workspace's stories need (`Story`), the COPY writers (`Writers`, one
connection per bulk table) and the stories themselves: each lead with its touches,
registrations, calls, outcomes, sales, payments and refunds (`lead_story`), the members'
end-of-day reports, a year of daily ad spend and the audit events.
"""

import bisect
import contextlib
import json
import random
import uuid
from datetime import UTC, datetime, timedelta

import psycopg

DAY = 86400.0
HOUR = 3600.0
MINUTE = 60.0

# UTM tags as a real account has them: each campaign runs on one source and medium with a
# few creatives of its own (24 campaigns x 4 creatives), plus organic and untagged leads.
_UTM_CHANNELS = [
    ("facebook", "paid_social"),
    ("instagram", "paid_social"),
    ("google", "cpc"),
    ("youtube", "video"),
    ("tiktok", "paid_social"),
    ("newsletter", "email"),
]
UTM_TAGS = [("", "", "", ""), ("google", "organic", "", ""), ("referral", "", "", "")] + [
    (*_UTM_CHANNELS[c % len(_UTM_CHANNELS)], f"campaign-{c:02d}", f"creative-{c:02d}-{k}")
    for c in range(24)
    for k in range(4)
]
UTM_WEIGHTS = [15.0, 10.0, 3.0] + [72.0 / (c + 2) / 4 for c in range(24) for _ in range(4)]
CHANNELS = ["call", "sms", "email", "dm", "whatsapp"]
CONTRACT_VALUES = [150000, 300000, 500000, 800000, 1200000]
OUTCOME_RESULTS = ["closed", "deposit", "follow_up", "no_sale", "disqualified"]
OUTCOME_WEIGHTS = [0.41, 0.05, 0.24, 0.22, 0.08]
AUDIT_ACTIONS = ["form.filed", "draft.created", "draft.filed", "display.updated", "token.minted"]


def libpq_url(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


# --- deterministic helpers ---------------------------------------------------------------


class Ids:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def __call__(self) -> uuid.UUID:
        return uuid.UUID(int=self.rng.getrandbits(128), version=4)


def ts(x: float) -> datetime:
    return datetime.fromtimestamp(x, UTC)


class Story:
    """Everything of one workspace that the per-lead stories need."""

    def __init__(
        self, *, ws, members, funnel_id, stage_ids, events, utm_ids, start, end, tz, scale
    ):
        self.ws = ws
        self.utm_ids = utm_ids  # {UTM tags: UtmTags id}
        self.members = members  # list of (id, role, joined_at date)
        self.closers = [m[0] for m in members if m[1] == "closer"]
        self.setters = [m[0] for m in members if m[1] in ("setter", "sdr")]
        self.funnel_id = funnel_id
        self.stage_ids = stage_ids
        self.events = events  # sorted list of (starts_at epoch, pitch_at epoch, id)
        self.event_starts = [e[0] for e in events]
        self.start = start
        self.end = end
        self.tz = tz
        self.scale = scale


class Writers:
    """One COPY per bulk table, each on its own connection, written row by row."""

    def __init__(self, url: str, tables: dict[str, str]):
        self.stack = contextlib.ExitStack()
        self.copies = {}
        self.conns = []
        self.counts = dict.fromkeys(tables, 0)
        for model, (table, columns) in tables.items():
            conn = self.stack.enter_context(psycopg.connect(libpq_url(url)))
            conn.execute("SET synchronous_commit = off")
            conn.execute(f"TRUNCATE {table}")
            cols = ", ".join(columns)
            copy = self.stack.enter_context(
                conn.cursor().copy(f"COPY {table} ({cols}) FROM STDIN (FREEZE)")
            )
            self.copies[model] = copy
            self.conns.append(conn)

    def row(self, model: str, values) -> None:
        self.copies[model].write_row(values)
        self.counts[model] += 1

    def close(self) -> None:
        self.stack.close()  # ends every COPY and commits every connection


def lead_story(s: Story, w: Writers, rng: random.Random, new_id, t: float, n: int) -> bool:
    """Write one lead and everything that happened to it. Returns True when it bought."""
    ws, end = s.ws, s.end
    r = rng.random
    lead_id = new_id()
    setter = rng.choice(s.setters) if s.setters and r() < 0.6 else None
    idx = n
    funnel = []  # (stage position, at)

    # Touches; the first touch by a member is the lead's first contact.
    first_contact = None
    k = rng.choices((0, 1, 2, 3), (0.15, 0.40, 0.30, 0.15))[0]
    at = t
    touches = []
    for _ in range(k):
        at += rng.expovariate(1 / (2 * HOUR)) + MINUTE
        if at > end:
            break
        member = (setter or rng.choice(s.setters)) if r() < 0.85 else None
        touches.append((new_id(), member, rng.choice(CHANNELS), at))
        if member is not None and first_contact is None:
            first_contact = at

    if r() < 0.7:
        funnel.append((0, t))
        if r() < 0.5 and t + 20 * MINUTE <= end:
            funnel.append((1, t + rng.uniform(2 * MINUTE, 20 * MINUTE)))

    # Webinar registration for the next event after the lead arrived.
    registration = None
    if s.events and r() < 0.25:
        i = bisect.bisect_right(s.event_starts, t)
        if i < len(s.events):
            starts, _pitch, event_id = s.events[i]
            joined = left = None
            if starts <= end and r() < 0.55:
                joined = starts + rng.uniform(-5 * MINUTE, 20 * MINUTE)
                left = joined + rng.uniform(5 * MINUTE, 100 * MINUTE)
                left = min(left, end)
            registration = (new_id(), event_id, t + rng.uniform(10, 600), joined, left, starts)

    # Calls, with reschedules; only the last of a chain counts.
    calls = []  # rows, mutable lists
    live = None
    bought = False
    sales = []
    outcomes = []
    if s.closers and r() < 0.36:
        booked = t + rng.expovariate(1 / (2 * DAY)) + 5 * MINUTE
        if registration and registration[3] is not None and r() < 0.5:
            booked = max(booked, registration[3] + rng.uniform(30 * MINUTE, 2 * DAY))
        if booked <= end:
            closer = rng.choice(s.closers)
            previous = None
            while True:
                scheduled = booked + rng.uniform(0.5 * DAY, 10 * DAY)
                scheduled = scheduled - scheduled % (15 * MINUTE)
                call = [
                    new_id(),
                    ws,
                    f"c{idx}-{len(calls)}",
                    lead_id,
                    ts(booked),
                    ts(scheduled),
                    closer,
                    setter,
                    "scheduled",
                    previous[0] if previous else None,
                    False,
                    "",
                    None,
                    "",
                    "",
                ]
                calls.append(call)
                if previous is not None:
                    previous[10] = True  # replaced
                previous = call
                rebook = booked + rng.uniform(MINUTE, max(scheduled - booked, 2 * MINUTE))
                if r() < 0.12 and rebook <= end:
                    booked = rebook
                    continue
                break
            live = previous
            funnel.append((2, live[4].timestamp()))
            scheduled = live[5].timestamp()
            if r() < 0.06:
                live[8] = "cancelled"
            elif scheduled + HOUR <= end and r() < 0.98:
                showed = r() < 0.7
                live[11] = "showed" if showed else "no_show"
                if showed:
                    funnel.append((3, scheduled))
                    oat = scheduled + rng.uniform(40 * MINUTE, 120 * MINUTE)
                    results = []
                    if r() < 0.12:
                        results.append("follow_up")
                    results.append(rng.choices(OUTCOME_RESULTS, OUTCOME_WEIGHTS)[0])
                    for j, result in enumerate(results):
                        at = oat + j * rng.uniform(DAY, 7 * DAY)
                        if at > end:
                            break
                        offer = result != "disqualified"
                        outcomes.append((new_id(), live[0], None, closer, result, offer, at))
                        live[13] = result  # the latest outcome's result
                        live[12] = offer
                        if result == "closed" or (result == "deposit" and r() < 0.5):
                            sales.append(("call", live[0], at, closer, setter))
                            funnel.append((4, at))

    # Past-call outcomes and DM closes: sales without a call.
    if not sales and s.closers and r() < 0.012:
        at = t + rng.uniform(DAY, 20 * DAY)
        if at <= end:
            closer = rng.choice(s.closers)
            result = "closed" if r() < 0.55 else rng.choice(["no_sale", "follow_up"])
            outcomes.append((new_id(), None, lead_id, closer, result, True, at))
            if result == "closed":
                sales.append(("past_call", None, at, closer, setter))
    if not sales and s.setters and r() < 0.006:
        at = t + rng.uniform(HOUR, 10 * DAY)
        if at <= end:
            sales.append(("dm", None, at, None, setter or rng.choice(s.setters)))

    status = "new"
    if first_contact is not None:
        status = "contacted"
    if live is not None:
        status = "booked"
    if sales:
        status = "won"
        bought = True
    elif live is not None and live[13] in ("no_sale", "disqualified"):
        status = "lost"

    # Only the last call of a chain counts, unless it was cancelled.
    booking = live is not None and live[8] != "cancelled"
    utm = rng.choices(UTM_TAGS, UTM_WEIGHTS)[0]
    cash = 0
    for j, (origin, call_id, at, closer, sale_setter) in enumerate(sales):
        cash += sale_write(
            s, w, rng, new_id, f"{idx}-{j}", lead_id, origin, call_id, at, closer, sale_setter
        )
    w.row(
        "Lead",
        (
            lead_id,
            ws,
            f"l{idx}",
            f"Lead {idx}",
            f"lead{idx}@example.test",
            ts(t),
            status,
            setter,
            *utm,
            ts(first_contact) if first_contact is not None else None,
            bool(sales),
            cash,
            s.utm_ids[utm],
            booking,
            booking and live[11] == "showed",
        ),
    )
    for j, (tid, member, channel, at) in enumerate(touches):
        w.row("Touch", (tid, ws, f"t{idx}-{j}", lead_id, member, channel, ts(at)))
    for call in calls:
        w.row("Call", call)
    for j, (oid, call_id, olead, member, result, offer, at) in enumerate(outcomes):
        w.row(
            "Outcome",
            (oid, ws, f"o{idx}-{j}", call_id, olead, member, result, offer, "", "", ts(at)),
        )
    if registration is not None:
        rid, event_id, registered, joined, left, starts = registration
        booked_after = any(call[4] >= ts(starts) for call in calls)  # call[4]: booked_at
        w.row(
            "Registration",
            (
                rid,
                ws,
                f"r{idx}",
                event_id,
                lead_id,
                ts(registered),
                ts(joined) if joined is not None else None,
                ts(left) if left is not None else None,
                booked_after,
            ),
        )
    reached = {}  # stage position -> at; a lead has at most one event per stage here
    for position, at in funnel:
        if at <= end:
            w.row(
                "FunnelEvent",
                (
                    new_id(),
                    ws,
                    f"f{idx}-{position}",
                    lead_id,
                    s.funnel_id,
                    s.stage_ids[position],
                    ts(at),
                ),
            )
            reached[position] = at
    if 0 in reached:
        # Stages reached in order: each at or after the time the one before was reached.
        depth, last = 1, reached[0]
        while depth in reached and reached[depth] >= last:
            last = reached[depth]
            depth += 1
        w.row("FunnelProgress", (ws, s.funnel_id, lead_id, ts(reached[0]), depth))
    return bought


def sale_write(s, w, rng, new_id, key, lead_id, origin, call_id, closed, closer, setter) -> int:
    """Write a sale with its instalments, payments and refund; returns the succeeded cash."""
    ws, end = s.ws, s.end
    value = rng.choice(CONTRACT_VALUES)
    plan = rng.choices(["paid_in_full", "split", "financed"], (0.5, 0.35, 0.15))[0]
    sale_id = new_id()
    payments = []
    if plan == "split":
        parts = 3
        amount = value // parts
        for i in range(parts):
            due = closed + i * 30 * DAY
            part = amount if i < parts - 1 else value - amount * (parts - 1)
            w.row("Instalment", (sale_id, ts(due).date(), part))
            paid = due + rng.uniform(0, 2 * DAY)
            if paid > end:
                continue
            if rng.random() < 0.06:
                payments.append((paid, part, "failed"))
                paid += rng.uniform(DAY, 5 * DAY)
                if paid > end:
                    continue
            payments.append((paid, part, "succeeded"))
    else:
        paid = closed + rng.uniform(0, DAY)
        if paid <= end:
            payments.append((paid, value, "succeeded"))
    first_ok = None
    cash = 0
    for j, (paid, amount, status) in enumerate(payments):
        pid = new_id()
        w.row(
            "Payment", (pid, ws, f"p{key}-{j}", sale_id, ts(paid), amount, status, closer, setter)
        )
        if status == "succeeded":
            cash += amount
            if first_ok is None:
                first_ok = (pid, paid, amount)
    w.row(
        "Sale",
        (
            sale_id,
            ws,
            f"s{key}",
            lead_id,
            call_id,
            origin,
            ts(closed),
            closer,
            setter,
            value,
            plan,
            cash,
        ),
    )
    if first_ok is not None and rng.random() < 0.03:
        pid, paid, amount = first_ok
        at = paid + rng.uniform(5 * DAY, 40 * DAY)
        if at <= end:
            kind = "chargeback" if rng.random() < 0.2 else "refund"
            refund = amount if rng.random() < 0.7 else amount // 2
            w.row("Refund", (new_id(), ws, f"x{key}", pid, sale_id, kind, ts(at), refund))
    return cash


def eod_write(s: Story, w: Writers, rng: random.Random, new_id, working_days) -> None:
    tz = s.tz
    first = datetime.fromtimestamp(s.start, tz).date()
    last = datetime.fromtimestamp(s.end, tz).date()
    for member_id, role, joined in s.members:
        if role not in ("closer", "setter", "sdr"):
            continue
        day = max(first, joined or first)
        while day <= last:
            due = day.weekday() in working_days
            if rng.random() < (0.88 if due else 0.02):
                submitted = datetime(day.year, day.month, day.day, 17, tzinfo=tz) + timedelta(
                    seconds=rng.uniform(0, 3 * HOUR)
                )
                if submitted.timestamp() <= s.end:
                    fields = json.dumps(
                        {
                            "calls_taken": rng.randint(0, 9),
                            "offers": rng.randint(0, 5),
                            "notes": "",
                        }
                    )
                    w.row(
                        "EodReport",
                        (
                            new_id(),
                            s.ws,
                            f"e{member_id.hex[:8]}-{day}",
                            member_id,
                            day,
                            submitted,
                            fields,
                        ),
                    )
            day += timedelta(days=1)


# Ad spend: a year of daily spend for 50 campaigns, the 24 that bring leads (UTM_TAGS) and
# 26 more on the same channels that bring none in the data.
SPEND_CAMPAIGNS = 50
SPEND_DAYS = 365
_PLATFORMS = {
    "facebook": "meta",
    "instagram": "meta",
    "google": "google",
    "youtube": "google",
    "tiktok": "tiktok",
    "newsletter": "newsletter",
}


def spend_write(s: Story, w: Writers, rng: random.Random, new_id) -> None:
    last = datetime.fromtimestamp(s.end, s.tz).date()
    for c in range(SPEND_CAMPAIGNS):
        source, medium = _UTM_CHANNELS[c % len(_UTM_CHANNELS)]
        platform = _PLATFORMS[source]
        campaign = f"campaign-{c:02d}"
        budget = rng.randint(5_000, 60_000)  # minor units a day
        for back in range(SPEND_DAYS - 1, -1, -1):
            day = last - timedelta(days=back)
            amount = int(budget * rng.uniform(0.7, 1.3))
            w.row(
                "AdSpend",
                (
                    new_id(),
                    s.ws,
                    f"{platform}-{c}-{day}",
                    day,
                    platform,
                    source,
                    medium,
                    campaign,
                    "",
                    str(9_000_000 + c),
                    campaign,
                    amount // 2,
                    amount // 200,
                    amount,
                ),
            )


def audit_write(s: Story, w: Writers, rng: random.Random, new_id, count: int) -> None:
    from audit.rendering import event_json  # noqa: PLC0415 (needs django.setup())

    times = sorted(rng.uniform(s.start, s.end) for _ in range(count))
    for at in times:
        member_id, role, _ = rng.choice(s.members)
        action = rng.choice(AUDIT_ACTIONS)
        columns = {
            "actor_kind": "member_session",
            "actor_id": str(member_id),
            "actor_label": role,
            "action": action,
            "target_type": action.split(".")[0],
            "target_id": str(new_id()),
            "reason": "",
        }
        w.row(
            "AuditEvent",
            (
                new_id(),
                s.ws,
                None,
                ts(at),
                *columns.values(),
                "{}",
                event_json(at=ts(at), **columns),
            ),
        )
