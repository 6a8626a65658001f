"""The shipped statistics: one JSON file per variant in ``senet/sim/data``, written by
``scripts/sim_stats`` (this module's :func:`main`) and read by the site and the CLI.

A file holds, for the variant as we play it, the figures of a run of random games and of a
run between computer players, and for each decision with a simulated alternative
(:mod:`.alternatives`) the figures of a run of the other reading by the players of the
variant's ``basis`` (random, or the computer where random games do not end: see
:data:`PLANS`).  Every run states its seed, number of games and ``max_decisions``;
``checkpoints`` give the first player's wins after the first 1,000 and 10,000 games of the
same run, so that ``senet stats VARIANT --games 10000 --seed S``
reproduces a shipped figure in a second.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from senet.engine import VARIANTS, Variant, find_variant

from .alternatives import alternatives_for
from .stats import summarize

__all__ = [
    "load",
    "available",
    "run_figures",
    "generate",
    "main",
    "plan_for",
    "Plan",
    "SEED",
    "CHECKPOINTS",
    "PARTS",
    "MAX_DECISIONS",
]

SEED = 2026
RANDOMS = ("random", "random")
#: decisions after which a game is stopped (and counted as stopped), unless a Plan says more
MAX_DECISIONS = 100_000
CHECKPOINTS = (1_000, 10_000)
_DATA = Path(__file__).with_name("data")


@dataclass(frozen=True)
class Plan:
    """How a variant's figures are made where it differs from the defaults."""

    #: the run the variant page draws its charts from, and whose players play the alternative
    #: readings: "random" or "computer"
    basis: str = "random"
    #: random games (None: the regeneration's --games)
    random_games: int | None = None
    #: decisions after which a game is stopped and counted as such
    max_decisions: int = MAX_DECISIONS


#: Uniformly random Jéquier games last a median of about 320,000 decisions (captured pieces and
#: the House of Water send pieces back to the start, a piece that cannot go forward must go
#: back, and nothing bears off before every piece is on the last row): about 9 games a CPU
#: second, so ten million would take two CPU-weeks.  Its random run is a sample played to the
#: end, and its page (and the alternative readings) use the games between computer players.
PLANS = {"jequier": Plan(basis="computer", random_games=1_000, max_decisions=10_000_000)}


def plan_for(name: str) -> Plan:
    return PLANS.get(name, Plan())


def run_figures(
    variant: Variant,
    games: int,
    seed: int,
    players: tuple[str, str] = ("random", "random"),
    jobs: int = 1,
    weights_of: Variant | None = None,
    progress: Any = None,
    max_decisions: int = MAX_DECISIONS,
) -> dict[str, Any]:
    """Play a run and return its figures (with the checkpoints of its first games)."""
    # imported here: the compiled rules (Numba) are needed to make the figures, never to read
    # them, so a web process that shows them does not load Numba
    from senet.ai.evaluation import weights_for

    from .runner import player_code, run

    codes = (player_code(players[0]), player_code(players[1]))
    weights = weights_for(weights_of) if weights_of is not None and max(codes) == 2 else None
    checkpoints = {}
    for count in CHECKPOINTS:
        if count < games:
            head = run(variant, count, seed, codes, 1, weights, max_decisions=max_decisions)
            checkpoints[str(count)] = int(head.results[0])
    tally = run(variant, games, seed, codes, jobs, weights, progress, max_decisions)
    figures = summarize(variant, tally, seed, players)
    figures["checkpoints"] = checkpoints
    figures["max_decisions"] = max_decisions
    return figures


PARTS = ("random", "computer", "alternatives")


def generate(
    name: str,
    games: int,
    ai_games: int,
    alt_games: int,
    jobs: int,
    seed: int = SEED,
    parts: Sequence[str] = PARTS,
    previous: dict[str, Any] | None = None,
    only_alternatives: Sequence[str] = (),
) -> dict[str, Any]:
    """The figures of one variant: the ``parts`` named are computed anew, the others kept from
    ``previous`` (the file shipped so far), so that a long regeneration can go part by part.
    ``only_alternatives`` narrows the alternatives part to the readings named (by key); the
    other readings keep their figures from ``previous``."""
    variant = find_variant(name)
    plan = plan_for(variant.name)
    data: dict[str, Any] = dict(previous or {})
    data["variant"] = variant.name
    data["basis"] = plan.basis
    expert = ("expert", "expert")
    seconds: dict[str, float] = dict(data.get("seconds_by_part", {}))
    for part in parts:
        started = time.time()
        if part == "random":
            count = plan.random_games or games
            data["random"] = run_figures(
                variant, count, seed, jobs=jobs, max_decisions=plan.max_decisions
            )
        elif part == "computer":
            data["computer"] = run_figures(
                variant, ai_games, seed, expert, jobs, max_decisions=plan.max_decisions
            )
        elif part == "alternatives":
            readings = alternatives_for(variant.name)
            unknown = set(only_alternatives) - {alt.key for alt in readings}
            if unknown:
                raise ValueError(
                    f"{name} has no alternative reading {', '.join(sorted(unknown))}; "
                    f"its readings are {', '.join(alt.key for alt in readings)}"
                )
            kept = dict(data.get("alternatives", {})) if only_alternatives else {}
            data["alternatives"] = {alt.key: kept[alt.key] for alt in readings if alt.key in kept}
            players, count = RANDOMS, alt_games
            if plan.basis == "computer":
                players, count = expert, min(alt_games, ai_games)
            for alt in readings:
                if only_alternatives and alt.key not in only_alternatives:
                    continue
                figures = run_figures(
                    alt.build(),
                    count,
                    seed,
                    players,
                    jobs,
                    weights_of=variant,
                    max_decisions=plan.max_decisions,
                )
                figures["variant"] = variant.name
                data["alternatives"][alt.key] = {"en": alt.en, "ru": alt.ru, "figures": figures}
            data["alternatives"] = {
                alt.key: data["alternatives"][alt.key]
                for alt in readings
                if alt.key in data["alternatives"]
            }
        else:
            raise ValueError(f"unknown part {part!r}; the parts are {', '.join(PARTS)}")
        seconds[part] = round(time.time() - started, 1)
    data.pop("seconds", None)
    data["seconds_by_part"] = seconds
    missing = [part for part in PARTS if part not in data]
    if missing:
        raise ValueError(f"{name}: no figures for {', '.join(missing)} yet; compute them too")
    return data


def write(data: dict[str, Any], folder: Path = _DATA) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{data['variant']}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
    os.replace(tmp, path)
    return path


@cache
def load(name: str) -> dict[str, Any] | None:
    """The shipped figures of a variant, or None when none are shipped."""
    try:
        text = resources.files("senet.sim").joinpath("data", f"{name}.json").read_text()
    except (FileNotFoundError, OSError):
        return None
    data: dict[str, Any] = json.loads(text)
    return data


def available() -> tuple[str, ...]:
    return tuple(name for name in VARIANTS if load(name) is not None)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the shipped statistics.")
    parser.add_argument("--variant", action="append", choices=list(VARIANTS))
    parser.add_argument("--games", type=int, default=10_000_000, help="random games")
    parser.add_argument("--ai-games", type=int, default=100_000, help="expert against expert")
    parser.add_argument(
        "--alt-games",
        type=int,
        default=10_000_000,
        help="random games of each alternative (where a variant's figures come from computer "
        "games: games between experts, at most --ai-games)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes (0: every core)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--part",
        action="append",
        choices=PARTS,
        help="compute only this part (repeatable); the file keeps the others as shipped",
    )
    parser.add_argument(
        "--alternative",
        action="append",
        default=[],
        metavar="KEY",
        help="with --part alternatives: compute only this reading (repeatable); the file keeps "
        "the other readings as shipped",
    )
    parser.add_argument("--data", type=Path, default=_DATA, help="folder of the data files")
    args = parser.parse_args(argv)
    parts = tuple(args.part or PARTS)
    for name in args.variant or list(VARIANTS):
        previous_path = args.data / f"{name}.json"
        previous = json.loads(previous_path.read_text()) if previous_path.exists() else None
        data = generate(
            name,
            args.games,
            args.ai_games,
            args.alt_games,
            args.jobs,
            args.seed,
            parts,
            previous,
            args.alternative,
        )
        path = write(data, args.data)
        print(f"{name}: {', '.join(parts)} -> {path} ({data['seconds_by_part']} s)")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
