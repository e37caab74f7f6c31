"""Love Letter as a PettingZoo AEC environment: every seat is an agent, ``player_0`` … ``player_{n-1}``
(``player_k`` plays seat ``k``; seat 0 starts the first round, R3.5).

* **Actions**: ``Discrete(actions.size)``, the shared numbering of
  :func:`loveletter.encoding.actions_for` (``env.unwrapped.actions.names[i]`` is action ``i`` in
  notation). The Chancellor's choice (2019) is a decision of its own, after its draw.
* **Observations**: ``{"observation": Box(float32), "action_mask": Box(int8)}``. The vector is
  :meth:`loveletter.encoding.Observations.observation` of the agent's own
  :func:`~loveletter.engine.view` (docs/rules.md R7: nothing else goes in) — with ``history=True`` its
  information state instead (the round's plays in order added: see docs/encoding.md); the mask
  marks the legal actions of the agent whose decision it is, and is all zeros for the others.
* **Episodes**: one round (default), or with ``match=True`` a whole match: rounds follow each other
  until a seat reaches the token target (R2.3). Only the seat whose decision it is is selected; a
  seat that is out of the round is simply not selected until the episode ends (every agent
  terminates at the same step, at the end).
* **Rewards**: zero-sum, all at the end. The winners of the round (of the match, in match mode)
  share ``+1`` of the losers' ``-1/(n-1)`` each: with ``k`` winners of ``n`` seats, a winner gets
  ``(n-k)/(k(n-1))`` — ``+1`` alone, ``0`` when all won together. In one-round episodes the Spy's
  extra token (R6.4) wins nothing (it counts towards the match only).
* **Illegal actions**: :func:`env` has PettingZoo's usual wrappers: an action the mask forbids ends
  the episode, the offender getting ``-1`` and the others ``0`` (``TerminateIllegalWrapper``). The raw
  environment raises ``ValueError``.
* **Seeding**: ``reset(seed=...)`` fixes every deal of the episode and of the episodes after it
  (until the next seed); ``reset()`` without a seed continues the stream.
* **Rendering** (``"human"`` prints, ``"ansi"`` returns the text): the public table only (as a
  spectator sees it) and the last turn told in sentences, in English or Dutch (``lang="en"`` or
  ``"nl"``). There is no ``state()``: a global state
  would show the hidden cards.
* **Copies**: ``copy.deepcopy`` and ``pickle`` keep the episode where it is (the deals to come too),
  so a copy can be played ahead and thrown away. (PettingZoo's own classic games pickle only their
  settings, through ``EzPickle``, and start a copy afresh; this environment is plain Python.)

>>> from loveletter.envs.pettingzoo import env
>>> game = env(edition="2019", players=3)
>>> game.reset(seed=7)
>>> scores = dict.fromkeys(game.possible_agents, 0.0)
>>> for agent in game.agent_iter():
...     observation, reward, terminated, truncated, info = game.last()
...     scores[agent] += reward
...     if terminated or truncated:
...         action = None
...     else:  # the first legal action
...         action = int(observation["action_mask"].argmax())
...     game.step(action)
>>> scores  # one round: its winner gets 1, the others share -1
{'player_0': -0.5, 'player_1': 1.0, 'player_2': -0.5}
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np

from loveletter.extras import missing_extra

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as missing:
    raise missing_extra("pettingzoo", missing) from None

from loveletter.encoding import Actions, Observations, actions_for, observations_for, shares
from loveletter.engine import Edition, Match, edition_named, view
from loveletter.engine.errors import check_seed
from loveletter.envs._shared import (
    check_settings,
    describe,
    shown,
    vector_high,
    vector_of,
)
from loveletter.i18n import Translator

ObsDict = dict[str, np.ndarray[Any, Any]]

#: What the illegal-move wrapper gives the seat that made one (the others get 0).
ILLEGAL_REWARD = -1.0


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's standard wrappers (as in its classic games): an illegal
    action ends the episode with ``-1`` for its agent, an action that is no whole number is a
    ``TypeError``, and one out of range, or ``None`` from an agent to move, a ``ValueError``, as in
    :class:`raw_env`, and methods called out
    of order (``step`` before ``reset``) are refused. ``kwargs`` go to
    :class:`raw_env`."""
    game: Any = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=ILLEGAL_REWARD)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    game = _OrderEnforcing(game)
    return game


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # (an untyped base)
    """PettingZoo's wrapper, and ``last()`` or ``step()`` after the episode and an action that is no
    whole number, or out of range, refused in words as :class:`raw_env` refuses them: the wrapper's own
    ``last()`` reads the agent's entries itself (a KeyError), its ``step()`` only warned and did
    nothing, whatever the action, the illegal-move wrapper indexed the mask with ``True`` (numpy's
    "truth value of an array is ambiguous"), and the out-of-bounds wrapper's assertion said no more
    than "action is not in action space"."""

    def step(self, action: int | np.integer[Any] | None) -> None:
        self._going_on()
        if action is None:  # (the out-of-bounds wrapper's bare assertion otherwise)
            self.unwrapped._none_refused()
        else:
            self.unwrapped.actions.numbered(action)  # a TypeError unless a whole number, a ValueError out of range
        super().step(action)

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        self._going_on()
        return super().last(observe)  # type: ignore[no-any-return]

    def _going_on(self) -> None:
        """Refused once the episode is over, as :class:`raw_env` refuses it (before reset, the
        wrapper's own refusal stands)."""
        if self.unwrapped.match is not None:
            self.unwrapped._going_on()


def _none_refusal(agent: str) -> ValueError:
    return ValueError(f"{agent} must choose an action: None is only for agents whose episode is over")


class raw_env(AECEnv):  # type: ignore[misc]  # (AECEnv is untyped: an Any base)
    """The unwrapped environment (see the module's documentation; :func:`env` wraps it).

    ``edition``: ``"classic"`` (2 to 4 players) or ``"2019"`` (2 to 6); ``players``: the number of seats;
    ``match``: play a whole match per episode instead of one round.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "love_letter_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        edition: Edition | str = "classic",
        players: int = 2,
        match: bool = False,
        render_mode: str | None = None,
        lang: str = "en",
        history: bool = False,
    ) -> None:
        check_settings(players, match=match, history=history)
        self.history = history
        super().__init__()
        self.translator = Translator(lang)
        self.edition = edition_named(edition)
        self.edition.check_players(players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render mode {render_mode!r}: choose human or ansi")
        self.players = players
        self.play_match = match
        self.render_mode = render_mode
        self.actions: Actions = actions_for(self.edition, players)
        self.observations: Observations = observations_for(self.edition, players)
        self.target = self.edition.default_target(players)

        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        high = vector_high(self.observations, self.target, history)
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.actions.size,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents}
        # Deals come from this generator; reset(seed=...) replaces it, reset() continues it.
        self._dealer: random.Random | None = None
        self.match: Match | None = None

    # ------------------------------------------------------------------------------ the spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self._known(agent)]

    def _known(self, agent: str) -> str:
        """``agent``, one of the possible agents; else a ``ValueError`` that names them (a missing
        key failed as a bare KeyError, and ``list.index`` said "'bogus' is not in list")."""
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}")
        return agent

    # ------------------------------------------------------------------------------ the episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode. ``options`` are ignored: there are none (PettingZoo's own API test resets
        with ``options={"options": 1}``, which an environment must take)."""
        seed = check_seed(seed)
        if seed is not None:
            self._dealer = random.Random(seed)
        elif self._dealer is None:
            self._dealer = random.Random()
        self.match = Match(self.edition, self.players, seed=self._dealer.randrange(2**63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.match.current]
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        self._going_on()
        return super().last(observe)  # type: ignore[no-any-return]

    def observe(self, agent: str) -> ObsDict:
        """``agent``'s observation, from its seat's view only (R7)."""
        v = view(self._match(), self.possible_agents.index(self._known(agent)))
        return {
            "observation": vector_of(self.observations, v, self.history),
            "action_mask": self.actions.mask(v.legal_actions),  # empty unless it is v.seat's decision
        }

    def step(self, action: int | np.integer[Any] | None) -> None:
        match = self._going_on()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise _none_refusal(agent)
        chosen = self.actions.action(action, match.legal_actions())  # TypeError if no number, ValueError if illegal
        self._cumulative_rewards[agent] = 0.0  # last() has handed them out
        self._clear_rewards()
        match.apply(chosen)
        if match.round.over:
            if self.play_match and not match.over:
                match.next_round()
            else:
                self._finish(match)
        self.agent_selection = self.possible_agents[match.current]
        if self.render_mode == "human":
            self.render()

    def _none_refused(self) -> None:
        """Refuses the action ``None`` of the agent to move, unless its episode is over (or, before
        reset, leaves it to be refused as any step then is)."""
        if self.match is None:
            return
        agent = self.agent_selection
        if not (self.terminations[agent] or self.truncations[agent]):
            raise _none_refusal(agent)

    def _finish(self, match: Match) -> None:
        winners = match.winners if self.play_match else match.round.winners
        for agent, reward in zip(self.possible_agents, shares(winners, self.players), strict=True):
            self.rewards[agent] = reward
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() first")
        return self.match

    def _going_on(self) -> Match:
        """The match, for a step or ``last()``; refused before :meth:`reset`, or once every agent has
        left the episode (they failed as a KeyError of the last agent)."""
        match = self._match()
        if not self.agents:
            raise RuntimeError("the episode is over: call reset()")
        return match

    # ------------------------------------------------------------------------------ rendering

    def render(self) -> str | None:
        """The public table as text (no hidden card: R7). ``"ansi"`` returns it, ``"human"`` prints it."""
        return shown(self.render_mode, lambda: describe(view(self._match(), None), self.possible_agents,
                                                       self.translator))

    def close(self) -> None:
        pass
