"""Baron ties: two players who hold the same card (each card has a value of its own, R5.3), as every
other player knows, though not which card. Whatever later shows one of the two cards — a Guard or a
Baron knocking its holder out, a Prince's discard, a look — shows the other's, as long as the first
holder's card must still be the tied one, and the other still holds it unless it has played that
very card since.

Kept as a list of :data:`Tie` and updated by the functions below, both by the views' bookkeeping
(:func:`loveletter.engine.known_hands`, from the events) and by the expert's simulated players
(:class:`loveletter.bots.playout.Memory`, move by move), so that the two know the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from loveletter.engine.cards import EDITIONS, Card

#: The cards no tie can be on, in either edition: two players cannot both hold a card with one copy,
#: nor the Barons' two copies beside the Baron that made the comparison. A tied player who plays one
#: of them still holds the tied card.
NEVER_TIED = frozenset(card for card in Card
                       if all(edition.copies.get(card, 0) < (3 if card is Card.BARON else 2) for edition in EDITIONS.values()))

Tie = tuple[int, int, int, int]
"""``(a, b, played_a, played_b)``: ``a`` and ``b`` hold the cards that tied (a King's trade moves a
card, and its side of the tie, to its new holder), and the cards played from each side since, as bit
masks by card number (but those in :data:`NEVER_TIED`). A player that has played from its side may
hold a card it drew instead of the tied one."""


def tied(ties: list[Tie], a: int, b: int) -> list[Tie]:
    """``a`` and ``b`` tied with a Baron."""
    return [*ties, (a, b, 0, 0)]


def played(ties: list[Tie], seat: int, card: Card) -> list[Tie]:
    """``seat`` played ``card``."""
    if card in NEVER_TIED or not ties:
        return ties
    bit = 1 << card
    return [(a, b, played_a | bit if a == seat else played_a, played_b | bit if b == seat else played_b)
            for a, b, played_a, played_b in ties]


def left(ties: list[Tie], seat: int) -> list[Tie]:
    """``seat``'s card went (discarded, knocked out, or maybe put under the deck by a Chancellor)."""
    return [tie for tie in ties if seat != tie[0] and seat != tie[1]]


def traded(ties: list[Tie], a: int, b: int) -> list[Tie]:
    """``a``'s King traded cards with ``b``: each side of a tie goes with its card."""
    def holder(seat: int) -> int:
        return b if seat == a else a if seat == b else seat

    return [(holder(x), holder(y), played_x, played_y) for x, y, played_x, played_y in ties]


def twins(ties: Iterable[Tie], seat: int, card: Card) -> dict[int, Card]:
    """``seat`` is seen to hold ``card``: the players it tied with that must hold the tied card, and
    that card.

    The tied card is either still in ``seat``'s hand or among the cards played from its side. So it
    is ``card`` if nothing else was played from that side; and if no tie can be on ``card``, it is
    the one card played from that side, if only one was. The other side holds it still unless it has
    played that card."""
    found: dict[int, Card] = {}
    for a, b, played_a, played_b in ties:
        if seat in (a, b):
            mine, twin, theirs = (played_a, b, played_b) if a == seat else (played_b, a, played_a)
            tied_card = _tied_card(mine, card)
            if tied_card is not None and not theirs >> tied_card & 1:
                found[twin] = tied_card
    return found


def _tied_card(played: int, held: Card) -> Card | None:
    """The tied card, if a side from which the cards in the mask ``played`` were played, and which
    holds ``held``, tells it."""
    if held in NEVER_TIED:
        return Card(played.bit_length() - 1) if played and not played & (played - 1) else None
    return held if not played & ~(1 << held) else None


def spread(ties: list[Tie], known: dict[int, Card], me: int | None = None) -> None:
    """Add to ``known`` (``me``'s knowledge of the others' cards) the twins of the cards it holds, and
    theirs in turn. Ties with a side of ``me``'s are left out: ``known`` holds no card of its own (what
    its own side tells is read where its card shows: a King's trade, a discard)."""
    others = [tie for tie in ties if me != tie[0] and me != tie[1]]
    spreading = bool(others)
    while spreading:
        spreading = False
        for seat, card in list(known.items()):
            for twin, same in twins(others, seat, card).items():
                if twin not in known and twin != me:
                    known[twin] = same
                    spreading = True
