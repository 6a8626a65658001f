"""Every name the templates use besides a page's own context, registered in one place: the
static files' versioned URLs, the words of variants, levels, time controls, challenges and
ratings, the rule texts and diagrams, the review's words and the quick chat's phrases.

The application calls :func:`register` once, on the templates it renders with."""

from __future__ import annotations

from jinja2 import Environment

from senet.service.challenges import ChallengeStatus
from senet.service.chat import PHRASES

from .i18n import percent
from .render.diagrams import mistake_board, rule_diagrams
from .render.move_words import review_words
from .routes import challenges, lobby, pages, players, stats

__all__ = ["register"]


def register(env: Environment, static_version: str) -> None:
    """Give the templates of ``env`` their shared names; static files are served under
    ``/static/v/<static_version>/`` (see :func:`senet.web.app.static_version`)."""
    env.globals.update(
        {
            "static": lambda name: f"/static/v/{static_version}/{name}",
            # the rules, their diagrams and how each variant plays
            "rule_diagrams": rule_diagrams,
            "mistake_board": mistake_board,
            "how_it_plays": stats.how_it_plays,
            "clause_label": pages.clause_label,
            "rule_text": pages.rule_text,
            # numbers and moves in words
            "percent": percent,
            "review_words": review_words,
            "signed": players.signed,
            "level_name": players.level_name,
            # time controls and variants (the start forms, the lobby)
            "time_control_options": lobby.time_control_options,
            "time_control_groups": lobby.time_control_groups,
            "time_control_label": lobby.time_control_label,
            "variant_title": lobby.variant_title,
            "lobby_variant_titles": lobby.variant_titles,
            # challenges and the game page's quick chat
            "chat_phrases": PHRASES,
            "challenge_status": challenges.status_text,
            "ChallengeStatus": ChallengeStatus,
        }
    )
