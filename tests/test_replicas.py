"""The figures read from a real streaming replica (tests/replica_lab.py), served as
production serves them: with the replica in step, reads go there; with its replay paused
past REPLICA_MAX_LAG, or the replica stopped, they go to the primary and the answers stay
right; the token lookup and every write stay on the primary throughout."""

import http.cookiejar
import json
import re
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import pytest
from prometheus_client.parser import text_string_to_metric_families

from scripts.served import BIN, HOST, ROOT, Server, production_environment
from tests.replica_lab import Lab, binaries
from tests.test_serving import _free_port

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(binaries() is None, reason="needs PostgreSQL's server binaries"),
]

TOKEN = "metrics-" + "r" * 32
PERIOD = "from=2026-01-01&to=2026-12-31"


def _get(port: int, path: str, token: str):
    request = urllib.request.Request(
        f"http://{HOST}:{port}{path}", headers={"Authorization": f"Bearer {token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def _page_as(port: int, email: str, password: str, path: str) -> int:
    """Sign in through the sign-in form, as a browser does, and open a page."""
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    base = f"http://{HOST}:{port}"
    form = browser.open(f"{base}/accounts/login/", timeout=20).read().decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    data = urlencode({"csrfmiddlewaretoken": csrf, "username": email, "password": password})
    browser.open(f"{base}/accounts/login/", data=data.encode(), timeout=20)
    return browser.open(f"{base}{path}", timeout=20).status


def _reads(port: int) -> dict[str, float]:
    request = urllib.request.Request(
        f"http://{HOST}:{port}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read().decode()
    counts = {"replica": 0.0, "primary": 0.0}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "db_replica_reads_total":
                counts[sample.labels["target"]] = sample.value
    return counts


@pytest.fixture(scope="module")
def served():
    lab = Lab().start()
    folder = Path(tempfile.mkdtemp(prefix="replica-served-"))
    server = None
    try:
        lab.sql("CREATE DATABASE figures")
        port = _free_port()
        env = production_environment(database_url=lab.url(database="figures"), port=port)
        env.update(
            DATABASE_REPLICA_URL=lab.url(replica=True, database="figures"),
            REPLICA_MAX_LAG="1",
            REPLICA_CHECK_SECONDS="0.2",
            CACHE_URL="",
            CELERY_BROKER_URL="",
            METRICS_TOKEN=TOKEN,
            PROMETHEUS_MULTIPROC_DIR=str(folder / "metrics"),
            DEMO_FILE=str(folder / "demo.json"),
        )
        for command in (["migrate", "--noinput"], ["seed_demo", "--json", "--allow-production"]):
            done = subprocess.run(
                [str(BIN / "python"), "manage.py", *command],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
        demo = json.loads(done.stdout)
        lab.wait_replayed()
        server = Server(
            env,
            port=port,
            workers=1,
            log_path=folder / "gunicorn.log",
            extra_args=("--config", "python:config.gunicorn"),
        )
        server.wait_ready(lambda: _get(port, "/healthz", "")[0] == 200)
        yield lab, port, demo["workspaces"][0]
    finally:
        if server is not None:
            server.stop()
        lab.stop()


def test_a_revoked_token_is_refused_at_once_whatever_the_replica_says(served):
    """Token lookups read the primary: a replica that has not yet replayed a revocation
    does not let the token through."""
    lab, port, workspace = served
    token = workspace["tokens"]["write"]
    assert _get(port, "/api/v1/whoami", token)[0] == 200
    lab.sql("SELECT pg_wal_replay_pause()", replica=True)
    revoked = lab.sql(
        "UPDATE tokens_apitoken SET revoked_at = now() WHERE last_four = "
        f"'{token[-4:]}' AND workspace_id = '{workspace['id']}' RETURNING name",
        database="figures",
    )
    assert revoked.splitlines()[0].endswith(" write")
    assert _get(port, f"/api/v1/calls?{PERIOD}", token)[0] == 401
    lab.sql("SELECT pg_wal_replay_resume()", replica=True)
    lab.wait_replayed()


def test_figures_come_from_the_replica_and_from_the_primary_when_it_lags_or_stops(served):
    lab, port, workspace = served
    token = workspace["tokens"]["read"]

    # In step: the figures are read on the replica.
    before = _reads(port)
    status, from_replica = _get(port, f"/api/v1/calls?{PERIOD}", token)
    assert status == 200
    after = _reads(port)
    assert after["replica"] > before["replica"]
    assert after["primary"] == before["primary"]
    # The overview page's figures too, once the member's access is read from the primary.
    owner = next(m for m in workspace["members"] if m["role"] == "owner")
    before = after
    assert _page_as(port, owner["email"], owner["password"], f"/app/{workspace['id']}/") == 200
    assert _reads(port)["replica"] > before["replica"]

    # Replay paused, then a write on the primary: the replica falls behind.
    lab.sql("SELECT pg_wal_replay_pause()", replica=True)
    lab.sql(
        "CREATE TABLE lag_marker (n int); INSERT INTO lag_marker VALUES (1)", database="figures"
    )
    time.sleep(1.5)
    before = _reads(port)
    status, lagging = _get(port, f"/api/v1/calls?{PERIOD}", token)
    assert (status, lagging) == (200, from_replica)
    after = _reads(port)
    assert after["primary"] > before["primary"]
    assert after["replica"] == before["replica"]

    # Replay resumed: once in step again, the replica is used again.
    lab.sql("SELECT pg_wal_replay_resume()", replica=True)
    lab.wait_replayed()
    time.sleep(0.5)
    before = _reads(port)
    assert _get(port, f"/api/v1/calls?{PERIOD}", token) == (200, from_replica)
    assert _reads(port)["replica"] > before["replica"]

    # Stopped: the same answers, from the primary; no request fails. The first request
    # may still pick the replica (its last check said well): its read breaks, and the
    # request is read again from the primary.
    lab.replica_stop()
    assert _get(port, f"/api/v1/calls?{PERIOD}", token) == (200, from_replica)
    time.sleep(0.5)
    before = _reads(port)
    for _ in range(3):
        assert _get(port, f"/api/v1/calls?{PERIOD}", token) == (200, from_replica)
    after = _reads(port)
    assert after["primary"] > before["primary"]
    assert after["replica"] == before["replica"]
