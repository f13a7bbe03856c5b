"""The serving matrix: requests per second under wrk, sync workers against uvicorn workers.

    make wrk-deps
    .venv/bin/python bench/wrk_matrix.py                     # bench_large, 10 s a cell
    .venv/bin/python bench/wrk_matrix.py --seconds 5 --connections 1,4

A Python client tops out near 1,300 requests a second on this machine, below what the bare
view answers, so the framework's share (whoami against the bare view) is measured with
Debian's wrk, a C client with its own threads. On a database loaded by bench/generate.py
(bench/out/<database>.json holds its token), gunicorn serves the project with production's
settings and bench/urls.py's bare view (bench/settings.py), `--workers` workers, as
`make serve` does (`--config python:config.gunicorn`): first the service's sync workers on
config.wsgi, then uvicorn workers on config.asgi, never both at once. For each server, each
path (the bare view, whoami, /payments, /attribution) and each number of connections
(1, 2, 4, 8, 16), wrk runs for `--seconds` after a warm-up of 2 s, with at most two threads
(one per core). It prints requests per second and the p50/p99 latency per cell, whoami /
bare per server and connections, and the sync / uvicorn ratio per cell, and writes
bench/out/wrk_matrix.json. A measurement: it exits 0 unless it could not run.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import BARE_PATH, OUT
from scripts.served import HOST, Server, port_free, production_environment

PATHS = [
    ("bare", BARE_PATH),
    ("whoami", "/api/v1/whoami"),
    ("payments", "/api/v1/payments"),
    ("attribution", "/api/v1/attribution"),
]
SERVERS = {"sync": "wsgi", "uvicorn": "asgi"}
_RATE = re.compile(r"Requests/sec:\s+([\d.]+)")
_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}
_PERCENTILE = re.compile(r"^\s+(50|99)(?:\.000)?%\s+([\d.]+)(us|ms|s)\s*$", re.MULTILINE)
_ERRORS = re.compile(r"Non-2xx or 3xx responses: (\d+)|Socket errors: (.*)")


def wrk(url: str, token: str, *, connections: int, seconds: int) -> dict:
    threads = min(connections, 2)
    done = subprocess.run(
        [
            "wrk",
            "-t",
            str(threads),
            "-c",
            str(connections),
            "-d",
            f"{seconds}s",
            "--latency",
            "-H",
            f"Authorization: Bearer {token}",
            url,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    out = done.stdout
    latency = {p: float(v) * _UNITS[u] for p, v, u in _PERCENTILE.findall(out)}
    errors = [m.group(0) for m in _ERRORS.finditer(out)]
    return {
        "rps": float(_RATE.search(out).group(1)),
        "p50_ms": latency.get("50"),
        "p99_ms": latency.get("99"),
        "errors": errors,
    }


def measure(info: dict, args) -> dict:
    results: dict = {}
    for name, kind in SERVERS.items():
        if not port_free(args.port):
            raise SystemExit(f"port {args.port} is taken")
        env = production_environment(database_url=info["database_url"], port=args.port)
        env["DJANGO_SETTINGS_MODULE"] = "bench.settings"
        server = Server(
            env,
            port=args.port,
            workers=args.workers,
            kind=kind,
            log_path=OUT / f"wrk-{name}.log",
            extra_args=("--config", "python:config.gunicorn"),
        )
        try:
            server.wait_ready(
                lambda: (
                    subprocess.run(
                        [
                            "wrk",
                            "-t1",
                            "-c1",
                            "-d1s",
                            "-H",
                            f"Authorization: Bearer {info['token']}",
                            f"http://{HOST}:{args.port}/api/v1/whoami",
                        ],
                        capture_output=True,
                        check=False,
                    ).returncode
                    == 0
                )
            )
            for label, path in PATHS:
                url = f"http://{HOST}:{args.port}{path}"
                # Every worker imports and warms what the path needs before it is timed.
                wrk(url, info["token"], connections=args.workers * 2, seconds=2)
                for connections in args.connections:
                    cell = wrk(url, info["token"], connections=connections, seconds=args.seconds)
                    results.setdefault(name, {}).setdefault(label, {})[connections] = cell
                    print(
                        f"{name:8} {label:12} c={connections:<3} {cell['rps']:9.1f} req/s  "
                        f"p50 {cell['p50_ms']:.2f} ms  p99 {cell['p99_ms']:.2f} ms"
                        f"{'  ' + '; '.join(cell['errors']) if cell['errors'] else ''}",
                        flush=True,
                    )
        finally:
            server.stop()
    return results


def report(results: dict, connections: list[int]) -> None:
    print("\nrequests per second (sync / uvicorn, and their ratio)")
    print(f"{'path':12}" + "".join(f"{'c=' + str(c):>24}" for c in connections))
    for label, _ in PATHS:
        cells = []
        for c in connections:
            sync, uv = results["sync"][label][c]["rps"], results["uvicorn"][label][c]["rps"]
            cells.append(f"{sync:7.0f} / {uv:7.0f} ({sync / uv:4.2f})")
        print(f"{label:12}" + "".join(f"{cell:>24}" for cell in cells))
    print("\nwhoami / bare (sync, uvicorn)")
    for c in connections:
        ratios = [
            results[name]["whoami"][c]["rps"] / results[name]["bare"][c]["rps"] for name in SERVERS
        ]
        print(f"c={c:<3} {ratios[0]:.2f}  {ratios[1]:.2f}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--database", default="bench_large")
    p.add_argument("--seconds", type=int, default=10)
    p.add_argument("--connections", default="1,2,4,8,16")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--port", type=int, default=8775)
    args = p.parse_args(argv)
    args.connections = [int(c) for c in args.connections.split(",")]
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: make wrk-deps")
    info = json.loads((OUT / f"{args.database}.json").read_text())
    results = measure(info, args)
    report(results, args.connections)
    (OUT / "wrk_matrix.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
