"""Development settings: the service's settings with DEBUG on and fixed, public keys.

`make run`, `make test` (pytest), `make lint` and `make openapi` use them, so a laptop
needs no environment. Never in production: there `config.settings` refuses to start
without SECRET_KEY and FIELD_ENCRYPTION_KEY, and embeds none. The values go into the environment (unless
already set), so a process started from here (a test's Celery worker) gets the same keys.
"""

import os

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault(
    "SECRET_KEY", "embedded-development-key-not-for-production-0123456789-laptops-only"
)
# The key the embedded default used to derive from that SECRET_KEY: a laptop's existing
# db.sqlite3 stays readable.
os.environ.setdefault("FIELD_ENCRYPTION_KEY", "6xabldhMlyfZWKTQu847pakV0y0tHtCgUEFIw_IwL3M=")

from config.settings import *  # noqa: F403

# WhiteNoise serves the files where they are (no collectstatic on a laptop), even where a
# test runner turns DEBUG off.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
