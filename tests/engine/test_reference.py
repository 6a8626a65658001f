"""An independent reference of the move rules, square by square from the source texts.

This file does not import the engine's move generator or its tables: it reads a position as
a plain dict ``square -> seat`` and decides every move from the sources and the rulebook's
decisions.  It is compared with ``Position.legal_moves()`` and with the board after each move
on every position of many random games, and on random boards built to hit rare shapes (pairs,
triples, fours, pieces on every House).

Sources: standard and bell = 002_06e4c6456ad7fdb1.txt; kendall = 001_c5b7b048a63617b4.txt;
adelaida = 000_b98b112805fe9d06.txt §1-34; jequier, kendall-1978 and piccione = Ludii's summaries
(rulesets 939, 922 and 938).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.engine import Position, find_variant

from .conftest import ALL_VARIANTS, fen, random_game

Board = dict  # square -> seat (0 = A, 1 = B)


def read(p: Position) -> Board:
    """The board as the notation writes it (the only thing read from the engine's position)."""
    cells = p.fen().split(" ")[1].replace("/", "")
    return {i + 1: "AB".index(ch) for i, ch in enumerate(cells) if ch != "."}


def field(p: Position, key: str) -> tuple[int, int]:
    for token in p.fen().split(" ")[4:]:
        name, _, value = token.partition("=")
        if name == key and "/" in value:
            a, b = value.split("/")
            return int(a), int(b)
    return (0, 0)


def listed(p: Position, key: str) -> list[int]:
    for token in p.fen().split(" ")[4:]:
        name, _, value = token.partition("=")
        if name == key:
            return [int(v) for v in value.split(",")]
    return []


def pending(p: Position) -> str:
    for token in p.fen().split(" ")[4:]:
        if token.startswith("pending="):
            return token[len("pending=") :]
    return ""


# --------------------------------------------------------------------------- standard
def ref_standard(bd: Board, me: int, n: int) -> list[str]:
    """002 «Сенет (стандарт)»: swap unless the victim has a neighbour of its colour; 27-30 safe;
    off from 27 on by a throw past 30, from 29 only with 3, from 30 only with 2; no backward
    moves (decision backward); pass over anything (decision passing)."""
    out = []
    for s in sorted(sq for sq, o in bd.items() if o == me):
        t = s + n
        if t > 30:
            if s == 29:
                ok = n == 3
            elif s == 30:
                ok = n == 2
            else:
                ok = s >= 27
            if ok:
                out.append(f"{s}-off")
            continue
        who = bd.get(t)
        if who == me:
            continue
        if who is not None:
            if t >= 27:
                continue  # safe Houses
            if bd.get(t - 1) == who or bd.get(t + 1) == who:
                continue  # protected by a neighbour
        out.append(f"{s}-{t}")
    return out


def result_standard(bd: Board, me: int, mv: str) -> Board:
    bd = dict(bd)
    s, t = mv.split("-")
    s = int(s)
    del bd[s]
    if t == "off":
        return bd
    t = int(t)
    if t in bd:
        bd[s] = bd[t]  # swap
    bd[t] = me
    if (
        t == 28
    ):  # House of Water: to 15, or the nearest free square behind it (decision water-occupied)
        del bd[28]
        sq = 15
        while sq in bd:
            sq -= 1
        bd[sq] = me
    return bd


# --------------------------------------------------------------------------- bell
BELL_EXIT = {27: 4, 28: 3, 29: 2, 30: 1}


def ref_bell(bd: Board, me: int, n: int) -> list[str]:
    """002 «Сенет по Беллу»: never onto your own; capture removes; 26-30 safe; a piece on
    X/III/II/I leaves only with 4/3/2/1 and never moves within 27-30 (decision marked-moves);
    if a piece on 26-30 can move, one of them must; the piece on 26 first (decision beauty-gate)."""
    out = []
    for s in sorted(sq for sq, o in bd.items() if o == me):
        if s >= 27:
            if n == BELL_EXIT[s]:
                out.append(f"{s}-off")
            continue
        t = s + n
        who = bd.get(t)
        if who == me or (who is not None and t >= 26):
            continue
        out.append(f"{s}-{t}")
    gate = [m for m in out if m.startswith("26-")]
    late = [m for m in out if int(m.split("-")[0]) >= 26]
    return gate or late or out


def result_bell(bd: Board, me: int, mv: str) -> Board:
    bd = dict(bd)
    s, t = mv.split("-")
    del bd[int(s)]
    if t != "off":
        bd[int(t)] = me  # an opponent there is captured: gone
    return bd


# --------------------------------------------------------------------------- kendall
def k_protected(bd: Board, t: int) -> bool:
    """Rule 3 with rule 5: a neighbour of its colour protects, but two stones on 27-30 do not
    protect each other (26 and 27 do: decision beauty-attack)."""
    who = bd[t]
    return any(bd.get(nb) == who and not (t >= 27 and nb >= 27) for nb in (t - 1, t + 1))


def ref_kendall(bd: Board, me: int, n: int) -> list[str]:
    """001: swap (rule 1) unless protected (rule 3, 5); never onto your own (rule 2); forward if
    possible, else one piece backward, else the turn is lost (rule 4); 26 cannot be passed, 5
    from it bears off; the owner of a stone on 27 moves nothing else, and it leaves with a 4;
    28 leaves only with 3, 29 only with 2, 30 with anything; an attack on 27-30 is allowed."""
    mine = sorted(sq for sq, o in bd.items() if o == me)
    if 27 in mine:
        return ["27-off"] if n == 4 else []
    fwd = []
    for s in mine:
        if s >= 28:
            if s == 30 or (s == 29 and n == 2) or (s == 28 and n == 3):
                fwd.append(f"{s}-off")
            continue
        if s == 26 and n == 5:
            fwd.append("26-off")
            continue
        t = s + n
        if s < 26 < t:
            continue  # the House of Beauty cannot be passed
        who = bd.get(t)
        if who == me:
            continue
        if who is not None and t < 28 and k_protected(bd, t):
            continue
        fwd.append(f"{s}-{t}")
    if fwd:
        return fwd
    back = []
    for s in mine:
        if s >= 27:
            continue
        t = s - n
        if t < 1:
            continue
        who = bd.get(t)
        if who == me or (who is not None and k_protected(bd, t)):
            continue
        back.append(f"{s}-{t}")
    return back


def result_kendall(bd: Board, me: int, mv: str) -> Board:
    bd = dict(bd)
    s, t = mv.split("-")
    s = int(s)
    del bd[s]
    if t == "off":
        return bd
    t = int(t)
    if t in bd:
        if t >= 28 and 27 not in bd:
            bd[27] = bd[t]  # attacked on 28-30: drowns in the House of Water
        else:
            bd[s] = bd[t]
    bd[t] = me
    return bd


# --------------------------------------------------------------------------- adelaida
A_HOUSES = {15, 16, 21, 26, 27, 28, 29, 30}
A_EXIT = {28: 3, 29: 2, 30: 1}


def a_jump_ok(bd: Board, s: int, t: int) -> bool:
    """§8, §12, §14: single pieces may be jumped, two side by side (and so four) may not."""
    lo, hi = min(s, t), max(s, t)
    between = [sq for sq in range(lo + 1, hi) if sq in bd]
    return not any(sq + 1 in between for sq in between)


def a_can_land(bd: Board, me: int, t: int) -> bool:
    """§9, §15 (own), §21 (Houses), §10-14 (swap, pairs, triples, fours)."""
    who = bd.get(t)
    if who is None:
        return True
    if who == me or t in A_HOUSES:
        return False
    left, right = bd.get(t - 1) == who, bd.get(t + 1) == who
    if not left and not right:
        return True  # a single piece: §10-11
    if left and right:
        # §13: the middle of exactly three may be taken; §14: never within four or more
        return bd.get(t - 2) != who and bd.get(t + 2) != who
    return False  # §12: one of a pair


def a_dest(bd: Board, me: int, s: int, n: int, d: int) -> int | None:
    """Where the piece from s goes with n in direction d (+1/-1), or None."""
    t = s + d * n
    if not 1 <= t <= 30:
        return None  # beyond 30 only from 28-30 (§31-33); nothing behind square 1
    if not a_jump_ok(bd, s, t):
        return None
    if t == 21:  # §25-26: House of Ba
        if 21 in bd:
            return None
        t2 = 21 + d * n
        if not a_jump_ok(bd, 21, t2) or not a_can_land(bd, me, t2):
            return None
        return t2
    return t if a_can_land(bd, me, t) else None


def ref_adelaida(bd: Board, me: int, n: int, drowned: int) -> list[str]:
    out = []
    for s in sorted(sq for sq, o in bd.items() if o == me):
        if s >= 28:
            if n == A_EXIT[s]:
                out.append(f"{s}-off")  # §31-33; otherwise it stays
            continue
        t = a_dest(bd, me, s, n, +1)
        if t is None:
            t = a_dest(bd, me, s, n, -1)  # §16 per piece (decision backward-per-piece)
        if t is not None:
            out.append(f"{s}-{t}")
    if drowned and 15 not in bd:
        out.append("revive")  # §28
    return out


def ref_fate(bd: Board, n: int) -> list[str]:
    """§27: 5 back five (through Ba to 16: decision fate-ba), 1 into the Water, 2/3/4 onto
    28/29/30; an impossible fate move is lost (the piece stays: decision fate-lost)."""
    me = bd[26]
    # A fate move is a move by the thrown count: §8 (no jumping a pair) and §21 hold for it.
    t = a_dest(bd, me, 26, n, +1 if n < 5 else -1)
    return [f"26-{t}"] if t is not None else []


def result_adelaida(bd: Board, me: int, mv: str) -> Board:
    bd = dict(bd)
    if mv == "revive":
        bd[15] = me
        return bd
    s, t = mv.split("-")
    s = int(s)
    del bd[s]
    if t == "off":
        return bd
    t = int(t)
    if t in bd:
        bd[s] = bd[t]  # §10: swap (after Ba too: decision ba-capture)
    bd[t] = me
    if t == 27:
        del bd[27]  # §28: the piece leaves the board
    return bd


# --------------------------------------------------------------------------- jequier
J_SAFE = {20, 26, 28, 29}
J_START = ({2, 4, 6, 8, 10}, {1, 3, 5, 7, 9})  # black (A), white (B)


def j_three(bd: Board, me: int, s: int, t: int) -> bool:
    """Three of the mover's opponent in a row strictly between s and t."""
    lo, hi = min(s, t), max(s, t)
    return any(all(bd.get(q) == 1 - me for q in (x, x + 1, x + 2)) for x in range(lo + 1, hi - 2))


def ref_jequier(bd: Board, me: int, n: int) -> list[str]:
    """Ludii's summary of Jéquier (no. 939): a piece on its starting square waits while the
    square in front is occupied; no passing three opponents in a row; landing on a lone opponent
    (not on 20, 26, 28, 29) sends it back; a piece that cannot go forward goes back, to an empty
    square only (per piece); bearing off past 30 only with every piece on 21-30."""
    out = []
    mine = sorted(sq for sq, o in bd.items() if o == me)
    home = all(sq > 20 for sq in mine)
    for s in mine:
        if s in J_START[me] and s + 1 in bd:
            continue
        t = s + n
        if t > 30:
            if home:
                out.append(f"{s}-off")
                continue
        elif not j_three(bd, me, s, t):
            who = bd.get(t)
            if who is None or (
                who != me and t not in J_SAFE and bd.get(t - 1) != who and bd.get(t + 1) != who
            ):
                out.append(f"{s}-{t}")
                continue
        b = s - n
        if b >= 1 and b not in bd and not j_three(bd, me, s, b):
            out.append(f"{s}-{b}")
    return out


def j_first_free(bd: Board) -> int:
    return min(sq for sq in range(1, 31) if sq not in bd)


def result_jequier(bd: Board, me: int, mv: str) -> Board:
    bd = dict(bd)
    s, t = mv.split("-")
    del bd[int(s)]
    if t == "off":
        return bd
    t = int(t)
    victim = bd.get(t)
    bd[t] = me
    if victim is not None:
        bd[j_first_free(bd)] = victim  # sent back, the move made
    if t == 27:
        del bd[27]
        bd[j_first_free(bd)] = me
    return bd


# --------------------------------------------------------------------------- dispatch
# --------------------------------------------------------------------------- kendall-1978
def ref_kendall_1978(bd: Board, me: int, throws: list[int], returned: list[int]) -> list[str]:
    """Ludii's summary of Kendall's rules (ruleset 922) with our decisions: every throw of the
    turn moves one piece by its whole value, forward if it moves any piece forward, else back;
    a swap, unless the victim has a neighbour of its colour (protection lost while its owner
    waits on 27 or has a returned piece that has not moved: decision exposed); 26 must be landed
    on, and from it a 5 bears off; 28 leaves with 3, 29 with 2, 30 with any throw (named: 30-off/n);
    the owner of a piece on 27 only bears it off with a 4 or returns it (or, without a 4,
    leaves it there: a pass); a returned piece moves
    alone; 27 cannot be attacked (decision water-safe); 28-30 only while 27 is empty, the victim
    going to 27; a pass besides bearing off when that is all (decision bear-off-optional)."""
    mine = sorted(sq for sq, o in bd.items() if o == me)
    opp = 1 - me
    values = sorted(set(throws))
    if 27 in mine:
        return ["27-off", "return"] if 4 in values else ["return", "pass"]
    movers = [sq for sq in returned if bd.get(sq) == me] or mine
    exposed = bd.get(27) == opp or any(bd.get(sq) == opp for sq in returned)

    def attackable(t: int) -> bool:
        if t == 27:
            return False
        if t >= 28:
            return 27 not in bd
        return exposed or not (bd.get(t - 1) == opp or bd.get(t + 1) == opp)

    out: list[str] = []
    for n in values:
        fwd = []
        for s in movers:
            if s >= 28:
                if s == 30:
                    fwd.append(f"30-off/{n}")
                elif (s, n) in ((28, 3), (29, 2)):
                    fwd.append(f"{s}-off")
                continue
            if s == 26 and n == 5:
                fwd.append("26-off")
                continue
            t = s + n
            if s < 26 < t:
                continue  # the House of Beauty cannot be passed
            who = bd.get(t)
            if who == me or (who is not None and not attackable(t)):
                continue
            fwd.append(f"{s}-{t}")
        if fwd:
            out += fwd
            continue
        for s in movers:
            t = s - n
            if s >= 27 or t < 1:
                continue
            who = bd.get(t)
            if who == me or (who is not None and not attackable(t)):
                continue
            out.append(f"{s}-{t}")
    if out and all("off" in m for m in out):
        out.append("pass")
    return out


def result_kendall_1978(bd: Board, me: int, mv: str) -> Board:
    bd = dict(bd)
    s, t = mv.split("/")[0].split("-")
    s = int(s)
    del bd[s]
    if t == "off":
        return bd
    t = int(t)
    if t in bd:
        if t >= 28:
            bd[27] = bd[t]  # attacked on 28-30: sent to 27 to wait
        else:
            bd[s] = bd[t]
    bd[t] = me
    return bd


def k78_throw(mv: str) -> int:
    """The throw a kendall-1978 move uses."""
    head, _, named = mv.partition("/")
    s, t = head.split("-")
    if named:
        return int(named)
    if t == "off":
        return {26: 5, 27: 4, 28: 3, 29: 2}[int(s)]
    return abs(int(t) - int(s))


# --------------------------------------------------------------------------- piccione
def flag(p: Position, key: str) -> str:
    for token in p.fen().split(" ")[4:]:
        name, _, value = token.partition("=")
        if name == key:
            return value
    return ""


def ref_piccione(p: Position, bd: Board, me: int, n: int) -> list[str]:
    """Ludii's summary of Piccione's rules (ruleset 938) with our decisions: a move takes any
    part of the points left to one piece (decision use-all), never onto a taken square (decision
    no-capture), passing freely (decision passing), bearing off with the exact points (decision
    bear-off-part); a whole 1 may enter a piece on a free square 1 (decisions enter-optional,
    enter-occupied); the entered piece moves first (decision entered-first); forward while any
    part moves any piece forward or enters one, else back (decision forward-first), never against
    the turn's direction (decision direction), never back from 28-30."""
    hand = field(p, "hand")
    direction = flag(p, "direction")
    mine = sorted(sq for sq, o in bd.items() if o == me)

    def forward(s: int, k: int) -> str | None:
        t = s + k
        if t == 31:
            return f"{s}-off"
        if t > 31 or t in bd:
            return None
        return f"{s}-{t}"

    def backward(s: int, k: int) -> str | None:
        t = s - k
        if s >= 28 or t < 1 or t in bd:
            return None
        return f"{s}-{t}"

    parts = range(1, n + 1)
    if flag(p, "entered"):
        return [m for k in parts if (m := forward(1, k))]
    out: list[str] = []
    if direction != "backward":
        if n == 1 and not flag(p, "divided") and hand[me] and 1 not in bd:
            out.append("enter")
        out += [m for s in mine for k in parts if (m := forward(s, k))]
    if not out and direction != "forward":
        out += [m for s in mine for k in parts if (m := backward(s, k))]
    return out


def reference_next_piccione(p: Position, mv: str) -> str:
    """piccione: the points left stay with the player (the throw divided); an entering calls
    the throw for the entered piece (decision entering-throw); a pass loses the points left and
    sends a piece stuck on 1 back to the hand (decisions rest-lost, stuck-on-1); 27 sends a piece
    to the hand, 15 and 26 earn a throw taken once the throw is used (decision houses-count);
    then the seat throws again while it is owed throws, else the turn and its direction pass."""
    seat = "AB".index(p.fen().split(" ")[2])
    bd = read(p)
    n = p.throw
    hand = list(field(p, "hand"))
    extra = list(field(p, "extra"))
    direction = flag(p, "direction")
    entered = bool(flag(p, "entered"))
    divided = False
    left = 0
    if mv == "enter":
        hand[seat] -= 1
        bd[1] = seat
        direction, entered = "forward", True
    elif mv == "pass":
        if entered:
            del bd[1]
            hand[seat] += 1
        entered = False
    else:
        s_text, t_text = mv.split("-")
        s = int(s_text)
        t = 31 if t_text == "off" else int(t_text)
        del bd[s]
        direction = "forward" if t > s else "backward"
        entered = False
        if t == 27:
            hand[seat] += 1
        elif t != 31:
            bd[t] = seat
            if t in (15, 26):
                extra[seat] += 1
        left = n - abs(t - s)
        divided = bool(left)
    if mv != "enter" and not left:
        if extra[seat]:
            extra[seat] -= 1
        else:
            seat, direction = 1 - seat, ""
    a = [sq for sq, o in bd.items() if o == 0]
    b = [sq for sq, o in bd.items() if o == 1]
    return fen(
        "piccione",
        a,
        b,
        "AB"[seat],
        left or None,
        extra=tuple(extra),
        hand=tuple(hand),
        direction=direction,
        divided=divided,
        entered=entered,
    )


def reference(p: Position) -> tuple[list[str], int | None]:
    """(legal moves, seat deciding) by the reference rules; ([], None) at chance/game over."""
    if p.is_over() or p.is_chance():
        return [], None
    name = p.variant.name
    bd = read(p)
    n = p.throw
    me = "AB".index(p.fen().split(" ")[2])
    pend = pending(p)
    if pend == "water":
        return ["return", "risk"], bd[27]
    if pend == "fate":
        return ref_fate(bd, n) or ["pass"], bd[26]
    if name == "standard":
        out = ref_standard(bd, me, n)
    elif name == "bell":
        out = ref_bell(bd, me, n)
    elif name == "kendall":
        out = ref_kendall(bd, me, n)
    elif name == "jequier":
        out = ref_jequier(bd, me, n)
    elif name == "kendall-1978":
        out = ref_kendall_1978(bd, me, [n, *listed(p, "bank")], listed(p, "returned"))
    elif name == "piccione":
        out = ref_piccione(p, bd, me, n)
    else:
        out = ref_adelaida(bd, me, n, field(p, "drowned")[me])
    return sorted(out) or ["pass"], me


def reference_result(p: Position, mv: str, seat: int) -> Board | None:
    bd = read(p)
    if p.variant.name == "piccione":
        q = Position.from_fen(reference_next_piccione(p, mv))
        return read(q)
    if mv == "pass" or mv == "risk":
        return bd
    if mv == "return":
        del bd[27]
        sq = 15
        while sq in bd:
            sq -= 1  # decision return-occupied
        bd[sq] = seat
        return bd
    name = p.variant.name
    fn = {
        "standard": result_standard,
        "bell": result_bell,
        "kendall": result_kendall,
        "jequier": result_jequier,
        "kendall-1978": result_kendall_1978,
    }.get(name, result_adelaida)
    return fn(bd, seat, mv)


def check(p: Position) -> None:
    expected, seat = reference(p)
    got = sorted(m.text() for m in p.legal_moves())
    assert got == expected, f"{p.fen()}: engine {got}, reference {expected}"
    if seat is None:
        return
    assert p.decider == seat, f"{p.fen()}: engine decider {p.decider}, reference {seat}"
    for move in p.legal_moves():
        q = p.apply(move)
        want = reference_result(p, move.text(), seat)
        assert read(q) == want, f"{p.fen()} after {move}: engine {q.fen()}, reference {want}"
        assert q.fen() == reference_next(p, move.text()), (
            f"{p.fen()} after {move}: engine and reference differ"
        )


# --------------------------------------------------------------------------- the flow of play
EXTRA_THROWS = {
    "standard": {1, 4, 5},
    "bell": set(),
    "kendall": {1, 4, 5},
    "adelaida": {1, 4, 5},
    "adelaida-long": {1, 4, 5},
    "jequier": {1, 4, 6},
    "kendall-1978": {1, 4, 5},
    "piccione": {5},
}


def reference_next(p: Position, mv: str) -> str:
    """The whole position after ``mv``, by the sources' flow of play:

    * a move made with 1, 4 or 5 earns another throw (standard, kendall, adelaida §4), a pass only
      in adelaida (decision pass-extra; not in standard, decision extra-after-pass, nor kendall,
      decision turn-lost); a fate throw too, owed to the piece's owner (decision fate-extra); a
      revival keeps its throw's extra throw (decision revival-throw);
    * adelaida: landing on 15 earns a throw (§20), on 16 cancels one owed throw or else skips the
      next turn (§23-24, decision net-extra), on 26 calls the throw of fate (§27), on 27 drowns
      the piece and cancels the extra throws (§28-29); a piece swapped into 15/16/26 gets the same
      (§21-22, decision swapped-into-house);
    * kendall: a failed risk loses the turn; the Water choice is made at once (decision water-choice);
    * then the same seat throws again while it is owed throws, else the turn passes, past turns skipped.
    """
    name = p.variant.name
    if name == "kendall-1978":
        return reference_next_kendall_1978(p, mv)
    if name == "piccione":
        return reference_next_piccione(p, mv)
    _, _, turn, *_ = p.fen().split(" ")
    n = p.throw
    bd = read(p)
    seat_on_turn = "AB".index(turn)
    extra = list(field(p, "extra"))
    skip = list(field(p, "skip"))
    captured = list(field(p, "captured"))
    drowned = list(field(p, "drowned"))
    pend = pending(p)
    new_pending = ""
    adelaida = name.startswith("adelaida")
    mover = p.decider
    new_bd = reference_result(p, mv, mover)

    def house(seat: int, sq: int, own_move: bool) -> None:
        nonlocal new_pending
        if sq == 15:
            extra[seat] += 1
        elif sq == 16:
            if extra[seat]:
                extra[seat] -= 1
            else:
                skip[seat] += 1
        elif sq == 26:
            new_pending = "fate"
        elif sq == 27 and own_move:
            drowned[seat] += 1
            extra[seat] = 0

    if pend == "water":
        pass  # risk or return: the board says it all
    elif pend == "fate":
        if mv != "pass":
            if n in EXTRA_THROWS[name]:
                extra[mover] += 1  # not for an impossible fate move (decision pass-extra)
            house(mover, int(mv.split("-")[1]), True)
    elif mv == "revive":
        drowned[mover] -= 1
        if n in EXTRA_THROWS[name]:
            extra[mover] += 1
    elif mv == "pass":
        if name == "kendall" and bd.get(27) == mover:
            extra[mover] = 0
        elif (adelaida or name == "jequier") and n in EXTRA_THROWS[name]:
            extra[mover] += 1  # adelaida decision pass-extra, jequier decision extra-after-pass
    else:
        s, t = mv.split("-")
        s = int(s)
        if n in EXTRA_THROWS[name]:
            extra[mover] += 1
        if t != "off":
            t = int(t)
            victim = bd.get(t)
            if victim is not None and name == "bell":
                captured[victim] += 1
            if name == "kendall" and (t == 27 or (victim is not None and t >= 28 and 27 not in bd)):
                new_pending = "water"
            if adelaida:
                house(mover, t, True)
                if victim is not None:
                    house(victim, s, False)
    if not new_pending:
        if extra[seat_on_turn]:
            extra[seat_on_turn] -= 1
        else:
            nxt = 1 - seat_on_turn
            while skip[nxt]:
                skip[nxt] -= 1
                nxt = 1 - nxt
            seat_on_turn = nxt
    a = [sq for sq, o in new_bd.items() if o == 0]
    b = [sq for sq, o in new_bd.items() if o == 1]
    return fen(
        name,
        a,
        b,
        "AB"[seat_on_turn],
        None,
        extra=tuple(extra),
        skip=tuple(skip),
        captured=tuple(captured),
        drowned=tuple(drowned),
        pending=new_pending,
    )


def reference_next_kendall_1978(p: Position, mv: str) -> str:
    """kendall-1978: a move uses one of the turn's throws (the lowest left waits as the throw);
    a return uses none, marks the returned piece and costs the next turn (decision return); a
    pass gives up every throw left (decision unusable); when none is left the turn passes on,
    past a turn to skip."""
    _, _, turn, *_ = p.fen().split(" ")
    seat = "AB".index(turn)
    bd = read(p)
    throws = sorted([p.throw, *listed(p, "bank")])
    returned = set(listed(p, "returned"))
    skip = list(field(p, "skip"))
    if mv == "pass":
        throws = []
        new_bd = bd
    elif mv == "return":
        new_bd = reference_result(p, mv, seat)
        home = next(sq for sq in range(15, 0, -1) if sq not in bd)
        returned.add(home)
        skip[seat] += 1
    else:
        throws.remove(k78_throw(mv))
        new_bd = result_kendall_1978(bd, seat, mv)
        s, t = mv.split("/")[0].split("-")
        returned -= {int(s)} | ({int(t)} if t != "off" else set())
    if not throws:
        nxt = 1 - seat
        while skip[nxt]:
            skip[nxt] -= 1
            nxt = 1 - nxt
        seat = nxt
    a = [sq for sq, o in new_bd.items() if o == 0]
    b = [sq for sq, o in new_bd.items() if o == 1]
    return fen(
        "kendall-1978",
        a,
        b,
        "AB"[seat],
        throws[0] if throws else None,
        skip=tuple(skip),
        bank=throws[1:],
        returned=sorted(returned),
    )


# --------------------------------------------------------------------------- the comparisons
@pytest.mark.parametrize(
    "name",
    # Jéquier's random games are the longest by far (taken pieces go back to the start), then
    # piccione's (every throw divided among the pieces)
    [
        pytest.param(n, marks=pytest.mark.slow) if n in ("jequier", "piccione") else n
        for n in ALL_VARIANTS
    ],
)
def test_reference_agrees_on_random_games(name):
    rng = random.Random(f"reference {name}")
    positions = 0
    for _ in range(6 if name == "adelaida-long" else 10):
        for p, _action in random_game(name, rng):
            check(p)
            positions += 1
    assert positions > 1500


def random_board_position(name: str, rng: random.Random) -> Position:
    """A random but rule-consistent position: pieces anywhere pieces can rest, clustered often."""
    v = find_variant(name)
    rest = set(range(1, 31))
    if name == "standard":
        rest -= {28}  # the House of Water never holds a piece
    if name.startswith("adelaida"):
        rest -= {21, 27}  # Ba never holds a piece; the Water takes it off the board
    if name in ("jequier", "piccione"):
        rest -= {27}  # the House of Water sends every piece back to the start, or to the hand
    counts = [rng.randint(1, v.pieces), rng.randint(0, v.pieces)]
    if rng.random() < 0.5:  # clusters: pairs, triples, fours
        base = rng.choice(sorted(rest))
        squares = [sq for sq in range(base, base + 9) if sq in rest]
    else:
        squares = sorted(rest)
    squares = list(squares) + rng.sample(sorted(rest), 12)
    rng.shuffle(squares)
    a, b, used = [], [], set()
    for sq in squares:
        if sq in used:
            continue
        side = a if rng.random() < 0.5 else b
        if len(side) >= counts[side is b]:
            side = b if side is a else a
            if len(side) >= counts[side is b]:
                break
        side.append(sq)
        used.add(sq)
    turn = rng.choice("AB")
    throw = rng.choice(v.instrument.values)
    kw = {}
    if name == "kendall" and 27 in used and rng.random() < 0.4:
        kw["pending"] = "water"
        throw = None
    if name.startswith("adelaida"):
        if 26 in used and rng.random() < 0.4:
            kw["pending"] = "fate"
        me = "AB".index(turn)
        left = v.pieces - len((a, b)[me])
        if left and rng.random() < 0.5:
            d = [0, 0]
            d[me] = rng.randint(1, left)
            kw["drowned"] = tuple(d)
        if rng.random() < 0.5:  # throws owed and turns to skip (§24, House of Net)
            kw["extra"] = (rng.randint(0, 2), rng.randint(0, 2))
            kw["skip"] = (rng.randint(0, 1), rng.randint(0, 1))
    if name == "kendall-1978":
        if rng.random() < 0.6:  # several throws of the turn left
            made = sorted([throw, *(rng.choice((1, 4, 5)) for _ in range(rng.randint(1, 3)))])
            throw, kw["bank"] = made[0], made[1:]
        low = [sq for sq in used if sq <= 15]
        if low and rng.random() < 0.3:  # a piece back from the House of Water
            kw["returned"] = [rng.choice(low)]
        if rng.random() < 0.3:
            kw["skip"] = (rng.randint(0, 1), rng.randint(0, 1))
    if name == "piccione":
        kw["hand"] = (
            rng.randint(0, v.pieces - len(a)),
            rng.randint(0, v.pieces - len(b)),
        )
        mine = (a, b)["AB".index(turn)]
        if 1 in mine and rng.random() < 0.3:
            kw["direction"], kw["entered"] = "forward", True  # the entered piece moves first
        elif rng.random() < 0.5:
            kw["direction"] = rng.choice(("forward", "backward"))
            kw["divided"] = rng.random() < 0.5
        if rng.random() < 0.3:
            kw["extra"] = (rng.randint(0, 2), rng.randint(0, 2))
        if rng.random() < 0.3:
            throw = 1  # a whole 1: entering
    if name == "bell":
        kw["captured"] = (
            rng.randint(0, v.pieces - len(a)),
            rng.randint(0, v.pieces - len(b)),
        )
    return Position.from_fen(fen(name, a, b, turn, throw, **kw))


@pytest.mark.parametrize("name", ALL_VARIANTS)
def test_reference_agrees_on_random_boards(name):
    rng = random.Random(f"boards {name}")
    checked = 0
    for _ in range(800):
        p = random_board_position(name, rng)
        if p.is_over():
            continue
        check(p)
        checked += 1
    assert checked > 400


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(ALL_VARIANTS),
    seed=st.integers(0, 2**32 - 1),
    cut=st.integers(0, 400),
)
def test_reference_agrees_on_hypothesis_positions(name, seed, cut):
    """Hypothesis picks the game (throws and moves through the seed) and a point in it."""
    rng = random.Random(seed)
    for i, (p, _action) in enumerate(random_game(name, rng)):  # noqa: B007 (the position at the cut is checked after the loop)
        if i >= cut:
            break
    check(p)


def test_reference_itself_sees_the_rules():
    """The reference is not vacuous: it finds captures, blocks, Ba moves and backward moves."""
    p = Position.from_fen(
        fen("adelaida", [17], [19, 20], "A", 4)
    )  # the pair 19-20 bars the way into Ba: back
    assert reference(p)[0] == ["17-13"]
    p = Position.from_fen(fen("adelaida", [17], [23], "A", 4))
    assert reference(p)[0] == ["17-25"]
    p = Position.from_fen(fen("standard", [1], [4, 6], "A", 3))
    assert reference(p)[0] == ["1-4"]


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(ALL_VARIANTS), rng=st.randoms(use_true_random=False))
def test_reference_agrees_on_hypothesis_boards(name, rng):
    """Hypothesis drives the random board builder (and shrinks a failing board to a small one)."""
    p = random_board_position(name, rng)
    if not p.is_over():
        check(p)


@pytest.mark.parametrize(
    "name,change",
    [
        ("adelaida", {"protection": "neighbour"}),  # no triple breaking (§13)
        ("adelaida", {"passing": "free"}),  # pairs no longer block (§8, §12, §14)
        ("adelaida", {"backward": "player"}),  # §16 per player instead of per piece
        (
            "adelaida",
            {"safe": frozenset({26, 27, 28, 29, 30})},
        ),  # captures on 15, 16, 21 (§21)
        (
            "standard",
            {
                "bear_off": {
                    27: frozenset({4, 5}),
                    29: frozenset({3}),
                    30: frozenset({1, 2}),
                }
            },
        ),
        ("kendall", {"must_stop": frozenset()}),  # 26 may be passed
        ("bell", {"priority": frozenset()}),  # no forced moves from 26-30
        ("bell", {"capture": "swap"}),
        pytest.param(  # each throw played at once; the longest search for a difference
            "kendall-1978", {"throws_first": False}, marks=pytest.mark.slow
        ),
        pytest.param(  # 28-30 open while 27 is taken: the longest game to find the change
            "kendall-1978", {"guarded_by_water": frozenset()}, marks=pytest.mark.slow
        ),
        ("kendall-1978", {"bear_off_optional": False}),
        ("piccione", {"capture": "swap"}),  # landing on an opponent swaps
        (  # bearing off by any points past 30, not the exact ones
            "piccione",
            {"bear_off": {sq: frozenset(range(31 - sq, 6)) for sq in (26, 28, 29, 30)}},
        ),
        ("piccione", {"enter_throw": 2}),  # a 2 enters a piece
    ],
)
def test_reference_catches_planted_rule_changes(name, change):
    """Play a variant with one rule changed: the comparison with the reference must fail."""
    import dataclasses

    planted = dataclasses.replace(find_variant(name), **change)
    rng = random.Random(f"planted {name} {sorted(change)}")
    for _ in range(200):
        try:
            for p, _action in random_game(name, rng, start=Position.initial(planted)):
                check(p)
        except AssertionError as exc:
            assert "reference" in str(exc), exc  # a disagreement, not some other failure
            return
    pytest.fail(f"the reference did not notice {change} in {name}")
