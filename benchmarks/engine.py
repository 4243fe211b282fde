"""Engine benchmarks: adjudication speed (this file) plus the core's numbers when present.

    .venv/bin/python benchmarks/engine.py [--games N]

Adjudication is measured on simulated games (the simulator's records are long, legal games):
parse + replay + scoring, and the replay loop alone. Target: ≥ 100,000 adjudicated events/s.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.record import parse_record  # noqa: E402
from engine.replay import Replay, adjudicate_parsed  # noqa: E402
from engine.simulate import simulate  # noqa: E402


def adjudication(games: int = 60) -> dict[str, float]:
    records = [
        simulate(n, f"bench-{k}", rs)
        for k in range(games // 6)
        for rs in ("RTU", "CLASSIC")
        for n in (4, 5, 6)
    ]
    events = sum(len(r["events"]) for r in records)
    longest = max(len(r["events"]) for r in records)

    t0 = time.perf_counter()
    verdicts = [adjudicate_parsed(parse_record(r)) for r in records]
    full = time.perf_counter() - t0
    assert all(v.valid for v in verdicts), "a simulated game did not adjudicate valid"

    parsed = [parse_record(r).record for r in records]
    t0 = time.perf_counter()
    for rec in parsed:
        assert rec is not None
        Replay(rec).run()
    loop = time.perf_counter() - t0

    t0 = time.perf_counter()
    for k in range(12):
        simulate(5, f"sim-{k}")
    sim = (time.perf_counter() - t0) / 12
    return {
        "games": len(records),
        "events": events,
        "longest_game_events": longest,
        "adjudicated_events_per_s": events / full,
        "replay_loop_events_per_s": events / loop,
        "ms_per_game": 1000 * full / len(records),
        "simulate_ms_per_5p_rtu_game": 1000 * sim,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    print(f"# engine benchmarks — Python {platform.python_version()} on {platform.machine()}")
    try:
        import engine_core  # type: ignore[import-not-found]  # benchmarks/engine_core.py (the core's part)
    except ImportError:
        engine_core = None
    if engine_core is not None and hasattr(engine_core, "main"):
        engine_core.main()
    print("## adjudication")
    for key, value in adjudication(args.games).items():
        print(f"{key:32} {value:>14,.1f}" if isinstance(value, float) else f"{key:32} {value:>14,}")


if __name__ == "__main__":
    main()
