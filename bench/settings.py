"""The benchmark's server settings: production's (config.settings), and bench.urls as the
URLconf, which adds a bare Django JSON view to compare `whoami` with.

Only bench/run.py's servers use this module (DJANGO_SETTINGS_MODULE=bench.settings); the
service never imports it, so the bare view is not routed in production.
"""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
