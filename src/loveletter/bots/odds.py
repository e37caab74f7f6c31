"""What each player's plays say of the card it holds, read as the plays of a random player.

A player who picks any legal play at random almost always plays a Guard it holds: a Guard offers one
play per card it may name at each target, a Handmaid one play in all. So one who played something else
rarely holds a Guard, though the cards unseen say a Guard is the likeliest. The beginner reads every
player so (docs/bots.md: against the random bot it wins 0.4 points more), and so do the expert's
simulated players, who play as the beginner does.

The reading is kept per seat as a *weight* per card (by number): how much likelier the seat's plays
made each card, so that the chance that it holds card ``c`` is in proportion to ``unknown[c] *
weight[c]``, whatever the counts ``unknown`` of the player reading it (:func:`weighed`). Only public
events are read, so every player reads the same weights, and a simulated round carries them move by
move (:func:`read_play`, :func:`read_king`, :func:`forget`).
"""

from __future__ import annotations

from collections.abc import Sequence

from loveletter.engine import CARDS, Card, Edition, Event, legal_plays

EVEN: tuple[float, ...] = (1.0,) * len(CARDS)  # the weights of a card nothing has been read of

PlayOdds = list[tuple[float, ...]]
"""Per seat, the weight of each card (by number) that its plays give (see the module)."""


def even(players: int) -> PlayOdds:
    """The play odds before anyone has played."""
    return [EVEN] * players


def read_play(odds: PlayOdds, pool: Sequence[int], seat: int, card: Card, choosable: int,
              edition: Edition) -> None:
    """Read ``seat``'s play of ``card``, made when the seats in the bit mask ``choosable`` could be
    chosen; ``pool`` counts the cards (by number) not public before the play, the two in its hand
    among them. Its hand was the card it held (by its weights) and one drawn from the rest of the
    pool; a random player holding the two plays ``card`` in the share of its legal plays that do."""
    played = int(card)
    copies = pool[played]
    if copies <= 0 or sum(pool) <= 1:  # nothing to read (a hand the pool cannot hold)
        odds[seat] = EVEN
        return
    prior = [n * w for n, w in zip(pool, odds[seat], strict=True)]  # the card held before the draw
    if sum(prior) <= 0:  # the weights ruled out every card left: read from the pool alone
        prior = list(pool)
    mine = prior[played]
    # the chance of each card kept beside the card played: held the card played and drew it, or the
    # other way round, times a random player's share of plays of the card played with the two
    kept = [(mine * n + other * copies) * share
            for n, other, share in zip(pool, prior, _shares(edition, played, choosable, seat), strict=True)]
    kept[played] = mine * (copies - 1)  # held one, drew another
    scale = sum(kept)
    if scale <= 0:
        odds[seat] = EVEN
        return
    after = list(pool)
    after[played] -= 1
    odds[seat] = tuple(k / (scale * n) if n > 0 else 0.0 for k, n in zip(kept, after, strict=True))


def _shares(edition: Edition, played: int, choosable: int, seat: int) -> tuple[float, ...]:
    """For each other card (by number), the share of a random player's legal plays, holding
    ``played`` and that card, that play ``played`` (read often: each play in every play-out)."""
    key = (edition.name, played, choosable, seat)
    found = _SHARES.get(key)
    if found is None:
        shares = []
        for other in CARDS:
            if other != played and edition.copies.get(other, 0):
                plays = legal_plays(edition, (CARDS[played], other), choosable, seat)
                shares.append(sum(1 for play in plays if play.card == played) / len(plays))
            else:  # two of the card played (read_play counts them apart), or a card not in the edition
                shares.append(0.0)
        found = _SHARES[key] = tuple(shares)
    return found


_SHARES: dict[tuple[str, int, int, int], tuple[float, ...]] = {}


def read_miss(odds: PlayOdds, target: int, guess: Card) -> None:
    """A Guard named ``guess`` at ``target`` and missed (R5.1): not that card."""
    weights = list(odds[target])
    weights[guess] = 0.0
    odds[target] = tuple(weights)


def read_king(odds: PlayOdds, seat: int, target: int) -> None:
    """``seat`` and ``target`` traded hands (R5.6): each card's reading goes with it."""
    odds[seat], odds[target] = odds[target], odds[seat]


def forget(odds: PlayOdds, seat: int) -> None:
    """``seat``'s card changed unseen (a Prince's discard and a new card, a Chancellor's return)."""
    odds[seat] = EVEN


def weighed(unknown: Sequence[float], weights: Sequence[float]) -> list[float] | None:
    """``unknown`` (counts by card number) weighed by a seat's ``weights``, and scaled to the same sum:
    in the same units as the counts, for the beginner's rules. ``None`` where the weights leave
    nothing (every card they allow is known to be elsewhere)."""
    total = sum(unknown)
    x = [n * w for n, w in zip(unknown, weights, strict=True)]
    scale = sum(x)
    if scale <= 0:
        return None
    return [v * total / scale for v in x]


class PlayReading:
    """The play odds read from a round's events as they come (:meth:`read`), with what reading them
    needs: the cards not yet public, who is protected and who is out."""

    __slots__ = ("edition", "odds", "out", "pool", "protected")

    def __init__(self, edition: Edition, players: int) -> None:
        self.edition = edition
        self.odds = even(players)
        self.pool = list(edition.counts)
        self.protected = 0  # bit masks of seats
        self.out = 0

    def choosable(self, seat: int) -> int:
        """The players ``seat`` may choose now (a bit mask): not out, not protected, not itself."""
        return ((1 << len(self.odds)) - 1) & ~(self.out | self.protected | 1 << seat)

    def read(self, e: Event) -> None:
        """Read the public part of ``e``."""
        kind, seat = e.kind, e.seat
        if kind == "setup":
            for card in e.cards or ():
                self.pool[card] -= 1
        if seat is None:
            return
        if kind == "play" and e.card is not None:
            self.protected &= ~(1 << seat)  # R4.2: protection ends as the turn begins
            read_play(self.odds, self.pool, seat, e.card, self.choosable(seat), self.edition)
            self.pool[e.card] -= 1
            if e.card is Card.HANDMAID:
                self.protected |= 1 << seat
            if e.card is Card.GUARD and e.result == "miss" and e.target is not None and e.guess is not None:
                read_miss(self.odds, e.target, e.guess)
        elif kind == "discard" and e.card is not None:
            self.pool[e.card] -= 1
            forget(self.odds, seat)
        elif kind == "king" and e.target is not None:
            read_king(self.odds, seat, e.target)
        elif kind in ("chancellor", "bottom"):
            forget(self.odds, seat)
        elif kind == "out":
            self.out |= 1 << seat
            self.protected &= ~(1 << seat)
            for card in e.cards or ():
                self.pool[card] -= 1


def play_odds(events: Sequence[Event], edition: Edition, players: int) -> PlayOdds:
    """The play odds after ``events``."""
    reading = PlayReading(edition, players)
    for e in events:
        reading.read(e)
    return reading.odds
