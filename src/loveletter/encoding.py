"""One action encoding and one observation encoding, shared by every research adapter (OpenSpiel,
PettingZoo, Gymnasium) and the batched simulator.

**Actions.** For a game of an edition and a number of players, every decision is a number from 0 to
``Actions.size - 1``. Its name is the action's notation (``loveletter.engine.Action``), so
``Actions.names[i]`` reads like a move in a record. The numbering, in this order:

1. for each card of the edition, by value: the card played without a target (Spy, Handmaid,
   Chancellor, Countess, Princess; and Guard, Priest, Baron, King when nobody may be chosen, R4.6);
   then, for targeted cards, one number per seat chosen (``priest 1``) — for the Guard, per seat and
   named card (``guard 1 priest``, the named cards by value). The Prince always has a target (it may
   choose its own seat), so it has no untargeted number.
2. 2019 edition only, after a Chancellor's draw: ``chancellor keep K bottom F`` for every card K and
   F of the edition: keep K and put the other cards under the deck, F first (so with two cards
   returned, the other one ends up at the very bottom).

:func:`action_table` lists them all. Seats are absolute (seat 0 starts the first round), as in the
engine and in records.

**Observations.** :class:`Observations` turns a seat's :class:`~loveletter.engine.View` (and nothing
else) into a fixed-size ``float32`` vector; :func:`observation_table` says what each index means.
The *information state* adds the order of play (who played what on whom, which card that made a
player show and whom it knocked out, and what this seat learned from it), so that it tells apart
what the seat can tell apart, but for a few orders of its own draws that change nothing it can infer
or do, nor what the others know of its cards (see docs/encoding.md).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from loveletter.engine import TARGETED, Action, Card, Edition, Event, Phase, View, edition_named
from loveletter.engine.errors import check_whole, is_whole, typed

Vector = npt.NDArray[np.float32]


# ----------------------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Actions:
    """The action numbering for ``players`` seats of ``edition`` (use :func:`actions_for`)."""

    edition: Edition
    players: int
    names: tuple[str, ...] = field(init=False)
    _plays: dict[Action, int] = field(init=False, repr=False)
    _choices: dict[tuple[Card, Card], int] = field(init=False, repr=False)
    _decoded: tuple[Action | tuple[Card, Card], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        decoded: list[Action | tuple[Card, Card]] = []
        for card in self.edition.cards:
            if card is not Card.PRINCE:
                decoded.append(Action(card))
            if card not in TARGETED:
                continue
            for seat in range(self.players):
                if card is Card.GUARD:
                    decoded += [Action(card, seat, guess) for guess in self.edition.guessable]
                else:
                    decoded.append(Action(card, seat))
        if self.edition.has(Card.CHANCELLOR):
            decoded += [(keep, first) for keep in self.edition.cards for first in self.edition.cards]
        names = [
            d.notation() if isinstance(d, Action) else f"chancellor keep {d[0].word} bottom {d[1].word}"
            for d in decoded
        ]
        object.__setattr__(self, "names", tuple(names))
        object.__setattr__(self, "_decoded", tuple(decoded))
        object.__setattr__(self, "_plays", {d: i for i, d in enumerate(decoded) if isinstance(d, Action)})
        object.__setattr__(
            self, "_choices", {d: i for i, d in enumerate(decoded) if not isinstance(d, Action)}
        )

    @property
    def size(self) -> int:
        return len(self.names)

    def number(self, action: Action) -> int:
        """The number of ``action`` (a legal action of a game of this edition and size)."""
        if not isinstance(action, Action):  # (a name, "guard 1 priest", failed on an attribute)
            raise TypeError(f"an action to number is an engine Action (Action.parse(name), or names.index(name)"
                            f" for a name), not {typed(action)}")
        if action.keep is not None:
            bottom = action.bottom or ()
            if not bottom:
                raise ValueError(f"a Chancellor's choice returns at least one card: {action}")
            return self._choices[(action.keep, bottom[0])]
        try:
            return self._plays[Action(action.card, action.target, action.guess)]
        except KeyError:
            raise ValueError(f"{action} is not an action of {self.players}-player {self.edition} games") from None

    def numbers(self, legal: Iterable[Action]) -> list[int]:
        """The numbers of ``legal``, ascending (each legal action has its own number)."""
        return sorted(self.number(a) for a in legal)

    def mask(self, legal: Iterable[Action]) -> npt.NDArray[np.int8]:
        """A 0/1 vector over all numbers, 1 for the legal ones."""
        out = np.zeros(self.size, dtype=np.int8)
        out[self.numbers(legal)] = 1
        return out

    def numbered(self, number: object) -> int:
        """``number`` as an action number (:func:`action_number`); ``ValueError`` if no action has it."""
        number = action_number(number)  # (0.0 was action 0)
        if not 0 <= number < self.size:
            raise ValueError(f"there is no action {number}: actions are numbered 0 to {self.size - 1}")
        return number

    def action(self, number: int | np.integer[Any], legal: Sequence[Action]) -> Action:
        """The legal action numbered ``number``; ``ValueError`` if none of ``legal`` has that number."""
        number = self.numbered(number)
        for action in legal:
            if self.number(action) == number:
                return action
        raise ValueError(f"action {number} ({self.names[number]}) is not legal now")


def action_number(action: object) -> int:
    """``action`` as an action number: a whole number (a numpy integer or a 0-dimensional array of one, too),
    never a float or a text read as one (``3.7`` and ``"3"`` were taken as action 3)."""
    if isinstance(action, bool | np.bool_):
        raise TypeError(f"an action is a whole number (an action number), not {typed(action)}")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:  # (quoted short: an array's whole was three lines)
        raise TypeError(f"an action is a whole number (an action number), not {typed(action)}") from None


def actions_for(edition: Edition | str, players: int) -> Actions:
    """The (shared) action numbering of ``players``-seat games of ``edition`` (or the edition so named)."""
    return _shared(Actions, edition, players)


Codec = TypeVar("Codec", "Actions", "Observations")


_SHARED: dict[tuple[type, str, int], Actions | Observations] = {}


def _shared(kind: type[Codec], edition: Edition | str, players: int) -> Codec:
    """One encoding of each kind per edition (or its name) and player count (editions are keyed by
    name: an :class:`Edition` holds dicts, so it cannot be a key itself)."""
    known = edition_named(edition)
    name = known.name
    found = _SHARED.get((kind, name, players)) if is_whole(players) else None  # (else refused below)
    if found is None:
        check_whole("players", players)  # ("2" failed comparing)
        known.check_players(players)
        found = _SHARED[(kind, name, players)] = kind(known, players)
    assert isinstance(found, kind)
    return found


def action_table(edition: Edition, players: int) -> list[tuple[int, str]]:
    """Every action number with its name."""
    return list(enumerate(actions_for(edition, players).names))


def shares(winners: Sequence[int], players: int) -> list[float]:
    """Zero-sum returns for a finished round or match: the ``k`` winners of ``n`` players share the
    pot, each getting ``(n - k) / (k (n - 1))``, and every other player gets ``-1 / (n - 1)``. With one
    winner: +1 for the winner, -1/(n-1) for the others (+1/-1 with two players).

    >>> shares((1,), 2), shares((0, 2), 4)
    ([-1.0, 1.0], [0.3333333333333333, -0.3333333333333333, 0.3333333333333333, -0.3333333333333333])
    """
    k, n = len(winners), players
    if n < 2:  # (one player divided by zero)
        raise ValueError(f"a game has 2 players or more, not {n}")
    if not 0 < k <= n:
        raise ValueError(f"a finished game has 1 to {n} winners, not {k}")
    if len(set(winners)) != k or not all(0 <= seat < n for seat in winners):  # (the returns did not sum to 0)
        raise ValueError(f"the winners must be different seats from 0 to {n - 1}, not {tuple(winners)}")
    won = (n - k) / (k * (n - 1))
    return [won if seat in winners else -1 / (n - 1) for seat in range(n)]


# ------------------------------------------------------------------------------------ observations

#: Per round, at most one play per card of the edition (every turn uses up a card of the deck).
def max_plays(edition: Edition) -> int:
    return len(edition.full_deck)


@dataclass(frozen=True)
class Part:
    """A run of indices of the vector: ``size`` numbers meaning ``meaning``."""

    name: str
    size: int
    meaning: str


_ORDINAL = {1: "st", 2: "nd", 3: "rd"}


@dataclass(frozen=True)
class Observations:
    """The observation and information-state vectors of ``players``-seat games of ``edition``."""

    edition: Edition
    players: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.edition.cards

    def observation_parts(self) -> list[Part]:
        p, c = self.players, len(self.cards)
        cards = ", ".join(card.word for card in self.cards)
        parts = [
            Part("seat", p, "one-hot: the observing seat"),
            Part("current", p, "one-hot: the seat whose decision it is"),
            Part("phase", 3, "one-hot: play a card / Chancellor's choice / round over"),
            Part("hand", c, f"count of each card in the observer's hand ({cards})"),
            Part("deck", 1, "cards left in the deck"),
            Part("set_aside_taken", 1, "1 once a Prince gave out the set-aside card (R5.5)"),
            Part("face_up", c, "count of each card removed face up (two players, R3.3)"),
            Part("unseen", c, "card tracker: count of each card neither face up (played, discarded, removed) "
                              "nor in the observer's hand (a card it knows in another hand still counts)"),
        ]
        for i in range(self.under_deck_places):  # (2019: what the observer's Chancellor put under the deck)
            parts.append(Part(f"under_deck_{i}", c + 1,
                              f"the card {i + 1}{_ORDINAL.get(i + 1, 'th')} from the top among those Chancellors put"
                              " under the deck (they come back in that order): one-hot if the observer put it"
                              " there or the round is over (R6.5), else the last number is 1 if another"
                              " player did (all 0: none)"))
        for s in range(p):
            parts += [
                Part(f"alive_{s}", 1, f"1 if seat {s} is still in the round"),
                Part(f"protected_{s}", 1, f"1 if seat {s} is protected by a Handmaid"),
                Part(f"tokens_{s}", 1, f"seat {s}'s tokens of affection"),
                Part(f"discards_{s}", c, f"count of each card in seat {s}'s discard pile"),
                Part(f"known_{s}", c, f"one-hot: the card the observer knows seat {s} holds (else 0)"),
            ]
        return parts

    def play_parts(self) -> list[Part]:
        p, c = self.players, len(self.cards)
        return [
            Part("by", p, "one-hot: the seat that played"),
            Part("card", c, "one-hot: the card played"),
            Part("target", p, "one-hot: the seat chosen (all 0: none)"),
            Part("guess", c, "one-hot: the card a Guard named"),
            Part("hit", 1, "1 if a Guard's guess was right"),
            Part("shown", c, "one-hot: the card this play made a player show: the card a Prince's target"
                             " discarded, or the hand of the player it knocked out"),
            Part("out", p, "one-hot: the seat this play knocked out (all 0: none)"),
            Part("learned", c, "one-hot: the card the observer saw through this play (Priest, Baron, King)"),
            Part("kept", c, "one-hot: the card the observer kept, on its own plays; on a Priest or Baron"
                            " that chose it, its card that player saw"),
        ]

    def information_parts(self) -> list[Part]:
        play = sum(part.size for part in self.play_parts())
        return self.observation_parts() + [
            Part("plays", play * max_plays(self.edition),
                 f"the round's plays in order, {play} numbers each (see the play table), 0 after the last"),
        ]

    @property
    def under_deck_places(self) -> int:
        """How many cards Chancellors may have put under the deck at once: two each (R5.9)."""
        return 2 * self.edition.copies.get(Card.CHANCELLOR, 0)

    @property
    def observation_size(self) -> int:
        return sum(part.size for part in self.observation_parts())

    @property
    def information_size(self) -> int:
        return sum(part.size for part in self.information_parts())

    def observation(self, view: View) -> Vector:
        """The observation vector of ``view`` (its seat must not be ``None``)."""
        out = np.zeros(self.observation_size, dtype=np.float32)
        self._observe(view, out)
        return out

    def information_state(self, view: View) -> Vector:
        """The information-state vector: the observation, then the round's plays in order."""
        out = np.zeros(self.information_size, dtype=np.float32)
        at = self._observe(view, out)
        width = sum(part.size for part in self.play_parts())
        for record in _plays(view):
            self._play(record, view.seat, out, at)
            at += width
        return out

    def _observe(self, view: View, out: Vector) -> int:
        if view.seat is None:
            raise ValueError("observations are for a seat, not for a spectator")
        if view.edition.name != self.edition.name or view.players != self.players:  # (else garbled, unsaid)
            raise ValueError(f"this encoding is for {self.players}-player {self.edition} games,"
                             f" not a {view.players}-player {view.edition} game")
        p = self.players
        index = {card: i for i, card in enumerate(self.cards)}
        c = len(index)
        out[view.seat] = 1
        out[p + view.current] = 1
        at = 2 * p
        out[at + (2 if view.over else int(view.phase is Phase.CHANCELLOR))] = 1
        at += 3
        _count(view.hand, index, out, at)
        at += c
        out[at] = view.deck_size
        out[at + 1] = float(view.set_aside_taken)
        at += 2
        _count(view.face_up, index, out, at)
        at += c
        for card, n in view.unseen().items():
            out[at + index[card]] = n
        at += c
        if self.under_deck_places:
            for i, placed in enumerate(view.under_deck_shown()[:self.under_deck_places]):
                out[at + i * (c + 1) + (index[placed] if placed is not None else c)] = 1
            at += self.under_deck_places * (c + 1)
        for s in range(p):
            out[at] = float(view.alive[s])
            out[at + 1] = float(view.protected[s])
            out[at + 2] = view.tokens[s]
            at += 3
            _count(view.discards[s], index, out, at)
            at += c
            known = view.known.get(s)
            if known is not None:
                out[at + index[known]] = 1
            at += c
        return at

    def _play(self, record: _PlayRecord, seat: int | None, out: Vector, at: int) -> None:
        p = self.players
        index = {card: i for i, card in enumerate(self.cards)}
        c = len(index)
        play = record.play
        assert play.seat is not None and play.card is not None
        out[at + play.seat] = 1
        out[at + p + index[play.card]] = 1
        at += p + c
        if play.target is not None:
            out[at + play.target] = 1
        at += p
        if play.guess is not None:
            out[at + index[play.guess]] = 1
        at += c
        out[at] = float(play.result == "hit")
        at += 1
        for card in record.shown:
            out[at + index[card]] = 1
        at += c
        if record.out is not None:
            out[at + record.out] = 1
        at += p
        if record.learned is not None:
            out[at + index[record.learned]] = 1
        at += c
        if record.kept is not None:  # set on the observer's own plays and on plays that saw its card
            out[at + index[record.kept]] = 1


@dataclass
class _PlayRecord:
    play: Event
    learned: Card | None = None
    kept: Card | None = None
    shown: list[Card] = field(default_factory=list)  # public: a Prince's discard, a hand knocked out
    out: int | None = None


def _plays(view: View) -> list[_PlayRecord]:
    """The round's plays with what ``view.seat`` learned from each (from its events only)."""
    seat = view.seat
    records: list[_PlayRecord] = []
    for e in view.events:
        if e.kind == "play":
            records.append(_PlayRecord(e))
        elif not records:
            continue
        elif e.kind == "priest" and e.seat == seat:
            records[-1].learned = e.card
        elif e.kind == "baron" and e.cards is not None and seat in (e.seat, e.target):
            records[-1].learned = e.cards[1] if e.seat == seat else e.cards[0]  # the other's card
        elif e.kind == "king" and e.cards is not None and seat in (e.seat, e.target):
            records[-1].learned = e.cards[0] if e.seat == seat else e.cards[1]  # the card received
        elif e.kind == "bottom" and e.seat == seat:
            records[-1].kept = e.card
        elif e.kind == "discard" and e.card is not None:
            records[-1].shown.append(e.card)
        elif e.kind == "out":
            records[-1].out = e.seat
            records[-1].shown.extend(e.cards or ())
    # What the observer kept on its plain plays: the card left in its hand after each of them.
    # (Reading the hand back through the round would take the draws; the draws are in the events.)
    hand: list[Card] = []
    by_play = iter(records)
    for e in view.events:
        if e.kind in ("deal", "draw") and e.seat == seat and e.card is not None:
            hand.append(e.card)
        elif e.kind == "play":
            record = next(by_play)
            if e.seat == seat and e.card in hand:
                hand.remove(e.card)
                if len(hand) == 1 and record.kept is None:
                    record.kept = hand[0]
        elif e.kind in ("priest", "baron") and e.target == seat and len(hand) == 1:
            record.kept = hand[0]  # what the player saw of ours: others know it (R5.2, R5.3)
        elif e.kind == "king" and e.cards is not None and seat in (e.seat, e.target):
            hand = [e.cards[0] if e.seat == seat else e.cards[1]]
        elif e.kind == "discard" and e.seat == seat and e.card in hand:
            hand.remove(e.card)
        elif e.kind == "chancellor" and e.seat == seat and e.cards:
            hand.extend(e.cards)
        elif e.kind == "bottom" and e.seat == seat and e.card is not None:
            hand = [e.card]
        elif e.kind == "out" and e.seat == seat:
            hand = []
    return records


def _count(cards: Iterable[Card], index: dict[Card, int], out: Vector, at: int) -> None:
    for card in cards:
        out[at + index[card]] += 1


def observations_for(edition: Edition | str, players: int) -> Observations:
    """The (shared) observation encoding of ``players``-seat games of ``edition`` (or the edition so named)."""
    return _shared(Observations, edition, players)


def observation_table(edition: Edition, players: int, *, information: bool = False) -> list[tuple[str, str, str]]:
    """``(indices, name, meaning)`` for each part of the vector (``information``: the information
    state, whose plays follow the play table :meth:`Observations.play_parts`)."""
    codec = observations_for(edition, players)
    parts = codec.information_parts() if information else codec.observation_parts()
    return _table(parts)


def play_table(edition: Edition, players: int) -> list[tuple[str, str, str]]:
    """``(offsets, name, meaning)`` within one play of the information state."""
    return _table(observations_for(edition, players).play_parts())


def _table(parts: list[Part]) -> list[tuple[str, str, str]]:
    rows, at = [], 0
    for part in parts:
        span = str(at) if part.size == 1 else f"{at}-{at + part.size - 1}"
        rows.append((span, part.name, part.meaning))
        at += part.size
    return rows


# ------------------------------------------------------------------------------------ the document

_EXAMPLES = (("classic", 2), ("2019", 3))


def document() -> str:
    """docs/encoding.md: the numbering and the vector layouts as tables (kept in step by a test)."""
    from loveletter.engine import EDITIONS  # the editions by name

    lines = [
        "# The action and observation encodings",
        "",
        "Every research interface (OpenSpiel, PettingZoo, Gymnasium) uses these encodings, from",
        "`loveletter.encoding`; the batched simulator uses the action numbering alone (its policies",
        "see a few arrays of their own: `loveletter.batch.Observation`). This page is generated by",
        "`python -m loveletter.encoding > docs/encoding.md`; a test keeps it in step with the code.",
        "",
        "## Actions",
        "",
        "A decision is a number from 0 to *size* − 1 that depends only on the edition and the number",
        "of players. Its name is the move in the engine's notation (as in game records). In order:",
        "",
        "1. for each card of the edition by value: the card played without a target (cards without",
        "   one; Guard, Priest, Baron and King when nobody may be chosen, R4.6); then one number per",
        "   seat chosen — for the Guard, per seat and then per named card, by value. The Prince",
        "   always has a target (it may choose its own seat), so it has no untargeted number;",
        "2. 2019 edition only: `chancellor keep K bottom F` for every card K, then every card F:",
        "   after a Chancellor's draw, keep K and put the other cards under the deck, F first (with",
        "   two returned, the other one goes to the very bottom).",
        "",
        "Seats are absolute: seat 0 starts the first round. A mask marks the legal numbers",
        "(`Actions.mask`); `Actions.action(number, legal)` turns a number back into the move.",
        "",
        "| edition | players | actions | observation | information state |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, edition in EDITIONS.items():
        for players in range(edition.min_players, edition.max_players + 1):
            acts, obs = actions_for(edition, players), observations_for(edition, players)
            lines.append(f"| {name} | {players} | {acts.size} | {obs.observation_size} | {obs.information_size} |")
    for name, players in _EXAMPLES:
        edition = EDITIONS[name]
        lines += ["", f"### Every action: {name} edition, {players} players", "", "| number | action |", "|---:|---|"]
        lines += [f"| {number} | `{text}` |" for number, text in action_table(edition, players)]
    lines += [
        "",
        "## Observation",
        "",
        "A `float32` vector made from one seat's view only (docs/rules.md R7): its own hand, what is",
        "public, and what it has learned (a Priest's look, a Baron's comparison, a King's trade).",
        "Counts are plain counts (not scaled). Per seat *s* the same five parts repeat.",
    ]
    for name, players in _EXAMPLES:
        edition = EDITIONS[name]
        lines += ["", f"### {name} edition, {players} players", "", "| index | part | meaning |", "|---|---|---|"]
        lines += [f"| {span} | `{part}` | {meaning} |" for span, part, meaning in observation_table(edition, players)]
    lines += [
        "",
        "## Information state",
        "",
        "The observation, then the round's plays in order (one block per play, zeros after the last",
        "play: who played what on whom, which card it made a player show and whom it knocked out, and",
        "what this seat learned from it), so that two moments of a round whose plays differ have",
        "different vectors. It holds the",
        "current round only (in a match, earlier rounds are summed up by the tokens), and not the order",
        "of the face-up cards, nor which of the seat's cards came from which draw: of its first two,",
        "which was dealt; after a Prince made it draw anew, which card that was and which its next",
        "turn's draw; with a Chancellor, which of its three cards it held and in which order it drew",
        "the other two. None of these changes what the seat can infer or do: where another player",
        "saw such a card (a Priest's look at the seat, a Baron's comparison with it), the play's",
        "`kept` says which card that was, since that player may still know it (the information state",
        "string, for tabular methods, keeps them apart all the same). One play's block:",
    ]
    for name, players in _EXAMPLES[:1]:
        edition = EDITIONS[name]
        lines += ["", f"### {name} edition, {players} players", "", "| offset | part | meaning |", "|---|---|---|"]
        lines += [f"| {span} | `{part}` | {meaning} |" for span, part, meaning in play_table(edition, players)]
        plays = observation_table(edition, players, information=True)[-1]
        lines += ["", f"In the whole vector: `{plays[1]}` at {plays[0]} ({plays[2]})."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(document(), end="")
