"""``senet engine``: the documented transcript against the real command, the lines both ways,
and refusals that name what was expected and change nothing."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.engine import Position, draw_throw, find_variant
from senet.protocol.engine import EngineSession, level_player
from senet.protocol.messages import (
    BestMove,
    EngineError,
    Go,
    Hello,
    Identity,
    Info,
    IsReady,
    MovePlayed,
    NewGame,
    ProtocolError,
    Quit,
    ReadyOk,
    SetPosition,
    ThrowShown,
    Variants,
    format_command,
    format_reply,
    parse_command,
    parse_reply,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine-protocol.md"


def _transcript() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"```transcript\n(.*?)```", text, re.S)
    assert block, "the page has a transcript"
    return [(line[0], line[2:]) for line in block.group(1).splitlines()]


def test_the_documented_transcript_is_what_senet_engine_answers(senet_exe) -> None:
    lines = _transcript()
    sent = "".join(text + "\n" for side, text in lines if side == ">")
    expected = [text for side, text in lines if side == "<"]
    run = subprocess.run(
        [str(senet_exe), "engine", "--level", "expert"],
        input=sent,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert run.stdout.splitlines() == expected


def _session(level: str = "expert") -> EngineSession:
    choose, prepare = level_player(level)
    return EngineSession("test", choose, prepare=prepare)


def test_a_refused_line_changes_nothing() -> None:
    session = _session()
    session.handle("newgame kendall-1978")
    before = session.position
    for line in ("throw 6", "move 1-2", "go", "position standard ....", "newgame chess"):
        (reply,) = session.handle(line)
        assert reply.startswith("error ") and "(expected " in reply
        assert session.position == before
    session.handle("throw 4")  # kendall-1978: 4 earns another throw, all before any move
    session.handle("throw 2")
    assert session.position.throws == (2, 4)
    (reply,) = session.handle("go movetime 50")
    move = parse_reply(reply)
    assert isinstance(move, BestMove) and move.move in session.position.legal_moves()


def test_every_level_answers_go_with_a_legal_move_in_every_variant() -> None:
    from senet.engine import VARIANTS

    for level in ("beginner", "casual", "expert"):
        session = _session(level)
        for name in VARIANTS:
            position = Position.initial(find_variant(name))
            assert session.handle(f"position {position.fen()}") == []
            throws = random.Random(name)
            while position.is_chance():
                value = draw_throw(throws, position.variant.instrument)
                position = position.apply_throw(value)
                assert session.handle(f"throw {value}") == []
            (reply,) = session.handle("go movetime 200")
            answer = parse_reply(reply)
            assert isinstance(answer, BestMove) and answer.move in position.legal_moves()


@pytest.mark.parametrize(
    ("line", "column", "expected"),
    [
        ("", 1, "a command"),
        ("go movetime soon", 13, "a whole number of ms"),
        ("go wtime 5", 4, "movetime MS"),
        ("throw x", 7, "a number 1-6"),
        ("throw", 6, "a throw such as 3"),
        ("move 3_6", 6, "a move such as 12-15"),
        ("quit now", 6, "the end of the line"),
        ("newgame chess", 9, "a variant name"),
        ("position standard ABABABABAB/........../.......... A - extra", 56, "extra="),
    ],
)
def test_a_malformed_line_names_its_column_and_what_was_expected(line, column, expected) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_command(line)
    assert caught.value.column == column
    if expected:
        assert expected in caught.value.expected


_MOVES = ["9-12", "28-off", "30-off/2", "pass", "revive", "risk", "return", "enter"]
_COMMANDS = st.one_of(
    st.just(Hello()),
    st.just(IsReady()),
    st.just(Quit()),
    st.sampled_from(["standard", "bell", "kendall-1978", "piccione"]).map(NewGame),
    st.integers(1, 6).map(ThrowShown),
    st.sampled_from(_MOVES).map(lambda m: MovePlayed(parse_command(f"move {m}").move)),  # type: ignore[union-attr]
    st.one_of(st.none(), st.integers(0, 10**7)).map(Go),
    st.sampled_from(["standard", "kendall-1978", "adelaida"]).map(
        lambda n: SetPosition(Position.initial(find_variant(n)))
    ),
)


@given(_COMMANDS)
def test_every_command_reads_back_as_written(command) -> None:
    assert parse_command(format_command(command)) == command


@given(
    st.one_of(
        st.sampled_from(["name", "author"]).map(lambda k: Identity(k, "my engine 2")),
        st.just(Variants(("standard", "bell"))),
        st.just(ReadyOk()),
        st.sampled_from(_MOVES).map(lambda m: BestMove(parse_command(f"move {m}").move)),  # type: ignore[union-attr]
        st.just(Info("depth 3 value 0.61")),
        st.just(EngineError("no")),
    )
)
def test_every_reply_reads_back_as_written(reply) -> None:
    assert parse_reply(format_reply(reply)) == reply


_WORDS = st.sampled_from(
    ["senet", "isready", "newgame", "position", "throw", "move", "go", "movetime", "quit"]
    + ["standard", "kendall-1978", "3", "-1", "99", "9-12", "off", "pass", "A", "-", "/"]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=30),
            st.lists(_WORDS, min_size=1, max_size=5).map(" ".join),
        ),
        max_size=8,
    )
)
def test_no_line_breaks_the_engine_and_a_refusal_changes_nothing(lines) -> None:
    session = EngineSession("fuzz", lambda position, seconds: position.legal_moves()[0])
    session.handle("newgame kendall-1978")
    for line in lines:
        if session.done:
            break
        before = session.position
        replies = session.handle(line)
        assert all("\n" not in reply for reply in replies)
        for reply in replies:
            parse_reply(reply)  # every answer is a well-formed reply
            if reply.startswith("error "):
                assert session.position == before and "(expected " in reply


def test_bytes_that_are_not_utf8_make_an_error_line_not_a_crash(senet_exe) -> None:
    run = subprocess.run(
        [str(senet_exe), "engine", "--level", "beginner"],
        input=b"\xff\xfe\nisready\nquit\n",
        capture_output=True,
        timeout=120,
        check=True,
    )
    lines = run.stdout.decode("utf-8").splitlines()
    assert lines[0].startswith("error column 1: unknown command") and lines[1] == "readyok"


@pytest.mark.parametrize("variant", ["standard", "kendall"])
def test_the_master_answers_go_with_a_legal_move_within_a_short_movetime(variant) -> None:
    """The master too (kendall: where it rolls out); a short movetime shrinks its budgets."""
    session = _session("master")
    assert session.handle(f"newgame {variant}") == []
    assert session.handle("isready") == ["readyok"]  # loads its network and compiled code
    throws = random.Random(variant)
    position = session.position
    for _ in range(6):  # a few decisions into the game
        while position.is_chance():
            value = draw_throw(throws, position.variant.instrument)
            position = position.apply_throw(value)
            assert session.handle(f"throw {value}") == []
        (reply,) = session.handle("go movetime 100")
        answer = parse_reply(reply)
        assert isinstance(answer, BestMove) and answer.move in position.legal_moves()
        position = position.apply(answer.move)
        assert session.handle(f"move {answer.move.text()}") == []
