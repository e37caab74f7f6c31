"""Love Letter as an OpenSpiel game: ``python_love_letter`` (the ``openspiel`` extra: ``pip install -e ".[openspiel]"``).

>>> import pyspiel
>>> import loveletter.envs.openspiel  # registers the game
>>> game = pyspiel.load_game("python_love_letter(players=3,edition=v2019)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 148, 10)

Parameters: ``players`` (2 by default), ``edition`` (``"classic"``, or ``"v2019"`` — in a parameter
dict ``"2019"`` works too; OpenSpiel's game strings would read 2019 as a number) and ``match``
(``False``: the game is one round; ``True``: rounds until a player has the edition's token target).

**Chance is explicit.** Every card that comes off the deck is a chance node whose outcomes are the
cards still in the unseen part of the deck, each with probability (copies left) / (cards left): first
the set-aside card, the face-up cards (two players), the deal in turn order from the starter and the
starter's draw; then, during play, the top two cards of the deck are always decided just after they
become the top two (a chance node after every move that drew from the deck), so every draw — the
next turn's, a Prince's, a Chancellor's two — finds its card decided. Cards a Chancellor puts under
the deck are not chance: they are known to the one who put them there and come back in order.
Chance outcomes are card numbers (0 Spy, 1 Guard, …, 9 Princess); player actions use the shared
numbering of :mod:`loveletter.encoding`.

**Returns** (zero-sum): the round's winners (match: the match's) share the pot — each of ``k``
winners of ``n`` players gets ``(n - k) / (k (n - 1))``, each other player ``-1 / (n - 1)``; with
one winner that is +1 and -1/(n-1). In a one-round game the Spy's token (R6.4) does not count.

**Information.** Observation and information state come as strings and as tensors, all built from
the seat's :class:`~loveletter.engine.View` only (see :mod:`loveletter.encoding` for the tensor
layouts). :meth:`LoveLetterState.resample_from_infostate` draws the hidden cards from the seat's
:class:`~loveletter.bots.belief.Belief` (every deal consistent with what the seat has seen, weighted
by how many shuffles lead to it: exact in the classic edition and in two-player 2019 games; with
three or four 2019 players exact until a Chancellor is played, and with five or six a resampled
approximation from the deal), so OpenSpiel's
information-set MCTS can play.

**Records.** ``loveletter.record.to_record(state.match, names)`` writes the game played so far as a
game record that replays as it was played (docs/record.md); a resampled state, one world of many
rather than a deal, is refused.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from loveletter.extras import missing_extra

try:
    import pyspiel
except ModuleNotFoundError as missing:
    raise missing_extra("openspiel", missing) from None

from loveletter.bots.belief import Belief
from loveletter.encoding import action_number, actions_for, max_plays, observations_for, shares
from loveletter.engine import Card, Edition, Event, Match, Phase, Round, View, edition_named, view
from loveletter.engine.errors import check_true_or_false, check_whole, either

SHORT_NAME = "python_love_letter"
_MAX_PLAYERS = max(edition.max_players for edition in (edition_named("classic"), edition_named("2019")))
LOOKAHEAD = 2  # the most cards one move draws from the deck (a Prince's and the next turn's; a Chancellor's)

_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)

# OpenSpiel's game strings read ``edition=2019`` as a number, so the 2019 edition's parameter value
# is ``v2019`` there (``"2019"`` is accepted in a parameter dict and stored as ``v2019``).
_EDITION_NAMES = {"classic": "classic", "2019": "2019", "v2019": "2019"}
_OPENSPIEL_NAMES = {"classic": "classic", "2019": "v2019"}

#: The game's parameters and their defaults.
_DEFAULTS: dict[str, Any] = {"players": 2, "edition": "classic", "match": False}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Love Letter",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class LoveLetterGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one set of parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        unknown = sorted(set(params) - _DEFAULTS.keys(), key=str)
        if unknown:  # (pyspiel.load_game refuses them; built directly, "playres" was taken without a word)
            raise ValueError(f"unknown parameter {unknown[0]!r}: the parameters are {either(list(_DEFAULTS), 'and')}")
        players, asked, whole_match = params["players"], params["edition"], params["match"]
        # pyspiel.load_game checks the types; built directly, "false" played whole matches and 2.7 two players
        # (as envs._shared.check_settings, which needs gymnasium: loveletter[openspiel] goes without it)
        check_whole("players", players)
        check_true_or_false("match", whole_match)
        if not isinstance(asked, str) or asked not in _EDITION_NAMES:
            raise ValueError(f"unknown edition {asked!r}: choose classic or v2019")
        edition = edition_named(_EDITION_NAMES[asked])
        edition.check_players(players)
        # as pyspiel keeps them (it took a numpy number for a list: "not iterable")
        params.update(players=int(players), edition=_OPENSPIEL_NAMES[edition.name], match=bool(whole_match))
        self.edition: Edition = edition
        self.players = int(players)
        self.whole_match = bool(whole_match)
        self.actions = actions_for(edition, players)
        round_length = 2 * max_plays(edition)  # a play, and a Chancellor's choice at most, per card
        rounds = players * (edition.default_target(players) - 1) + 1 if self.whole_match else 1
        worst = -1.0 / (players - 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.size,
            max_chance_outcomes=len(Card),
            num_players=players,
            min_utility=worst,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=round_length * rounds,
        )
        super().__init__(_GAME_TYPE, info, params)

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel copies and pickles a game by its C++ half alone, which never runs __init__: the copy
        # had no edition and could start no game. It is built again from its parameters instead.
        return LoveLetterGame, (self.get_parameters(),)

    def new_initial_state(self) -> LoveLetterState:
        return LoveLetterState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> LoveLetterObserver:
        if params:
            raise ValueError(f"observer parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info
        ):
            raise ValueError("only a seat's own observation is provided (its private and the public information)")
        return LoveLetterObserver(self, perfect_recall)


class LoveLetterState(pyspiel.State):  # type: ignore[misc]
    """A state: a match of the engine, with the deck's chance handled as described above."""

    def __init__(self, game: LoveLetterGame) -> None:
        super().__init__(game)
        self.edition = game.edition
        self.players = game.players
        self.whole_match = game.whole_match
        self.match: Match | None = None
        self.dealing: list[Card] = []  # the next round's first cards, drawn one chance node at a time
        self.random_left = 0  # cards at the top of the deck that are still a uniform shuffle
        self.decided = 0  # of those, how many (from the top) chance has decided already
        self.resampled_for: int | None = None
        self.hands_at_resample: tuple[tuple[Card, ...], ...] = ()
        self.beliefs = _Beliefs()

    def apply_action(self, action: object) -> None:
        """OpenSpiel's, an action that is no whole number refused in words as the other adapters
        refuse it (a TypeError): pybind11 took ``True``, numpy's too, and an array of ``1.0`` as action
        1; and -1 (OpenSpiel's "invalid action") as no action, where OpenSpiel's own check said so in
        two lines of its C++."""
        number = action_number(action)
        if number < 0:
            raise ValueError(f"there is no action {number}: actions are numbered from 0")
        super().apply_action(number)

    def apply_action_with_legality_check(self, action: object) -> None:
        """:meth:`apply_action`, which refuses an illegal action itself, in words: OpenSpiel's own
        check wrote the whole state into its error, every hand and the deck among it (R7)."""
        self.apply_action(action)

    def child(self, action: object) -> LoveLetterState:
        """A copy with ``action`` applied, refused as :meth:`apply_action` refuses it."""
        state: LoveLetterState = self.clone()
        state.apply_action(action)
        return state

    # ------------------------------------------------------------------ whose move

    @property
    def round(self) -> Round | None:
        return self.match.round if self.match is not None else None

    def _setup_size(self) -> int:
        return 1 + (3 if self.players == 2 else 0) + self.players + 1

    def _dealing(self) -> bool:
        match = self.match
        if match is None:
            return True
        return match.round.over and self.whole_match and not match.over

    def current_player(self) -> int:
        match = self.match
        if match is None:
            return _CHANCE
        rnd = match.round
        if rnd.over:
            return _CHANCE if self.whole_match and not match.over else _TERMINAL
        if self.decided < min(LOOKAHEAD, self.random_left):
            return _CHANCE
        return rnd.current

    def is_terminal(self) -> bool:
        match = self.match
        if match is None or not match.round.over:
            return False
        return match.over or not self.whole_match

    # ------------------------------------------------------------------ chance

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            raise ValueError("chance_outcomes: this is not a chance node (no card is being dealt)")
        if self._dealing():
            left = Counter(self.edition.full_deck)
            left.subtract(self.dealing)
        else:
            left = Counter(self._undecided())
        total = sum(left.values())
        return [(int(card), n / total) for card, n in sorted(left.items()) if n > 0]

    def _undecided(self) -> list[Card]:
        """The deck's cards that chance has not decided yet (under the decided ones, above the
        Chancellors' returns). The engine keeps its deck top card last."""
        assert self.round is not None
        deck = self.round.deck
        top = len(deck)
        return deck[top - self.random_left : top - self.decided]

    def _deal(self, card: Card) -> None:
        left = Counter(self.edition.full_deck)
        left.subtract(self.dealing)
        if left[card] <= 0:  # refused before anything changes, as _decide does during play
            raise ValueError(f"chance outcome {card.word} is not among the cards left to deal")
        self.dealing.append(card)
        if len(self.dealing) < self._setup_size():
            return
        rest = Counter(self.edition.full_deck)
        rest.subtract(self.dealing)
        deck = self.dealing + sorted(rest.elements())
        if self.match is None:
            self.match = Match(self.edition, self.players, deck=deck)
        else:
            self.match.next_round(deck)
        self.dealing = []
        self.random_left = len(deck) - self._setup_size()
        self.decided = 0

    def _decide(self, card: Card) -> None:
        """Put a copy of ``card`` from the undecided part of the deck right under the decided cards."""
        assert self.round is not None
        deck = self.round.deck
        place = len(deck) - 1 - self.decided
        for i in range(place, len(deck) - 1 - self.random_left, -1):
            if deck[i] is card:
                deck[i], deck[place] = deck[place], deck[i]
                self._swap_in_deal(i, place)
                self.decided += 1
                return
        raise ValueError(f"chance outcome {card.word} is not among the undecided cards")

    def _swap_in_deal(self, i: int, j: int) -> None:
        """Swap the deck's cards ``i`` and ``j`` (of its random part) in the round's deal too, which a
        record writes as the round's deck (a record of the match written with the rest of the deck
        as first dealt, sorted, replayed as another game, or was refused). The deck's random part
        is the deal's undrawn cards in order, its top at the deck's end. A resampled state has no
        deal to keep."""
        rnd = self.round
        assert rnd is not None
        if not rnd.initial_deck:
            return
        deal = list(rnd.initial_deck)
        top = len(deal) - self.random_left + len(rnd.deck) - 1  # the deal's place of the deck's top card, less its index
        deal[top - i], deal[top - j] = deal[top - j], deal[top - i]
        rnd.initial_deck = tuple(deal)

    # ------------------------------------------------------------------ moves

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or self.is_chance_node() or player != self.current_player():
            return []
        assert self.round is not None
        numbers: list[int] = self.get_game().actions.numbers(self.round.legal_actions())
        return numbers

    def _apply_action(self, number: int) -> None:
        if self.is_terminal():  # ("action 8 (guard 1 priest) is not legal now" said nothing of why)
            raise ValueError(f"the game is over: no action can be applied (action {number})")
        if self.is_chance_node():
            card = _chance_card(number)
            if self._dealing():
                self._deal(card)
            else:
                self._decide(card)
            return
        self.beliefs.clear()
        match, rnd = self.match, self.round
        assert match is not None and rnd is not None
        action = self.get_game().actions.action(number, rnd.legal_actions())
        before = len(rnd.deck) + len(action.bottom or ())
        match.apply(action)
        drawn = min(before - len(rnd.deck), self.random_left)  # the deck's top is its random part
        self.random_left -= drawn
        self.decided -= drawn

    def _action_to_string(self, player: int, number: int) -> str:
        names = self.get_game().actions.names
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {_chance_card(number).word}"
        if not 0 <= number < len(names):
            raise ValueError(f"an action is a number from 0 to {len(names) - 1}, not {number}")
        return str(names[number])

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.players
        assert self.match is not None
        winners = self.match.winners if self.whole_match else self.match.round.winners
        return shares(winners, self.players)

    # ------------------------------------------------------------------ what a seat knows

    def view_of(self, seat: int) -> View | None:
        """The engine :class:`~loveletter.engine.View` of ``seat``, as our bots take it (``None``
        before the first deal): in a one-round game the round's alone, with no target, so that a bot
        plays for the round (given the match's, the 2019 expert played for a match to 6 tokens,
        the Spy's token and all)."""
        if self.match is None:
            return None
        return view(self.match if self.whole_match else self.match.round, seat)

    def _match_view(self, seat: int) -> View | None:
        """The view of ``seat`` in the match, tokens and all: what the observations encode."""
        return view(self.match, seat) if self.match is not None else None

    def information_text(self, seat: int) -> str:
        """Everything ``seat`` has seen, in order (its information state as a string)."""
        lines = [f"seat {seat}"]
        if self.match is not None:
            for number, rnd in enumerate(self.match.rounds, 1):
                lines.append(f"round {number}")
                lines += (_event_text(e.seen_by(seat)) for e in rnd.log or ())
        if self.resampled_for is not None and seat != self.resampled_for and self.hands_at_resample:
            lines.append("holding " + ",".join(c.word for c in self.hands_at_resample[seat]))
        return "\n".join(lines)

    def observation_text(self, seat: int) -> str:
        """What ``seat`` sees now, without the order of play (its observation as a string): all that
        the observation tensor holds, the phase and the cards under the deck among it."""
        v = self._match_view(seat)
        if v is None:
            return f"seat {seat}: dealing"
        def cards(pile: tuple[Card, ...]) -> str:
            return ",".join(c.word for c in pile) or "-"
        phase = "over" if v.over else "chancellor" if v.phase is Phase.CHANCELLOR else "play"
        set_aside = "set-aside taken" if v.set_aside_taken else "set-aside in place"
        under = v.under_deck_shown()
        if v.over:  # R6.5: every card is shown at the round's end, the set-aside card too
            for e in v.events:
                if e.kind == "reveal" and e.seat is None and e.card is not None:
                    set_aside = f"set-aside {e.card.word}"
        parts = [
            f"seat {seat}", f"round {v.round_number}", f"turn {v.turn}", f"current {v.current}", f"phase {phase}",
            f"hand {cards(v.hand)}", f"deck {v.deck_size}", f"face-up {cards(v.face_up)}", set_aside,
        ]
        if under:  # (2019) in the order they come back; another player's unseen: "?"
            parts.append("under-deck " + ",".join(c.word if c is not None else "?" for c in under))
        for s in range(self.players):
            state = "out" if not v.alive[s] else ("protected" if v.protected[s] else "in")
            known = f" holds {v.known[s].word}" if s in v.known else ""
            parts.append(f"[{s}: {state}, tokens {v.tokens[s]}, discards {cards(v.discards[s])}{known}]")
        if v.over:
            parts.append("winners " + ",".join(map(str, v.winners)))
        return " ".join(parts)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LoveLetterState:
        """A state ``player_id`` cannot tell from this one, its hidden cards drawn from the seat's
        belief (every deal consistent with what it has seen, weighted by how many shuffles lead to
        it; see the module's documentation for when it is exact).

        The new state keeps only what ``player_id`` knows of the past (the others' secrets are
        blanked in its log), and starts a fresh action history: its past draws are not sampled,
        only the present.
        """
        game = self.get_game()
        fresh: LoveLetterState = game.new_initial_state()
        rng = random.Random(int(probability_sampler() * 2**53))
        if self.match is None or (self.is_chance_node() and self._dealing()):
            # A round is being dealt: nobody has seen its cards yet, so any cards will do.
            fresh.dealing = rng.sample(list(self.edition.full_deck), len(self.dealing))
            fresh.match = _blanked(self.match, player_id) if self.match is not None else None
            return fresh
        match = _blanked(self.match, player_id)
        rnd = match.round
        if not rnd.over:  # (at its end every card is shown, R6.5: the state as it is)
            belief = self.beliefs.get(player_id)
            if belief is None:  # searches resample the same state many times: read its events once
                belief = self.beliefs[player_id] = Belief(view(self.match, player_id))
            world = belief.sample(rng)
            rnd.hands = [list(h) for h in world.hands]
            rnd.deck = list(reversed(world.deck))
            rnd.set_aside = world.set_aside
            rnd._legal_now = None
        fresh.match = match
        fresh.random_left = self.random_left
        fresh.decided = min(self.decided, self.random_left)
        fresh.resampled_for = player_id
        fresh.hands_at_resample = tuple(tuple(hand) for hand in rnd.hands)
        return fresh

    def __repr__(self) -> str:
        """What is public of the state (never its history: the chance outcomes are the cards dealt).
        pybind11 writes it into its refusal of an argument of the wrong kind (``state.child(1.5)``),
        where the whole state, which :meth:`__str__` is (OpenSpiel's custom), told every hand and the
        deck in a message a bot's log may keep (R7)."""
        if self.match is None:
            return f"<{type(self).__name__}: dealing>"
        rnd = self.match.round
        return (f"<{type(self).__name__}: round {len(self.match.rounds)}, turn {rnd.turn},"
                f" player {rnd.current} to move, phase {rnd.phase.name}>")

    def __str__(self) -> str:
        if self.match is None:
            return "dealing: " + ",".join(c.word for c in self.dealing)
        rnd = self.match.round
        hands = " | ".join(",".join(c.word for c in h) or "-" for h in rnd.hands)
        set_aside = rnd.set_aside.word if rnd.set_aside is not None else "-"
        return (
            f"round {len(self.match.rounds)} turn {rnd.turn} current {rnd.current} phase {rnd.phase.name}"
            f"\nhands {hands}\ndeck {','.join(c.word for c in rnd.deck_top_first())}"
            f" (random {self.random_left}, decided {self.decided})\nset-aside {set_aside}"
            f"\ndiscards {' | '.join(','.join(c.word for c in d) for d in rnd.discards)}"
            f"\nout {rnd.knocked_out} winners {rnd.winners} tokens {self.match.tokens}"
            f"\ndealing {','.join(c.word for c in self.dealing)}"
        )


def seeded_resampler(seed: int) -> Callable[[LoveLetterState, int], LoveLetterState]:
    """A resampler for OpenSpiel's ``ISMCTSBot.set_resampler`` that draws from a sampler seeded with
    ``seed``: the bot's own sampler is unseeded, so the same position would search differently from
    one run to the next."""
    sampler = pyspiel.UniformProbabilitySampler(seed % 2**31, 0.0, 1.0)
    return lambda state, player: state.resample_from_infostate(player, sampler)


class _Beliefs(dict[int, Belief]):
    """The beliefs of the seats at one state, kept for resampling; a copied state starts without."""

    def __deepcopy__(self, memo: dict[int, object]) -> _Beliefs:
        return _Beliefs()

    def __reduce__(self) -> tuple[type[_Beliefs], tuple[()]]:
        return (_Beliefs, ())


class LoveLetterObserver:
    """The observer of OpenSpiel's observation API: tensors and strings from a seat's view."""

    def __init__(self, game: LoveLetterGame, perfect_recall: bool) -> None:
        self.codec = observations_for(game.edition, game.players)
        self.perfect_recall = perfect_recall
        size = self.codec.information_size if perfect_recall else self.codec.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: LoveLetterState, player: int) -> None:
        v = state._match_view(player)
        if v is None:
            self.tensor.fill(0)
            return
        vector = self.codec.information_state(v) if self.perfect_recall else self.codec.observation(v)
        self.tensor[:] = vector

    def string_from(self, state: LoveLetterState, player: int) -> str:
        return state.information_text(player) if self.perfect_recall else state.observation_text(player)


def _chance_card(number: int) -> Card:
    """The card a chance outcome's ``number`` names, or a refusal that says what one is (Python's
    own said "99 is not a valid Card")."""
    if not 0 <= number < len(Card):
        raise ValueError(f"a chance outcome is a card number from 0 to {len(Card) - 1}, not {number}")
    return Card(number)


@lru_cache(maxsize=1 << 16)  # searches ask for the same events' text again and again
def _event_text(e: Event) -> str:
    fields = [e.kind]
    for name in ("seat", "target", "card", "guess", "cards", "seats", "result"):
        value = getattr(e, name)
        if value is None:
            continue
        if isinstance(value, Card):
            value = value.word
        elif isinstance(value, tuple):
            value = ",".join(v.word if isinstance(v, Card) else str(v) for v in value)
        fields.append(f"{name}={value}")
    return " ".join(fields)


def _blanked(match: Match, seat: int) -> Match:
    """A copy of ``match`` whose logs hold only what ``seat`` saw (the others' secrets blanked)."""
    copy = Match.__new__(Match)
    copy.__dict__.update(match.__dict__)
    copy.tokens = list(match.tokens)
    copy.rng = random.Random(0)
    copy.rounds = []
    for rnd in match.rounds:
        clone = rnd.clone(log=True)
        assert clone.log is not None
        clone.log = [e.seen_by(seat) for e in clone.log]
        clone.initial_deck = ()  # the true deal
        copy.rounds.append(clone)
    return copy


pyspiel.register_game(_GAME_TYPE, LoveLetterGame)
