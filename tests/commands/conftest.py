import io
import json

import pytest
from django.core.management import call_command

from demo.management.commands import seed_demo as seed_demo_command


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _laptop(settings):
    """`make run`'s settings (config.settings_dev): DEBUG on, which the test runner turns off."""
    settings.DEBUG = True


@pytest.fixture(autouse=True)
def demo_file(tmp_path, monkeypatch):
    """The saved demo goes to a temporary folder, never the project's .demo.json."""
    path = tmp_path / ".demo.json"
    monkeypatch.setattr(seed_demo_command, "DEMO_FILE", path)
    return path


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.fixture
def seed_demo(db):
    def seed(*extra):
        return json.loads(run("seed_demo", "--json", *extra))

    return seed
