"""A figures tool call through /mcp against the same REST request, on the same server.

    .venv/bin/python bench/mcp.py                                  # bench_large and bench_small
    .venv/bin/python bench/mcp.py --databases bench_large --requests 300 --tool listPaymentFigures

For each database loaded by bench/generate.py this starts the production setup (gunicorn's
sync workers on config.wsgi, as bench/run.py does), checks once that the tool's
structured content equals the REST answer, then sends --requests pairs, sequentially and
interleaved (REST, then the tool call): `GET <path>` and a `tools/call` of the tool with
the same parameters (one JSON-RPC POST to /mcp, stateless, answered as JSON, as a client
sends it once connected). Prints p50 and p95 of each and the ratio tool / REST.
Target: the tool costs at most 1.3 times the REST request, at p50 and at p95.
"""

import argparse
import http.client
import json
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import HOST, OUT, percentile, server_ready, server_start

RATIO_TARGET = 1.3

# tool -> the REST path answering the same
TOOLS = {
    "listCallFigures": "/api/v1/calls",
    "listOutcomes": "/api/v1/outcomes",
    "listPaymentFigures": "/api/v1/payments",
    "listEodFigures": "/api/v1/eod",
    "listAttribution": "/api/v1/attribution",
    "listAcquisition": "/api/v1/acquisition",
    "listCommission": "/api/v1/commission",
    "getFunnel": "/api/v1/funnel",
    "getWebinar": "/api/v1/webinar",
}


def send(port: int, method: str, path: str, token: str, body: bytes | None = None):
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    headers = {"Authorization": f"Bearer {token}"}
    if body is not None:
        headers.update(
            {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        )
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def tool_body(tool: str, arguments: dict) -> bytes:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        }
    ).encode()


def timed(call) -> float:
    began = time.perf_counter()
    status, _ = call()
    took = (time.perf_counter() - began) * 1000
    if status != 200:
        raise SystemExit(f"HTTP {status}")
    return took


def measure(name: str, args) -> dict:
    info = json.loads((OUT / f"{name}.json").read_text())
    token = info["token"]
    path = TOOLS[args.tool]
    arguments = {"from": args.date_from, "to": args.date_to} if args.date_from else {}
    query = f"{path}?{urlencode(arguments)}" if arguments else path
    body = tool_body(args.tool, arguments)
    server = server_start(info, port=args.port, workers=args.workers)
    try:
        server_ready(server, token)
        status, rest_body = send(args.port, "GET", query, token)
        status_mcp, mcp_body = send(args.port, "POST", "/mcp", token, body)
        if status != 200 or status_mcp != 200:
            raise SystemExit(f"{name}: REST answered {status}, /mcp {status_mcp}")
        result = json.loads(mcp_body)["result"]
        rest = json.loads(rest_body)
        # The period's default ends now: compare everything the two answers share.
        same = result["structuredContent"] == rest
        if not same:
            print(f"  {name}: the tool's structured content differs from the REST answer")
        rest_call = lambda: send(args.port, "GET", query, token)  # noqa: E731
        mcp_call = lambda: send(args.port, "POST", "/mcp", token, body)  # noqa: E731
        for _ in range(args.warmup):
            rest_call(), mcp_call()
        rest_ms, mcp_ms = [], []
        for _ in range(args.requests):
            rest_ms.append(timed(rest_call))
            mcp_ms.append(timed(mcp_call))
    finally:
        server.stop()
    row = {
        "database": name,
        "tool": args.tool,
        "path": query,
        "same_json": same,
        "rest_p50": statistics.median(rest_ms),
        "rest_p95": percentile(rest_ms, 0.95),
        "mcp_p50": statistics.median(mcp_ms),
        "mcp_p95": percentile(mcp_ms, 0.95),
        "requests": args.requests,
    }
    row["ratio_p50"] = row["mcp_p50"] / row["rest_p50"]
    row["ratio_p95"] = row["mcp_p95"] / row["rest_p95"]
    return row


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--databases", default="bench_large,bench_small")
    p.add_argument("--tool", choices=sorted(TOOLS), default="listCallFigures")
    p.add_argument("--from", dest="date_from", default=None, help="YYYY-MM-DD (default: 30 days)")
    p.add_argument("--to", dest="date_to", default=None)
    p.add_argument("--requests", type=int, default=200)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--port", type=int, default=8775)
    args = p.parse_args(argv)
    rows = [measure(name, args) for name in args.databases.split(",") if name]
    lines = [
        "| database | request | REST p50 | REST p95 | tool p50 | tool p95 | p50 × | p95 × |",  # noqa: RUF001 (the ratio columns)
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        ok = "ok" if max(r["ratio_p50"], r["ratio_p95"]) <= RATIO_TARGET else "MISS"
        lines.append(
            f"| {r['database']} | `{r['path']}` / `{r['tool']}` | {r['rest_p50']:.1f} ms "
            f"| {r['rest_p95']:.1f} ms | {r['mcp_p50']:.1f} ms | {r['mcp_p95']:.1f} ms "
            f"| {r['ratio_p50']:.2f} | {r['ratio_p95']:.2f} {ok} |"
        )
    print("\n".join(lines))
    print(
        f"\n{args.requests} pairs after {args.warmup} warm-up, sequential and interleaved; "
        f"{args.workers} gunicorn sync workers. Target: tool / REST <= {RATIO_TARGET:g}."
    )
    (OUT / "mcp-results.json").write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
