"""The beginner bot: simple rules, no search, never an obviously losing move.

It never plays or discards its own Princess when it has another choice, never names a card that it
can see is all used up, and uses what it knows (a Priest's look, a King's trade, a Baron tie): a
Guard names the known card, a Baron challenges only a lower known card, a Prince hits a known Princess.
Otherwise it weighs its choices by the cards still unseen, each at a target by what that player's
plays say of its card, read as a random player's (:mod:`~loveletter.bots.odds`: one who played
anything but a Guard rarely holds one), and keeps its higher card. Between equally
likely guesses its Guard names the card that threatens the one it keeps (:func:`threat`); beside a
Guard it would rather look with its Priest first (the Guard then names what it saw), and beside a
Priest it would rather play the King (the other then holds a card it knows). A player whose last
play was the Countess is taken to hold the King or a Prince beside which it had to play it (R4.4;
:func:`countess_tells`; after a King's trade, the player who took that card), where one is unseen.
On the round's last play, with one other player left, it counts which moves win the showdown most
often (:mod:`~loveletter.bots.last_play`) and chooses among those.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from loveletter.bots.base import check_turn, seeded
from loveletter.bots.last_play import last_play_chances, winning_most
from loveletter.bots.odds import PlayOdds, play_odds, weighed
from loveletter.engine import CARDS, Action, Card, Event, View
from loveletter.engine.round import Phase

# Scores that no weight tunes:
NEVER = -1000.0  # throwing the Princess away
HOPELESS = -100.0  # a Guard naming a card that cannot be there (wasted), a Baron against a known higher one
WRONG_GUESS = -5.0  # a Guard naming another card than the one it knows is there
PRINCESS_HIT = 50.0  # a Prince at a known Princess


@dataclass(frozen=True)
class Weights:
    """How much the beginner likes each kind of move (see :func:`score_move`, which the expert's
    simulated players follow too). ``benchmarks/beginner_weights.py`` varies each one against the
    random bot (docs/bots.md: what it found). ``guess_threat``, ``priest_for_guard`` and
    ``king_for_priest`` are the three rules added last (docs/bots.md: what they gained). Six values
    are the ones its last sweep kept once the beginner read the plays (``keep``, ``guess_value``,
    ``guess_threat``, ``prince_other``, ``king_chance``, ``king_for_priest``; docs/bots.md, "The
    beginner's weights, tuned again")."""

    keep: float = 0.15  # per point of the card kept (for the showdown)
    handmaid: float = 3.0
    spy: float = 1.0
    chancellor: float = 1.0
    countess: float = 0.5
    guard_known: float = 20.0  # naming a card it knows is there
    guard_chance: float = 10.0  # per unit of the chance that the named card is there
    guess_value: float = 0.0075  # per point of the named card (the tie-break between equal chances)
    guess_threat: float = 0.2  # naming the card that threatens the card kept (before the value)
    priest: float = 2.0  # a look at an unknown hand
    priest_for_guard: float = 1.0  # ... when the Guard kept can then name the card seen
    priest_known: float = 0.5  # a look at a hand it already knows
    baron_known: float = 20.0  # a sure win against a lower known card
    baron_chance: float = 10.0  # per unit of (chance of winning - risk * chance of losing)
    baron_risk: float = 2.0
    prince_self_low: float = 0.5  # on itself, throwing away a card worth 2 or less (a Guard, a Priest; a Spy)
    prince_self_high: float = -2.0  # on itself, throwing away anything higher
    prince_other: float = 0.0  # at an unknown hand, or a known one not the Princess: no more than the card kept
    king_chance: float = 0.75  # per point the expected card gains over the card given
    king_with_princess: float = -5.0  # trading the Princess away
    king_for_priest: float = 3.0  # trading a Priest away: the other then holds a card it knows

    @cached_property
    def untargeted(self) -> dict[Card, float]:
        """The bonus of each card played without a target."""
        return {Card.HANDMAID: self.handmaid, Card.SPY: self.spy, Card.CHANCELLOR: self.chancellor,
                Card.COUNTESS: self.countess}


WEIGHTS = Weights()
TIE = 1e-9  # scores closer than this are equal (they differ only by the rounding of their sums)
GUARD, PRIEST, BARON, PRINCE, KING, COUNTESS, PRINCESS = (  # module names: quicker to look up in the play-outs
    Card.GUARD, Card.PRIEST, Card.BARON, Card.PRINCE, Card.KING, Card.COUNTESS, Card.PRINCESS,
)


class RuleBasedBot:
    level = "beginner"

    def __init__(self, seed: int | None = None, weights: Weights = WEIGHTS) -> None:
        self.rng = seeded(seed)
        self.weights = weights

    def choose(self, view: View) -> Action:
        check_turn(view)
        actions = view.legal_actions
        if view.phase is Phase.CHANCELLOR:
            return self._keep_best(view)
        unknown = view_unknown_counts(view)
        total, value = sum(unknown), view.edition.value
        chances = last_play_chances(view, unknown)
        if chances is not None:  # the round's last play: only the moves that win it most often
            actions = winning_most(chances)
        tells = countess_tells(view.events)
        odds = play_odds(view.events, view.edition, view.players)
        scored = [(score_move(a, view.hand, view.known, unknown, total, value, view.seat, self.weights, tells, odds),
                   self.rng.random(), a) for a in actions]
        # the best moves, scores within TIE of each other counting as equal, one of them at random
        best = max(score for score, _, _ in scored)
        return max((s for s in scored if s[0] >= best - TIE), key=lambda s: s[1])[2]  # (>=: best itself, however large)

    def _keep_best(self, view: View) -> Action:
        value = view.edition.value
        best = max(view.legal_actions, key=lambda a: (value(a.keep), self.rng.random()))  # type: ignore[arg-type]
        return best

    def score(self, view: View, action: Action) -> float:
        """How much the bot likes ``action`` (higher is better): :func:`score_move` from its view."""
        unknown = view_unknown_counts(view)
        return score_move(action, view.hand, view.known, unknown, sum(unknown), view.edition.value,
                          view.seat, self.weights, countess_tells(view.events),
                          play_odds(view.events, view.edition, view.players))


def view_unknown_counts(view: View) -> list[int]:
    """How many of each card (by number) could be in a hand the seat does not know: its card
    tracker, the cards it has not seen less those it knows to be in other hands."""
    left = view.tracker()
    return [left[card] for card in CARDS]


def countess_tells(events: Iterable[Event]) -> int:
    """The seats *told by the Countess*, as a bit mask: those whose last play was the Countess, which
    each probably had to play beside the King or a Prince (R4.4), still held. A King's trade hands that
    card, and so the tell, to the King's player; a Prince's discard ends it (a Countess discarded so
    tells nothing: its player draws a new card), and so does the player's next play (which may have
    been that card; a play of another card keeps it in hand, but the tell is not kept: the beginner
    and the reading take it so). A player knocked out may keep its bit: it is never chosen again."""
    tells = 0
    for e in events:
        tells = after_event(tells, e)
    return tells


def after_event(tells: int, e: Event) -> int:
    """:func:`countess_tells` ``tells`` once ``e`` has happened."""
    seat = e.seat
    if seat is None:
        return tells
    kind = e.kind
    if kind == "play":
        assert e.card is not None
        return after_play(tells, seat, e.card)
    if kind == "king" and e.target is not None:
        return after_king(tells, seat, e.target)
    if kind == "discard":
        return after_discard(tells, seat)
    return tells


def after_play(tells: int, seat: int, card: Card) -> int:
    """:func:`countess_tells` ``tells`` once ``seat`` has played ``card``."""
    return tells | 1 << seat if card is COUNTESS else tells & ~(1 << seat)


def after_discard(tells: int, seat: int) -> int:
    """:func:`countess_tells` ``tells`` once ``seat`` has discarded its card to a Prince: it draws a
    new one (or is out with the Princess), and nothing is told of it."""
    return tells & ~(1 << seat)


def after_king(tells: int, seat: int, target: int) -> int:
    """:func:`countess_tells` ``tells`` once ``seat`` has traded hands with ``target`` by its King
    (its own tell ended as it played the King): ``target``'s tell goes with the card."""
    told = tells >> target & 1
    return (tells & ~(1 << seat | 1 << target)) | told << seat


def target_counts(unknown: Sequence[float], total: float, target: int, tells: int,
                  odds: PlayOdds | None) -> tuple[Sequence[float], float]:
    """The counts (by card number) of the cards that ``target``, whose hand the player does not know,
    may hold, and their sum: ``unknown`` (summing to ``total``), narrowed to the Kings and Princes where
    the Countess told of it (in ``tells``), then weighed by its play odds (:mod:`~loveletter.bots.odds`,
    the sum kept)."""
    if tells >> target & 1:
        told = _kings_and_princes(unknown)
        if told is not None:
            unknown, total = told, unknown[KING] + unknown[PRINCE]
    if odds is not None:
        read = weighed(unknown, odds[target])
        if read is not None:
            unknown = read
    return unknown, total


def score_move(action: Action, hand: Sequence[Card], known: Mapping[int, Card], unknown: Sequence[float],
               total: float, value: Callable[[Card], int], me: int | None, weights: Weights = WEIGHTS,
               tells: int = 0, odds: PlayOdds | None = None) -> float:
    """How much a sensible player likes ``action`` (higher is better): the beginner's rules, which the
    expert's simulated players follow too. The player is seat ``me``, holding the two cards of
    ``hand``; ``known`` is the hands it knows (seat: card), ``unknown`` how many of each card (by
    number) could be in a hand it does not know, and ``total`` their sum; ``value`` is the edition's
    card value; ``tells`` the seats told by the Countess (:func:`countess_tells`), whose card it
    weighs over the Kings and Princes unknown alone, where there are any; ``odds`` what each player's
    plays say of its card (:mod:`~loveletter.bots.odds`), by which it weighs the cards a target it does
    not know may hold. Scores within :data:`TIE` of each other count as equal."""
    w = weights
    card, target = action.card, action.target
    if target is not None and target != me and target not in known:
        unknown, total = target_counts(unknown, total, target, tells, odds)
    kept = hand[1] if hand[0] is card else hand[0]
    base = w.keep * value(kept)  # keep the higher card for the showdown
    if card is PRINCESS:
        return NEVER
    if target is None:
        return base + w.untargeted.get(card, 0.0)
    theirs = known.get(target)
    if card is GUARD:
        assert action.guess is not None
        if theirs is not None:
            return base + (w.guard_known if action.guess is theirs else WRONG_GUESS)
        n = unknown[action.guess]  # the likeliest card; among those, the most valuable
        return (base + (w.guard_chance * n / total if n > 0 and total else HOPELESS)
                + w.guess_value * value(action.guess) + (w.guess_threat if action.guess is threat(kept) else 0.0))
    if card is PRIEST:
        if theirs is not None:
            return base + w.priest_known
        return base + w.priest + (w.priest_for_guard if kept is GUARD else 0.0)
    if card is BARON:
        mine = value(kept)
        if theirs is not None:
            other = value(theirs)
            return base + (w.baron_known if mine > other else (HOPELESS if mine < other else 0.0))
        win = lose = 0.0
        for c, n in enumerate(unknown):
            if n > 0:
                v = value(CARDS[c])
                if v < mine:
                    win += n
                elif v > mine:
                    lose += n
        return base + (w.baron_chance * (win - w.baron_risk * lose) / total if total else 0.0)
    if card is PRINCE:
        if target == me:  # no keep bonus: the card kept is discarded
            if kept is PRINCESS:
                return NEVER
            return w.prince_self_low if value(kept) <= 2 else w.prince_self_high
        return base + (PRINCESS_HIT if theirs is PRINCESS else w.prince_other)
    if card is KING:  # no keep bonus: the card kept is traded for the one that counts
        if kept is PRINCESS:
            return w.king_with_princess
        if theirs is not None:
            return float(value(theirs) - value(kept))
        expected = sum(n * value(CARDS[c]) for c, n in enumerate(unknown) if n > 0)
        return (w.king_chance * ((expected / total if total else 0.0) - value(kept))
                + (w.king_for_priest if kept is PRIEST else 0.0))
    return base


def _kings_and_princes(unknown: Sequence[float]) -> list[float] | None:
    """``unknown`` with only its Kings and Princes (``None`` where it has neither)."""
    if not unknown[KING] and not unknown[PRINCE]:
        return None
    told = [0.0] * len(unknown)
    told[KING], told[PRINCE] = unknown[KING], unknown[PRINCE]
    return told


def threat(kept: Card) -> Card:
    """The card that most threatens a player keeping ``kept``: a Prince makes a Princess be
    discarded; against anything else a Baron is the danger."""
    return PRINCE if kept is PRINCESS else BARON
