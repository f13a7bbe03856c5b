"""The development keys: public (they are in this repository), so they protect nothing.

config.settings_dev sets them for a laptop, the tests and the benchmarks; config.settings
refuses them when DEBUG is off, as it refuses any key of Django's development template
(`django-insecure-…`).
"""

SECRET_KEY = "embedded-development-key-not-for-production-0123456789-laptops-only"
# The key the embedded default used to derive from that SECRET_KEY: a laptop's existing
# db.sqlite3 stays readable.
FIELD_ENCRYPTION_KEY = "6xabldhMlyfZWKTQu847pakV0y0tHtCgUEFIw_IwL3M="
