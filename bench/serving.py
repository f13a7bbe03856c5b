"""Ways of serving the project side by side: server CPU per request and requests per second.

    .venv/bin/python bench/serving.py                                # wsgi, asgi, gthread
    .venv/bin/python bench/serving.py --servers wsgi,asgi --paths /api/v1/whoami --requests 300 --rounds 4
    .venv/bin/python bench/serving.py --servers wsgi,asgi --clients 8 --workers 2

Each server (2 workers by default, production's settings with bench/urls.py's URLconf, on
bench_large) gets, round after round and in turn, --requests requests from --clients
client threads (2 by default), each request on a new connection: requests per second, and
the CPU time (user and system) of the server's processes per request, read from /proc,
which other load on a shared machine inflates far less than it inflates latency. Servers:
wsgi (`make serve`: the service's sync workers on config.wsgi), asgi (uvicorn workers on
config.asgi, WEB_THREADS threads each), gthread (gthread workers on config.wsgi, 4
threads). A measurement, not a test.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import OUT, request, server_ready, server_start, throughput
from scripts import served

served.SERVER_COMMANDS.setdefault(
    "gthread", ["config.wsgi", "--worker-class", "gthread", "--threads", "4"]
)
TICK = os.sysconf("SC_CLK_TCK")


def group_cpu_seconds(group: int) -> float:
    """User and system time of every live process of the process group."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == group:
            total += int(fields[11]) + int(fields[12])
    return total / TICK


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--database", default="bench_large")
    p.add_argument("--servers", default="wsgi,asgi,gthread")
    p.add_argument("--paths", default="/api/v1/whoami,/bench/bare,/api/v1/payments")
    p.add_argument("--requests", type=int, default=200)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--clients", type=int, default=2, help="client threads")
    p.add_argument("--port", type=int, default=8801)
    args = p.parse_args(argv)
    info = json.loads((OUT / f"{args.database}.json").read_text())
    kinds = [kind for kind in args.servers.split(",") if kind]
    servers = []
    try:
        for i, kind in enumerate(kinds):
            servers.append(server_start(info, port=args.port + i, workers=args.workers, kind=kind))
        for server in servers:
            server_ready(server, info["token"])
        print(f"load average before {os.getloadavg()[0]:.2f}", flush=True)
        for path in args.paths.split(","):
            cpu = dict.fromkeys(kinds, 0.0)
            wall = dict.fromkeys(kinds, 0.0)
            for server in servers:
                for _ in range(20):
                    request(server.port, path, info["token"])
            for _ in range(args.rounds):
                for kind, server in zip(kinds, servers, strict=True):
                    cpu_before, began = group_cpu_seconds(server.proc.pid), time.perf_counter()
                    throughput(server.port, path, info["token"], args.requests, args.clients)
                    wall[kind] += time.perf_counter() - began
                    cpu[kind] += group_cpu_seconds(server.proc.pid) - cpu_before
            total = args.requests * args.rounds
            for kind in kinds:
                print(
                    f"{path:<20} {kind:<8} server CPU {cpu[kind] * 1000 / total:6.2f} ms/request"
                    f"  {total / wall[kind]:7.1f} req/s ({args.clients} client threads)",
                    flush=True,
                )
        print(f"load average after {os.getloadavg()[0]:.2f}")
    finally:
        for server in servers:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
