"""docs/metrics.md, written from the metric registry (manage.py write_metrics_doc)."""

from pathlib import Path

from django.conf import settings

from . import registry

DOC_PATH = Path(settings.BASE_DIR) / "docs" / "metrics.md"

ENDPOINT_ORDER = [
    "/api/v1/calls",
    "/api/v1/outcomes",
    "/api/v1/payments",
    "/api/v1/leads",
    "/api/v1/speed-to-lead",
    "/api/v1/eod",
    "/api/v1/attribution",
    "/api/v1/acquisition",
    "/api/v1/commission",
    "/api/v1/funnel",
    "/api/v1/webinar",
    "/api/v1/goals",
]

DATA_SHAPES = {
    "/api/v1/calls": "`data`: `booked`, `cancelled`, `taken`, `no_show`, `awaiting_outcome`, "
    "`upcoming`, `closed`, `show_rate`, `close_rate`, `offer_rate`, each a Field.",
    "/api/v1/outcomes": "`data`: `closed`, `deposit`, `follow_up`, `no_sale`, `disqualified`, "
    "`no_show`, `cancelled`, `awaiting`, `total` (Fields) and `no_sale_reasons` "
    "(`[{reason, count}]`, most frequent first; a blank reason reads `(none)`).",
    "/api/v1/payments": "`data`: `cash_collected`, `refunded`, `net_cash`, `sales`, "
    "`revenue_booked`, `average_sale`, `collection_rate`, each a Field.",
    "/api/v1/leads": "`data`: `created` (Field) and `leads`, newest first, at most `limit` "
    "(1 to 500, default 100, larger values capped at 500): `id`, `created_at`, `name`, "
    "`email`, `source`, `utm_source`, `utm_medium`, `utm_campaign`, `utm_content` (missing "
    "values read `(none)`), `status`, `setter` (`{id, name, email}` or null), "
    "`first_contact_at`.",
    "/api/v1/speed-to-lead": "`data`: `within_minutes`, `since`, `waiting` and "
    "`contacted_rate` (Fields), and `leads`: the waiting leads, longest-waiting first, with "
    "`id`, `name`, `email`, `created_at`, `minutes_waited`, `setter` and `open_url` (the "
    "lead's page in the app). `withinMinutes` is 1 to 10080, default 120. `period` is null.",
    "/api/v1/eod": "`data`: `expected`, `submitted`, `compliance_rate` (Fields) and `members`: "
    "one row per active closer, setter and SDR, by name, with `id`, `name`, `email`, `role` "
    "and the same three Fields. `submitted` at the top counts every report dated in the "
    "period, whoever filed it.",
    "/api/v1/attribution": "`data.rows`: one row per (utm_source, utm_medium, utm_campaign, "
    "utm_content) tuple of the leads created in the period, most leads first, with those four "
    "members and the Fields `leads`, `closes`, `cash_collected`, `close_rate`.",
    "/api/v1/acquisition": "`by` is `campaign` (the default: rows by `utm_source` and "
    "`utm_campaign`) or `source` (rows by `utm_source`); another value answers 400 "
    "`invalid_parameter` with `field: by`. The cohort is the leads created in the period, "
    "as /api/v1/attribution's, and the ad spend dated in the period. `data.rows`: a row for "
    "every key with spend or leads in the period (missing values read `(none)`), by spend, "
    "highest first, then leads, then the keys; each carries its keys and the Fields "
    "`spend`, `leads`, `booked`, `shows`, `closes`, `cash_collected`, `cost_per_lead`, "
    "`cost_per_booked_call`, `cost_per_show`, `cost_per_close`, `roas`. `data.total` holds "
    "the same Fields for the whole period (blended: all its leads, closes and cash against "
    "all its spend), and `data.paid` the same Fields summed over the rows that have spend in "
    "the period (paid: what the ads bought, the leads that came on their own left out; with "
    "`by=source` the rows are sources, so a source with spend counts all its campaigns). "
    "`acquisition.roas` is the one rate that may exceed 1. `GET /api/v1/ad-spend?from&to&limit` "
    "lists the spend records themselves, oldest day first.",
    "/api/v1/commission": "`data.members`: every active closer, setter and SDR, and any other "
    "member with a rule, by name: `id`, `name`, `email`, `role`, `rule` (`{basis, slot, "
    "rate, basis_amount, refunded}` or null) and `owed` (Field).",
    "/api/v1/funnel": "`data`: `funnel` (the name) and `stages`, in stage order, each "
    "`{name, count, rate}`. `funnel` defaults to `vsl` (stages `opt-in`, `application`, "
    "`booked`, `taken`, `closed`); an unknown name answers 400 `invalid_parameter` with "
    "`field: funnel` and `funnels`: the existing names. A workspace with no funnel at all "
    "answers empty stages and a `no-data-source` note.",
    "/api/v1/webinar": "`data`: `event` (the event named by `eventId`, else null) and the "
    "Fields below. `eventId` restricts the cohort to that event (then `period` is null); an "
    "unknown `eventId` answers 400 naming it. No webinar event ever recorded adds a "
    "`no-data-source` note.",
    "/api/v1/goals": "`month` is a month of the workspace's calendar, `YYYY-MM` (default: "
    "this month in the workspace timezone; another text answers 400 `invalid_parameter` "
    "with `field: month`), and `period` its first and last day. `data.goals`: the month's "
    "goals, the workspace's first (`member` null), then members by name, each in the order "
    "`leads.created`, `calls.booked`, `calls.taken`, `calls.closed`, "
    "`payments.cash_collected`, `payments.revenue_booked`, with `metric`, `member` "
    "(`{id, name}` or null) and the Fields `actual`, `target`, `expected`, `attainment`, "
    "`pace`, `projected`. `actual`, `target`, `expected` and `projected` are counts or "
    "money as the goal's metric is; `expected` and `projected` of a count carry 2 "
    "decimals. Goals are set with `PUT /api/v1/goals/{month}` (the Agent API), the "
    "import's `goal` lines and the Goals page.",
}

HEADER = """# Metrics

Every figure the Read-Only Figures API answers, from the service's one metric registry
(`figures/registry.py`). This page is generated from it (`manage.py write_metrics_doc`);
a test fails when the two differ.

## How figures are read

- **Period.** `from` and `to` are days in the workspace's timezone, both included:
  `[from 00:00, to+1 00:00)` local time, so a day across a daylight-saving change lasts
  23 or 25 hours. `to` defaults to today there and `from` to `to` minus 29 days. A date
  that does not parse, or `from` after `to`, answers 400 `invalid_parameter` with `field`.
  Unknown query parameters are ignored.
- **Envelope.** Every operation except whoami answers
  `{"workspace": {"id", "currency"}, "period": {"from", "to"} or null, "data": {...}, "notes": [...]}`.
  `period` is null where no period applies (a lead's journey, speed-to-lead, one webinar
  event named by `eventId`).
- **Field.** A figure is `{"metric", "label", "unit", "value", "unavailable"}` plus
  `currency` for money and `numerator`/`denominator` (`{"label", "value"}`) for rates and
  quotients. The label is the workspace's own (`branding.labels[metric id]`) when it sets
  one, else the English label below.
- **Counts** are integers. **Money** is kept as integer minor units and answered as a JSON
  number in major units of the workspace currency (`123450` cents answer `1234.5`), with
  `currency`. **Rates** are fractions in [0, 1] rounded half up to 4 decimals, always with
  both sides; they are cohort-based: the denominator fixes a set of records and the
  numerator counts members of that same set. Three exceptions may exceed 1, each with
  both sides: `acquisition.roas`, a return (cash collected / ad spend), and
  `goal.attainment` and `goal.pace`, since a goal can be beaten.
- **Null.** A figure that cannot be drawn honestly has `value: null` and
  `unavailable: {code, reason}`, and the envelope carries a `figure-unavailable` note whose
  subject is the metric id. A figure is never 0 in place of "unknown".
- **Calls.** A call's outcome is its latest outcome record; attendance is the call's own
  field. A call that another call reschedules no longer counts anywhere: only the final
  call counts, at its final time.
- **Members.** Rows that belong to a member carry the member's `id`, `name` and `email`.
"""


def _table(rows: dict[str, str]) -> list[str]:
    lines = ["| Code | Meaning |", "|---|---|"]
    lines += [f"| `{code}` | {text} |" for code, text in rows.items()]
    return lines


# How docs/metrics.md says a metric's direction of better (figures/registry.py).
BETTER_WORDS = {
    registry.UP: "up (a rise is good news, shown green; a fall red).",
    registry.DOWN: "down (a fall is good news, shown green; a rise red): a cost, a refund, "
    "a lost or waiting call.",
    registry.NEITHER: "neither (a volume: its change is shown without a colour).",
}


def metrics_markdown() -> str:
    lines = [HEADER.rstrip(), ""]
    lines += ["## `unavailable.code` values", ""]
    lines += _table(registry.UNAVAILABLE_CODES)
    lines += ["", "## `notes[].code` values", ""]
    lines += _table(registry.NOTE_CODES)
    lines += [""]
    for endpoint in ENDPOINT_ORDER:
        lines += [f"## {endpoint}", "", DATA_SHAPES[endpoint], ""]
        for metric in registry.METRIC_LIST:
            if metric.endpoint != endpoint:
                continue
            lines += [f"### `{metric.id}` — {metric.label} ({metric.unit})", ""]
            lines += [metric.definition, ""]
            if metric.numerator or metric.denominator:
                lines += [
                    f"- Numerator: {metric.numerator}",
                    f"- Denominator: {metric.denominator}",
                ]
            lines += [f"- Null: {metric.null_when or 'never.'}"]
            lines += [f"- Better: {BETTER_WORDS[metric.better]}"]
            lines += [f"- Example: {registry.EXAMPLES[metric.id]}", ""]
    lines += [
        "## /api/v1/series",
        "",
        "`GET /api/v1/series?metric=ID&from=&to=&interval=day|week|month` answers one figure "
        "per local day, week (Monday to Sunday) or calendar month of the period in "
        '`data.points`, oldest first: `[{"from", "to", "field"}]` with local dates, '
        "the first and last points clipped to the period. `data` also carries `metric` and "
        "`interval` (default `day`). Each point's `field` is what the metric's own endpoint "
        "answers for the point's days: the same aggregate, grouped in the database by the "
        "local day, week or month of the workspace timezone (a week that crosses a "
        "daylight-saving change is still Monday 00:00 to Monday 00:00 local). Every day, "
        "week or month has a point: a count or money figure with no record is 0; a rate "
        "with an empty denominator is null with `empty-denominator`.",
        "",
        "Metrics with a series: every count, money and rate metric of /api/v1/calls, "
        "/api/v1/outcomes and /api/v1/payments, `leads.created`, and `acquisition.spend`, "
        "`acquisition.cost_per_lead` and `acquisition.roas` (each point: the spend dated "
        "in its days against the leads created in them). A missing or unknown "
        "`metric` answers 400 `invalid_parameter` with `field: metric` and `metrics`: the "
        "ids that have a series; another `interval`, or a period that would make more than 1000 "
        "points (for example 3 years by day), answers 400 with `field: interval`. The points "
        "are counted before any is computed, so the whole calendar by day (0001-01-01 to "
        "9999-12-30, 3,652,058 points) is refused as fast as 3 years; the last weeks and "
        "months of the calendar are answered, clipped to the period.",
        "",
        "A goal's series: `GET /api/v1/series?metric=goal.actual|goal.expected&goal_metric="
        "ID&member=&month=YYYY-MM&interval=day|week` answers one point per local day or week "
        "of the goal's month (the period is the whole month; `from` and `to` are refused "
        "naming them). `goal.actual` is the goal's metric over the month through the point's "
        "last day, read as /api/v1/goals reads it (the member's slot, or the whole workspace "
        "without `member`), null with `not-computed` for a point that ends after today; "
        "`goal.expected` is target x the month's days through the point's last day / the "
        "month's days (money to the cent, counts to 2 decimals), so the two draw the actual "
        "against its expected line. `data` also carries `goal_metric` and `member` "
        "(`{id, name}` or null). A missing or unknown `goal_metric`, or no goal set on it "
        "for the month and member, answers 400 with `field: goal_metric`; another "
        "workspace's member 400 with `field: member`.",
        "",
        "## /api/v1/leaderboard",
        "",
        "`GET /api/v1/leaderboard?from=&to=&role=closer|setter` ranks the members of the "
        "role (default `closer`; another value answers 400 `invalid_parameter` with "
        "`field: role`) in `data.members`, each `{rank, member: {id, name}, ...Fields}`. "
        "Closers carry `taken`, `closed`, `close_rate` (`calls.taken`, `calls.closed`, "
        "`calls.close_rate` of the calls they hold as closer) and `cash_collected` "
        "(`payments.cash_collected` of the sales they closed), ranked by cash collected, "
        "then closes. Setters carry `booked`, `taken` and `show_rate` of the calls they "
        "set, ranked by calls taken, then booked. Equal members share a rank (1, 1, 3) and "
        "are listed by name. Every active member of the role is listed, and a deactivated "
        "one who has figures in the period.",
        "",
        "## /api/v1/leads/{id}/journey and /api/v1/audit-events",
        "",
        "No figures: `data.lead`, `data.identifiers` (which identifiers the ad platforms may "
        "know the lead by: `phone`, `fbc`, `fbp`, `gclid`, `gbraid`, `wbraid`; their values are "
        "never answered) and `data.events` (every record of the lead in time order, each "
        "with `at` and `type`: lead.created, touch, webinar.registered, webinar.joined, "
        "webinar.left, call.booked, call.rescheduled, call.cancelled, call.showed, "
        "call.no_show, outcome, sale, payment, refund, chargeback, funnel.stage; a touch "
        "says whether it counts as a first contact, `counts_as_first_contact`, and when "
        "not why, `not_first_contact_reason`: see `speed_to_lead.waiting`); and "
        "`data.events` of the audit log, newest first, each with `at`, `actor` "
        "(`kind`, `id`, `label`), `action`, `target` (`type`, `id`) and `reason`.",
        "",
    ]
    return "\n".join(lines)
