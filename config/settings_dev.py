"""Development settings: the service's settings with DEBUG on and fixed, public keys.

`make run`, `make test` (pytest), `make lint` and `make openapi` use them, so a laptop
needs no environment. Never in production: there `config.settings` refuses to start
without SECRET_KEY and FIELD_ENCRYPTION_KEY, embeds none, and refuses these
(config/development_keys.py) unless DEBUG is on. The values go into the environment (unless
already set), so a process started from here (a test's Celery worker) gets the same keys.
"""

import os

from config import development_keys

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("SECRET_KEY", development_keys.SECRET_KEY)
os.environ.setdefault("FIELD_ENCRYPTION_KEY", development_keys.FIELD_ENCRYPTION_KEY)

from config.settings import *  # noqa: F403

# WhiteNoise serves the files where they are (no collectstatic on a laptop), even where a
# test runner turns DEBUG off.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
