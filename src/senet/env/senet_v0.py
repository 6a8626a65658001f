"""Senet as a PettingZoo AEC environment: ``env(variant=..., render_mode=...)`` and ``raw_env``.

>>> from senet.env import senet_v0
>>> game = senet_v0.env(variant="kendall-1978")
>>> game.reset(seed=1)
>>> observation, reward, termination, truncation, info = game.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
((115,), True)

Two agents, ``player_0`` (seat A, who moves first) and ``player_1`` (seat B).  The agent
selected is the one whose decision is due (not always the seat on turn: the Kendall House of
Water choice may fall to the other, and a seat often decides several times running).  Chance
is inside the environment: after every decision it throws, from a generator seeded by
``reset(seed=...)``, until a decision is due or the game is over.  Observations are a dict of
``observation`` (:func:`senet.env.encoding.observation`, 115 numbers in [0, 1] seen from the
observing seat) and ``action_mask`` (1 at every legal action, only for the agent selected);
actions are :mod:`senet.env.encoding`'s numbers.  The reward is +1 to the winner and −1 to the
loser when the game ends (0 each for a draw); a game still running after ``max_moves``
decisions is truncated.  An illegal action raises ValueError in ``raw_env``; ``env()`` wraps it
as PettingZoo's classic games are (an illegal action loses the game, −1).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from senet.engine import Position, draw_throw, find_variant

from .encoding import ACTIONS, OBSERVATION_SIZE, action_mask, move_of, observation

__all__ = ["env", "raw_env", "AGENTS", "render_text"]

AGENTS = ("player_0", "player_1")
RENDER_MODES = ("human", "ansi")


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (an illegal action loses at once)."""
    game: AECEnv = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    game = wrappers.OrderEnforcingWrapper(game)
    return game


class raw_env(AECEnv):  # PettingZoo's name for the unwrapped class
    """The unwrapped AEC environment of one variant."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "senet_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self, variant: str = "standard", render_mode: str | None = None, max_moves: int = 3000
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {', '.join(RENDER_MODES)} or None")
        self.variant = find_variant(variant)
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {
            agent: observation_space if i == 0 else _copy(observation_space)
            for i, agent in enumerate(AGENTS)
        }
        self.action_spaces = {agent: spaces.Discrete(ACTIONS) for agent in AGENTS}
        self._throws = random.Random()
        self.position = Position.initial(self.variant)
        self.moves = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the game
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._throws = random.Random(seed)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.moves = 0
        self.position = self._throw_until_decision(Position.initial(self.variant))
        self._settle()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = move_of(int(action))  # type: ignore[arg-type]
        if move not in self.position.legal_moves():
            legal = ", ".join(m.text() for m in self.position.legal_moves())
            raise ValueError(f"action {action} ({move.text()}) is not legal; legal: {legal}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.position = self._throw_until_decision(self.position.apply(move))
        self.moves += 1
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _throw_until_decision(self, position: Position) -> Position:
        while position.is_chance():
            position = position.apply_throw(draw_throw(self._throws, self.variant.instrument))
        return position

    def _settle(self) -> None:
        """Rewards, ends and the agent selected, from the position."""
        outcome = self.position.outcome()
        if outcome is not None:
            for seat, agent in enumerate(AGENTS):
                if outcome.winner is not None:
                    self.rewards[agent] = 1.0 if outcome.winner == seat else -1.0
                self.terminations[agent] = True
            self.agent_selection = AGENTS[self.position.turn]
            return
        if self.moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        decider = self.position.decider
        if decider is None:
            raise RuntimeError("no seat decides in a position that is neither over nor chance")
        self.agent_selection = AGENTS[decider]

    # ------------------------------------------------------------------ seeing it
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        mask = (
            action_mask(self.position)
            if agent == self.agent_selection and not self.position.is_over()
            else np.zeros(ACTIONS, dtype=np.int8)
        )
        return {"observation": observation(self.position, seat), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_text(self.position)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _copy(space: spaces.Dict) -> spaces.Dict:
    """A space of its own per agent (seeding one must not seed the other)."""
    return spaces.Dict({key: _box_like(value) for key, value in space.spaces.items()})


def _box_like(box: spaces.Space) -> spaces.Box:
    if not isinstance(box, spaces.Box):
        raise TypeError(f"an observation space of boxes, not {type(box).__name__}")
    return spaces.Box(box.low, box.high, box.shape, box.dtype)


def render_text(position: Position) -> str:
    """The board as three rows in the order of the real board (row 2 runs right to left), then
    the position's notation."""

    def cell(square: int) -> str:
        owner = position.owner(square)
        return "." if owner is None else "AB"[owner]

    rows = [range(1, 11), range(20, 10, -1), range(21, 31)]
    board = "\n".join(" ".join(cell(sq) for sq in row) for row in rows)
    return f"{board}\n{position.fen()}"
