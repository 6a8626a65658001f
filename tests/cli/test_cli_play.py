"""``senet play`` driven through stdin, as a person at a terminal would drive it."""

from __future__ import annotations

import sys
import types

from senet.engine import Position
from senet.engine.record import parse_record

#: A on 29 (leaves only with a 3), B on 30 (only with a 2): a game of a few throws.
NEAR_END = "standard ........../........../........AB A -"


def _record(output: str) -> str:
    """The record printed at the end of a game (everything from its first tag)."""
    return output[output.rindex('[Event "senet play"]') :]


def test_play_to_the_end_from_a_position(run):
    result = run(
        "play", "--position", NEAR_END, "--seed", "1", "--opponent", "greedy", input="1\n" * 20
    )
    assert result.exit_code == 0, result.output
    assert "Result: " in result.output
    record = parse_record(_record(result.output))  # the printed record is valid and replays
    assert record.tags["Start"] == NEAR_END and record.tags["Seed"] == "1"
    assert record.tags["Result"] in ("A", "B")
    assert record.replay().is_over()


def test_play_whole_game_by_numbers(run):
    result = run(
        "play", "--variant", "bell", "--seed", "5", "--opponent", "random", input="1\n" * 400
    )
    assert result.exit_code == 0
    assert "Result: " in result.output and "Game over" in result.output


def test_commands_notation_undo_record_help_quit(run):
    script = "help\nfoo\n99\nundo\nrecord\n1-4\nundo\n1\nquit\n"
    result = run("play", "--seed", "3", "--opponent", "greedy", input=script)
    out = result.output
    assert result.exit_code == 0
    assert "A throws: 3" in out and "1) 1x4" in out  # seed 3 starts with a 3
    assert "undo    take back" in out  # help
    assert "not a move: 'foo'" in out and "no move number 99" in out
    assert "nothing to undo" in out
    assert '[Seed "3"]' in out and "1. A: (3)" in out  # record so far
    assert out.count("A plays 1x4") == 2  # typed notation, then again by number after the undo
    assert "undone: back to A's decision with the throw 3" in out
    assert out.rstrip().endswith("game left unfinished")


def test_undo_pops_back_over_the_opponents_moves(run):
    out = run(
        "play", "--seed", "3", "--opponent", "greedy", input="1\n2\nundo\nrecord\nquit\n"
    ).output
    record = out[out.rindex('[Event "senet play"]') :]
    # after the undo the record ends at A's second decision: its throw stands, its move is gone
    turns = [line for line in record.splitlines() if line[:1].isdigit()]
    assert turns[-1] == "3. A: (4)"


def test_same_seed_same_game(run):
    args = ("play", "--seed", "11", "--opponent", "random", "--variant", "kendall")
    first = run(*args, input="1\n" * 30 + "quit\n").output
    assert first == run(*args, input="1\n" * 30 + "quit\n").output
    assert (
        first
        != run(
            "play",
            "--seed",
            "12",
            "--opponent",
            "random",
            "--variant",
            "kendall",
            input="1\n" * 30 + "quit\n",
        ).output
    )


def test_seat_b_lets_the_computer_open(run):
    out = run("play", "--seat", "B", "--seed", "2", "--opponent", "greedy", input="quit\n").output
    assert "A (spools): greedy" in out and "B (cones): you" in out
    assert "A (greedy) plays" in out.split("B> ")[0]


def test_human_against_human(run):
    out = run("play", "--opponent", "human", "--seed", "4", input="1\n" * 12 + "quit\n").output
    assert "A> " in out and "B> " in out


def test_end_of_input_leaves_the_game_cleanly(run):
    result = run("play", "--seed", "1", input="")
    assert result.exit_code == 0 and "input ended" in result.output


def test_errors_are_one_line(run):
    bad = run("play", "--opponent", "grandmaster")
    assert (
        bad.exit_code != 0
        and "unknown player 'grandmaster'" in bad.stderr
        and "greedy" in bad.stderr
    )
    assert run("play", "--variant", "go").exit_code != 0
    clash = run("play", "--variant", "bell", "--position", NEAR_END)
    assert clash.exit_code != 0 and "disagrees" in clash.stderr
    col = run("play", "--position", "standard ........../........../........AB C -")
    assert col.exit_code != 0 and "column 43" in col.stderr


def test_ai_levels_are_offered_when_senet_ai_exists(run, monkeypatch):
    calls = []

    def choose_move(position: Position, level, rng):
        calls.append(level)
        return position.legal_moves()[-1].text()  # a string is accepted too

    fake = types.ModuleType("senet.ai")
    fake.LEVELS = ("novice", "master")
    fake.choose_move = choose_move
    monkeypatch.setitem(sys.modules, "senet.ai", fake)
    result = run("play", "--opponent", "master", "--seat", "B", "--seed", "1", input="quit\n")
    assert result.exit_code == 0 and calls and set(calls) == {"master"}
    assert "unknown player" in run("play", "--opponent", "expert").stderr
    assert "novice, master" in run("play", "--opponent", "expert").stderr


def test_opponent_list_and_level_objects(run, monkeypatch):
    class Level:  # senet.ai's levels are objects named by their ``key``
        def __init__(self, key: str) -> None:
            self.key = key

    fake = types.ModuleType("senet.ai")
    fake.LEVELS = (Level("beginner"), Level("master"))
    fake.choose_move = lambda position, level, rng: position.legal_moves()[0]
    monkeypatch.setitem(sys.modules, "senet.ai", fake)
    assert (
        run("play", "--opponent", "list").output.strip()
        == "opponents: human, random, greedy, beginner, master"
    )
    data = run(
        "simulate", "--players", "beginner,random", "--games", "3", "--seed", "1", "--json"
    ).output
    assert '"A": "beginner"' in data


def test_an_illegal_ai_move_is_reported_not_played(run, monkeypatch):
    fake = types.ModuleType("senet.ai")
    fake.LEVELS = ("broken",)
    fake.choose_move = lambda position, level, rng: "1-30"
    monkeypatch.setitem(sys.modules, "senet.ai", fake)
    result = run("play", "--opponent", "broken", "--seat", "B", "--seed", "1")
    assert result.exit_code == 1 and "chose the illegal move 1-30 in standard " in result.stderr


def test_a_forced_pass_is_played_without_asking(run):
    """A's only piece cannot move with the 5 thrown, so a pass is A's only move: the terminal
    plays it and asks only when there is a real choice."""
    start = "standard B........./........../.....A.... A 5"
    assert [m.text() for m in Position.from_fen(start).legal_moves()] == ["pass"]
    out = run("play", "--position", start, "--seed", "1", "--opponent", "greedy", input="quit\n")
    assert out.exit_code == 0, out.output
    text = out.output
    assert text.index("A cannot move with 5: pass") < text.index("A> ")
    assert "1) pass" not in text


def test_play_a_whole_game_of_piccione_by_numbers(run):
    """piccione in the terminal: entering, divided throws and the pieces in hand, to the end."""
    result = run(
        "play", "--variant", "piccione", "--seed", "2", "--opponent", "greedy", input="1\n" * 900
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert "Game over" in result.output and "in hand" in result.output
    assert "enter" in result.output
    assert parse_record(_record(result.output)).replay().is_over()


#: standard: A (to move, throw 3) on 14 and 27, B on 10: 14-17 wins more often than 27-30
#: (0.570 against 0.517 by the exact solve).
HINTED = "standard .........B/...A....../......A... A 3"


def test_a_hint_gives_each_moves_chance_best_first_as_the_solver_values_them(run):
    import re

    from senet.ai.solver import for_seat, solve_many

    result = run(
        "play", "--position", HINTED, "--opponent", "greedy", "--seed", "1", input="hint\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "chance to win after each move (exact)" in result.output
    rows = re.findall(r"^  (\d)\) (\S+)\s+([\d.]+)%(  <- best)?$", result.output, re.M)
    position = Position.from_fen(HINTED)
    legal = [position.move_text(m) for m in position.legal_moves()]
    assert sorted((int(n), move) for n, move, _, _ in rows) == list(enumerate(legal, 1))
    solution = solve_many([position], max_states=60_000)
    exact = {position.move_text(m): for_seat(v, 0) for m, v in solution.move_values(position)}
    shown = [float(chance) for _, _, chance, _ in rows]
    assert shown == sorted(shown, reverse=True)
    for _, move, chance, best in rows:
        assert abs(float(chance) - 100 * exact[move]) <= 0.05
        assert bool(best) == (exact[move] == max(exact.values()))
    assert rows[0][1] == "14-17"


def test_without_an_opponent_named_the_sites_default_level_plays(run, monkeypatch):
    """A newcomer typing ``senet play`` meets the level the site's start form offers first,
    not a player of random moves."""
    from senet.service.computer.players import default_level

    out = run("play", "--seed", "1", input="quit\n").output
    assert f"B (cones): {default_level()}" in out
    fake = types.ModuleType("senet.ai")
    fake.LEVELS = ("novice", "solid", "master")
    fake.choose_move = lambda position, level, rng: position.legal_moves()[0]
    monkeypatch.setitem(sys.modules, "senet.ai", fake)
    assert "B (cones): solid" in run("play", "--seed", "1", input="quit\n").output


def test_without_the_levels_the_default_opponent_is_the_greedy_player(run, monkeypatch):
    fake = types.ModuleType("senet.ai")  # no LEVELS, no choose_move: the levels are unavailable
    monkeypatch.setitem(sys.modules, "senet.ai", fake)
    result = run("play", "--seed", "1", input="quit\n")
    assert result.exit_code == 0
    assert "B (cones): greedy" in result.output
    assert "the greedy player plays" in result.stderr
