"""The bad-neighbour load test reads its 20 % target against each request kind's median
ratio over alternating rounds, and leaves the bad neighbour's own requests out."""

from bench.neighbours import _compare


def _stats(p95: dict) -> dict:
    return {
        kind: {"Name": kind, "Requests/s": "10.0", "95%": str(value)} for kind, value in p95.items()
    }


def _run(p95: dict) -> dict:
    return {"stats": _stats(p95), "mail": [0.1], "deliveries": [0.2], "twice": 0, "lost": 0}


def test_each_kind_is_read_against_its_median_ratio_over_the_rounds(capsys):
    results = {
        "without-1": _run({"figures": 40, "change-log": 50}),
        "with-1": _run({"figures": 44, "change-log": 80, "bad: change-log": 900}),
        "without-2": _run({"figures": 40, "change-log": 50}),
        "with-2": _run({"figures": 60, "change-log": 55, "bad: change-log": 900}),
        "without-3": _run({"figures": 50, "change-log": 50}),
        "with-3": _run({"figures": 55, "change-log": 65, "bad: change-log": 900}),
    }
    _compare(results, rounds=3)
    printed = capsys.readouterr().out
    medians = printed.split("median ratio")[1].splitlines()
    # figures: 1.10, 1.50, 1.10 -> median 1.10; change-log: 1.60, 1.10, 1.30 -> 1.30.
    assert medians[1].split() == ["figures", "1.10", "1.10", "1.50", "1.10"]
    assert medians[2].split() == ["change-log", "1.30", "1.60", "1.10", "1.30", "MISS"]
    assert "bad: change-log" not in printed
    # Each round's own ratios are printed and marked too.
    assert printed.count("1.50  MISS") == 1
    assert "with-3: mail max 0.10 s (met), deliveries max 0.20 s (met)" in printed


def test_one_round_compares_its_two_runs(capsys):
    results = {
        "without": _run({"figures": 100}),
        "with": _run({"figures": 119}),
    }
    _compare(results)
    printed = capsys.readouterr().out
    assert "median ratio" not in printed
    line = next(line for line in printed.splitlines() if line.startswith("figures"))
    assert line.split() == ["figures", "10.0", "10.0", "100", "119", "1.19"]
