"""Settings, read from the environment.

With no database or broker set, the service runs embedded: a SQLite file in the project
folder and Celery tasks run eagerly in the web process. DEBUG is off unless set, and
SECRET_KEY and FIELD_ENCRYPTION_KEY must always be set: no key is embedded here
(config/settings_dev.py sets development values for `make run` and the tests, which are
refused with DEBUG off, as are weak keys and a BASE_URL that is not https, or plain http
on a loopback host). Production sets DATABASE_URL, CELERY_BROKER_URL, SECRET_KEY,
FIELD_ENCRYPTION_KEY, BASE_URL and ALLOWED_HOSTS.
"""

import base64
import ipaddress
import os
import re
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import dj_email_url
from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured
from django_guid.integrations import CeleryIntegration

from config import development_keys
from config.queues import prefix_from, queue_names, task_routes

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

# No key is embedded here: config.settings_dev sets development values for a laptop.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set (a long random string, e.g. "
        '`python -c "import secrets; print(secrets.token_urlsafe(50))"`); on a laptop, use '
        "DJANGO_SETTINGS_MODULE=config.settings_dev."
    )

MAKE_SECRET_KEY = '`python -c "import secrets; print(secrets.token_urlsafe(50))"`'
MAKE_FERNET_KEY = (
    '`python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"`'
)

# Django's own deploy check (security.W009), a little stricter: a key that could be guessed
# signs nothing.
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) <= 5:
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak: it needs at least 50 characters, with more than 5 different "
        f"characters (e.g. {MAKE_SECRET_KEY})."
    )
# Public keys sign nothing either: the development one (config/development_keys.py) and
# those of Django's project template are for DEBUG only.
if not DEBUG and SECRET_KEY == development_keys.SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is the public development key of config/settings_dev.py: set a key of "
        f"your own (e.g. {MAKE_SECRET_KEY})."
    )
if not DEBUG and SECRET_KEY.startswith("django-insecure"):
    raise ImproperlyConfigured(
        "SECRET_KEY is one of Django's development keys (django-insecure-…): set a key of "
        f"your own (e.g. {MAKE_SECRET_KEY})."
    )

# Fernet keys for integration credentials and stored answers that carried a secret, comma-
# separated: the first encrypts, every one decrypts (put a new key first to rotate).
FIELD_ENCRYPTION_KEYS = env_list("FIELD_ENCRYPTION_KEY", [])
if not FIELD_ENCRYPTION_KEYS:
    raise ImproperlyConfigured(
        "FIELD_ENCRYPTION_KEY must be set: one or more Fernet keys, comma-separated, the "
        f"newest first ({MAKE_FERNET_KEY})."
    )
_DEVELOPMENT_FERNET = base64.urlsafe_b64decode(development_keys.FIELD_ENCRYPTION_KEY)
for _position, _key in enumerate(FIELD_ENCRYPTION_KEYS, start=1):
    try:
        Fernet(_key)
    except ValueError as _error:
        raise ImproperlyConfigured(
            f"FIELD_ENCRYPTION_KEY: key {_position} is not a Fernet key (32 url-safe "
            "base64-encoded bytes)."
        ) from _error
    if len(set(base64.urlsafe_b64decode(_key))) <= 5:
        raise ImproperlyConfigured(
            f"FIELD_ENCRYPTION_KEY: key {_position} is too weak: its 32 bytes take 5 or fewer "
            f"different values. Make one with {MAKE_FERNET_KEY}."
        )
    # Compared as the bytes they decode to: Fernet reads the key leniently (the `+/`
    # alphabet, characters outside it dropped, padding added), so another spelling of the
    # development key is the development key.
    if not DEBUG and base64.urlsafe_b64decode(_key) == _DEVELOPMENT_FERNET:
        raise ImproperlyConfigured(
            f"FIELD_ENCRYPTION_KEY: key {_position} is the public development key of "
            f"config/settings_dev.py: set a key of your own ({MAKE_FERNET_KEY}), and keep the "
            "development key out of the list."
        )


def is_loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def base_url_fault(url: str) -> str | None:
    """Why BASE_URL cannot be the service's address, or None: https, or plain http only
    with DEBUG on or on this machine's loopback (a production-like run on a laptop)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        parts, host = None, ""
    if parts is None or parts.scheme not in {"https", "http"} or not host:
        return "BASE_URL must be the service's public address, e.g. https://figures.example.com"
    if parts.query or parts.fragment or parts.username is not None:
        return "BASE_URL must be the service's public address alone (no query, fragment or user)"
    if parts.scheme == "http" and not DEBUG and not is_loopback(host):
        return (
            "BASE_URL must be https (e.g. https://figures.example.com): plain http only for a "
            "loopback host (e.g. http://127.0.0.1:8000)"
        )
    return None


# The public address: every link, OAuth issuer and audience, and the transport security
# (HTTPS rules for an https address) follow it, so production never guesses it.
BASE_URL = os.environ.get("BASE_URL", "").rstrip("/")
if not BASE_URL:
    if not DEBUG:
        raise ImproperlyConfigured(
            "BASE_URL must be set: the service's public address, e.g. "
            "https://figures.example.com (links, OAuth tokens and HTTPS follow it)."
        )
    BASE_URL = "http://127.0.0.1:8000"
if (_fault := base_url_fault(BASE_URL)) is not None:
    raise ImproperlyConfigured(f"{_fault}.")
API_AUDIENCE = f"{BASE_URL}/api/v1"
# The MCP server is its own protected resource: a session token names one of the two.
MCP_AUDIENCE = f"{BASE_URL}/mcp"
# The served API descriptions (urlconf, generator settings): the MCP server's tools are
# read from them.
API_DESCRIPTIONS = [
    ("config.urls_figures", "config.openapi.FIGURES"),
    ("config.urls_agent", "config.openapi.AGENT"),
]
OAUTH_RESOURCES = [API_AUDIENCE, MCP_AUDIENCE]

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [BASE_URL])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # WhiteNoise serves the static files under runserver too, as in production.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_guid",
    "corsheaders",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "oauth2_provider",
    "axes",
    "csp",
    "core",
    "workspaces",
    "tokens",
    "accounts",
    "audit",
    "events",
    "webhooks",
    "figures",
    "agentapi",
    "integrations",
    "agency",
    "notifications",
    "dashboard",
    "mcpserver",
    "demo",
]

MIDDLEWARE = [
    # /healthz and /readyz, answered before anything else (core/health.py).
    "core.health.HealthMiddleware",
    # The request id (X-Request-ID: one that is not a UUID is dropped first, with a fixed
    # line), then the request's log line and metrics.
    "core.logs.RequestIdHeader",
    "django_guid.middleware.guid_middleware",
    "core.observe.ObserveMiddleware",
    # Where the request's reads go: the primary, unless its view allows a replica.
    "core.replicas.ReplicaScopeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files, compressed and with hashed names, served by the web process.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The pages' request rates, counted like the API's (core/pages.py).
    "core.pages.PageRateLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # The time zone and locale a page writes in, reset around every request (core/display.py).
    "core.display.DisplayMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "core.pages.PermissionsPolicyMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a refused sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.navigation",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Every connection, the replicas' too, is kept DB_CONN_MAX_AGE seconds and checked before
# it is reused.
connection_options = {
    "conn_max_age": int(os.environ.get("DB_CONN_MAX_AGE", "60")),
    "conn_health_checks": True,
}
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        **connection_options,
    )
}
# Streaming replicas for the figures' reads (core/replicas.py), PostgreSQL only: each URL
# of DATABASE_REPLICA_URL (comma-separated) is a database alias replica_0, replica_1, ...
DATABASE_REPLICAS: list[str] = []
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, with a health check that needs no round trip to the server when
    # the connection has nothing to read (core/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "core.postgresql"
    # Nothing holds session state between transactions, so the service runs through
    # PgBouncer in transaction pooling mode: locks are transaction-level (core/locks.py)
    # and no query keeps a server-side cursor open.
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    for n, url in enumerate(env_list("DATABASE_REPLICA_URL", [])):
        replica = dj_database_url.parse(url, **connection_options)
        replica["ENGINE"] = "core.postgresql"
        replica["DISABLE_SERVER_SIDE_CURSORS"] = True
        # A replica that cannot be reached is skipped after 2 s, not waited for.
        replica.setdefault("OPTIONS", {})["connect_timeout"] = 2
        # Under the test runner a replica is the test database itself.
        replica["TEST"] = {"MIRROR": "default"}
        DATABASES[f"replica_{n}"] = replica
        DATABASE_REPLICAS.append(f"replica_{n}")
if DATABASE_REPLICAS:
    DATABASE_ROUTERS = ["core.replicas.ReplicaRouter"]
# A replica further behind than this (seconds) is skipped; each process checks a replica
# at most every REPLICA_CHECK_SECONDS.
REPLICA_MAX_LAG = float(os.environ.get("REPLICA_MAX_LAG", "5"))
REPLICA_CHECK_SECONDS = float(os.environ.get("REPLICA_CHECK_SECONDS", "2"))

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers wait for each other instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["CONN_MAX_AGE"] = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Covering indexes (INCLUDE) serve index-only scans on PostgreSQL; SQLite, the embedded
# default, builds them on their key columns alone, which is all it needs.
SILENCED_SYSTEM_CHECKS = ["models.W040"]

AUTHENTICATION_BACKENDS = [
    # django-axes refuses a locked-out account or address before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "accounts.signin.EmailOrUsernameBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# In production the pages name each static file by a hash of its content (so browsers
# may keep it forever) and WhiteNoise serves the compressed copies `collectstatic` wrote;
# `make serve` runs collectstatic first. With DEBUG on, files are served as they are.
STATIC_HASHED = env_bool("STATIC_HASHED", not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if STATIC_HASHED
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

# --- Transport security, from BASE_URL's scheme ----------------------------------------

# How many reverse proxies in front of the service append to X-Forwarded-For (0: the
# service faces the clients and the peer address is theirs). The forwarded headers are
# trusted only behind them.
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))

# An https BASE_URL turns on the HTTPS redirect, HSTS and Secure cookies; a plain-http one
# (with DEBUG on, or a production-like run on loopback) none of them, so that signing in
# works there. Behind a TLS-terminating proxy (NUM_PROXIES > 0), its
# X-Forwarded-Proto says https; with no proxy a client could say it too, so it is not read.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if NUM_PROXIES > 0 else None
HTTPS = BASE_URL.startswith("https://")
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = 365 * 24 * 3600 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts, styles and images from the service only,
# no inline script or style, never framed. The API docs pages relax it for themselves
# (config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Sign-in lockout (django-axes) -------------------------------------------------------

# After 10 failures for one account or from one address within 15 minutes, sign-in is
# refused for 15 minutes (every sign-in form: the app's, the OAuth flow's, the admin's).
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username"], ["ip_address"]]
AXES_USERNAME_CALLABLE = "accounts.signin.lockout_username"
AXES_CLIENT_IP_CALLABLE = "accounts.signin.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.signin.locked_out"
# Attempts made while locked out do not extend the lock: it ends 15 minutes after it began.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# A success does not clear the failures: that would let one valid account reset the count
# of an address that guesses other accounts' passwords.
AXES_RESET_ON_SUCCESS = False
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_ENABLE_ADMIN = True
# Successful sign-ins are not logged here (no row per sign-in with its address).
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False

# --- REST framework and the API descriptions ---------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["tokens.authentication.BearerAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": [],
    "DEFAULT_RENDERER_CLASSES": ["core.renderers.ApiJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["core.parsers.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "core.negotiation.JsonAnswers",
    "EXCEPTION_HANDLER": "core.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "tokens.schema.ServiceAutoSchema",
    "UNAUTHENTICATED_USER": None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Sales Figures API",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The outbound webhooks' event types: one enumeration, wherever a member names them.
    "ENUM_NAME_OVERRIDES": {
        "EventTypeEnum": "events.types.EVENT_TYPE_CHOICES",
        "GoalMetricEnum": "workspaces.models.Goal.Metric",
    },
    "SERVERS": [{"url": BASE_URL}],
    "APPEND_COMPONENTS": {
        "securitySchemes": {
            "bearer": {
                "type": "http",
                "scheme": "bearer",
                "description": "Workspace API token: svc_ followed by 64 hexadecimal characters.",
            },
            "agencyBearer": {
                "type": "http",
                "scheme": "bearer",
                "description": "Agency token: agy_ followed by 64 hexadecimal characters.",
            },
            "memberSession": {
                "type": "oauth2",
                "description": "A member's session token: OAuth 2 authorization code with PKCE "
                "(S256), resource set to {BASE_URL}/api/v1.",
                "flows": {
                    "authorizationCode": {
                        "authorizationUrl": f"{BASE_URL}/o/authorize/",
                        "tokenUrl": f"{BASE_URL}/o/token/",
                        "scopes": {
                            "read": "Read the workspace's figures",
                            "data:write": "File forms and drafts",
                        },
                    }
                },
            },
        }
    },
    "SECURITY": [{"bearer": []}],
}

# --- OAuth 2 sign-in for embedded apps -----------------------------------------------

OAUTH2_PROVIDER_APPLICATION_MODEL = "oauth2_provider.Application"
OAUTH2_PROVIDER_ACCESS_TOKEN_MODEL = "oauth2_provider.AccessToken"
OAUTH2_PROVIDER_REFRESH_TOKEN_MODEL = "oauth2_provider.RefreshToken"
OAUTH2_PROVIDER_ID_TOKEN_MODEL = "oauth2_provider.IDToken"
OAUTH2_PROVIDER_GRANT_MODEL = "oauth2_provider.Grant"

OAUTH2_PROVIDER = {
    "SCOPES": {"read": "Read the workspace's figures", "data:write": "File forms and drafts"},
    "DEFAULT_SCOPES": ["read"],
    "PKCE_REQUIRED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("OAUTH_ACCESS_TOKEN_SECONDS", "3600")),
    "REFRESH_TOKEN_EXPIRE_SECONDS": 30 * 24 * 3600,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    # Plain-http redirect URIs only where the service itself runs on plain http (a laptop,
    # a production-like run on loopback), as the cookies and the https redirect follow
    # BASE_URL's scheme.
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https"] if HTTPS and not DEBUG else ["https", "http"],
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_SCHEME": not DEBUG,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
    # Embedded apps are public clients: no secret, PKCE instead.
    "OAUTH2_VALIDATOR_CLASS": "tokens.oauth.EmbeddedAppValidator",
    "OIDC_ISS_ENDPOINT": BASE_URL,
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["none"],
    "OAUTH2_PROTECTED_RESOURCE_IDENTIFIER": API_AUDIENCE,
    "OAUTH2_PROTECTED_RESOURCE_AUTHORIZATION_SERVERS": [BASE_URL],
    "OAUTH2_PROTECTED_RESOURCE_NAME": "Sales Figures API",
    "OAUTH2_PROTECTED_RESOURCE_DOCUMENTATION": f"{BASE_URL}/api/docs/",
}

# --- CORS: only origins listed by a workspace's embedded-apps settings ---------------

CORS_ALLOW_ALL_ORIGINS = False
CORS_URLS_REGEX = r"^/(api|o)/.*$"
CORS_EXPOSE_HEADERS = [
    "Idempotent-Replayed",
    "RateLimit-Policy",
    "RateLimit",
    "Retry-After",
    "X-Request-ID",
]
CORS_ALLOW_HEADERS = ["authorization", "content-type", "idempotency-key"]
CORS_ALLOW_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
CORS_ALLOW_CREDENTIALS = False
CORS_PREFLIGHT_MAX_AGE = 600

# --- Celery ---------------------------------------------------------------------------

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
# The queues' prefix, "celery" unless CELERY_QUEUE names another: several deployments can
# share one Redis, each on queues of its own. Each kind of task has its queue (mail,
# applies, uploads, providers, deliveries, sweeps, rollups: config/queues.py), taken by a
# pool of its own
# (`make worker`); the prefix alone is the default queue, for a task routed nowhere.
CELERY_TASK_DEFAULT_QUEUE = prefix_from(os.environ)
CELERY_TASK_ROUTES = task_routes(CELERY_TASK_DEFAULT_QUEUE)
CELERY_ACCEPT_CONTENT = ["json"]
# --- Daily roll-ups of the figures (figures/rollups.py, docs/performance.md) -----------

# Off: every figure reads the records alone (the roll-ups are still kept).
FIGURES_ROLLUPS = env_bool("FIGURES_ROLLUPS", True)
# How often the beat counts the days written since, and builds missing roll-ups: at most
# this many workspaces' a round.
ROLLUPS_REFRESH_SECONDS = int(os.environ.get("ROLLUPS_REFRESH_SECONDS", "30"))
ROLLUPS_BUILDS_PER_ROUND = int(os.environ.get("ROLLUPS_BUILDS_PER_ROUND", "5"))
# The most dirty days a round counts again, shared among the workspaces that have some (the
# rest wait for the next round, read from the records meanwhile): an import that touched
# years of days never makes one round long.
ROLLUPS_DAYS_PER_ROUND = int(os.environ.get("ROLLUPS_DAYS_PER_ROUND", "400"))

# --- Outbound webhooks (docs/events.md) -----------------------------------------------

# Seconds an attempt waits for the endpoint's answer.
WEBHOOK_TIMEOUT_SECONDS = int(os.environ.get("WEBHOOK_TIMEOUT_SECONDS", "10"))
# How often the beat queues the retries that fell due.
WEBHOOK_SWEEP_SECONDS = int(os.environ.get("WEBHOOK_SWEEP_SECONDS", "15"))
# A round of the sweep queues at most this many of one workspace's due deliveries, the
# workspaces in turns.
WEBHOOK_SWEEP_PER_WORKSPACE = int(os.environ.get("WEBHOOK_SWEEP_PER_WORKSPACE", "200"))
# A delivery is held for the message that queues its attempt this long: the sweep queues
# it again only after that (a message lost with its broker), never while it waits.
WEBHOOK_QUEUED_SECONDS = int(os.environ.get("WEBHOOK_QUEUED_SECONDS", "600"))
# The circuit breaker of each endpoint: after this many timeouts or 5xx answers in a row
# it is paused, nothing attempted, for a cool-off that starts at the first value and
# doubles with each pause until a success, up to the second.
WEBHOOK_BREAKER_FAILURES = int(os.environ.get("WEBHOOK_BREAKER_FAILURES", "5"))
WEBHOOK_BREAKER_COOLOFF_SECONDS = int(os.environ.get("WEBHOOK_BREAKER_COOLOFF_SECONDS", "60"))
WEBHOOK_BREAKER_COOLOFF_MAX_SECONDS = int(
    os.environ.get("WEBHOOK_BREAKER_COOLOFF_MAX_SECONDS", "3600")
)
# Attempts under way at once, at most, to one endpoint and for one workspace (0: no cap);
# an attempt over a cap is put off this many seconds, its retries untouched.
WEBHOOK_ENDPOINT_CONCURRENCY = int(os.environ.get("WEBHOOK_ENDPOINT_CONCURRENCY", "2"))
WEBHOOK_WORKSPACE_CONCURRENCY = int(os.environ.get("WEBHOOK_WORKSPACE_CONCURRENCY", "8"))
# An attempt over a cap waits for a slot: the next attempt of its endpoint or workspace to
# end sends it; past this many seconds the sweep takes it, should none end.
WEBHOOK_SLOT_WAIT_SECONDS = int(os.environ.get("WEBHOOK_SLOT_WAIT_SECONDS", "60"))
# Endpoints on this machine's loopback are refused unless this is on (by default only
# with DEBUG): the guard against request forgery in docs/events.md.
WEBHOOK_ALLOW_LOOPBACK = env_bool("WEBHOOK_ALLOW_LOOPBACK", DEBUG)

CELERY_BEAT_SCHEDULE = {
    "purge-expired-idempotency-keys": {
        "task": "core.tasks.purge_expired_idempotency_keys",
        "schedule": timedelta(hours=1),
    },
    # Providers' events whose apply task was lost are applied again (the task is idempotent).
    "apply-pending-integration-events": {
        "task": "integrations.events_apply_pending",
        "schedule": timedelta(minutes=5),
    },
    # Connections failing because their provider could not be reached are tried again.
    "retry-unreachable-integrations": {
        "task": "integrations.connections_retry_due",
        "schedule": timedelta(minutes=5),
    },
    # Connections read on a schedule (ad platforms) whose last read is a day old read
    # their last 7 days again.
    "pull-scheduled-integrations": {
        "task": "integrations.connections_pull_due",
        "schedule": timedelta(hours=1),
    },
    # Outbound webhooks: retries that fell due, attempts whose worker died, hand-overs lost.
    "send-due-webhook-deliveries": {
        "task": "webhooks.deliveries_sweep",
        "schedule": timedelta(seconds=WEBHOOK_SWEEP_SECONDS),
    },
    "prune-webhook-events": {
        "task": "webhooks.prune",
        "schedule": timedelta(hours=1),
    },
    # The figures' daily roll-ups: days written since counted again, missing ones built.
    "refresh-figures-rollups": {
        "task": "figures.rollups_refresh",
        "schedule": timedelta(seconds=ROLLUPS_REFRESH_SECONDS),
    },
    # Digests, reminders and speed-to-lead alerts that fell due (notifications.rounds).
    "notifications-round": {
        "task": "notifications.round",
        "schedule": timedelta(seconds=60),
    },
}

# Where Slack incoming webhooks may point besides https://hooks.slack.com/services/: a
# local stand-in of Slack (a black-box test, staging). Empty: Slack's own address only.
SLACK_WEBHOOK_BASE = os.environ.get("SLACK_WEBHOOK_BASE", "").strip()

# --- Providers' APIs -----------------------------------------------------------------

# Where the integrations call each provider: their own hosts unless pointed at a mock
# server or a sandbox (stripe-mock in staging, a recorded server in a black-box test).
STRIPE_API_BASE = os.environ.get("STRIPE_API_BASE", "https://api.stripe.com").rstrip("/")
CALENDLY_API_BASE = os.environ.get("CALENDLY_API_BASE", "https://api.calendly.com").rstrip("/")
ZOOM_API_BASE = os.environ.get("ZOOM_API_BASE", "https://api.zoom.us/v2").rstrip("/")
ZOOM_OAUTH_BASE = os.environ.get("ZOOM_OAUTH_BASE", "https://zoom.us/oauth").rstrip("/")
HUBSPOT_API_BASE = os.environ.get("HUBSPOT_API_BASE", "https://api.hubapi.com").rstrip("/")
META_GRAPH_BASE = os.environ.get("META_GRAPH_BASE", "https://graph.facebook.com").rstrip("/")
GOOGLE_ADS_API_BASE = os.environ.get(
    "GOOGLE_ADS_API_BASE", "https://googleads.googleapis.com"
).rstrip("/")
GOOGLE_ADS_API_VERSION = os.environ.get("GOOGLE_ADS_API_VERSION", "v21")
GOOGLE_OAUTH_TOKEN_URL = os.environ.get(
    "GOOGLE_OAUTH_TOKEN_URL", "https://oauth2.googleapis.com/token"
)

# --- Email ------------------------------------------------------------------------------

# EMAIL_URL names the transport: smtp://user:password@host:port (smtps:// or ?tls=1 for
# TLS), file:///path/to/dir (each message a file there) or console: (the server's output,
# the default). Mail is sent by a Celery task after the transaction that caused it commits.
EMAIL_URL = os.environ.get("EMAIL_URL", "") or "console:"
if EMAIL_URL in {"console:", "console://"}:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
elif EMAIL_URL.startswith("file:"):
    # dj-email-url drops the leading "/" of file:///path; the path is taken as written.
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = EMAIL_URL.removeprefix("file:").removeprefix("//") or "."
elif EMAIL_URL.startswith("smtps:"):
    # smtps is SMTP over TLS from the first byte (port 465), not STARTTLS.
    vars().update(dj_email_url.parse("smtp:" + EMAIL_URL.removeprefix("smtps:")))
    EMAIL_USE_SSL, EMAIL_USE_TLS = True, False
else:
    vars().update(dj_email_url.parse(EMAIL_URL))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Sales Figures <no-reply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_TIMEOUT = 10
# One-use links in mail: a forgotten password's reset, 3 days; an invitation, 7 days.
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600
INVITATION_MAX_AGE = 7 * 24 * 3600

# --- Shared cache and request rates --------------------------------------------------

# The request-rate counters live here, shared by every web worker: Redis at CACHE_URL, or
# at CELERY_BROKER_URL when that is Redis; the embedded default counts in process memory.
CACHE_URL = os.environ.get("CACHE_URL", "")
if not CACHE_URL and os.environ.get("CELERY_BROKER_URL", "").startswith(("redis://", "rediss://")):
    CACHE_URL = os.environ["CELERY_BROKER_URL"]
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "sf",
            # One connection pool per process, not one per request (core/cache.py).
            "OPTIONS": {"pool_class": "core.cache.SharedConnectionPool"},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

RATE_PATTERN = re.compile(r"^\d+/(s|sec|second|m|min|minute|h|hour|d|day)$")


def env_rate(name: str, default: str) -> str:
    """A request rate such as "1200/min", or "off"."""
    value = os.environ.get(name, default).strip().lower()
    if value != "off" and not RATE_PATTERN.match(value):
        raise ImproperlyConfigured(f"{name} must look like 1200/min (per s, min, h or day) or off.")
    return value


# Figures' statements compiled once per thread (core/compiled.py); "off" runs the plain
# querysets instead, answering the same (a way out should a Django upgrade break them).
COMPILED_QUERIES = env_bool("COMPILED_QUERIES", True)
COMPILED_STATEMENTS_MAX = int(os.environ.get("COMPILED_STATEMENTS_MAX", "64"))

RATE_LIMIT_READ = env_rate("RATE_LIMIT_READ", "1200/min")
RATE_LIMIT_WRITE = env_rate("RATE_LIMIT_WRITE", "300/min")
RATE_LIMIT_ANON = env_rate("RATE_LIMIT_ANON", "300/min")
# Deliveries a provider's webhook endpoint refuses (bad signature or body), per connection;
# accepted deliveries are never limited.
RATE_LIMIT_REFUSED_DELIVERIES = env_rate("RATE_LIMIT_REFUSED_DELIVERIES", "60/min")
# Attempts to deliver webhooks, per workspace: its fan-out (every event times every endpoint
# that wants it, retries included) spends its own budget; past it, its attempts wait for
# the next window and other workspaces' are untouched.
RATE_LIMIT_OUTBOUND_ATTEMPTS = env_rate("RATE_LIMIT_OUTBOUND_ATTEMPTS", "600/min")
# Plans an agency applies, through the API or approved in its console (each apply may
# invite people by email).
RATE_LIMIT_PLAN_APPLIES = env_rate("RATE_LIMIT_PLAN_APPLIES", "30/hour")
# The most lines a file uploaded on the Import page holds (each a record, or a CSV row).
UPLOAD_MAX_LINES = int(os.environ.get("UPLOAD_MAX_LINES", "200000"))
# The most people a plan's team lists (each one an account or an invitation mail).
PLAN_TEAM_MAX = int(os.environ.get("PLAN_TEAM_MAX", "50"))
# Request rates count per client address the same way as the sign-in lockout (NUM_PROXIES).
REST_FRAMEWORK["NUM_PROXIES"] = NUM_PROXIES

# --- The service's own settings -------------------------------------------------------

IDEMPOTENCY_KEY_TTL = timedelta(hours=24)
TOKEN_LAST_USED_RESOLUTION = timedelta(minutes=1)

# A larger body answers 400 invalid_body before it is read (core.errors).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

# The request id: X-Request-ID when it is a UUID, else a new one; answered in
# X-Request-ID (exposed to browsers by CORS_EXPOSE_HEADERS) and passed to Celery tasks.
DJANGO_GUID = {
    "GUID_HEADER_NAME": "X-Request-ID",
    "VALIDATE_GUID": True,
    "EXPOSE_HEADER": False,
    "INTEGRATIONS": [CeleryIntegration(use_django_logging=True)],
}

# LOG_FORMAT=json: one JSON object a line (core/logs.py); otherwise plain text.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}.")

# No log line carries a connect link's secret (config/log_filters.py): the filter sits on
# the loggers that write request paths (before any handler, Django's own included) and on
# the console handler (whatever else reaches it), whose JSON formatter redacts every field
# too (core/logs.py), and no line shows a mail task's arguments. gunicorn's access log
# stays off.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact_secrets": {"()": "config.log_filters.RedactSecrets"},
        "request_id": {"()": "core.logs.RequestId"},
        "task_arguments": {"()": "core.logs.TaskArguments"},
    },
    "formatters": {
        "json": {"()": "core.logs.json_formatter"},
        "text": {"format": "{asctime} {levelname} {name} [{request_id}] {message}", "style": "{"},
        # runserver's request lines, as Django prints them.
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["redact_secrets", "request_id", "task_arguments"],
            "formatter": LOG_FORMAT,
        },
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["redact_secrets"],
        },
    },
    "loggers": {
        "django.request": {"filters": ["redact_secrets"]},
        "django.security.csrf": {"filters": ["redact_secrets"]},
        "django_guid": {"level": "WARNING"},
        # httpx logs every request's URL, and an integrator's webhook URL may carry a
        # secret; each outbound attempt is in the delivery log instead.
        "httpx": {"level": "WARNING"},
        # Django's own lines go to the root's handler only (its default console handler
        # would print each of them a second time under DEBUG).
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.server": {
            "handlers": ["django.server"],
            "filters": ["redact_secrets"],
            "level": "INFO",
            "propagate": False,
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# Errors to Sentry (config/sentry.py) when SENTRY_DSN is set; no personal data is sent.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    from config.sentry import sentry_init

    sentry_init(SENTRY_DSN)

# GET /metrics answers only this bearer token; unset, /metrics is a 404 (core/metrics.py).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# The broker queues whose length /metrics reports.
METRICS_QUEUES = env_list(
    "METRICS_QUEUES", [*queue_names(CELERY_TASK_DEFAULT_QUEUE), CELERY_TASK_DEFAULT_QUEUE]
)
