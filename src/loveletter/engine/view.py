"""Per-seat views: exactly what one seat may know (docs/rules.md R7).

A :class:`View` is built from the public state, the seat's own hand and the events as that seat
sees them (secret parts of other seats' events blanked). It never reads another seat's hand, the
deck or the set-aside card. Bots and clients get views only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from loveletter.engine import ties
from loveletter.engine.actions import Action
from loveletter.engine.cards import Card, Edition
from loveletter.engine.errors import is_whole, quoted, typed
from loveletter.engine.events import Event
from loveletter.engine.match import Match
from loveletter.engine.round import Phase, Round


@dataclass(frozen=True)
class View:
    """What seat ``seat`` knows (``seat`` is ``None`` for a spectator: public information only)."""

    edition: Edition
    players: int
    seat: int | None
    round_number: int  # 1-based
    turn: int  # 1-based, within the round
    current: int  # whose decision it is
    phase: Phase
    hand: tuple[Card, ...]
    deck_size: int
    set_aside_taken: bool  # a Prince gave the set-aside card out (R5.5)
    face_up: tuple[Card, ...]
    discards: tuple[tuple[Card, ...], ...]
    alive: tuple[bool, ...]
    protected: tuple[bool, ...]
    knocked_out: tuple[int, ...]
    events: tuple[Event, ...]  # this round, as this seat sees them
    legal_actions: tuple[Action, ...]  # empty unless it is this seat's decision
    winners: tuple[int, ...]  # of the round, once it is over
    spy_bonus: int | None
    tokens: tuple[int, ...]
    target: int | None
    match_winners: tuple[int, ...]
    known: dict[int, Card] = field(default_factory=dict)  # seat -> card it is known to hold now

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def unseen(self) -> Counter[Card]:
        """The card tracker: how many of each card this seat has not seen face up or in hand."""
        left = Counter(self.edition.full_deck)
        left.subtract(self.hand)
        left.subtract(self.face_up)
        for pile in self.discards:
            left.subtract(pile)
        if self.over:
            for e in self.events:
                if e.kind == "reveal" and e.card is not None:
                    left[e.card] -= 1
                elif e.kind == "round_end" and e.cards:
                    left.subtract(e.cards)
        return +left

    def tracker(self) -> Counter[Card]:
        """The cards that may be in a hand this seat does not know, in the deck or set aside:
        :meth:`unseen`, less the cards this seat knows another player holds now (a Priest's look, a
        King's trade, a Baron tie). At the round's end every hand is shown, and :meth:`unseen`
        already counts them."""
        left = self.unseen()
        if not self.over:
            left.subtract(self.known.values())
        return +left

    def tracker_shown(self) -> Counter[Card]:
        """The card tracker shown to a player: :meth:`tracker`, less the cards it put under the deck
        itself (a Chancellor's), which it has seen and knows where they are; they are shown apart
        (:meth:`under_deck`)."""
        left = self.tracker()
        if not self.over:  # at the end the whole deck is shown, and counted already
            left.subtract(card for card in self.under_deck() if card is not None)
        return +left

    def under_deck(self) -> list[Card | None]:
        """The cards still under the deck from Chancellors, top first: those this seat put there as it
        did, another player's as ``None``. They are drawn in the order they were put there, once the
        rest of the deck is gone (the deck is drawn from the top and filled from the bottom)."""
        deck = _Deck(self.seat)
        for e in self.events:
            deck.follow(e)
        return deck.bottom[::-1]

    def under_deck_shown(self) -> list[Card | None]:
        """:meth:`under_deck`, and at the round's end every card there named, another player's too:
        the whole deck is then shown (R6.5), the cards under it last."""
        under = self.under_deck()
        if self.over and under:
            for e in self.events:
                if e.kind == "round_end" and e.cards is not None:
                    return list(e.cards[len(e.cards) - len(under):])  # (the deck's last cards, top first)
        return under

    def private_events(self) -> list[Event]:
        """Events whose secret this seat shares with at most one other (Priest, Baron, King,
        Chancellor, a Prince's set-aside card), excluding plain draws and deals."""
        if self.seat is None:
            return []
        return [
            e for e in self.events
            if e.secret and self.seat in e.privy and (e.kind not in ("deal", "draw") or e.result)
        ]


def view(state: Match | Round, seat: int | None) -> View:
    """The view of ``state`` for ``seat`` (``None``: a spectator)."""
    if isinstance(state, Match):
        match: Match | None = state
        rnd = state.round
    else:
        match, rnd = None, state
    if seat is not None:
        if not is_whole(seat):  # (True was taken as seat 1, and shown as the seat True)
            raise TypeError(f"a seat is a whole number (or None, a spectator), not {typed(seat)}")
        if not 0 <= seat < rnd.players:
            raise ValueError(f"there is no seat {quoted(seat)} in a {rnd.players}-player game")
        seat = int(seat)  # (a numpy integer too)
    events = tuple(e.seen_by(seat) for e in (rnd.log or ()))
    mine = seat is not None and seat == rnd.current and not rnd.over
    return View(
        edition=rnd.edition,
        players=rnd.players,
        seat=seat,
        round_number=len(match.rounds) if match else 1,
        turn=rnd.turn,
        current=rnd.current,
        phase=rnd.phase,
        hand=tuple(rnd.hands[seat]) if seat is not None else (),
        deck_size=len(rnd.deck),
        set_aside_taken=any(e.kind == "draw" and e.result == "set_aside" for e in events),
        face_up=rnd.face_up,
        discards=tuple(tuple(d) for d in rnd.discards),
        alive=tuple(rnd.alive),
        protected=tuple(rnd.protected),
        knocked_out=tuple(rnd.knocked_out),
        events=events,
        legal_actions=rnd.legal_actions() if mine else (),
        winners=rnd.winners,
        spy_bonus=rnd.spy_bonus,
        tokens=tuple(match.tokens) if match else (0,) * rnd.players,
        target=match.target if match else None,
        match_winners=match.winners if match else (),
        known=known_hands(events, seat),
    )


def known_hands(events: tuple[Event, ...] | list[Event], seat: int | None, *,
                under_deck: bool = True) -> dict[int, Card]:
    """For each other seat whose card ``seat`` can be sure of now, that card.

    Follows the events in order: a Priest look, a Baron tie or a King trade teaches a card (so does a
    tie between two others, once one of the two cards is known or shown: see
    :mod:`loveletter.engine.ties`); a King
    moves what is known with the cards; playing a card other than the known one keeps it known;
    playing the same card, a Prince's discard, a Chancellor's return or leaving the round forgets it.
    With ``seat`` ``None``, what anyone can tell from the public events alone (a tied card shown).
    A card that ``seat``'s own Chancellor put under the deck is known where it goes once another
    player draws it: that player holds it, unless it plays it (:class:`_Deck`; not with
    ``under_deck=False``, as the expert's simulated players, which do not follow the deck, know).
    """
    return _follow_hands(events, seat, under_deck)[0]


def known_draws(events: tuple[Event, ...] | list[Event], seat: int | None) -> dict[int, Card]:
    """For the player to move, if it drew a card ``seat`` put under the deck with its Chancellor, that
    card: it holds it beside another until it plays (:func:`known_hands` knows its card only then)."""
    return _follow_hands(events, seat, under_deck=True)[1]


def _follow_hands(events: tuple[Event, ...] | list[Event], seat: int | None,
                  under_deck: bool) -> tuple[dict[int, Card], dict[int, Card]]:
    """:func:`known_hands` and :func:`known_draws`, from one walk through the events."""
    known: dict[int, Card] = {}
    drawn: dict[int, Card] = {}  # a player who drew a card we put under the deck, before it plays
    deck = _Deck(seat)
    standing: list[ties.Tie] = []  # the Baron ties between two others
    shown: dict[int, Card] = {}
    before: Event | None = None
    for e in events:
        kind = e.kind
        if standing or kind == "baron":  # (before ``drawn`` forgets a draw)
            standing, shown = _follow_ties(standing, e, seat, drawn)
        card = deck.follow(e) if under_deck else None
        if card is not None and e.seat is not None:
            if before is not None and before.kind == "discard" and before.seat == e.seat:
                known[e.seat] = card  # a Prince made it draw: its only card
            else:
                drawn[e.seat] = card  # beside the card it held
        before = e
        if kind == "play" and e.seat in drawn:
            # it held the card drawn and one other, and holds what it did not play (if that was the
            # card drawn, what was known of the other stays known)
            mine = drawn.pop(e.seat)
            if e.card is not mine:
                known[e.seat] = mine
        elif kind == "priest" and e.seat == seat and e.card is not None and e.target is not None:
            known[e.target] = e.card
        elif kind == "baron" and e.cards is not None and seat in (e.seat, e.target):
            # we took part and saw both cards (a tie between others: see _follow_ties)
            other, theirs = (e.target, e.cards[1]) if e.seat == seat else (e.seat, e.cards[0])
            if other is not None:
                known[other] = theirs
        elif kind == "king" and e.seat is not None and e.target is not None:
            a, b = e.seat, e.target
            # The cards show only to the two who traded; in another seat's events they may show
            # too (the viewer's own trade), but ``seat`` learnt them only if it took part.
            if seat in (a, b) and e.cards is not None:  # we took part: we know both hands now
                other = b if a == seat else a
                known[other] = e.cards[1] if a == seat else e.cards[0]
            else:  # others traded: what we knew moves with the cards
                ka, kb = known.pop(a, None), known.pop(b, None)
                if ka is not None:
                    known[b] = ka
                if kb is not None:
                    known[a] = kb
        elif kind == "play" and e.seat in known and e.card == known[e.seat]:
            del known[e.seat]  # R4.3: it may have been the known card that was played
        elif kind in ("discard", "out", "bottom") and e.seat in known:
            del known[e.seat]
        if shown:
            known.update(shown)
            shown = {}
        if standing:
            ties.spread(standing, known, seat)
        if seat is not None:
            known.pop(seat, None)
    return known, drawn


def standing_ties(events: tuple[Event, ...] | list[Event]) -> list[ties.Tie]:
    """The Baron ties of the events, as every player can follow them (:mod:`loveletter.engine.ties`)."""
    standing: list[ties.Tie] = []
    for e in events:
        standing = _follow_ties(standing, e, None, {})[0]
    return standing


def _follow_ties(standing: list[ties.Tie], e: Event, seat: int | None,
                 drawn: dict[int, Card]) -> tuple[list[ties.Tie], dict[int, Card]]:
    """The ties after the event ``e``, as ``seat`` sees it (``None``: a spectator), and the cards ``e``
    shows of the tied players. A tie of its own it knows the card of, and leaves out; a side a King's
    trade brings it is followed. ``drawn``: the card a player drew that ``seat`` put under the deck
    (:func:`known_draws`), not forgotten yet."""
    a, b, kind = e.seat, e.target, e.kind
    shown: dict[int, Card] = {}
    if a is None or not (standing or kind == "baron"):
        return standing, shown
    if kind == "baron" and e.result == "tie" and b is not None and seat not in (a, b):
        standing = ties.tied(standing, a, b)
    elif kind == "play" and e.card is not None:
        if a in drawn and e.card is not drawn[a]:  # it played the card it held before that draw
            shown = ties.twins(standing, a, e.card)
        standing = ties.played(standing, a, e.card)
    elif kind in ("discard", "out", "chancellor"):  # (a Chancellor's return follows its draw)
        if kind == "discard" and e.card is not None:  # a Prince's discard
            shown = ties.twins(standing, a, e.card)
        elif kind == "out" and e.cards is not None and len(e.cards) == 1:  # the card it held, shown
            shown = ties.twins(standing, a, e.cards[0])
        standing = ties.left(standing, a)
    elif kind == "king" and b is not None:
        standing = ties.traded(standing, a, b)
        if seat in (a, b) and e.cards is not None:  # a side of a tie that came to us with a card we see
            shown = ties.twins(standing, seat, e.cards[0 if a == seat else 1])
    return standing, shown


class _Deck:
    """The deck as one seat can follow it: how many cards are left, and which of the bottom cards
    that seat put there itself (with a Chancellor), so that it knows what is still under the deck
    (:meth:`View.under_deck`) and the card another player draws from there (:func:`known_hands`). The
    deck is drawn from the top and filled from the bottom (R5.9)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.size = 0
        self.bottom: list[Card | None] = []  # the cards put under the deck, bottom card first; others' as None
        self._dealing = False

    def follow(self, e: Event) -> Card | None:
        """Follow the event ``e``. Returns the card another player drew, if this seat put it there."""
        kind = e.kind
        if kind == "setup":  # its count includes the starter's first draw, which follows the deal
            self.size, self.bottom, self._dealing = int(e.result or 0) - 1, [], True
        elif kind == "draw":
            if self._dealing or e.result == "set_aside":
                self._dealing = False
                return None
            card = self._take()
            return card if e.seat != self.seat else None
        elif kind == "chancellor":  # what another keeps of the cards it drew is not known
            for _ in range(int(e.result or 0)):
                self._take()
        elif kind == "bottom" and e.seat is not None:
            ours = e.seat == self.seat and e.cards is not None
            # the last card listed goes to the very bottom
            returned = list(reversed(e.cards)) if ours and e.cards is not None else [None] * int(e.result or 0)
            self.bottom[:0] = returned
            self.size += len(returned)
        return None

    def _take(self) -> Card | None:
        """Draw the top card: the card, if this seat put it there."""
        self.size -= 1
        return self.bottom.pop() if len(self.bottom) > self.size else None


def draws_from_under(events: tuple[Event, ...] | list[Event], seat: int) -> dict[int, tuple[int, int]]:
    """Each draw of ``seat``'s of a card that a Chancellor put under the deck, by its number among the
    ``events``: where it was put, as (the number of that "bottom" event, the card's place among its
    cards). ``seat`` knows what it drew, so another player who put it there knows where it went."""
    drawn: dict[int, tuple[int, int]] = {}
    if not any(e.kind == "bottom" for e in events):  # (no Chancellor has put any: the most often)
        return drawn
    deck = _Deck(seat)
    put: list[tuple[int, int]] = []  # beside ``deck.bottom``: where each card there was put
    for i, e in enumerate(events):
        before = len(deck.bottom)
        deck.follow(e)
        after = len(deck.bottom)
        if e.kind == "setup":
            put = []
        elif after > before:  # the last card listed goes to the very bottom
            put[:0] = [(i, place) for place in reversed(range(after - before))]
        elif after < before:  # drawn from the top of those put there
            taken = put[after:]
            del put[after:]
            if e.kind == "draw" and e.seat == seat:
                drawn[i] = taken[-1]
    return drawn
