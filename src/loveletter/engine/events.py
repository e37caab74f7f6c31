"""Events: what happened in a round, each saying who may see which part of it (docs/rules.md R7).

An event's ``secret`` fields are seen only by the seats in ``privy``; everyone else gets the event
with those fields blanked (:meth:`Event.seen_by`). Events with no secret are public.

=================  ==============================================  =============================
kind               fields                                          secret (privy)
=================  ==============================================  =============================
``setup``          seat=starter, cards=face-up cards, result=deck  —
``deal``           seat, card                                      card (seat)
``draw``           seat, card; result="set_aside" for R5.5         card (seat)
``play``           seat, card, target, guess; result for a Guard   —
                   ("hit"/"miss"), "no_effect" for a Chancellor
                   on an empty deck
``priest``         seat looked at target, card = target's card     card (seat)
``baron``          seat vs target, cards = (seat's, target's);     cards (seat, target)
                   result "tie" or "win"/"loss" (for seat)
``discard``        seat discards card because of a Prince (R5.5)   —
``king``           seat traded with target, cards = (what seat     cards (seat, target)
                   now holds, what target now holds)
``chancellor``     seat drew cards; result = how many              cards (seat)
``bottom``         seat kept card, returned cards (in order);      card, cards (seat)
                   result = number returned
``out``            seat is out; cards = hand revealed; result =    —
                   the cause: guard, baron, princess (played or
                   discarded to a Prince)
``showdown``       the deck is empty at the end of a turn (R6.2):  —
                   seats = the players still in, who compare
                   their hands
``reveal``         seat shows its hand at the end of the round     —
                   (R6.2, R6.5); seat None: the set-aside card
``round_end``      seats = winners, target = Spy bonus seat        —
                   (R6.4), cards = the deck left, top first;
                   result = how a tie for the highest card was
                   settled (R6.3): "discard_total" (classic: the
                   highest discard total), "discard_total_tie"
                   (those tied too: all win), "tie" (2019: all
                   win); None where there was none
=================  ==============================================  =============================
"""

from __future__ import annotations

from typing import NamedTuple

from loveletter.engine.cards import Card

PUBLIC: frozenset[int] = frozenset()
#: ``ONLY[s]`` is the privy set of seat ``s`` alone (shared, to keep logging cheap).
ONLY: tuple[frozenset[int], ...] = tuple(frozenset((s,)) for s in range(8))


class Event(NamedTuple):
    """One thing that happened (an immutable value; a named tuple because rounds log many)."""

    kind: str
    seat: int | None = None
    target: int | None = None
    card: Card | None = None
    guess: Card | None = None
    cards: tuple[Card, ...] | None = None
    seats: tuple[int, ...] | None = None
    result: str | int | None = None
    secret: tuple[str, ...] = ()
    privy: frozenset[int] = PUBLIC

    def seen_by(self, seat: int | None) -> Event:
        """This event as ``seat`` may know it (``None``: a spectator, public part only)."""
        if not self.secret or (seat is not None and seat in self.privy):
            return self
        return self._replace(**{name: None for name in self.secret})  # type: ignore[arg-type]
