"""One seat against a built-in level of :mod:`senet.ai`, as a Gymnasium environment.

>>> from senet.env.single import SenetVsLevel
>>> env = SenetVsLevel(variant="standard", level="beginner")
>>> observation, info = env.reset(seed=7)
>>> sorted(observation), observation["observation"].shape
(['action_mask', 'observation'], (115,))

or ``gymnasium.make("senet/SenetVsLevel-v0", variant="bell", level="expert")`` once this module
is imported.

The learner plays ``seat`` (0 = A, who moves first; 1 = B; None: drawn at each reset); the
level answers at once inside :meth:`step`, and chance is thrown from the reset's seed, so the
learner only ever sees its own decisions.  Observations and actions are those of
:mod:`senet.env.encoding` (the ``action_mask`` marks the legal actions); the reward is +1 for a
win and −1 for a loss when the game ends (0 for a draw), and a game longer than ``max_moves``
of the learner's decisions is truncated.  An illegal action loses the game (reward −1, the
episode ends, ``info["illegal"]`` says why; the position is left as it was), as PettingZoo's
classic games do and as Gymnasium's checker expects of an action sampled without its mask;
with ``strict=True`` it raises ValueError instead.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from senet.engine import Position, draw_throw, find_variant

from .encoding import ACTIONS, OBSERVATION_SIZE, action_mask, move_of, observation
from .senet_v0 import RENDER_MODES, render_text

__all__ = ["ENV_ID", "SenetVsLevel"]

#: the id under which ``gymnasium.make`` builds it (registered when this module is imported)
ENV_ID = "senet/SenetVsLevel-v0"


class SenetVsLevel(gymnasium.Env):
    """A game of ``variant`` against ``level`` (``beginner`` ... ``master``)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(
        self,
        variant: str = "standard",
        level: str = "beginner",
        seat: int | None = None,
        render_mode: str | None = None,
        max_moves: int = 1500,
        strict: bool = False,
    ) -> None:
        from senet.ai import find_level

        if seat not in (0, 1, None):
            raise ValueError("seat is 0 (A), 1 (B) or None (drawn at each reset)")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {', '.join(RENDER_MODES)} or None")
        self.variant = find_variant(variant)
        self.level = find_level(level)
        self.fixed_seat = seat
        self.seat = seat or 0
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.strict = strict
        self.lost = False
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(ACTIONS)
        self.position = Position.initial(self.variant)
        self._throws = random.Random()
        self._choices = random.Random()
        self.moves = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        draw = self.np_random.integers(0, 2**63 - 1, size=3)
        self._throws = random.Random(int(draw[0]))
        self._choices = random.Random(int(draw[1]))
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(draw[2] % 2)
        self.moves = 0
        self.lost = False
        self.position = self._advance(Position.initial(self.variant))
        return self._observe(), {"seat": self.seat}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.lost or self.position.decider != self.seat:
            raise ValueError("the game is over: call reset()")
        move = move_of(int(action))
        legal = self.position.legal_moves()
        if move not in legal:
            why = f"action {action} ({move.text()}) is not legal; legal: " + ", ".join(
                m.text() for m in legal
            )
            if self.strict:
                raise ValueError(why)
            self.lost = True  # the position stays as it was; the episode is over
            return self._observe(), -1.0, True, False, {"seat": self.seat, "illegal": why}
        self.position = self._advance(self.position.apply(move))
        self.moves += 1
        outcome = self.position.outcome()
        reward = 0.0
        if outcome is not None and outcome.winner is not None:
            reward = 1.0 if outcome.winner == self.seat else -1.0
        truncated = outcome is None and self.moves >= self.max_moves
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, outcome is not None, truncated, {"seat": self.seat}

    def _advance(self, position: Position) -> Position:
        """Throw and let the level play until the learner decides or the game is over."""
        from senet.ai import choose_move

        while not position.is_over():
            if position.is_chance():
                position = position.apply_throw(draw_throw(self._throws, self.variant.instrument))
            elif position.decider != self.seat:
                position = position.apply(choose_move(position, self.level, self._choices))
            else:
                break
        return position

    def _observe(self) -> dict[str, np.ndarray]:
        mask = (
            action_mask(self.position)
            if self.position.decider == self.seat and not self.lost
            else np.zeros(ACTIONS, dtype=np.int8)
        )
        return {"observation": observation(self.position, self.seat), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_text(self.position)
        if self.render_mode == "human":
            print(text)
            return None
        return text


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="senet.env.single:SenetVsLevel")
