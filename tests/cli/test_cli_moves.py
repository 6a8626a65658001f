"""``senet moves``: legal moves as JSON and text, chance outcomes, and one-line errors."""

from __future__ import annotations

import json
import subprocess

from senet.engine import Position

INITIAL = "standard ABABABABAB/........../.......... A -"


def test_json_moves_after_a_throw(run):
    result = run("moves", "--position", INITIAL, "--throw", "3", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.output)
    assert data["position"] == "standard ABABABABAB/........../.......... A 3"
    assert data["decider"] == "A"
    assert [m["move"] for m in data["moves"]] == ["1-4", "3-6", "5-8", "7-10", "9-12"]
    assert data["moves"][0]["capture"] is True and data["moves"][-1]["capture"] is False
    position = Position.from_fen(data["position"])
    for item in data["moves"]:  # every result is the engine's own position after the move
        assert Position.from_fen(item["result"]) == position.apply(
            position.legal_moves()[data["moves"].index(item)]
        )


def test_text_moves_numbered_with_capture_marks(run):
    result = run("moves", "--position", INITIAL.replace(" -", " 3"), "--no-board")
    assert result.exit_code == 0
    assert "1. 1x4" in result.output and "5. 9-12" in result.output


def test_board_is_drawn_as_the_real_snake(run):
    lines = run("moves", "--position", INITIAL, "--throw", "1").output.splitlines()
    numbers = [line.split() for line in lines[:6:2]]
    assert numbers[0] == [str(n) for n in range(1, 11)]
    assert numbers[1][0] == "20" and numbers[1][-1] == "11"  # row 2 right to left
    assert numbers[2][-4:] == ["[27]", "[28]", "[29]", "[30]"]  # Houses marked


def test_chance_node_lists_exact_odds(run):
    data = json.loads(run("moves", "--position", INITIAL, "--json").output)
    assert data["decider"] is None
    assert [(c["throw"], c["probability"]) for c in data["chance"]] == [
        (1, "1/4"),
        (2, "3/8"),
        (3, "1/4"),
        (4, "1/16"),
        (5, "1/16"),
    ]
    text = run(
        "moves", "--position", "bell " + "AB" * 5 + "/" + "AB" * 5 + "/.......... A -"
    ).output
    assert "(4)    1/4" in text


def test_water_choice_needs_no_throw(run):
    fen = "kendall BB......../........../......A... A - pending=water"
    data = json.loads(run("moves", "--position", fen, "--json").output)
    assert [m["move"] for m in data["moves"]] == ["risk", "return"]


def test_finished_game(run):
    data = json.loads(
        run("moves", "--position", "standard ........../........../.........B A -", "--json").output
    )
    assert data["moves"] == [] and data["outcome"]["result"] == "A"


def test_bad_position_names_the_column(run):
    result = run("moves", "--position", "standard ABABABABAB/....Q...../.......... A -")
    assert result.exit_code != 0
    assert "column 25" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_unknown_variant_in_position(run):
    result = run("moves", "--position", "chess ABABABABAB/........../.......... A -")
    assert (
        result.exit_code != 0 and "unknown variant" in result.stderr and "column 1" in result.stderr
    )


def test_illegal_throw(run):
    result = run("moves", "--position", INITIAL, "--throw", "6")
    assert result.exit_code != 0 and "6 is not a possible throw" in result.stderr


def test_throw_on_a_position_that_has_one(run):
    assert run("moves", "--position", INITIAL.replace(" -", " 3"), "--throw", "2").exit_code != 0
    assert run("moves", "--position", INITIAL.replace(" -", " 3"), "--throw", "3").exit_code == 0


def test_real_subprocess(senet_exe):
    ok = subprocess.run(
        [senet_exe, "moves", "--position", INITIAL, "--throw", "5", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["decider"] == "A"
    bad = subprocess.run(
        [senet_exe, "moves", "--position", "standard ABAB/x A -"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0
    assert "column" in bad.stderr and "Traceback" not in bad.stderr


def test_space_around_a_pasted_position_is_forgiven(run):
    data = json.loads(run("moves", "--position", f"  {INITIAL}\n", "--throw", "2", "--json").output)
    assert data["position"].endswith(" A 2")
    result = run("moves", "--position", "  standard ABABABABAB/....Q...../.......... A -")
    assert "column 27" in result.stderr  # counted from the text as given


def test_impossible_position_is_one_line(run):
    result = run(
        "moves", "--position", "kendall BB......../........../......A... A 3 pending=water"
    )
    assert result.exit_code == 1 and "impossible position" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_piccione_moves_enter_and_divide(run):
    """piccione: a whole 1 enters a piece (``enter``); a throw is divided (``3-4`` with a 2
    leaves one point), and the text names the pieces in hand and the points left."""
    start = "piccione ..A......./........../.......... A 1 hand=4/5"
    data = json.loads(run("moves", "--position", start, "--json").output)
    assert [m["move"] for m in data["moves"]] == ["enter", "3-4"]
    assert data["moves"][0]["result"].endswith(" A - hand=3/5 direction=forward entered=yes")
    text = run("moves", "--position", start.replace(" A 1 ", " A 2 ")).output
    assert (
        "4 in hand" in text
        and "3-4 " in text
        and " A 1 hand=4/5 direction=forward divided=yes" in text
    )
