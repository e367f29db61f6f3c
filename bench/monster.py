"""Monster solver on large boards: how long one ``checker.monster.run`` takes on 50 x 50.

    python -m bench.monster [--repetitions N]

`run_monster_bench()` returns the figures as a dict (bench/run.py puts them in the report).
The boards are built from a fixed seed, so every run times the same work: a 50 x 50 room with
wall pieces, thin walls, obstacles, traps, difficult terrain and six enemies, the monster near
one corner with Move 8 (walking, ranged with two targets; jumping; flying; teleporting), plus
the open 50 x 50 board, where the monster cannot reach its focus this turn.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

SIDE = 50
MOVE = 8
SEED = 12


def _room(seed: int = SEED) -> dict[str, Any]:
    """A 50 x 50 board with scattered walls and terrain; the monster at [2, 2]."""
    rnd = random.Random(seed)
    taken = {(2, 2)}
    walls: list[list[int]] = []
    for _ in range(40):  # wall pieces: short straight runs down a column
        c, r = rnd.randrange(SIDE), rnd.randrange(SIDE - 6)
        for dr in range(rnd.randint(2, 6)):
            h = (c, r + dr)
            if h not in taken:
                taken.add(h)
                walls.append(list(h))

    def free(n: int) -> list[list[int]]:
        out = []
        while len(out) < n:
            h = (rnd.randrange(SIDE), rnd.randrange(SIDE))
            if h not in taken:
                taken.add(h)
                out.append(list(h))
        return out

    terrain = {
        "obstacles": free(60),
        "traps": free(30),
        "hazardous": free(20),
        "difficult": free(60),
    }
    thin = []
    for c in range(10, 20):  # a thin wall line between rows 24 and 25, columns 10..19
        if (c, 24) not in taken and (c, 25) not in taken:
            thin.append([[c, 24], [c, 25]])
    enemies = [
        {"hex": h, "initiative": 10 + 7 * i, "name": f"enemy {i}"} for i, h in enumerate(free(6))
    ]
    return {
        "game": "frosthaven",
        "map": {"width": SIDE, "height": SIDE, "walls": walls, "thin_walls": thin, **terrain},
        "monster": {"hex": [2, 2], "move": MOVE, "range": 0, "targets": 1},
        "allies": free(3),
        "enemies": enemies,
    }


def boards() -> dict[str, dict[str, Any]]:
    """The timed requests, by label."""
    room = _room()
    ranged = json.loads(json.dumps(room))
    ranged["monster"].update(range=4, targets=2)
    jump = json.loads(json.dumps(room))
    jump["monster"]["jump"] = True
    flying = json.loads(json.dumps(room))
    flying["monster"]["flying"] = True
    gloom = json.loads(json.dumps(ranged))
    gloom["game"] = "gloomhaven"
    teleport = json.loads(json.dumps(room))
    teleport["monster"]["teleport"] = True
    open_board = {
        "game": "frosthaven",
        "map": {"width": SIDE, "height": SIDE},
        "monster": {"hex": [0, 0], "move": MOVE},
        "enemies": [
            {"hex": [49, 49], "initiative": 20, "name": "far"},
            {"hex": [0, 49], "initiative": 30, "name": "down"},
        ],
    }
    return {
        "room, melee": room,
        "room, ranged 4, 2 targets": ranged,
        "room, ranged, gloomhaven": gloom,
        "room, jump": jump,
        "room, flying": flying,
        "room, teleport": teleport,
        "open board": open_board,
    }


def _time(payload: dict[str, Any], repetitions: int) -> dict[str, Any]:
    from checker import monster

    samples = []
    for _ in range(repetitions):
        t = time.perf_counter()
        try:
            monster.run(payload)
        except Exception as exc:  # noqa: BLE001 - a refused request is a figure too
            return {"error": str(exc)}
        samples.append(time.perf_counter() - t)
    return {
        "median_s": round(statistics.median(samples), 4),
        "max_s": round(max(samples), 4),
        "repetitions": repetitions,
    }


def run_monster_bench(repetitions: int = 5, target_s: float = 0.3) -> dict[str, Any]:
    """Time the solver on every board; `target_met`: every median under `target_s`."""
    rows = {label: _time(payload, repetitions) for label, payload in boards().items()}
    medians = [r["median_s"] for r in rows.values() if "median_s" in r]
    return {
        "board": f"{SIDE} x {SIDE}, Move {MOVE}, seed {SEED}",
        "target_s": target_s,
        "boards": rows,
        "worst_median_s": max(medians) if medians else None,
        "target_met": bool(medians) and max(medians) < target_s,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args(argv)
    result = run_monster_bench(args.repetitions)
    print(f"monster solver, {result['board']} (target: median under {result['target_s']} s)")
    for label, row in result["boards"].items():
        if "error" in row:
            print(f"  {label:30s} refused: {row['error']}")
        else:
            print(f"  {label:30s} median {row['median_s']:.4f} s, max {row['max_s']:.4f} s")
    print(
        f"worst median {result['worst_median_s']} s: target {'met' if result['target_met'] else 'missed'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
