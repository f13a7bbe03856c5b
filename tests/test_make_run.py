"""`make run` serves, prints and mails links on one address: BASE_URL follows PORT and HOST."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def run_commands(*args: str, **env: str) -> list[str]:
    """The commands `make run` would run (make -n), those of the service only."""
    clean = {"PATH": "/usr/bin:/bin", **env}
    result = subprocess.run(
        ["make", "-n", "run", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return [
        line.split(" .venv/bin/")[0]
        for line in result.stdout.splitlines()
        if "manage.py" in line or "uvicorn" in line
    ]


def test_the_links_follow_the_port_it_serves():
    assert (
        run_commands("PORT=8110")
        == ["DJANGO_SETTINGS_MODULE=config.settings_dev BASE_URL=http://127.0.0.1:8110"] * 3
    )


def test_by_default_the_links_go_to_port_8000():
    assert (
        run_commands()
        == ["DJANGO_SETTINGS_MODULE=config.settings_dev BASE_URL=http://127.0.0.1:8000"] * 3
    )


def test_on_every_interface_the_links_go_to_the_loopback():
    assert (
        run_commands("HOST=0.0.0.0", "PORT=8110")
        == ["DJANGO_SETTINGS_MODULE=config.settings_dev BASE_URL=http://127.0.0.1:8110"] * 3
    )


def test_a_base_url_set_wins():
    assert (
        run_commands("PORT=8110", BASE_URL="http://localhost:9000")
        == ["DJANGO_SETTINGS_MODULE=config.settings_dev BASE_URL=http://localhost:9000"] * 3
    )
