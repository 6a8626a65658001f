"""Command-line tools of the computer opponent: ``senet solve``, ``senet review`` and
``senet train`` (the trainers of the evaluations).

:mod:`senet.cli` collects :data:`COMMANDS` from here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from senet.engine import NotationError, Scoring, Variant, find_variant, parse_position
from senet.engine.record import parse_record

from .review import format_review, review_game
from .solver import DEFAULT_MAX_STATES, TooLarge, for_seat, solve_many

__all__ = ["COMMANDS", "solve", "review", "train"]


def _read_position(variant: str | None, text: str):  # -> Position
    text = " ".join(text.split())
    first = text.split(" ", 1)[0]
    try:
        find_variant(first)
        has_variant = True
    except KeyError:
        has_variant = False
    if not has_variant:
        if not variant:
            raise click.BadParameter("give --variant or start the position with the variant's name")
        text = f"{find_variant(variant).name} {text}"
    try:
        position = parse_position(text)
    except NotationError as exc:
        raise click.BadParameter(str(exc), param_hint="--position") from None
    if variant and find_variant(variant).name != position.variant.name:
        raise click.BadParameter(f"the position is of {position.variant.name}, not {variant}")
    return position


@click.command()
@click.option("--variant", "-v", help="Variant name (optional when the position starts with it).")
@click.option(
    "--position", "-p", "position_text", required=True, help="Position in one-line notation."
)
@click.option(
    "--max-states",
    default=DEFAULT_MAX_STATES,
    show_default=True,
    help="Give up beyond this many positions.",
)
def solve(variant: str | None, position_text: str, max_states: int) -> None:
    """Exact value of an endgame position and of every legal move (optimal play on both sides)."""
    position = _read_position(variant, position_text)
    if position.is_over():
        raise click.ClickException("the game is over in this position")
    try:
        solution = solve_many([position], max_states=max_states)
    except TooLarge as exc:
        raise click.ClickException(
            f"not a solvable endgame: {exc} (raise --max-states to try harder)"
        ) from None
    v = position.variant
    unit = "expected result (win 1, draw 1/2)" if v.scoring is Scoring.POINTS else "winning chance"
    click.echo(f"{len(solution.index)} positions solved in {solution.iterations} sweeps")
    value_a = solution.value(position)
    if position.is_chance():
        click.echo(f"a throw is due; {unit} of A: {value_a:.6f}, of B: {1 - value_a:.6f}")
        for n, p in position.chance_outcomes():
            click.echo(f"  throw {n} (p={p}): A {solution.value(position.apply_throw(n)):.6f}")
        return
    seat = position.decider
    if seat is None:
        raise RuntimeError("no seat decides in a position that is neither over nor chance")
    click.echo(
        f"{'AB'[seat]} to decide; {unit} of {'AB'[seat]} with best play: {for_seat(value_a, seat):.6f}"
    )
    best = set(solution.best_moves(position))
    for move, va in sorted(solution.move_values(position), key=lambda mv: -for_seat(mv[1], seat)):
        mark = "  best" if move in best else ""
        click.echo(f"  {position.move_text(move):>9}  {for_seat(va, seat):.6f}{mark}")


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--level",
    default=None,
    help="The level whose own search judges the moves (default: the review's search, as on the site).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per decision.")
def review(file: Path, level: str | None, as_json: bool) -> None:
    """Judge every move of a game record: chances before and after, best move, loss."""
    try:
        record = parse_record(file.read_text(encoding="utf-8"))
    except NotationError as exc:
        raise click.ClickException(str(exc)) from None
    rows = review_game(record, level)
    if as_json:
        click.echo(json.dumps([row.as_dict() for row in rows], indent=1))
    else:
        click.echo(format_review(rows))


# ------------------------------------------------------------------ senet train
# The three trainers of the evaluations, one command: what every trainer asks (the variant,
# where the weights go) is written once here, and each trainer adds its own settings.  The
# trainers are imported only when one runs (the compiled ones load Numba).
def _variant_option(command: Any) -> Any:
    return click.option("--variant", required=True, help="the variant whose weights to learn")(
        command
    )


def _out_option(command: Any) -> Any:
    return click.option(
        "--out",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path(__file__).parent / "weights",
        show_default="senet/ai/weights",
        help="the folder the weights are written to",
    )(command)


def _variant(name: str) -> Variant:
    try:
        return find_variant(name)
    except KeyError as exc:
        raise click.BadParameter(str(exc), param_hint="--variant") from None


def _network_start(variant: Variant, start: str | None) -> Any:
    """The network in the weights file ``start`` (None: random weights)."""
    from .network import NetEvaluator

    return NetEvaluator.load(variant, start) if start else None


def _save_network(network: Any, variant: Variant, out: Path, note: str = "") -> None:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{variant.name}.td.npz"
    network.save(path)
    click.echo(f"wrote {path}{note}")


@click.group(name="train")
def train() -> None:
    """Learn an evaluation's weights: the linear model, or the network by self-play or by
    fits to deeper values.  Each run is seeded: the same command gives the same weights."""


@train.command(name="linear")
@_variant_option
@click.option("--games", type=int, default=3000, show_default=True)
@click.option("--alpha", type=float, default=0.02, show_default=True, help="learning rate")
@click.option("--lam", type=float, default=0.7, show_default=True, help="the traces' decay, λ")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--hidden", type=int, default=0, help="tanh units of a hidden layer (0: linear)")
@click.option(
    "--resume",
    is_flag=True,
    help="start from the shipped weights (the net model's with --hidden, if there are any)",
)
@click.option("--init", help="start from this weights file (e.g. a related variant's)")
@_out_option
@click.option(
    "--snapshots",
    type=int,
    default=0,
    metavar="K",
    help="also write the model after every K games, as <out>/<file>.<games> (a learning curve)",
)
def train_linear(
    variant: str,
    games: int,
    alpha: float,
    lam: float,
    seed: int,
    hidden: int,
    resume: bool,
    init: str | None,
    out: Path,
    snapshots: int,
) -> None:
    """The linear (or small net) model of senet.ai.evaluation by TD(λ) self-play
    (senet.ai.train), written as <variant>.json (.net.json with a hidden layer)."""
    from .evaluation import Evaluator, evaluator_for
    from .train import train as train_evaluation

    chosen = _variant(variant)
    start = hidden_init = None
    if resume:
        shipped = evaluator_for(chosen, "net" if hidden else "linear")
        start = shipped.weights
        if shipped.hidden is not None:
            hidden_init = (shipped.hidden[0], shipped.hidden[2])
    if init:
        loaded = Evaluator.from_json(chosen, Path(init).read_text())
        start = loaded.weights
        if loaded.hidden is not None:
            hidden_init = (loaded.hidden[0], loaded.hidden[2])
    out.mkdir(parents=True, exist_ok=True)
    name = f"{chosen.name}.net.json" if hidden or hidden_init else f"{chosen.name}.json"
    path = out / name

    def write_snapshot(played: int, evaluator: Evaluator) -> None:
        path.with_name(f"{path.name}.{played}").write_text(evaluator.to_json() + "\n")

    evaluator = train_evaluation(
        chosen,
        games,
        alpha=alpha,
        lam=lam,
        seed=seed,
        weights=start,
        hidden=hidden,
        hidden_init=hidden_init,
        snapshot=write_snapshot,
        snapshot_every=snapshots,
    )
    path.write_text(evaluator.to_json() + "\n")
    click.echo(f"wrote {path}")


@train.command(name="selfplay")
@_variant_option
@click.option("--games", type=int, default=60_000, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--hidden", type=int, default=40, show_default=True, help="tanh units")
@click.option("--alpha", type=float, default=0.1, show_default=True, help="learning rate at first")
@click.option("--alpha-end", type=float, default=0.02, show_default=True, help="... at the end")
@click.option("--lam", type=float, default=0.7, show_default=True, help="the traces' decay, λ")
@click.option(
    "--discount",
    type=float,
    default=1.0,
    show_default=True,
    help="γ: each decision discounts the learnt estimate towards a draw (1: none)",
)
@click.option("--eval-every", type=int, default=5000, show_default=True)
@click.option(
    "--guided",
    type=int,
    default=0,
    help="the first N games are played by the expert for both seats (the network learns)",
)
@click.option(
    "--max-decisions",
    type=int,
    default=5000,
    show_default=True,
    help="a game still running after this many decisions stops unfinished",
)
@click.option("--eval-pairs", type=int, default=500, show_default=True)
@click.option("--minutes", type=float, default=0.0, help="stop earlier after this long (0: never)")
@click.option(
    "--schedule-games",
    type=int,
    default=0,
    help="games over which the learning rate falls to --alpha-end (default: --games)",
)
@click.option("--start", help="weights (.npz) to start from (default: random)")
@_out_option
def train_selfplay(
    variant: str,
    games: int,
    seed: int,
    hidden: int,
    alpha: float,
    alpha_end: float,
    lam: float,
    discount: float,
    eval_every: int,
    guided: int,
    max_decisions: int,
    eval_pairs: int,
    minutes: float,
    schedule_games: int,
    start: str | None,
    out: Path,
) -> None:
    """The network by TD(λ) self-play on the compiled rules (senet.ai.selfplay), written as
    <variant>.td.npz with the command that repeats it."""
    from .selfplay import train as train_network

    chosen = _variant(variant)
    network, _ = train_network(
        chosen,
        games,
        seed=seed,
        hidden=hidden,
        alpha=alpha,
        alpha_end=alpha_end,
        lam=lam,
        gamma=discount,
        eval_every=eval_every,
        eval_pairs=eval_pairs,
        max_decisions=max_decisions,
        guided=guided,
        minutes=minutes,
        schedule_games=schedule_games,
        start=_network_start(chosen, start),
        start_name=start or "",
    )
    _save_network(network, chosen, out, f" ({network.info['games']} games)")


def _round(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> list[Any]:
    from .fitted import Round

    try:
        return [Round.parse(value) for value in values]
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@train.command(name="fitted")
@_variant_option
@click.option(
    "--round",
    "rounds",
    multiple=True,
    required=True,
    callback=_round,
    help="KIND:DEPTH:GAMES:EPOCHS:SEED, repeatable (KIND: search, linear or rollouts)",
)
@click.option("--start", help="weights (.npz) to start from (default: random)")
@click.option("--hidden", type=int, default=40, show_default=True, help="tanh units (no --start)")
@click.option(
    "--rate", type=float, default=0.1, show_default=True, help="share of decisions sampled"
)
@click.option("--lr", type=float, default=0.001, show_default=True, help="Adam's learning rate")
@click.option(
    "--pairwise",
    type=float,
    default=20.0,
    show_default=True,
    help="weight of the differences within a decision in the fit",
)
@click.option("--eval-pairs", type=int, default=2000, show_default=True)
@_out_option
def train_fitted(
    variant: str,
    rounds: list[Any],
    start: str | None,
    hidden: int,
    rate: float,
    lr: float,
    pairwise: float,
    eval_pairs: int,
    out: Path,
) -> None:
    """The network by supervised fits to search or rollout values (senet.ai.fitted), written
    as <variant>.td.npz with the command that repeats it."""
    from .fitted import train as train_network

    chosen = _variant(variant)
    network, _ = train_network(
        chosen,
        rounds,
        start=_network_start(chosen, start),
        start_name=start or "",
        hidden=hidden,
        rate=rate,
        lr=lr,
        pairwise=pairwise,
        eval_pairs=eval_pairs,
    )
    _save_network(network, chosen, out)


COMMANDS = [solve, review, train]
