"""The HTML pages: home, variant pages, starting a game, the game page and its links."""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, RedirectResponse
from markupsafe import Markup, escape

from senet.engine import VARIANTS, Capture, HouseKind, find_variant
from senet.service import computer
from senet.service.errors import GameError, requested_variant
from senet.service.games import requested_time_control
from senet.service.reviews import chart, replay
from senet.service.server import GameService

from ..common import form_fields, lister_of, render, seat_cookie, set_seat_cookie, to_game
from ..deps import Lang, Service, holder
from ..i18n import LANG_COOKIE, LANGS, catalog, translator
from . import challenges, players

router = APIRouter(include_in_schema=False)


def _rulebook(name: str) -> Any:
    try:
        from senet.engine.rulebook import rulebook

        return rulebook(name)
    except ImportError:  # pragma: no cover - guarded: written alongside the site
        return None


def _differences(name: str, lang: str) -> list[Any]:
    try:
        from senet.engine.differences import describe, difference_table
    except ImportError:  # pragma: no cover
        return []
    if name == "standard":
        return [(label, text, None) for label, text in describe(name, lang)]
    return [(row.label, row.b, row.a) for row in difference_table(name, "standard", lang)]


#: a clause's id: "adelaida §25" (a numbered clause), "kendall: rule 3", "bell: safe squares"
_CLAUSE_NUMBER = re.compile(r"^[\w-]+ §(\d+)$")
_CLAUSE_TOPIC = re.compile(r"^[\w-]+: (.+)$")


def clause_label(clause_id: str, lang: str) -> str:
    """A rule's label for readers: its number in the source (``§25``, ``п. 25``) or its topic
    in words (``Safe squares``, ``Правило 3``), never the id the tests cite it by."""
    t = translator(lang)
    number = _CLAUSE_NUMBER.match(clause_id)
    if number:
        return t("rules.clause_n", n=number.group(1))
    topic = _CLAUSE_TOPIC.match(clause_id)
    name = topic.group(1).lower() if topic else clause_id.lower()
    rule = re.fullmatch(r"rule (\d+)", name)
    if rule:
        return t("rules.rule_n", n=rule.group(1))
    return t(f"rules.topic.{name}")


#: a reference to decisions in a rulebook text: "(decision options)", "(решения pieces, first-player)"
_DECISION_REF = re.compile(r"\((decisions?|решени[ея]) ([\w-]+(?:, [\w-]+)*)\)")


#: a reference to one of the rulebook's own clauses by its id: "(kendall-1978: guarded)",
#: "(правило piccione: backward)"
_CLAUSE_REF = re.compile(r"\((?:правило |rule )?([a-z0-9-]+: [^()]+?)\)")


#: a quotation: «…» or “…”
_QUOTE = re.compile(r"«[^«»]*»|“[^“”]*”")


def rule_text(text: str, rulebook: Any, lang: str) -> Markup:
    """A rulebook text for the page: its references to decisions by key turned into links to
    the decisions, numbered as the page lists them ("(decision 3)", "(решение 3)"), its
    references to its own clauses by id into links to them with their labels, and its
    quotations in the other language marked with their language (a Russian page quoting
    Ludii's English, an English page quoting the Russian sources), as HTML asks of a passage in
    another language."""
    order = {d.key: i for i, d in enumerate(rulebook.decisions, 1)} if rulebook else {}
    t = translator(lang)

    def link(match: re.Match[str]) -> str:
        keys = match.group(2).split(", ")
        if not all(key in order for key in keys):
            return match.group(0)
        links = ", ".join(f'<a href="#decision-{key}">{order[key]}</a>' for key in keys)
        word = t("rules.decision_ref", count=len(keys), n=len(keys))
        return f"({word} {links})"

    words = catalog(lang)

    def mark(match: re.Match[str]) -> str:
        quoted = match.group(0)
        cyrillic = re.search(r"[А-Яа-яЁё]", quoted) is not None
        latin = re.search(r"[A-Za-z]", quoted) is not None
        other = "en" if latin and not cyrillic else "ru" if cyrillic and not latin else lang
        if other == lang:
            return quoted
        # the quotation's translation beside it, where the page's language has one
        # (quote.<quotation> in locales/<lang>/quotes.json)
        translated = words.get(f"quote.{html.unescape(quoted[1:-1])}")
        beside = (
            f' <span class="quote-tr">({escape(quoted[0] + translated + quoted[-1])})</span>'
            if isinstance(translated, str)
            else ""
        )
        return f'<span lang="{other}">{quoted}</span>{beside}'

    clauses = {c.id: i for i, c in enumerate(rulebook.clauses, 1)} if rulebook else {}

    def clause_link(match: re.Match[str]) -> str:
        found = clauses.get(html.unescape(match.group(1)))
        if found is None:
            return match.group(0)
        label = escape(clause_label(html.unescape(match.group(1)), lang))
        return f'(<a href="#rule-{found}">{label}</a>)'

    linked = _CLAUSE_REF.sub(clause_link, _DECISION_REF.sub(link, str(escape(text))))
    return Markup(_QUOTE.sub(mark, linked))


#: the squares a clause starts with: "27, 28, 29, 30 are marked…", "Поле 26 нельзя…"
_LEADING_SQUARES = re.compile(r"^(?:Поле |Square )?((?:\d+(?:, | and | и |–|-)?)+)")


def house_parts(name: str, lang: str) -> dict[int, list[str]]:
    """What each House of a variant does, in ``lang``, as the rule texts that say it: the
    rulebook clause about it (the one that starts with its number, else the one named after
    it, else one that names it; a clause that starts with another square is introduced as
    that square's rule); where that clause is a list of Houses, this House's entry and then
    the other clauses that name its square (that it is safe, how a piece leaves it)."""
    v = find_variant(name)
    rb = _rulebook(v.name)
    clauses = list(rb.clauses) if rb else []
    t = translator(lang)
    out: dict[int, list[str]] = {}
    for sq, house in v.houses.items():
        house_name = house.name(lang).lower()
        ranked = []
        for clause in clauses:
            text = clause.text(lang)
            lead = _LEADING_SQUARES.match(text)
            if text.startswith((f"{sq}, ", f"{sq} ", f"{sq}:")):
                ranked.append((0, text))
            elif lead and str(sq) in re.findall(r"\d+", lead.group(1)):
                ranked.append((1, text))
            elif house.name("en").lower() in clause.id.lower():
                ranked.append((2, text))
            elif house_name in text.lower():
                ranked.append((3, text))
        if not ranked:
            continue
        text = min(ranked, key=lambda item: item[0])[1]
        parts = [text]
        # "15, House of Rebirth: landing…" -> "Landing…" (the number and name are shown)
        prefix = re.compile(
            rf"^{sq}(?:(?:, | — )(?:the )?{re.escape(house.name(lang))}(?::|,)? ?(?:— )?|: )"
        )
        stripped = prefix.sub("", text, count=1)
        if not stripped[:1].isdigit():  # not a list of squares ("27 — …, 28 — …")
            parts = [stripped]
        elif (own := _own_entry(text, sq, house.name(lang))) is not None:
            # a list of Houses by name: this one's entry, then the other clauses about its square
            about = [c.text(lang) for c in clauses if c.text(lang) != text]
            parts = ([own + "."] if own else []) + [a for a in about if _names(a, sq)]
        elif (rule := re.match(r"(\d+): ", text)) and int(rule.group(1)) != sq:
            # named only in another square's rule ("27: … or return the stone to 15, the House
            # of Second Life"): say whose rule it is, lest 15 read as the trap
            other = int(rule.group(1))
            named = v.houses[other].name(lang) if other in v.houses else str(other)
            parts = [t("play.house_in_rule", square=other, name=named) + text[rule.end() :]]
        out[sq] = [part[:1].upper() + part[1:] for part in parts]
    return out


def house_meanings(name: str, lang: str) -> dict[int, str]:
    """What each House of a variant does, in ``lang``, in one text (its :func:`house_parts`)."""
    return {sq: " ".join(parts) for sq, parts in house_parts(name, lang).items()}


@dataclass(frozen=True)
class HouseLegend:
    """The Houses of a game page's legend: each House's square, name and what only it does,
    then once each the rules that several Houses share (the safe squares, how pieces leave the
    last row), which the legend would otherwise repeat under every one of them."""

    rows: list[tuple[int, str, str]]
    shared: list[str]


def house_legend(name: str, lang: str) -> HouseLegend:
    """The legend of a variant's Houses in ``lang`` (see :class:`HouseLegend`)."""
    houses = find_variant(name).houses
    parts = house_parts(name, lang)
    owners = Counter(part for own in parts.values() for part in set(own))
    shared = list(dict.fromkeys(p for sq in sorted(parts) for p in parts[sq] if owners[p] > 1))
    rows = [
        (sq, house.name(lang), " ".join(p for p in parts.get(sq, []) if owners[p] == 1))
        for sq, house in sorted(houses.items())
    ]
    return HouseLegend(rows, shared)


def _own_entry(text: str, sq: int, name: str) -> str | None:
    """In a list of Houses by number and name ("27 House of Beauty, 28 House of Water (sends
    the piece to 15), …"), what the entry of ``sq`` adds to its name ("sends the piece to 15";
    "" for a name alone); None when the list names ``sq`` otherwise."""
    entry = re.search(rf"(?:^|, ){sq} (?:— )?{re.escape(name)}(.*?)(?=, \d|\.?$)", text)
    if entry is None:
        return None
    return entry.group(1).strip(" ()—,.")


def _names(text: str, sq: int) -> bool:
    """Whether a rule text names square ``sq``: the number itself or a range around it."""
    for low, high in re.findall(r"\b(\d+)[–-](\d+)\b", text):
        if int(low) <= sq <= int(high):
            return True
    return re.search(rf"(?<![\d–-]){sq}(?![\d–-])", text) is not None


def variant_json(name: str, lang: str) -> str:
    """What the board script needs to know about a variant."""
    v = find_variant(name)
    meanings = house_meanings(name, lang)
    return json.dumps(
        {
            "name": v.name,
            "title": v.title(lang),
            "pieces": v.pieces,
            "seatNames": [v.seat_name(0, lang), v.seat_name(1, lang)],
            # the seat whose pieces are drawn dark: cones, or Kendall's "dark stones" (seat A)
            "darkSeat": v.dark_seat,
            "houses": {
                str(sq): {"symbol": h.symbol, "name": h.name(lang), "meaning": meanings.get(sq, "")}
                for sq, h in v.houses.items()
            },
            "instrument": v.instrument.name,
            "scoring": v.scoring,
            # the counters a game of this variant can need besides the pieces borne off
            "captures": v.capture is Capture.REMOVE,
            "drowns": bool(v.squares_of(HouseKind.DROWN)),
            "hand": v.divided_throws,
            # kendall-1978: a piece in the House of Water waits there (its "pass" is a wait)
            "waitSquares": list(v.squares_of(HouseKind.WATER_WAIT)),
        },
        ensure_ascii=False,
    )


def _variants(lang: str) -> list[dict[str, Any]]:
    out = []
    for v in VARIANTS.values():
        rb = _rulebook(v.name)
        out.append(
            {"name": v.name, "title": v.title(lang), "summary": rb.summary(lang) if rb else ""}
        )
    return out


@router.get("/")
async def home(request: Request, lang: Lang) -> Any:
    return render(
        request,
        "home.html",
        variants=_variants(lang),
        levels=await players.level_options(request, lang),
        default_level=computer.default_level(),
        selected=request.query_params.get("variant", "standard"),
        **await challenges.home_box(request),
    )


@router.get("/variants")
async def variants_list() -> Any:
    """The address above every variant's page: the home page's list of variants."""
    return RedirectResponse("/#variants-h", status_code=301)


@router.get("/variants/{name}")
async def variant_page(request: Request, lang: Lang, name: str) -> Any:
    v = requested_variant(name, 404)
    if v.name != name:
        return RedirectResponse(f"/variants/{v.name}", status_code=301)
    return render(
        request,
        "variant.html",
        variant=v,
        rulebook=_rulebook(v.name),
        rows=_differences(v.name, lang),
        standard=find_variant("standard"),
        levels=await players.level_options(request, lang),
        default_level=computer.default_level(),
        variants=_variants(lang),
    )


@router.post("/games")
async def start_game(request: Request, service: Service) -> Any:
    form = await form_fields(request)
    created = await service.commands.create(
        form.get("variant", "standard"),
        form.get("mode", "friend"),
        form.get("colour", "random"),
        form.get("level") or None,
        time_control=requested_time_control(form.get("time_control")),
        listed=form.get("listed") == "1",
        public=form.get("public") == "1",
        client=lister_of(request),
    )
    await players.started(request, created.game_id, created.seats, form.get("rated") == "1")
    return to_game(request, created.game_id, created.token)


@router.get("/g/{game_id}")
async def game_page(request: Request, service: Service, lang: Lang, game_id: str) -> Any:
    token = request.cookies.get(seat_cookie(game_id))
    held = await holder(request, game_id, token)
    game = await service.queries.facts(game_id, held)
    seats = game.seats
    if not seats and game.rematch_of:
        # A player of the previous game arriving by any way (the button, the "go to the
        # rematch" link, a typed address) takes their seat; nobody else does.
        earlier = request.cookies.get(seat_cookie(game.rematch_of))
        if earlier:
            taken = await _take_rematch_seat(service, game.rematch_of, game_id, earlier)
            if taken:
                return to_game(request, game_id, taken)
    invite = game.invite
    base = str(request.base_url).rstrip("/")
    other = await service.queries.seats(game_id, request.cookies.get(other_seat_cookie(game_id)))
    response = render(
        request,
        "game.html",
        other_seat=game.seat_names(other, lang) if other and other != seats else None,
        game=game,
        variant=game.variant,
        seats=seats,
        variant_json=variant_json(game.variant.name, lang),
        houses=house_legend(game.variant.name, lang),
        invite_url=f"{base}/g/{game_id}/join/{invite}" if invite else None,
        # a seat held through the device's name has no secret here to show
        private_url=f"{base}/g/{game_id}/seat/{token}" if seats and held == token else None,
        public_url=f"{base}/g/{game_id}",
        **await players.game_players(request, game, seats),
    )
    response.headers["Cache-Control"] = "no-store"  # it may show the seat's private link
    return response


async def _take_rematch_seat(
    service: GameService, earlier_id: str, game_id: str, earlier_token: str
) -> str | None:
    """The seat secret of ``game_id`` for a player of ``earlier_id`` (the game it is the
    rematch of), if their seat there is still free; None for anyone else."""
    earlier = await service.queries.facts(earlier_id, earlier_token)
    if not earlier.seats or earlier.rematch_id != game_id:
        return None
    try:
        new_id, token = await service.commands.rematch(earlier_id, earlier_token)
    except GameError:
        return None
    return token if new_id == game_id else None


@router.get("/g/{game_id}/join/{invite}")
async def join_page(request: Request, service: Service, game_id: str, invite: str) -> Any:
    """The invitation.  Opening it in a browser takes the free seat (join.js submits the form at
    once; without JavaScript the visitor presses the button); a link preview robot that only
    GETs the page takes nothing.  A used or wrong invitation leads to the game as a spectator."""
    queries = service.queries
    game = await queries.facts(game_id, request.cookies.get(seat_cookie(game_id)))
    if game.seats or not await queries.invite_opens(game_id, invite):
        return RedirectResponse(f"/g/{game_id}", status_code=303)
    response = render(request, "join.html", game=game, variant=game.variant, seat=game.free_seat)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.post("/g/{game_id}/join/{invite}")
async def join(request: Request, service: Service, game_id: str, invite: str) -> Any:
    """Take the free seat with the invitation, once; later visitors watch."""
    if await service.queries.seats(game_id, request.cookies.get(seat_cookie(game_id))):
        # already seated (the creator testing the link, or a second tab)
        return to_game(request, game_id)
    claimed = await service.commands.claim(game_id, invite)
    return to_game(request, game_id, claimed[0] if claimed else None)


def other_seat_cookie(game_id: str) -> str:
    """The cookie of the *other* seat this device holds in a game (see :func:`private_link`)."""
    return f"senet_other_seat_{game_id}"


@router.get("/g/{game_id}/seat/{token}")
async def private_link(
    request: Request, service: Service, lang: Lang, game_id: str, token: str
) -> Any:
    """A seat's private link: brings its holder back to the seat on any device.

    A device that holds another seat of the game is never switched silently (someone may have
    sent their own link, by mistake or to take the seat away): it is asked first, shown its own
    link, and the switch (a POST from this page) keeps the seat it had reachable."""
    queries = service.queries
    game = await queries.facts(game_id, token)
    theirs = game.seats
    current = request.cookies.get(seat_cookie(game_id))
    mine = await queries.seats(game_id, current)
    if theirs and mine and mine != theirs:
        base = str(request.base_url).rstrip("/")
        response = render(
            request,
            "seat_switch.html",
            game=game,
            variant=game.variant,
            mine=game.seat_names(mine, lang),
            theirs=game.seat_names(theirs, lang),
            own_url=f"{base}/g/{game_id}/seat/{current}",
        )
        response.headers["Cache-Control"] = "no-store"
        return response
    return to_game(request, game_id, token if theirs else None)


@router.post("/g/{game_id}/seat/{token}")
async def switch_seat(request: Request, service: Service, game_id: str, token: str) -> Any:
    """Play the link's seat on this device, keeping the seat held so far as the other one."""
    queries = service.queries
    response = RedirectResponse(f"/g/{game_id}", status_code=303)
    current = request.cookies.get(seat_cookie(game_id))
    if not await queries.seats(game_id, token):
        return response
    set_seat_cookie(response, request, game_id, token)
    if current and current != token and await queries.seats(game_id, current):
        set_seat_cookie(response, request, game_id, current, other_seat_cookie(game_id))
    return response


@router.post("/g/{game_id}/other-seat")
async def to_other_seat(request: Request, service: Service, game_id: str) -> Any:
    """Swap the seat this device plays with the other one it holds."""
    queries = service.queries
    await queries.facts(game_id)  # 404 for no such game
    response = RedirectResponse(f"/g/{game_id}", status_code=303)
    current = request.cookies.get(seat_cookie(game_id))
    other = request.cookies.get(other_seat_cookie(game_id))
    if other and await queries.seats(game_id, other):
        set_seat_cookie(response, request, game_id, other)
        if current and await queries.seats(game_id, current):
            set_seat_cookie(response, request, game_id, current, other_seat_cookie(game_id))
    return response


@router.post("/g/{game_id}/rematch")
async def rematch(request: Request, service: Service, game_id: str) -> Any:
    held = await holder(request, game_id, request.cookies.get(seat_cookie(game_id)))
    new_id, token = await service.commands.rematch(game_id, held)
    return to_game(request, new_id, token)


@router.get("/g/{game_id}/review")
async def review_page(request: Request, service: Service, lang: Lang, game_id: str) -> Any:
    """The winning-chance graph of a finished game, with its mistakes marked (judged by the
    master), and a board that replays every decision with the move played and the best one."""
    queries = service.queries
    game = await queries.facts(game_id)
    review = await queries.review_ready(game_id)
    if review is None:  # not judged yet: a page that asks for it, and reloads when it is done
        return render(request, "review_wait.html", game_id=game.id)
    # the graph from the viewer's side: a player's own chance; anyone else (or one screen's two
    # players) sees the first player's, named; ?side= shows the other one
    held = await holder(request, game_id, request.cookies.get(seat_cookie(game_id)))
    seats = await queries.seats(game_id, held)
    yours = seats[0] if len(seats) == 1 else None
    asked = request.query_params.get("side")
    shown = int(asked) if asked in ("0", "1") else yours if yours is not None else 0
    return render(
        request,
        "review.html",
        game_id=game.id,
        variant=game.variant,
        variant_json=variant_json(game.variant.name, lang),
        review=review,
        replay_json=json.dumps(replay(review), separators=(",", ":")),
        outcome=game.outcome,
        termination=game.termination,
        charts=[chart(review, side=side) for side in (0, 1)],
        shown_side=shown,
        your_side=yours,
    )


@router.get("/g/{game_id}/verify")
async def verify_page(request: Request, service: Service, game_id: str) -> Any:
    """Recompute the game's throws in the browser (static/verify.js) from its record."""
    game = await service.queries.facts(game_id)
    return render(request, "verify.html", game_id=game.id, variant=game.variant)


@router.get("/g/{game_id}/record")
async def record(request: Request, service: Service, game_id: str) -> Any:
    queries = service.queries
    variant = (await queries.facts(game_id)).variant.name
    text = await queries.record(game_id, site=str(request.base_url).rstrip("/"))
    return PlainTextResponse(
        text,
        headers={"Content-Disposition": f'attachment; filename="senet-{variant}-{game_id}.txt"'},
    )


@router.get("/lang/{code}")
async def switch_lang(request: Request, code: str) -> Any:
    target = request.query_params.get("next") or "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        target = "/"  # only local redirects
    response = RedirectResponse(target, status_code=303)
    if code in LANGS:
        response.set_cookie(LANG_COOKIE, code, max_age=365 * 86400, samesite="lax")
    return response


@router.get("/healthz")
async def healthz() -> Any:
    return PlainTextResponse("ok")
