"""Pool runs of bench/ai_ladder.py over disjoint pairs of games into one score and interval.

A long match is often played as several runs (new ``--offset`` each time, or two processes
side by side).  This reads what the runs printed and pools each pair of players: every run's
pairs are weighted by their number, and its standard error is read back from its interval
(the half-width over 1.96), so the pooled interval is the one a single run over all the
pairs would print when the runs' per-pair spreads agree.  A run stopped by hand printed no
summary line: its last progress line (``... V upper vs lower: N games, ...``) counts.  Runs
that name the pairs they played (``pairs 6500–6612``) must not share any: shared pairs
replay the same throws, and counting them twice would narrow the interval falsely.

    python bench/ladder_pool.py run1.log run2.log
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from ai_ladder import TARGETS

#: The summary line of a pair of players (``ai_ladder.main``), with the pairs it names if any.
_SUMMARY = re.compile(
    r"^(?P<variant>\S+)\s+(?P<upper>\S+) vs (?P<lower>\S+)\s+(?P<games>\d+) games\s+"
    r"score\s+(?P<mean>[\d.]+)%\s+95% \[\s*(?P<lo>[\d.]+)%,\s*(?P<hi>[\d.]+)%\]"
    r"(?:.*?pairs (?P<first>\d+)[–-](?P<last>\d+))?"
)
#: A progress line (``--progress N``).
_PROGRESS = re.compile(
    r"^\s*\.\.\. (?P<variant>\S+) (?P<upper>\S+) vs (?P<lower>\S+): (?P<games>\d+) games, "
    r"(?P<mean>[\d.]+)% \[(?P<lo>[\d.]+)%, (?P<hi>[\d.]+)%\]"
)

Match = tuple[str, str, str]  # (variant, upper, lower)


@dataclass(frozen=True)
class Run:
    """One run's result for one pair of players: the upper player's score (0-1) and interval."""

    source: str
    games: int
    mean: float
    lo: float
    hi: float
    pairs: range | None  # the pair numbers played, where the run printed them

    @property
    def standard_error(self) -> float:
        # the wider side: ai_ladder clips an interval at 0% and 100%
        return max(self.mean - self.lo, self.hi - self.mean) / 1.96


@dataclass(frozen=True)
class Pooled:
    """The runs together: games in all, the upper player's score (0-1) and its interval."""

    games: int
    mean: float
    lo: float
    hi: float


def read_runs(text: str, source: str) -> dict[Match, Run]:
    """Each pair of players' result in one run's output: its summary line, else its last
    progress line."""
    final: dict[Match, Run] = {}
    progress: dict[Match, Run] = {}
    for line in text.splitlines():
        for pattern, into in ((_SUMMARY, final), (_PROGRESS, progress)):
            m = pattern.match(line)
            if m is None:
                continue
            first, last = m.groupdict().get("first"), m.groupdict().get("last")
            into[(m["variant"], m["upper"], m["lower"])] = Run(
                source,
                int(m["games"]),
                float(m["mean"]) / 100,
                float(m["lo"]) / 100,
                float(m["hi"]) / 100,
                range(int(first), int(last) + 1) if first and last else None,
            )
    return progress | final


def pool(runs: list[Run]) -> Pooled:
    """One result over the runs' pairs together; ValueError when two runs share pairs."""
    for i, a in enumerate(runs):
        for b in runs[i + 1 :]:
            if a.pairs and b.pairs and set(a.pairs) & set(b.pairs):
                raise ValueError(
                    f"{a.source} and {b.source} share pairs "
                    f"{max(a.pairs[0], b.pairs[0])}–{min(a.pairs[-1], b.pairs[-1])}: the same "
                    "throws counted twice (give each run its own --offset)"
                )
    pairs = [r.games / 2 for r in runs]
    total = sum(pairs)
    mean = sum(n * r.mean for n, r in zip(pairs, runs)) / total
    half = 1.96 * math.sqrt(sum((n * r.standard_error) ** 2 for n, r in zip(pairs, runs))) / total
    return Pooled(int(2 * total), mean, max(0.0, mean - half), min(1.0, mean + half))


def verdict(p: Pooled, target: float) -> str:
    """Whether the pooled score meets ``target``, and whether its interval shows it."""
    if p.lo >= target:
        return f"target {target:.0%} met (the whole interval above)"
    if p.hi < target:
        return f"target {target:.0%} NOT MET (the whole interval below)"
    side = "met by the score" if p.mean >= target else "NOT MET by the score"
    return f"target {target:.0%} {side}, not shown (the interval reaches both sides)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "logs", nargs="+", type=Path, help="what ai_ladder.py printed, a file a run"
    )
    args = parser.parse_args(argv)
    matches: dict[Match, list[Run]] = {}
    for path in args.logs:
        for match, run in read_runs(path.read_text(encoding="utf-8"), str(path)).items():
            matches.setdefault(match, []).append(run)
    if not matches:
        print("no ladder results in these files", file=sys.stderr)
        return 2
    for (variant, upper, lower), runs in matches.items():
        for r in runs:
            where = f", pairs {r.pairs[0]}–{r.pairs[-1]}" if r.pairs else ""
            print(f"  {r.source}: {r.games} games, {r.mean:.1%} [{r.lo:.1%}, {r.hi:.1%}]{where}")
        try:
            p = pool(runs)
        except ValueError as e:
            print(f"{variant} {upper} vs {lower}: {e}", file=sys.stderr)
            return 2
        target = TARGETS.get((lower, upper))
        print(
            f"{variant} {upper} vs {lower}: {p.games} games over {len(runs)} run(s), "
            f"score {p.mean:.1%} 95% [{p.lo:.1%}, {p.hi:.1%}]"
            + (f"  {verdict(p, target)}" if target is not None else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
