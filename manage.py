#!/usr/bin/env python
import os
import sys


def main():
    # By hand on a laptop, the development settings; production processes (make serve,
    # make worker, config.wsgi, config.asgi, Celery) read config.settings.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_dev")
    # Django's own manage.py: nothing of Django loads before the settings module is chosen.
    from django.core.management import execute_from_command_line  # noqa: PLC0415

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
