"""The board as server-rendered SVG, drawn like the game page's board (static/board.js).

The geometry (cell size, margins, the snake track with its middle row right to left, the
bearing-off cell), the Houses' glyphs and the CSS classes are the same as board.js's wide
layout, so that a rule diagram looks like the board the player will play on; a test compares
the constants and glyphs with board.js.  Each diagram is drawn twice, as board.js draws its
board: wide (the rows across) and upright (the rows down, three columns of ten: the board of a
phone held upright, whose squares a finger can tap); the page's CSS shows the one that fits the
screen (board.js's UPRIGHT_QUERY), no script needed.  A diagram may be cropped to the part of
the track that matters, names its Houses whole in a key under the picture, and carries arrows
for moves: green for every legal move (``data-move`` holds its notation), red and dashed for a
move that is not allowed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

from senet.engine import OFF, Position

from ..i18n import translator

__all__ = [
    "CELL",
    "X0",
    "Y0",
    "OFF_GAP",
    "GLYPHS",
    "UPRIGHT_QUERY",
    "Arrow",
    "square_xy",
    "board_svg",
    "house_key",
]

CELL, X0, Y0, OFF_GAP = 64, 12, 14, 16
#: The screens that show the upright drawing: board.js's UPRIGHT_QUERY, learn.css's media query.
UPRIGHT_QUERY = "(orientation: portrait) and (max-width: 600px)"

# Hieroglyphs drawn as simple strokes (many systems have no font for Egyptian hieroglyphs).
GLYPHS = {
    "\U000132f9": "M0 -2 a4 4.5 0 1 1 0.01 0 v13 M-6 1 h12",
    "\U00013124": "M-4 -1 a4 5 0 1 0 8 0 a4 5 0 1 0 -8 0 M0 -9 v4 M-3 -6 h6",
    "\U00013217": "M-8 -5 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2 M-8 0 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2 M-8 5 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2",
    "\U000131f3": "M0 -7 a7 7 0 1 1 -0.01 0 M0 -1 a1 1 0 1 1 -0.01 0",
    "\U00013080": "M-8 0 q8 -8 16 0 q-8 6 -16 0 M0 -3 a2 2 0 1 1 -0.01 0 M-3 3 l-2 6 M2 3 q4 2 2 6",
    "\U0001319b": "M-8 0 q6 -7 12 0 q-6 7 -12 0 M4 0 l5 -4 v8 z",
    "\U0001317d": "M-6 4 q0 -8 8 -8 q4 0 5 3 l-3 1 q2 4 -2 6 z M-2 4 v5 M2 4 v5 M-7 -4 a3 3 0 1 1 0.01 0",
}


@dataclass(frozen=True)
class Arrow:
    origin: int
    target: int
    text: str
    legal: bool = True


def column(square: int) -> int:
    """The column of a square on the wide board (OFF is the eleventh)."""
    if square == OFF:
        return 10
    row, k = divmod(square - 1, 10)
    return 9 - k if row == 1 else k


def square_xy(square: int, upright: bool = False) -> tuple[float, float]:
    """Top-left corner of a square's cell, as board.js's squareXY in its wide or upright layout."""
    x, y = _wide_xy(square)
    return _turned(x, y) if upright else (x, y)


def _wide_xy(square: int) -> tuple[float, float]:
    if square == OFF:
        return X0 + 10 * CELL + OFF_GAP, Y0 + 2 * CELL
    row = (square - 1) // 10
    return X0 + column(square) * CELL, Y0 + row * CELL


def _turned(x: float, y: float) -> tuple[float, float]:
    """A point of the wide drawing in the upright one: the rows become columns (the board
    mirrored along its diagonal through the first square, as board.js's squareXY)."""
    return X0 + (y - Y0), Y0 + (x - X0)


def _attrs(**attrs: object) -> str:
    return "".join(
        f' {k.rstrip("_").replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items()
    )


def _piece(seat: int, cx: float, cy: float, dark_seat: int) -> str:
    shade = "dark" if seat == dark_seat else "light"
    out = [f'<g class="piece-shape seat-{seat} {shade}">']
    if seat == 0:
        out.append(
            f'<path class="spool" d="M{cx - 17} {cy - 20} h34 v6 q-10 6 -10 14 q0 8 10 14 v6 '
            f'h-34 v-6 q10 -6 10 -14 q0 -8 -10 -14 z"/>'
        )
        for dy in (-14, 14):
            out.append(
                f'<line class="spool-band" x1="{cx - 17}" y1="{cy + dy}" x2="{cx + 17}" y2="{cy + dy}"/>'
            )
    else:
        out.append(
            f'<path class="cone" d="M{cx} {cy - 22} L{cx + 16} {cy + 16} Q{cx} {cy + 24} '
            f'{cx - 16} {cy + 16} Z"/>'
        )
        out.append(f'<circle class="cone-tip" cx="{cx}" cy="{cy - 20}" r="4"/>')
    out.append("</g>")
    return "".join(out)


def _centre(square: int) -> tuple[float, float]:
    x, y = _wide_xy(square)
    return x + CELL / 2, y + CELL / 2


def _arrow(arrow: Arrow, marker: str, upright: bool) -> str:
    """The arrow's curve, laid out on the wide board and mirrored with it when upright (a bow
    upwards there is a bow to the left here)."""
    (x1, y1), (x2, y2) = _centre(arrow.origin), _centre(arrow.target)
    # bend every arrow upwards (to the left going down) so that it never hides the pieces' faces
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    if abs(y2 - y1) < 1:  # along a row: bow upwards
        cx, cy = mx, my - min(34.0, 12 + abs(x2 - x1) / 6)
    else:  # between rows: bow outwards
        cx, cy = (mx + 34, my) if mx > X0 + 5 * CELL else (mx - 34, my)
    # stop short of the target's centre so that the head sits inside the cell
    ux, uy = x2 - cx, y2 - cy
    norm = max((ux * ux + uy * uy) ** 0.5, 1.0)
    tx, ty = x2 - ux / norm * 12, y2 - uy / norm * 12
    if upright:
        (x1, y1), (cx, cy), (tx, ty) = _turned(x1, y1), _turned(cx, cy), _turned(tx, ty)
    cls = "diag-move" if arrow.legal else "diag-illegal"
    data = (
        f' data-move="{escape(arrow.text)}"'
        if arrow.legal
        else f' data-attempt="{escape(arrow.text)}"'
    )
    return (
        f'<path class="{cls}"{data} d="M{x1:.1f} {y1:.1f} Q{cx:.1f} {cy:.1f} {tx:.1f} {ty:.1f}"'
        f' marker-end="url(#{marker})"/>'
    )


def board_svg(
    position: Position,
    *,
    lang: str,
    arrows: Iterable[Arrow] = (),
    stuck: Iterable[int] = (),
    crop: bool = True,
    ident: str = "board",
    label: str = "",
) -> Markup:
    """The board of ``position`` with ``arrows`` and a cross on each square of ``stuck``: the
    wide drawing, the upright one (CSS shows one of them) and the key of the Houses shown."""
    v = position.variant
    arrows = list(arrows)
    stuck = list(stuck)
    pieces = [(seat, sq) for seat in (0, 1) for sq in position.pieces(seat)]
    involved = [sq for _, sq in pieces] + [a.target for a in arrows] + stuck
    columns = [column(sq) for sq in involved] or [0, 9]
    first, last = (max(0, min(columns) - 1), min(10, max(columns) + 1)) if crop else (0, 10)
    shown = _Shown(position, arrows, stuck, first, last, ident, label)
    houses = [
        (sq, house.symbol, house.name(lang))
        for sq, house in sorted(v.houses.items())
        if first <= column(sq) <= last
    ]
    return Markup(_drawing(shown, lang, False) + _drawing(shown, lang, True) + house_key(houses))


@dataclass(frozen=True)
class _Shown:
    """What a diagram shows: the position, its marks and the columns of the track in view."""

    position: Position
    arrows: list[Arrow]
    stuck: list[int]
    first: int
    last: int
    ident: str
    label: str


def _drawing(shown: _Shown, lang: str, upright: bool) -> str:
    """One SVG of a diagram, wide or upright; the upright one names its arrows' markers apart."""
    position, first, last = shown.position, shown.first, shown.last
    v = position.variant
    along = (X0 + first * CELL - 8, X0 + (last + 1) * CELL + 8 + (OFF_GAP if last == 10 else 0))
    across = (Y0 - 10, Y0 - 10 + 3 * CELL + 2 * Y0 - 4)
    if upright:
        # the rows down: x across the three columns (board.js's 216 units), y along the track
        left, right = 0, 3 * CELL + 2 * X0
        top, bottom = (_turned(x, Y0)[1] for x in along)
    else:
        (left, right), (top, bottom) = along, across
    ident = f"{shown.ident}-u" if upright else shown.ident
    layout = "upright" if upright else "wide"

    def xy(square: int) -> tuple[float, float]:
        return square_xy(square, upright)

    out = [
        f'<svg class="diagram-board {layout}" xmlns="http://www.w3.org/2000/svg" role="img"'
        f"{_attrs(viewBox=f'{left} {top} {right - left} {bottom - top}', aria_label=shown.label, data_position=position.fen())}>",
        "<defs>",
    ]
    for kind in ("ok", "no"):
        out.append(
            f'<marker id="{ident}-{kind}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4"'
            f' markerHeight="4" orient="auto-start-reverse"><path class="arrow-head {kind}"'
            f' d="M0 0 L10 5 L0 10 z"/></marker>'
        )
    out.append("</defs>")
    frame_w, frame_h = (3 * CELL, 10 * CELL) if upright else (10 * CELL, 3 * CELL)
    out.append(
        f'<rect class="board-frame" x="{X0 - 6}" y="{Y0 - 6}" width="{frame_w + 12}"'
        f' height="{frame_h + 12}" rx="8"/>'
    )
    occupied = set(position.pieces(0)) | set(position.pieces(1))
    for sq in range(1, 31):
        if not first <= column(sq) <= last:
            continue
        x, y = xy(sq)
        house = v.houses.get(sq)
        cls = "square house" if house else "square"
        out.append(f'<g class="{cls}" data-square="{sq}">')
        out.append(
            f'<rect class="cell" x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" rx="4"/>'
        )
        out.append(f'<text class="sq-num" x="{x + 5}" y="{y + 14}">{sq}</text>')
        if house:
            name = house.name(lang)
            path = GLYPHS.get(house.symbol)
            # under a piece the symbol goes small into the square's top right corner, clear of
            # the piece (as board.js draws it)
            place = (
                f"translate({x + CELL - 8} {y + 9}) scale(0.55)"
                if sq in occupied
                else f"translate({x + CELL - 16} {y + 18})"
            )
            if path:
                out.append(
                    f'<path class="glyph" aria-hidden="true" d="{path}" transform="{place}"/>'
                )
            else:
                out.append(
                    f'<text class="house-symbol" x="0" y="5" text-anchor="middle" transform="{place}">'
                    f"{escape(house.symbol)}</text>"
                )
            # the symbol on the square, the name whole in the key under the board (a name
            # written on a square would have to be cut short)
            out.append(f"<title>{sq}: {escape(name)}</title>")
        out.append("</g>")
    if last == 10:
        ox, oy = xy(OFF)
        out.append(
            f'<g class="off-zone"><rect class="cell off" x="{ox + 1}" y="{oy + 1}" width="{CELL - 2}"'
            f' height="{CELL - 2}" rx="6"/><text class="off-label" x="{ox + CELL / 2}" y="{oy + 36}"'
            f' text-anchor="middle">{escape(translator(lang)("g.off"))}</text></g>'
        )
    for seat in (0, 1):
        for sq in position.pieces(seat):
            x, y = xy(sq)
            out.append(f'<g class="piece" data-square="{sq}" data-seat="{seat}">')
            out.append(_piece(seat, x + CELL / 2, y + CELL / 2 + 2, v.dark_seat))
            out.append("</g>")
    for sq in shown.stuck:
        x, y = xy(sq)
        out.append(
            f'<path class="diag-stuck" data-square="{sq}" d="M{x + 44} {y + 6} l14 14 m0 -14 l-14 14"/>'
        )
    for arrow in shown.arrows:
        out.append(_arrow(arrow, f"{ident}-{'ok' if arrow.legal else 'no'}", upright))
    out.append("</svg>")
    return "".join(out)


def house_icon(symbol: str) -> str:
    """A House's symbol as a small picture of its own, as board.js's houseIcon."""
    path = GLYPHS.get(symbol)
    inner = (
        f'<path class="glyph" d="{path}"/>'
        if path
        else f'<text class="house-symbol" x="0" y="5" text-anchor="middle">{escape(symbol)}</text>'
    )
    return (
        '<svg class="icon house-icon" viewBox="-12 -12 24 24" width="20" height="20"'
        f' aria-hidden="true">{inner}</svg>'
    )


def house_key(houses: Iterable[tuple[int, str, str]]) -> str:
    """The key under a board: each House shown, its symbol, square and whole name."""
    items = [
        f'<li data-square="{sq}">{house_icon(symbol)} {sq}: {escape(name)}</li>'
        for sq, symbol, name in houses
    ]
    return f'<ul class="house-key">{"".join(items)}</ul>' if items else ""
