"""Request rates of the API, counted in the shared cache.

An accepted token has two counters, one for reads (safe methods) and one for writes,
keyed by the token's id; a request without an accepted token (none, or one refused
with 401) counts against its client address. Each counter is a fixed window of the
rate's period, incremented atomically in the cache (Redis in production), so every web
worker shares it.

Every answer of a limited route says where its counter stands, in the fields of the
IETF draft "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers):

    RateLimit-Policy: "read";q=1200;w=60
    RateLimit: "read";r=1187;t=42

and a refused request answers 429 rate_limited with Retry-After.
"""

import logging
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import SimpleRateThrottle

from . import metrics
from .errors import RateLimited

logger = logging.getLogger(__name__)

# Policy name -> the setting that holds its rate ("1200/min", or "off").
POLICY_SETTINGS = {
    "read": "RATE_LIMIT_READ",
    "write": "RATE_LIMIT_WRITE",
    "anonymous": "RATE_LIMIT_ANON",
    "refused": "RATE_LIMIT_REFUSED_DELIVERIES",
    "plan_apply": "RATE_LIMIT_PLAN_APPLIES",
    "outbound": "RATE_LIMIT_OUTBOUND_ATTEMPTS",
}
PERIOD_WORDS = {1: "second", 60: "minute", 3600: "hour", 86400: "day"}


def parse_rate_setting(value: str | None) -> str | None:
    """A rate as DRF writes it, or None when the limit is off (or not set)."""
    value = (value or "").strip().lower()
    if value in {"", "off", "none"}:
        return None
    return value


@dataclass(frozen=True)
class RateState:
    policy: str
    limit: int
    window: int
    remaining: int
    reset: int
    allowed: bool = True

    def headers(self) -> dict[str, str]:
        return {
            "RateLimit-Policy": f'"{self.policy}";q={self.limit};w={self.window}',
            "RateLimit": f'"{self.policy}";r={self.remaining};t={self.reset}',
        }

    def describe(self) -> str:
        period = PERIOD_WORDS.get(self.window, f"{self.window} seconds")
        who = {
            "read": "This token may make {n} reads a {p}",
            "write": "This token may make {n} writes a {p}",
            "anonymous": "Requests without an accepted token may make {n} requests a {p} "
            "per client address",
            "refused": "This webhook endpoint takes {n} refused deliveries a {p}",
            "plan_apply": "An agency may apply {n} plans an {p}, through the API or its console",
            "outbound": "A workspace's webhooks may make {n} delivery attempts a {p}",
        }[self.policy]
        return who.format(n=self.limit, p=period)

    @property
    def message(self) -> str:
        """The refusal's sentence: the limit and when to retry."""
        return f"{self.describe()}. Retry in {self.reset} seconds."

    def refusal(self) -> "RateLimited":
        """The 429 answer of a request over this limit, with Retry-After."""
        return RateLimited(self.message, retry_after=self.reset)


_COUNTER = "ratelimit:%(scope)s:%(ident)s:%(window)d"


# The window's counter plus one, and its expiry set when this request made it: one script,
# so one round trip, where Django's RedisCache.incr asks whether the key exists first (two).
_INCREMENT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
"""


def _counter_increment(store, key: str, window: int) -> int:
    if isinstance(store, RedisCache):
        name = store.make_and_validate_key(key)
        return int(store._cache.get_client(name, write=True).eval(_INCREMENT, 1, name, window))
    try:
        return store.incr(key)
    except ValueError:  # the window's first request
        return 1 if store.add(key, 1, window) else store.incr(key)


def rate_count(policy: str, ident: str, now: float | None = None) -> "RateState | None":
    """Count one request against the policy's counter of ident, in the shared cache.

    None when the policy is off, or the cache cannot be reached (the request is allowed:
    a cache that is down does not take the service down with it)."""
    rate = parse_rate_setting(getattr(settings, POLICY_SETTINGS[policy], None))
    if rate is None:
        return None
    limit, window = SimpleRateThrottle.parse_rate(None, rate)
    now = time.time() if now is None else now
    start = int(now // window) * window
    key = _COUNTER % {"scope": policy, "ident": ident, "window": start}
    store = caches["default"]
    try:
        count = _counter_increment(store, key, window)
    except Exception:
        logger.exception("rate limit counter %s unavailable; request allowed", key)
        metrics.RATE_LIMIT_UNAVAILABLE.inc()
        return None
    if count > limit:
        metrics.RATE_LIMITED.labels(policy).inc()
    return RateState(
        policy=policy,
        limit=limit,
        window=window,
        remaining=max(0, limit - count),
        reset=max(1, math.ceil(start + window - now)),
        allowed=count <= limit,
    )


def rate_require(policy: str, ident: str) -> None:
    """Count one action against the policy's counter of ident; over the limit, 429."""
    state = rate_count(policy, ident)
    if state is not None and not state.allowed:
        raise state.refusal()


class ServiceRateThrottle(SimpleRateThrottle):
    """The one throttle of every API route; it leaves its counter's state on the view."""

    def __init__(self):
        # The rate depends on the request (read, write or anonymous): chosen per request.
        self.rate = None

    def policy_for(self, request, view) -> tuple[str, str]:
        """(policy, identity) of the request's counter."""
        principal = getattr(view, "accepted_principal", None)
        if principal is None:
            return "anonymous", f"address:{self.get_ident(request)}"
        token = principal.api_token or principal.access_token
        kind = "api" if principal.api_token is not None else "session"
        policy = "read" if request.method in ("GET", "HEAD", "OPTIONS") else "write"
        return policy, f"{kind}:{token.pk}"

    def allow_request(self, request, view):
        policy, ident = self.policy_for(request, view)
        state = rate_count(policy, ident, self.timer())
        if state is None:
            return True
        view.rate_state = state
        return state.allowed

    def wait(self):
        return None  # the view reads the reset from its rate_state
