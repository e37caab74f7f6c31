"""Love Letter as a Gymnasium environment: the learner plays one seat, bots play the others.

Importing this module registers it as ``loveletter/LoveLetter-v0`` (``gymnasium.make`` passes the
keyword arguments of :class:`LoveLetterEnv` on).

* **Actions**: ``Discrete(actions.size)``, the shared numbering of
  :func:`loveletter.encoding.actions_for` (``env.unwrapped.actions.names[i]`` is action ``i`` in
  notation). ``info["action_mask"]`` (``int8``, 1 = legal) comes with every observation, all zeros
  once the episode is over.
* **Observations**: ``Box(float32)``, :meth:`loveletter.encoding.Observations.observation` of the
  learner's own :func:`~loveletter.engine.view` (docs/rules.md R7: nothing else goes in); with
  ``history=True`` its information state instead (the round's plays in order added: see
  docs/encoding.md).
* **Opponents**: a bot level for every other seat (``"random"``, ``"beginner"``, ``"expert"``; see
  :func:`loveletter.bots.make_bot`), or one level for all. Listed in turn order after the learner:
  ``opponents[i]`` plays seat ``(seat + 1 + i) % players`` (so a sequence: a set has no order).
  ``budget`` is the expert's thinking budget (iterations, 1 to :data:`~loveletter.bots.MAX_BUDGET`), refused where no
  opponent is an expert. The bots move between the learner's decisions, seeing their own views only.
* **Seat**: the learner's seat, ``0`` by default (seat 0 starts the first round, R3.5), or
  ``"random"``: a new seat each episode, drawn from the environment's seed. ``info["seat"]`` says it.
* **Episodes**: one round (default), or with ``match=True`` a whole match, until a seat reaches the
  token target (R2.3). In one-round episodes the episode ends as soon as the learner is out of the
  round (the rest would not change its reward). When the episode is decided before the learner's
  first turn (possible only when it does not start: mostly it is knocked out, and now and then the
  others all are, say by a Baron that lost), ``reset()`` already says so — ``info["outcome"]`` is
  ``"loss"``, or ``"win"``, and the mask offers action 0 alone — and the first step, whatever its
  action in the action space, ends the episode with that reward: such rounds count, so win rates are
  not biased.
* **Rewards**, at the end only: ``-1`` for a loss; a win shared by ``k`` of the ``n`` seats gives
  ``(n-k)/(k(n-1))`` — ``+1`` alone, ``0`` when all won together (the winner's share of the
  zero-sum rewards of :mod:`loveletter.envs.pettingzoo`). One-round episodes are won by the round's
  winners; the Spy's extra token (R6.4) counts in match mode only. ``info["outcome"]`` says
  ``"win"``, ``"shared win"``, ``"loss"`` or ``"illegal action"``.
* **Illegal actions**: with ``illegal="lose"`` (the default, what Gymnasium's ``check_env`` expects
  when it steps random actions) an action the mask forbids ends the episode with a reward of ``-1``
  and ``info["illegal_action"]`` set to it; with ``illegal="raise"`` it raises a ``ValueError``
  naming the action and the legal ones, and nothing changes. A number that is no action at all
  (outside the action space) raises a ``ValueError`` either way, as the other adapters do.
* **Seeding**: ``reset(seed=...)`` fixes the deals, the learner's seat and the bots' choices of
  that episode and of the ones after it (until the next seed).
* **Rendering** (``"human"`` prints, ``"ansi"`` returns the text): the table as the learner may see
  it (its own hand, what it knows; never another seat's hidden card) and the last turn in sentences,
  in English or Dutch (``lang="en"`` or ``"nl"``).

>>> import gymnasium
>>> import loveletter.envs.gymnasium
>>> game = gymnasium.make("loveletter/LoveLetter-v0", players=3, opponents="random")
>>> observation, info = game.reset(seed=5)
>>> done = False
>>> while not done:  # the first legal action, every time
...     observation, reward, terminated, truncated, info = game.step(int(info["action_mask"].argmax()))
...     done = terminated or truncated
>>> info["outcome"] in ("win", "shared win", "loss")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from loveletter.extras import missing_extra

try:
    import gymnasium
    from gymnasium import spaces
except ModuleNotFoundError as missing:
    raise missing_extra("gymnasium", missing) from None

from loveletter.bots import LEVELS, SEARCHING, Bot, make_bot
from loveletter.bots.expert import check_budget
from loveletter.encoding import (
    Actions,
    Observations,
    Vector,
    actions_for,
    observations_for,
    shares,
)
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

ENV_ID = "loveletter/LoveLetter-v0"

#: The reward for an action the mask forbids (with ``illegal="lose"``).
ILLEGAL_REWARD = -1.0
LOSS_REWARD = -1.0

# Seeds for the deals and the bots are drawn below this bound from the environment's generator.
_SEEDS = 2**62


class LoveLetterEnv(gymnasium.Env[Vector, np.int64]):
    """One seat of Love Letter against bots (see the module's documentation).

    ``edition``: ``"classic"`` (2 to 4 players) or ``"2019"`` (2 to 6); ``players``: the number of seats;
    ``opponents``: a bot level, or one per other seat in turn order after the learner; ``seat``: the
    learner's seat or ``"random"``; ``match``: a whole match per episode instead of one round;
    ``budget``: the expert bots' iterations per decision, at most :data:`~loveletter.bots.MAX_BUDGET` (``None``: their default);
    ``illegal``: ``"lose"`` or ``"raise"``.
    """

    # A class attribute (gymnasium.make reads the class's), typed as gymnasium.Env declares it.
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        edition: Edition | str = "classic",
        players: int = 2,
        opponents: str | Sequence[str] = "beginner",
        seat: int | Literal["random"] = 0,
        match: bool = False,
        budget: int | None = None,
        illegal: Literal["lose", "raise"] = "lose",
        render_mode: str | None = None,
        lang: str = "en",
        history: bool = False,
    ) -> None:
        self.translator = Translator(lang)
        check_settings(players, match=match, history=history)
        check_budget(budget)  # refused here, not at reset
        self.history = history
        self.edition = edition_named(edition)
        self.edition.check_players(players)
        self.players = players
        if isinstance(opponents, str):
            levels = [opponents] * (players - 1)
        elif isinstance(opponents, Sequence | np.ndarray) and all(isinstance(level, str) for level in opponents):
            levels = [str(level) for level in opponents]
        else:  # a set's order, so which seat gets which bot, changed with the hash seed; None failed bare
            raise TypeError("opponents must be a bot level or a sequence of levels in turn order (a list, a tuple"
                            f" or an array), not {opponents!r}")
        if len(levels) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, not {len(levels)}: {levels}")
        for level in levels:
            if level not in LEVELS:
                raise ValueError(f"unknown bot level {level!r}: choose {', '.join(LEVELS)}")
        if budget is not None and not SEARCHING & set(levels):  # it would be ignored without a word
            raise ValueError(f"budget: no opponent here thinks with a budget (only {', '.join(sorted(SEARCHING))})")
        self.opponents: tuple[str, ...] = tuple(levels)
        if seat != "random" and not (isinstance(seat, int | np.integer) and not isinstance(seat, bool)
                                     and 0 <= seat < players):
            raise ValueError(f"the learner's seat must be 0 to {players - 1} or 'random', not {seat!r}")
        self.seat_choice = seat if seat == "random" else int(seat)  # (a numpy seat: was taken as seat 0)
        self.play_match = match
        self.budget = budget
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        self.illegal = illegal
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render mode {render_mode!r}: choose human or ansi")
        self.render_mode = render_mode

        self.actions: Actions = actions_for(self.edition, players)
        self.observations: Observations = observations_for(self.edition, players)
        self.target = self.edition.default_target(players)
        self.observation_space = spaces.Box(
            low=0.0, high=vector_high(self.observations, self.target, history), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.actions.size)
        self.names = [f"player_{s}" for s in range(players)]

        self.match: Match | None = None
        self.seat = self.seat_choice if isinstance(self.seat_choice, int) else 0  # the learner's seat this episode
        self.bots: dict[int, Bot] = {}
        self._outcome: str | None = None  # set when the episode is over
        self._decided_before_playing = False  # before the first turn: the next step ends the episode

    # ------------------------------------------------------------------------------ the episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        seed = check_seed(seed)  # (Gymnasium's seeding played True as seed 1, and refused numpy's 3)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"reset options are a dict, not {type(options).__name__}")
        if options:  # ({"seat": 2} was ignored without a word; Gymnasium's checker gives {})
            raise ValueError(f"this environment takes no reset options, not {', '.join(map(repr, options))}"
                             " (the edition, players, opponents and seat are chosen when it is made)")
        super().reset(seed=seed)
        self._deal()
        self._play_others()
        self._decided_before_playing = self._outcome is not None
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        stepped = self._step(action)
        if self.render_mode == "human":  # (at every step, an illegal action's last too, as after reset)
            self.render()
        return stepped

    def _step(self, action: np.int64 | int) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        match = self._match()
        if self._outcome is not None and not self._decided_before_playing:
            raise RuntimeError("the episode is over: call reset()")
        number = self.actions.numbered(action)  # (no action at all: refused, as the other adapters refuse it)
        if self._decided_before_playing:  # before the first turn: this step, any action, only reports it
            self._decided_before_playing = False
            return self._observation(), self._reward(), True, False, self._info()
        legal = match.legal_actions()
        try:
            chosen = self.actions.action(number, legal)
        except ValueError as refused:  # not legal now
            if self.illegal == "raise":
                raise ValueError(f"{refused}; the legal actions are: {self._legal_named(legal)}") from None
            self._outcome = "illegal action"
            info = self._info()
            info["illegal_action"] = number
            return self._observation(), ILLEGAL_REWARD, True, False, info
        match.apply(chosen)
        self._play_others()
        reward = 0.0 if self._outcome is None else self._reward()
        return self._observation(), reward, self._outcome is not None, False, self._info()

    def _deal(self) -> None:
        """A new match and new bots, all seeded from the environment's generator."""
        rng = self.np_random
        if self.seat_choice == "random":
            self.seat = int(rng.integers(self.players))
        self.match = Match(self.edition, self.players, seed=int(rng.integers(_SEEDS)))
        self.bots = {
            (self.seat + 1 + i) % self.players: make_bot(level, int(rng.integers(_SEEDS)), self.budget)
            for i, level in enumerate(self.opponents)
        }
        self._outcome = None

    def _play_others(self) -> None:
        """The bots move until it is the learner's decision or the episode is over."""
        match = self._match()
        while True:
            if match.round.over:
                if self.play_match and not match.over:
                    match.next_round()
                    continue
                winners = match.winners if self.play_match else match.round.winners
                if self.seat not in winners:
                    self._outcome = "loss"
                else:
                    self._outcome = "win" if len(winners) == 1 else "shared win"
                return
            if not self.play_match and not match.round.is_alive(self.seat):
                self._outcome = "loss"  # decided already: the rest of the round is not played
                return
            current = match.current
            if current == self.seat:
                return
            shown = match if self.play_match else match.round  # one round: the bots play for it alone
            match.apply(self.bots[current].choose(view(shown, current)))

    def _reward(self) -> float:
        if self._outcome == "loss":
            return LOSS_REWARD
        match = self._match()
        winners = match.winners if self.play_match else match.round.winners
        return shares(winners, self.players)[self.seat]

    def _observation(self) -> Vector:
        """The learner's observation, from its seat's view only (R7)."""
        return vector_of(self.observations, view(self._match(), self.seat), self.history)

    def action_mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action of the learner now (all 0 once the episode is over; action 0
        alone when the episode was decided before the learner's first turn and a step must report it)."""
        if self._outcome is not None:
            mask = np.zeros(self.actions.size, dtype=np.int8)
            mask[0] = self._decided_before_playing
            return mask
        return self.actions.mask(view(self._match(), self.seat).legal_actions)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_mask(), "seat": self.seat}
        if self._outcome is not None:
            info["outcome"] = self._outcome
        return info

    def _legal_named(self, legal: Sequence[Any]) -> str:
        """The ``legal`` actions, each by its number and name."""
        names = self.actions.names
        return ", ".join(f"{n} ({names[n]})" for n in self.actions.numbers(legal))

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() first")
        return self.match

    # ------------------------------------------------------------------------------ rendering

    def render(self) -> str | None:
        """The table as the learner sees it (R7). ``"ansi"`` returns the text, ``"human"`` prints it."""
        you = self.translator("you")
        names = [f"{name} ({you})" if s == self.seat else name for s, name in enumerate(self.names)]
        return shown(self.render_mode, lambda: describe(view(self._match(), self.seat), names, self.translator))


if ENV_ID not in gymnasium.registry:  # importing twice (or reloading) must not register twice
    gymnasium.register(id=ENV_ID, entry_point="loveletter.envs.gymnasium:LoveLetterEnv")
