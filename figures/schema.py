"""OpenAPI pieces of the figures API: error bodies, the Envelope, the Field, parameters.

Descriptions and examples are drawn from the metric registry, so the served description
says what the code does.
"""

from types import SimpleNamespace

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers

from core.openapi import ErrorSerializer, error_example, error_responses
from workspaces.identifiers import IDENTIFIERS
from workspaces.models import Goal
from workspaces.services.goals import MONTH_PATTERN

from . import envelope, registry, selectors

ErrorBody = ErrorSerializer

_CATALOGUE = {
    400: (
        "A parameter cannot be used; `field` names it.",
        [
            error_example(
                "invalid_parameter",
                "invalid_parameter",
                "from must be a date written YYYY-MM-DD.",
                field="from",
            )
        ],
    ),
    401: (
        "No token, or a token not accepted.",
        [
            error_example(
                "unauthenticated",
                "unauthenticated",
                "Send a valid token in the Authorization header: 'Authorization: Bearer <token>'.",
            )
        ],
    ),
    403: ("Refused: see error.reason.", []),
    404: (
        "No lead of this workspace has that id (another workspace's lead, or not a UUID, "
        "answers the same).",
        [error_example("not_found", "not_found", "No lead of this workspace has that id.")],
    ),
}
ERROR_RESPONSES = error_responses(ErrorBody, _CATALOGUE, (400, 401, 403))


# --- The Envelope, the Field and the figures operations ------------------------------

ERROR_404 = error_responses(ErrorBody, _CATALOGUE, (404,))[404]


# Classes, not instances: a serializer instance bound to two members describes only one of
# them (under the other's title), so each member gets its own instance of one class.


class FieldSideSerializer(serializers.Serializer):
    label = serializers.CharField()
    value = serializers.FloatField(allow_null=True)


class UnavailableSerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=sorted(registry.UNAVAILABLE_CODES))
    reason = serializers.CharField()


# The Field's choice sets, named in the descriptions (config.openapi) so that a new choice
# set of another member named `metric` or `unit` never renames them in the client.
FIELD_METRICS = sorted(registry.METRICS)
FIELD_UNITS = [registry.COUNT, registry.MONEY, registry.RATE]


class FieldSerializer(serializers.Serializer):
    metric = serializers.ChoiceField(choices=FIELD_METRICS, help_text="Metric registry id.")
    label = serializers.CharField(
        help_text="Display label; the workspace's own label when it sets one."
    )
    unit = serializers.ChoiceField(choices=FIELD_UNITS)
    value = serializers.FloatField(
        allow_null=True,
        help_text="Counts are integers (goal.expected and goal.projected, pro-rated, carry 2 "
        "decimals); money is in major units of the workspace currency (1234.5); a rate is a "
        "fraction in [0, 1] rounded to 4 decimals (acquisition.roas, a return, and "
        "goal.attainment and goal.pace, since a goal can be beaten, may exceed 1). null "
        "whenever the figure cannot be drawn honestly; then `unavailable` says why.",
    )
    currency = serializers.CharField(required=False, help_text="Money figures only.")
    numerator = FieldSideSerializer(
        required=False,
        help_text="Rates and averages only: what is counted (a rate is numerator / denominator).",
    )
    denominator = FieldSideSerializer(
        required=False, help_text="Rates and averages only: what it is counted against."
    )
    unavailable = UnavailableSerializer(
        allow_null=True, help_text="Why the value is null; null when there is a value."
    )


class NoteSerializer(serializers.Serializer):
    subject = serializers.CharField(
        help_text="A metric id for figure-unavailable; otherwise what the note is about."
    )
    code = serializers.ChoiceField(choices=sorted(registry.NOTE_CODES))
    reason = serializers.CharField()


def field_serializer(**kwargs) -> FieldSerializer:
    return FieldSerializer(**kwargs)


def notes_serializer() -> NoteSerializer:
    return NoteSerializer(many=True)


_WORKSPACE = inline_serializer(
    "EnvelopeWorkspace", {"id": serializers.CharField(), "currency": serializers.CharField()}
)
_PERIOD = inline_serializer(
    "EnvelopePeriod",
    {"from": serializers.DateField(), "to": serializers.DateField()},
    allow_null=True,
    required=False,
)


def _envelope(name: str, data_members: dict | None):
    if data_members:
        data = inline_serializer(f"{name}Data", data_members)
    else:
        data = serializers.DictField(
            help_text="The answer; figures inside it have the Field shape."
        )
    return inline_serializer(
        f"{name}Envelope",
        {
            "workspace": _WORKSPACE,
            "period": _PERIOD,
            "data": data,
            "notes": notes_serializer(),
        },
    )


def _fields(*keys):
    return {key: field_serializer() for key in keys}


def _rows(name: str, members: dict):
    return inline_serializer(name, members, many=True)


class GoalMemberSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()


class GoalSerializer(serializers.Serializer):
    """A goal as PUT /api/v1/goals/{month} answers it and the goal.updated event carries it."""

    metric = serializers.ChoiceField(choices=Goal.Metric.choices)
    member = GoalMemberSerializer(allow_null=True, help_text="null: a goal of the whole workspace.")
    unit = serializers.ChoiceField(choices=[registry.COUNT, registry.MONEY])
    target = serializers.FloatField(
        help_text="A count, or money in major units of the workspace currency."
    )
    currency = serializers.CharField(required=False, help_text="Money goals only.")


class GoalsMonthSerializer(serializers.Serializer):
    """A month's goals, workspace goals first, then by member name."""

    month = serializers.RegexField(MONTH_PATTERN, help_text="YYYY-MM.")
    goals = GoalSerializer(many=True)


class AdSpendRecordSerializer(serializers.Serializer):
    """An ad spend record, as POST /api/v1/ad-spend answers it, GET /api/v1/ad-spend lists
    it and the ad_spend.updated event carries it."""

    id = serializers.CharField(help_text="The record's own id (the platform's): its identity.")
    date = serializers.DateField(
        help_text="The day the money was spent, in the workspace's timezone."
    )
    platform = serializers.RegexField(
        r"^[a-z0-9_-]{1,32}$", help_text="meta, google, or another key such as tiktok."
    )
    utm_source = serializers.CharField(allow_null=True, help_text="null when the ads carry none.")
    utm_medium = serializers.CharField(allow_null=True)
    utm_campaign = serializers.CharField(allow_null=True)
    utm_content = serializers.CharField(allow_null=True)
    campaign_id = serializers.CharField(allow_null=True)
    campaign_name = serializers.CharField(allow_null=True)
    impressions = serializers.IntegerField(allow_null=True)
    clicks = serializers.IntegerField(allow_null=True)
    currency = serializers.CharField(help_text="The workspace's currency.")
    amount = serializers.FloatField(help_text="Major units of the workspace currency.")


_MEMBER = {
    "id": serializers.CharField(),
    "name": serializers.CharField(),
    "email": serializers.CharField(),
}

DATA_MEMBERS = {
    "calls": _fields(*registry.figure_keys("calls")),
    "outcomes": {
        **_fields(
            "closed",
            "deposit",
            "follow_up",
            "no_sale",
            "disqualified",
            "no_show",
            "cancelled",
            "awaiting",
            "total",
        ),
        "no_sale_reasons": _rows(
            "NoSaleReason", {"reason": serializers.CharField(), "count": serializers.IntegerField()}
        ),
    },
    "payments": _fields(
        "cash_collected",
        "refunded",
        "net_cash",
        "sales",
        "revenue_booked",
        "average_sale",
        "collection_rate",
    ),
    "leads": {
        "created": field_serializer(),
        "leads": serializers.ListField(
            child=serializers.DictField(),
            help_text="Newest first, at most `limit`: id, created_at, name, email, source, "
            "utm_source, utm_medium, utm_campaign, utm_content, status, setter {id, name, "
            "email} or null, first_contact_at.",
        ),
    },
    "journey": {
        "lead": serializers.DictField(),
        "identifiers": serializers.ListField(
            child=serializers.ChoiceField(choices=list(IDENTIFIERS)),
            help_text="Which of its identifiers the lead has (never their values): phone, "
            "fbc (Meta's click id), fbp (Meta's browser id), gclid, gbraid, wbraid (Google's "
            "click ids).",
        ),
        "events": serializers.ListField(
            child=serializers.DictField(),
            help_text="In time order, each with `at` and `type`: lead.created, touch, "
            "webinar.registered, webinar.joined, webinar.left, call.booked, call.rescheduled, "
            "call.cancelled, call.showed, call.no_show, outcome, sale, payment, refund, "
            "chargeback, funnel.stage. A touch has `channel`, `member` ({id, name, email} or "
            "null), `counts_as_first_contact` (boolean: a touch by a member of the workspace "
            "dated at or after the lead's creation; the earliest is the lead's "
            "`first_contact_at`) and `not_first_contact_reason` (null when it counts, else in "
            "words: `sent without a member (automated)` or `dated before the lead was "
            "created`).",
        ),
    },
    "speed_to_lead": {
        "within_minutes": serializers.IntegerField(),
        "since": serializers.DateTimeField(),
        **_fields("waiting", "contacted_rate"),
        "leads": _rows(
            "WaitingLead",
            {
                "id": serializers.CharField(),
                "name": serializers.CharField(),
                "email": serializers.CharField(),
                "created_at": serializers.DateTimeField(),
                "minutes_waited": serializers.IntegerField(),
                "setter": serializers.DictField(allow_null=True),
                "open_url": serializers.URLField(),
            },
        ),
    },
    "eod": {
        **_fields("expected", "submitted", "compliance_rate"),
        "members": _rows(
            "EodMemberRow",
            {
                **_MEMBER,
                "role": serializers.CharField(),
                **_fields("expected", "submitted", "compliance_rate"),
            },
        ),
    },
    "attribution": {
        "rows": _rows(
            "AttributionRow",
            {
                "utm_source": serializers.CharField(),
                "utm_medium": serializers.CharField(),
                "utm_campaign": serializers.CharField(),
                "utm_content": serializers.CharField(),
                **_fields("leads", "closes", "cash_collected", "close_rate"),
            },
        )
    },
    "commission": {
        "members": _rows(
            "CommissionRow",
            {
                **_MEMBER,
                "role": serializers.CharField(),
                "rule": serializers.DictField(allow_null=True),
                "owed": field_serializer(),
            },
        )
    },
    "funnel": {
        "funnel": serializers.CharField(),
        "stages": _rows(
            "FunnelStageRow",
            {"name": serializers.CharField(), **_fields("count", "rate")},
        ),
    },
    "webinar": {
        "event": serializers.DictField(allow_null=True),
        **_fields(
            "registrations",
            "attended",
            "stayed_to_pitch",
            "booked",
            "attendance_rate",
            "stay_rate",
            "booking_rate",
        ),
    },
    "audit_events": {
        "events": _rows(
            "AuditEventRow",
            {
                "at": serializers.DateTimeField(),
                "actor": inline_serializer(
                    "AuditActor",
                    {
                        "kind": serializers.CharField(),
                        "id": serializers.CharField(),
                        "label": serializers.CharField(),
                    },
                ),
                "action": serializers.CharField(),
                "target": inline_serializer(
                    "AuditTarget", {"type": serializers.CharField(), "id": serializers.CharField()}
                ),
                "reason": serializers.CharField(),
            },
        )
    },
}

_ACQUISITION_FIELDS = (
    "spend",
    "leads",
    "booked",
    "shows",
    "closes",
    "cash_collected",
    "cost_per_lead",
    "cost_per_booked_call",
    "cost_per_show",
    "cost_per_close",
    "roas",
)
_ACQUISITION_TOTAL = inline_serializer("AcquisitionTotal", _fields(*_ACQUISITION_FIELDS))
DATA_MEMBERS["acquisition"] = {
    "rows": _rows(
        "AcquisitionRow",
        {
            "utm_source": serializers.CharField(),
            "utm_campaign": serializers.CharField(
                required=False, help_text="by=campaign only (the default)."
            ),
            **_fields(*_ACQUISITION_FIELDS),
        },
    ),
    # Blended (every lead, close and cash of the period against all its spend) and paid (the
    # same figures over the rows that have spend): one shape, described in the operation.
    "total": _ACQUISITION_TOTAL,
    "paid": type(_ACQUISITION_TOTAL)(),
}
_MEMBER_REF = {"id": serializers.CharField(), "name": serializers.CharField()}
DATA_MEMBERS["goals"] = {
    "goals": _rows(
        "GoalRow",
        {
            "metric": serializers.ChoiceField(
                choices=Goal.Metric.choices, help_text="The figure the goal is set on."
            ),
            "member": inline_serializer(
                "GoalRowMember",
                _MEMBER_REF,
                allow_null=True,
                help_text="null: a goal of the whole workspace.",
            ),
            **_fields("actual", "target", "expected", "attainment", "pace", "projected"),
        },
    )
}
DATA_MEMBERS["leaderboard"] = {
    "members": _rows(
        "LeaderboardRow",
        {
            "rank": serializers.IntegerField(
                min_value=1, help_text="Equal members share a rank (1, 1, 3)."
            ),
            "member": inline_serializer("LeaderboardMember", _MEMBER_REF),
            **{
                key: field_serializer(required=False, help_text=help_text)
                for key, help_text in (
                    (
                        "taken",
                        "calls.taken: closers (as closer) and setters (of the calls they set).",
                    ),
                    ("closed", "calls.closed: closers only."),
                    ("close_rate", "calls.close_rate: closers only."),
                    ("cash_collected", "payments.cash_collected: closers only."),
                    ("booked", "calls.booked: setters only."),
                    ("show_rate", "calls.show_rate: setters only."),
                )
            },
        },
    )
}
DATA_MEMBERS["ad_spend"] = {
    "spend": field_serializer(),
    "records": AdSpendRecordSerializer(
        many=True, help_text="Oldest day first (then platform and id), at most `limit`."
    ),
}

ENDPOINT_PATHS = {
    "calls": "/api/v1/calls",
    "outcomes": "/api/v1/outcomes",
    "payments": "/api/v1/payments",
    "leads": "/api/v1/leads",
    "speed_to_lead": "/api/v1/speed-to-lead",
    "eod": "/api/v1/eod",
    "attribution": "/api/v1/attribution",
    "acquisition": "/api/v1/acquisition",
    "commission": "/api/v1/commission",
    "funnel": "/api/v1/funnel",
    "webinar": "/api/v1/webinar",
    "goals": "/api/v1/goals",
}

SUMMARIES = {
    "calls": "Calls booked, taken, closed and the rates between them",
    "outcomes": "Every call outcome in the period, counted",
    "payments": "Cash collected and revenue booked in the period",
    "leads": "Leads created in the period, newest first",
    "journey": "Everything held about one lead, in time order",
    "speed_to_lead": "Leads still waiting for a first contact",
    "eod": "End-of-day report submissions and compliance",
    "attribution": "Leads, closes and cash by UTM source, medium, campaign and content",
    "acquisition": "Ad spend beside the leads, calls, closes and cash it bought, by source "
    "and campaign",
    "ad_spend": "The ad spend records of the period, oldest day first",
    "commission": "Commission owed per member for the period",
    "funnel": "One funnel's stages for the period",
    "webinar": "Registrations, attendance, stay to pitch and bookings",
    "audit_events": "Every write recorded for this workspace in the period",
    "goals": "A month's goals: actual, target, expected by today, attainment, pace, projection",
    "leaderboard": "Closers or setters ranked by what they closed or set in the period",
}

FROM = OpenApiParameter(
    "from",
    OpenApiTypes.DATE,
    OpenApiParameter.QUERY,
    required=False,
    description="First day (YYYY-MM-DD, workspace timezone), included. Default: to minus 29 "
    "days. A date that does not parse, or from after to, answers 400 naming it.",
)
TO = OpenApiParameter(
    "to",
    OpenApiTypes.DATE,
    OpenApiParameter.QUERY,
    required=False,
    description="Last day (YYYY-MM-DD, workspace timezone), included. Default: today in the "
    "workspace timezone.",
)
LIMIT = OpenApiParameter(
    "limit",
    # No maximum: a larger number is capped, not refused.
    {"type": "integer", "minimum": 1, "default": selectors.LEADS_LIMIT_DEFAULT},
    OpenApiParameter.QUERY,
    required=False,
    description="Leads listed, 1 to 500, default 100. A larger number is capped at 500, not "
    "refused; 0, a negative or a non-integer answers 400. A cut list adds a `truncated` note.",
)
WITHIN_MINUTES = OpenApiParameter(
    "withinMinutes",
    {
        "type": "integer",
        "minimum": 1,
        "maximum": selectors.WITHIN_MINUTES_MAX,
        "default": selectors.WITHIN_MINUTES_DEFAULT,
    },
    OpenApiParameter.QUERY,
    required=False,
    description="Window in minutes, 1 to 10080, default 120; outside it answers 400.",
)
FUNNEL = OpenApiParameter(
    "funnel",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    description="A workspace funnel's name (key), default vsl. An unknown name answers 400 "
    "with `funnels`: the existing names.",
)
BY_PARAMETER = OpenApiParameter(
    "by",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    enum=list(selectors.BY),
    description="campaign (default): a row per utm_source and utm_campaign; source: a row per "
    "utm_source. Another value answers 400 naming by.",
)
AD_SPEND_LIMIT = OpenApiParameter(
    "limit",
    {"type": "integer", "minimum": 1, "default": selectors.AD_SPEND_LIMIT_DEFAULT},
    OpenApiParameter.QUERY,
    required=False,
    description="Records listed, 1 to 500, default 100. A larger number is capped at 500, not "
    "refused; 0, a negative or a non-integer answers 400. A cut list adds a `truncated` note "
    "(ask for each day in turn to read them all).",
)
EVENT_ID = OpenApiParameter(
    "eventId",
    OpenApiTypes.UUID,
    OpenApiParameter.QUERY,
    required=False,
    description="Restricts to one webinar event (then the period does not narrow the "
    "cohort). Omit for all events that start in the period. An unknown id answers 400 "
    "naming eventId.",
)
MONTH = OpenApiParameter(
    "month",
    {"type": "string", "pattern": MONTH_PATTERN},
    OpenApiParameter.QUERY,
    required=False,
    description="A month of the workspace's calendar, YYYY-MM (years 0002 to 9998). Default: this month in the "
    "workspace timezone. Another text answers 400 naming month.",
)
ROLE = OpenApiParameter(
    "role",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    enum=list(selectors.ROLES),
    description="closer (default) or setter. Another value answers 400 naming role.",
)
LEAD_ID = OpenApiParameter(
    "id",
    OpenApiTypes.UUID,
    OpenApiParameter.PATH,
    required=True,
    description="The lead's id. Another workspace's lead answers 404.",
)

_EXAMPLE_WORKSPACE = SimpleNamespace(
    pk="7f0c1e9a-3c55-4b7e-9d51-0a6f4f3c2b11",
    currency="USD",
    currency_exponent=2,
    branding={"labels": {}},
)


def _example_field(metric_id: str):
    metric = registry.METRICS[metric_id]
    if metric.unit == registry.RATE:
        return envelope.rate(metric_id, 9, 12, workspace=_EXAMPLE_WORKSPACE).as_dict()
    if metric.numerator:
        return envelope.average_money(metric_id, 740700, 6, workspace=_EXAMPLE_WORKSPACE).as_dict()
    if metric.unit == registry.MONEY:
        return envelope.money(metric_id, 123450, workspace=_EXAMPLE_WORKSPACE).as_dict()
    return envelope.count(metric_id, 12, workspace=_EXAMPLE_WORKSPACE).as_dict()


def _acquisition_example() -> dict:
    fields_of = {
        "spend": envelope.money("acquisition.spend", 120000, workspace=_EXAMPLE_WORKSPACE),
        **{
            key: envelope.count(f"acquisition.{key}", n, workspace=_EXAMPLE_WORKSPACE)
            for key, n in (("leads", 48), ("booked", 20), ("shows", 12), ("closes", 4))
        },
        "cash_collected": envelope.money(
            "acquisition.cash_collected", 1650000, workspace=_EXAMPLE_WORKSPACE
        ),
        **{
            f"cost_per_{key}": envelope.average_money(
                f"acquisition.cost_per_{key}", 120000, n, workspace=_EXAMPLE_WORKSPACE
            )
            for key, n in (("lead", 48), ("booked_call", 20), ("show", 12), ("close", 4))
        },
        "roas": envelope.FieldsOf(
            "acquisition.roas", registry.RATE, workspace=_EXAMPLE_WORKSPACE
        ).rate(1650000, 120000, bounded=False, side_values=(16500, 1200)),
    }
    rendered = {key: field.as_dict() for key, field in fields_of.items()}
    return {
        "rows": [{"utm_source": "facebook", "utm_campaign": "spring-webinar", **rendered}],
        "total": rendered,
        "paid": rendered,
    }


_AD_SPEND_RECORD_EXAMPLE = {
    "id": "23851234567890-2026-03-04",
    "date": "2026-03-04",
    "platform": "meta",
    "utm_source": "facebook",
    "utm_medium": "paid_social",
    "utm_campaign": "spring-webinar",
    "utm_content": None,
    "campaign_id": "23851234567890",
    "campaign_name": "spring-webinar",
    "impressions": 18250,
    "clicks": 412,
    "currency": "USD",
    "amount": 412.37,
}


def _goals_example() -> dict:
    ws = _EXAMPLE_WORKSPACE

    def of(metric_id, unit):
        return envelope.FieldsOf(metric_id, unit, workspace=ws)

    rate = registry.RATE
    taken = {
        "actual": of("goal.actual", registry.COUNT).count(8),
        "target": of("goal.target", registry.COUNT).count(20),
        "expected": of("goal.expected", registry.COUNT).pro_rated(registry.COUNT, 6.67),
        "attainment": of("goal.attainment", rate).rate(8, 20),
        "pace": of("goal.pace", rate).rate(8, 6.67),
        "projected": of("goal.projected", registry.COUNT).pro_rated(registry.COUNT, 24),
    }
    money = registry.MONEY
    cash = {
        "actual": of("goal.actual", money).money(600000),
        "target": of("goal.target", money).money(1500000),
        "expected": of("goal.expected", money).pro_rated(money, 500000),
        "attainment": of("goal.attainment", rate).rate(600000, 1500000, side_values=(6000, 15000)),
        "pace": of("goal.pace", rate).rate(600000, 500000, side_values=(6000, 5000)),
        "projected": of("goal.projected", money).pro_rated(money, 1800000),
    }
    member = {"id": "5b1d2a64-8f3e-4c1b-9a57-2e6f0c9d4a10", "name": "Jordan Closer"}
    return {
        "goals": [
            {"metric": "payments.cash_collected", "member": None}
            | {key: field.as_dict() for key, field in cash.items()},
            {"metric": "calls.taken", "member": member}
            | {key: field.as_dict() for key, field in taken.items()},
        ]
    }


def _leaderboard_example() -> dict:
    ws = _EXAMPLE_WORKSPACE
    rows = []
    for rank, (member_id, name, taken, closed, cash) in enumerate(
        [
            ("5b1d2a64-8f3e-4c1b-9a57-2e6f0c9d4a10", "Jordan Closer", 12, 5, 1500000),
            ("c3a9e1f2-7d4b-4e8a-b6c5-1f2e3d4c5b6a", "Sam Closer", 10, 3, 900000),
        ],
        start=1,
    ):
        rows.append(
            {
                "rank": rank,
                "member": {"id": member_id, "name": name},
                "taken": envelope.count("calls.taken", taken, workspace=ws).as_dict(),
                "closed": envelope.count("calls.closed", closed, workspace=ws).as_dict(),
                "close_rate": envelope.rate(
                    "calls.close_rate", closed, taken, workspace=ws
                ).as_dict(),
                "cash_collected": envelope.money(
                    "payments.cash_collected", cash, workspace=ws
                ).as_dict(),
            }
        )
    return {"members": rows}


def _example(key: str) -> dict:
    path = ENDPOINT_PATHS.get(key)
    data = {}
    if key in ("goals", "leaderboard"):
        data = _goals_example() if key == "goals" else _leaderboard_example()
        path = None
    elif key == "acquisition":
        data = _acquisition_example()
        path = None
    elif key == "ad_spend":
        data = {
            "spend": envelope.money(
                "acquisition.spend", 41237, workspace=_EXAMPLE_WORKSPACE
            ).as_dict(),
            "records": [_AD_SPEND_RECORD_EXAMPLE],
        }
    if path:
        for metric in registry.METRIC_LIST:
            if metric.endpoint == path:
                data[metric.id.split(".", 1)[1]] = _example_field(metric.id)
    return {
        "workspace": {"id": _EXAMPLE_WORKSPACE.pk, "currency": "USD"},
        "period": {"from": "2026-06-01", "to": "2026-06-30"}
        if key == "goals"
        else {"from": "2026-03-01", "to": "2026-03-30"},
        "data": data,
        "notes": [
            {
                "subject": "calls.show_rate",
                "code": registry.AWAITING_OUTCOME,
                "reason": "2 call(s) past their start have no attendance recorded; the show "
                "rate leaves them out.",
            }
        ]
        if key == "calls"
        else [],
    }


_DESCRIPTIONS = {
    "goals": "`period` is the month's first and last day. `data.goals` lists the month's "
    "goals, the workspace's first (`member` null), then members by name, each in the order "
    "leads.created, calls.booked, calls.taken, calls.closed, payments.cash_collected, "
    "payments.revenue_booked, with its `metric`, its `member` and its Fields. The actual, "
    "target, expected and projected figures are counts or money as the goal's metric is; "
    "attainment and pace are rates that may exceed 1. Goals are set with PUT "
    "/api/v1/goals/{month} (the Agent API), the import's goal lines or the Goals page.",
    "leaderboard": "`data.members` ranks the members of `role`. Closers carry `taken`, "
    "`closed`, `close_rate` (calls.taken, calls.closed and calls.close_rate of the calls "
    "they hold as closer) and `cash_collected` (payments.cash_collected of the sales they "
    "closed), ranked by cash collected, then closes. Setters carry `booked`, `taken` and "
    "`show_rate` of the calls they set, ranked by calls taken, then booked. Equal members "
    "share a rank (1, 1, 3) and are listed by name. Every active member of the role is "
    "listed, and a deactivated one with figures in the period.",
    "acquisition": "The cohort is the leads created in the period (as /attribution) and the ad "
    "spend dated in the period. `data.rows` holds a row for every utm_source and "
    "utm_campaign (by=source: utm_source) with spend or leads in the period, missing values "
    "as `(none)`, ordered by spend, highest first, then leads, then the keys; `data.total` "
    "holds the same figures for the whole period (blended: all its leads, closes and cash "
    "against all its spend), and `data.paid` the same figures over the rows that have spend "
    "in the period (paid: what the ads bought). `acquisition.roas` is a return (cash "
    "collected / spend), a fraction with both sides that may exceed 1.",
    "ad_spend": "`data.spend` is acquisition.spend of the whole period; `data.records` lists "
    "its records, oldest day first, as POST /api/v1/ad-spend (the Agent API) writes them. "
    "Scope `read`.",
}


def _description(key: str) -> str:
    lines = [
        "Answers the Envelope. The period is from..to in the workspace timezone, both days "
        "included. Unknown query parameters are ignored.",
    ]
    if key in _DESCRIPTIONS:
        lines.append("\n" + _DESCRIPTIONS[key])
    path = ENDPOINT_PATHS.get(key)
    metrics = [m for m in registry.METRIC_LIST if path and m.endpoint == path]
    if metrics:
        lines.append("\nMetrics (see docs/metrics.md):\n")
        for metric in metrics:
            line = f"- `{metric.id}` ({metric.unit}): {metric.definition}"
            if metric.null_when:
                line += f" Null: {metric.null_when}"
            lines.append(line)
    lines.append("\nnotes[].code: " + ", ".join(f"`{code}`" for code in registry.NOTE_CODES) + ".")
    return "\n".join(lines)


def figures_operation(operation_id: str, key: str, *, dated: bool = True, extra=()):
    responses = {
        200: OpenApiResponse(
            _envelope(operation_id[0].upper() + operation_id[1:], DATA_MEMBERS.get(key)),
            description="The Envelope.",
            examples=[OpenApiExample(operation_id, _example(key))],
        ),
        **ERROR_RESPONSES,
    }
    if key == "journey":
        responses[404] = ERROR_404
    return extend_schema(
        operation_id=operation_id,
        summary=SUMMARIES[key],
        description=_description(key),
        parameters=[*([FROM, TO] if dated else []), *extra],
        responses=responses,
    )


# --- /series ----------------------------------------------------------------------------

INTERVAL = OpenApiParameter(
    "interval",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    enum=["day", "week", "month"],
    description="One point per local day, week (Monday to Sunday) or calendar month of the "
    "workspace timezone; default day. The first and last points are clipped to the period. "
    "Another value, or a period that would make more than 1000 points, answers 400 naming "
    "interval.",
)


def _series_metric_parameter():
    return OpenApiParameter(
        "metric",
        OpenApiTypes.STR,
        OpenApiParameter.QUERY,
        required=True,
        enum=list(selectors.SERIES_METRICS_ALL),
        description="A metric id of the registry: every count, money and rate figure of "
        "/calls, /outcomes and /payments, leads.created, and acquisition.spend, "
        "acquisition.cost_per_lead and acquisition.roas; or goal.actual and goal.expected, a "
        "month's goal by day or week (with `goal_metric`, `member` and `month`). A missing "
        "or unknown id answers 400 naming metric, with `metrics`: the ids that have a series.",
    )


GOAL_METRIC = OpenApiParameter(
    "goal_metric",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    enum=list(Goal.Metric.values),
    description="With metric goal.actual or goal.expected (and then required): the metric "
    "the goal is set on. No goal set on it for the month (and member) answers 400 naming "
    "goal_metric.",
)
GOAL_MEMBER = OpenApiParameter(
    "member",
    OpenApiTypes.UUID,
    OpenApiParameter.QUERY,
    required=False,
    description="With metric goal.actual or goal.expected: the member whose goal it is (read "
    "in their slot, as /goals reads it); absent: the workspace's goal. Another workspace's "
    "member answers 400 naming member.",
)
GOAL_MONTH = OpenApiParameter(
    "month",
    {"type": "string", "pattern": MONTH_PATTERN},
    OpenApiParameter.QUERY,
    required=False,
    description="With metric goal.actual or goal.expected: the goal's month, YYYY-MM "
    "(default this month in the workspace timezone); the period is the whole month, and "
    "`from` and `to` are refused.",
)


SeriesPointSerializer = inline_serializer(
    "SeriesPoint",
    many=True,
    fields={
        "from": serializers.DateField(help_text="First local day of the point, included."),
        "to": serializers.DateField(help_text="Last local day of the point, included."),
        "field": field_serializer(),
    },
)


def series_operation():
    example_points = [
        {"from": day_from, "to": day_to, "field": _example_field("payments.cash_collected")}
        for day_from, day_to in [("2026-03-04", "2026-03-08"), ("2026-03-09", "2026-03-10")]
    ]
    example = {
        "workspace": {"id": _EXAMPLE_WORKSPACE.pk, "currency": "USD"},
        "period": {"from": "2026-03-04", "to": "2026-03-10"},
        "data": {
            "metric": "payments.cash_collected",
            "interval": "week",
            "points": example_points,
        },
        "notes": [],
    }
    description = (
        "Answers the Envelope: one figure of the metric registry per local day, week or month "
        "of the period, in `data.points`, oldest first. Each point's `field` is exactly what "
        "the metric's own endpoint answers for that point's days (the same aggregate, grouped "
        "in the database by the local day, week or month of the workspace timezone, right "
        "across daylight-saving changes). Every day, week or month of the period has a point: "
        "a count or money figure with no record is 0; a rate with an empty denominator is "
        "null with `unavailable.code` empty-denominator (and a figure-unavailable note). Notes "
        "of the points (figure-unavailable, awaiting-outcome) are lifted into `notes`.\n\n"
        "A goal's series (`metric` goal.actual or goal.expected, with `goal_metric`, "
        "optional `member` and `month`) answers one point per local day or week of the "
        "goal's month: goal.actual is the metric over the month through the point's last day "
        "(null with not-computed for a day to come), goal.expected the target x the month's "
        "days through it / its days (money to the cent, counts to 2 decimals), so the two "
        "draw the goal's actual against its expected line; `data.goal_metric` and "
        "`data.member` name the goal.\n\n"
        "Metrics: " + ", ".join(f"`{metric}`" for metric in selectors.SERIES_METRICS_ALL) + "."
    )
    return extend_schema(
        operation_id="getSeries",
        summary="One figure per day, week or month of the period",
        description=description,
        parameters=[
            _series_metric_parameter(),
            FROM,
            TO,
            INTERVAL,
            GOAL_METRIC,
            GOAL_MEMBER,
            GOAL_MONTH,
        ],
        responses={
            200: OpenApiResponse(
                inline_serializer(
                    "GetSeriesEnvelope",
                    {
                        "workspace": _WORKSPACE,
                        "period": _PERIOD,
                        "data": inline_serializer(
                            "GetSeriesData",
                            {
                                "metric": serializers.ChoiceField(
                                    choices=list(selectors.SERIES_METRICS_ALL)
                                ),
                                "interval": serializers.ChoiceField(
                                    choices=["day", "week", "month"]
                                ),
                                "goal_metric": serializers.ChoiceField(
                                    choices=Goal.Metric.choices,
                                    required=False,
                                    help_text="A goal's series: the metric the goal is set on.",
                                ),
                                "member": inline_serializer(
                                    "SeriesGoalMember",
                                    {
                                        "id": serializers.UUIDField(),
                                        "name": serializers.CharField(),
                                    },
                                    required=False,
                                    allow_null=True,
                                    help_text="A goal's series: whose goal it is; null for the "
                                    "workspace's.",
                                ),
                                "points": SeriesPointSerializer,
                            },
                        ),
                        "notes": notes_serializer(),
                    },
                ),
                description="The Envelope.",
                examples=[OpenApiExample("getSeries", example)],
            ),
            **ERROR_RESPONSES,
        },
    )
