"""Helpers to write rule scenarios that read like the rulebook (docs/rules.md).

A round is built from a readable deck, **top card first**::

    deck("princess | guard guard guard | priest baron | handmaid | ...")

In deck order (R3): the first card is the set-aside card (R3.2); with exactly two players the next
three are the face-up cards (R3.3); then one card is dealt to each player, starting with the starter
(R3.4); then the starter draws the next card (R4.1); the rest is the deck. The ``|`` marks are only
for the reader. ``...`` stands for every card of the edition not named yet, lowest value first.
"""

from __future__ import annotations

import random
from collections import Counter

from loveletter.engine import CLASSIC, EDITION_2019, Action, Card, Edition, Event, Round

__all__ = [
    "CLASSIC",
    "EDITION_2019",
    "FULL_TIE",
    "FULL_TIE_FROM_SEAT0",
    "cards",
    "deck",
    "deck_2019",
    "events",
    "full_deck",
    "last",
    "legal",
    "play",
    "play_quietly",
    "quiet_move",
    "snapshot",
]


#: Classic, 2 players, a full tie at the showdown: both keep a Prince (R6.2), and the discard piles tie
#: too (R6.3): seat 0's guard, priest, priest, handmaid and guard, 10; seat 1's three guards, handmaid
#: and baron, 10. Seat 0 starts (:data:`FULL_TIE_FROM_SEAT0`, the moves).
FULL_TIE = (
    "princess | baron king countess | prince prince | guard"
    " | guard priest guard priest guard handmaid handmaid guard baron"
)
FULL_TIE_FROM_SEAT0 = (
    "guard 1 baron; guard 0 baron; priest 1; guard 0 baron; priest 1; guard 0 baron;"
    " handmaid; handmaid; guard; baron 0"
)


def cards(text: str) -> list[Card]:
    """``"guard priest"`` -> ``[Card.GUARD, Card.PRIEST]``."""
    return [Card.from_word(w) for w in text.replace("|", " ").split()]


def full_deck(text: str, edition: Edition = CLASSIC) -> list[Card]:
    """The whole deck, top first, with ``...`` filled in (lowest first)."""
    words = text.replace("|", " ").split()
    named = [Card.from_word(w) for w in words if w != "..."]
    left = Counter(edition.full_deck)
    left.subtract(named)
    if any(n < 0 for n in left.values()):
        too_many = [c.word for c, n in left.items() if n < 0]
        raise ValueError(f"deck names too many of: {too_many}")
    rest = sorted(left.elements())
    out: list[Card] = []
    for w in words:
        if w == "...":
            out.extend(rest)
            rest = []
        else:
            out.append(Card.from_word(w))
    return out


def deck(text: str, *, players: int = 2, starter: int = 0, edition: Edition = CLASSIC) -> Round:
    """A round of ``edition`` (classic unless told) set up from the deck ``text`` (see module doc)."""
    return Round(edition, players, full_deck(text, edition), starter)


def deck_2019(text: str, *, players: int = 2, starter: int = 0) -> Round:
    """:func:`deck` for the 2019 edition."""
    return deck(text, players=players, starter=starter, edition=EDITION_2019)


def play(rnd: Round, moves: str) -> Round:
    """Apply moves in notation, separated by ``;`` (``"guard 1 priest; handmaid"``)."""
    for move in moves.split(";"):
        if move.strip():
            rnd.apply(Action.parse(move))
    return rnd


def legal(rnd: Round) -> list[str]:
    """The legal actions now, in notation."""
    return [str(a) for a in rnd.legal_actions()]


def snapshot(rnd: Round) -> tuple:
    """Everything an illegal action must leave unchanged (R4.7)."""
    return (
        [list(h) for h in rnd.hands],
        [list(d) for d in rnd.discards],
        list(rnd.deck),
        rnd.set_aside,
        rnd.face_up,
        rnd.alive_mask,
        rnd.protected_mask,
        list(rnd.knocked_out),
        rnd.current,
        rnd.phase,
        rnd.turn,
        rnd.winners,
        rnd.spy_bonus,
        len(rnd.log or ()),
        tuple(rnd.legal_actions()),
    )


def events(rnd: Round, kind: str) -> list[Event]:
    """The round's logged events of one kind."""
    return [e for e in rnd.log or () if e.kind == kind]


def last(rnd: Round, kind: str) -> Event:
    """The latest logged event of one kind."""
    found = events(rnd, kind)
    assert found, f"no {kind!r} event"
    return found[-1]


def quiet_move(rnd: Round) -> Action:
    """A move for the current player that changes nobody's kept card: the player plays the card
    they just drew; Guards miss, Barons only tie, Kings only trade equal cards, Chancellors keep
    the old card and return the drawn ones in the order drawn."""
    from loveletter.engine import Phase

    me = rnd.current
    hand = rnd.hands[me]
    if rnd.phase is Phase.CHANCELLOR:
        kept, drawn = hand[0], tuple(hand[1:])
        return Action(Card.CHANCELLOR, keep=kept, bottom=drawn)
    options = rnd.legal_actions()
    if options == (Action(Card.COUNTESS),):
        return options[0]
    kept, drawn = hand
    for action in options:
        if action.card is not drawn:
            continue
        t = action.target
        if drawn is Card.GUARD and t is not None and rnd.hands[t][0] is action.guess:
            continue
        if drawn in (Card.BARON, Card.KING) and t is not None and rnd.hands[t][0] != kept:
            continue
        if drawn is Card.PRINCE or drawn is Card.PRINCESS:
            continue
        return action
    raise AssertionError(f"no quiet move for seat {me} holding {hand}")


def play_quietly(rnd: Round, turns: int | None = None) -> Round:
    """Play quiet turns (see :func:`quiet_move`) until the round is over, or ``turns`` of them."""
    done = 0
    while not rnd.over and (turns is None or done < turns):
        rnd.apply(quiet_move(rnd))
        done += 1
    return rnd


# ------------------------------------------------------------------------------------ hidden cards


def all_cards(rnd: Round) -> Counter[Card]:
    counted: Counter[Card] = Counter()
    for hand in rnd.hands:
        counted.update(hand)
    for pile in rnd.discards:
        counted.update(pile)
    counted.update(rnd.face_up)
    counted.update(rnd.deck)
    if rnd.set_aside is not None:
        counted[rnd.set_aside] += 1
    return counted


def permuted_copy(rnd: Round, seat: int | None, rng: random.Random) -> Round:
    """A copy of ``rnd`` in which the cards ``seat`` cannot see (the other hands, the deck, the
    set-aside card) are shuffled among those places, each place keeping its size."""
    copy = rnd.clone(log=True)
    others = [s for s in range(rnd.players) if s != seat]
    hidden: list[Card] = [c for s in others for c in copy.hands[s]] + copy.deck
    if copy.set_aside is not None:
        hidden.append(copy.set_aside)
    rng.shuffle(hidden)
    pos = 0
    for s in others:
        size = len(copy.hands[s])
        copy.hands[s] = hidden[pos : pos + size]
        pos += size
    copy.deck = hidden[pos : pos + len(copy.deck)]
    pos += len(copy.deck)
    if copy.set_aside is not None:
        copy.set_aside = hidden[pos]
        pos += 1
    assert pos == len(hidden)
    assert all_cards(copy) == all_cards(rnd)
    scramble_secrets(copy, seat, rng)
    return copy


def scramble_secrets(rnd: Round, seat: int | None, rng: random.Random) -> None:
    """What other seats learned privately is hidden from ``seat`` too: scramble those secrets in
    the log of ``rnd`` (a copy), so a view that leaked any event's secret would differ."""
    cards = list(rnd.edition.cards)
    assert rnd.log is not None
    for i, event in enumerate(rnd.log):
        if event.secret and (seat is None or seat not in event.privy):
            scrambled = {}
            for name in event.secret:
                value = getattr(event, name)
                if isinstance(value, tuple):
                    scrambled[name] = tuple(rng.choice(cards) for _ in value)
                elif value is not None:
                    scrambled[name] = rng.choice(cards)
            rnd.log[i] = event._replace(**scrambled)
