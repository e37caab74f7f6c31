"""What one seat can believe about the hidden cards: an exact belief over every possible deal.

The model: every shuffle of the deck is equally likely, and a deal is *possible* when everything the
seat has seen could have happened with it — its own cards, every public play and its result, and its
private knowledge (Priest looks, King trades, Baron results and ties, Chancellor draws, the set-aside
card a Prince gave it). By default the other players' choices are not modelled (every deal that
allows a play keeps its weight), except that a choice the seat cannot see — which cards another
player's Chancellor kept and returned, and in what order — is taken to be uniform. Given a
:data:`Reader`, each deal is also weighed by how likely the hands in it were to make the plays seen
(how a strong player reads the table: see :mod:`loveletter.bots.reading`). Among possible deals the
belief is exact: it conditions on the Countess rule, failed Guard guesses, Baron outcomes between
other players, King trades moving cards, cards put under the deck, and what the seat's own draws
reveal about the others (a card it drew is one they cannot hold).

The belief is a table of *hypotheses*: each opponent's hand (as a sorted tuple, empty once out) and
the cards under the deck from Chancellors (top first), each with a weight proportional to the number
of deals behind it. The other hidden cards — the set-aside card and the rest of the deck — are then
a uniform shuffle of what is left (the hypothesis' *pool*).

Another player's unseen draw and the play that follows it are read as one update: of each deal, only
the draws that leave the card played in its hand are built, never the table of every card it may have
drawn (several times larger). For many opponents, or after Chancellors return cards, the table can
still grow large; above :data:`MAX_HYPOTHESES` (:data:`MAX_HYPOTHESES_CROWDED` with five or six
players, :data:`MAX_HYPOTHESES_TWO` with two) it is resampled by weight (then :attr:`Belief.exact` is
``False``; a draw read alone, such as a deal, that is sure to take it past the cap draws the resampled
deals straight away, without the whole table). Should
that ever leave no deal that fits the next events, or so few that they no longer spread the odds (an
effective number of deals under :data:`MIN_SPREAD` after any event that is not a draw, or all sure of
a hand nothing revealed), it starts
again from the public state, what the seat knows of the others' hands and what is public about them
(:func:`~loveletter.bots.facts.ruled_out`), and, given a reader, weighs each card by the play it was
kept beside (:func:`~loveletter.bots.facts.last_plays`). In measurements
the classic edition (2 to 4 players) and the 2019 edition with two players stay exact; with three or
four players in 2019 the belief turns approximate once Chancellors have been played, and with five or
six it is approximate from the deal (``benchmarks/belief_spread.py`` measures how well it then
gives the card really held its chance).

>>> from loveletter.engine import Match, view
>>> m = Match(players=2, seed=1)
>>> b = Belief(view(m, 0))
>>> round(sum(b.hand_odds(1).values()), 9)
1.0
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, permutations, product
from typing import Generic, Protocol, TypeVar, cast

from loveletter.bots.facts import (
    STILL_KNOWN,
    known_to,
    last_plays,
    publicly_possible,
    ruled_out_and_ties,
    who_knows_mine,
)
from loveletter.bots.odds import PlayOdds, PlayReading
from loveletter.bots.rule_based import after_event, countess_tells
from loveletter.engine import CARDS, Action, Card, Edition, Event, View, known_draws

#: A table with more hypotheses than this is resampled down to half as many (:meth:`Belief._resample`),
#: so that it has room to grow again before the next resampling.
MAX_HYPOTHESES = 6_000
#: The same with five or six players, where the table grows fastest and each event costs most.
MAX_HYPOTHESES_CROWDED = 1_500
#: The same with two players, where a table this large is rare and kept exact: two Chancellors of the
#: other player (each putting two cards under the deck, in an order only it knows) took 2019 tables
#: past 6,000 deals in 0.6% of rounds, to 74,850 at most (4,000 rounds of beginner and random bots;
#: an update of that table took 0.4 s).
MAX_HYPOTHESES_TWO = 100_000
#: An approximate table whose effective number of deals (one over the sum of the squared weights)
#: falls below this starts again (:meth:`Belief._recover`). Once the events have filtered a resampled
#: table down to a few deals, those deals no longer spread the odds over the cards really possible:
#: with five or six players the table was left showing a card as certain that nothing had revealed.
MIN_SPREAD = 200
#: In an approximate table, the share of each hand's odds (:meth:`Belief.hand_odds`) that goes to the
#: cards the public facts leave possible for it, in proportion to how many are unseen: a table
#: filtered down to its samples can lose a card the player may well hold, which must still show as
#: possible (under 1%), not as impossible.
FLOOR = 0.01

Reader = Callable[[Edition, tuple[Card, ...], Action, int, int, list[int], dict[int, Card], int, PlayOdds | None], float]
"""``reader(edition, hand, play, seat, choosable, seen, known, tells, odds)``: how likely ``seat``,
holding ``hand``, was to make ``play`` when it could choose the seats in the bit mask ``choosable``,
had seen the cards counted in ``seen`` (by number: face up and discarded), knew the hands in
``known``, took the seats in the bit mask ``tells`` to be told by the Countess
(rule_based.countess_tells) and read the plays before as ``odds`` said (bots.odds; see
:func:`loveletter.bots.playout.chance_of_play`)."""

Hands = tuple[tuple[Card, ...] | None, ...]  # per seat; None for the believer's own seat and for seats out
Key = tuple[Hands, tuple[Card, ...]]  # (hands, cards under the deck from Chancellors, top first)


@dataclass(frozen=True)
class World:
    """One sampled deal of the hidden cards, consistent with the view (a determinisation)."""

    hands: tuple[tuple[Card, ...], ...]  # every seat's hand now (the believer's as it is)
    deck: tuple[Card, ...]  # top card first
    set_aside: Card | None


class Belief:
    """The belief of ``view.seat`` over the hidden cards, built from the view's events.

    Feed later views of the same round with :meth:`update`; only new events are read.
    """

    def __init__(self, view: View, reader: Reader | None = None) -> None:
        if view.seat is None:
            raise ValueError("a belief is held by a seat, not by a spectator")
        self.seat = view.seat
        self.edition: Edition = view.edition
        self.players = view.players
        self.exact = True
        self.rng = random.Random(0)  # only for resampling an oversized table
        self.table: dict[Key, float] = {((None,) * view.players, ()): 1.0}
        self.public: Counter[Card] = Counter()  # face up and discarded
        self.mine: list[Card] = []  # the believer's hand as it goes
        self.deck_size = 0
        self.bottom_size = 0  # cards under the deck from Chancellors
        self.set_aside_present = True
        self.baron_winner: int | None = None
        # For reading the others' choices (see ``reader``): the view being read and where in its
        # events (what the player making a play knew of the believer's card then: see _weigh_play);
        # who is out or protected, ``plays`` below keeps.
        self.reader = reader
        self.evidence = 0.0  # log of how likely the events were under this belief's model
        self._view = view
        self._at = 0
        # bit mask of the seats told by the Countess (rule_based.countess_tells), and what the plays say
        # of the cards (bots.odds)
        self.tells = 0
        self.plays = PlayReading(view.edition, view.players)
        self.public_odds: dict[int, dict[Card, float]] = {}  # per seat, while the table is approximate
        # Seats whose hands no event has touched but their deal and draws from the shuffled deck:
        # their cards are exchangeable with the pool (see hand_odds).
        self.touched: set[int] = set()
        self.read = 0
        # the table that sample() draws from, its keys and their running sums: a search samples it
        # a thousand times, and summing a table of tens of thousands of deals each time took seconds
        self._drawn_from: tuple[dict[Key, float], list[Key], list[float]] | None = None
        self.update(view)

    # ------------------------------------------------------------------------ reading events

    def update(self, view: View) -> None:
        """Read the events of ``view`` not read yet (``view`` is a later view of the same round).
        With none, nothing changes: asked again at the same point, the belief is the same (a table
        started again anew each time drifted, as its resampling drew other deals)."""
        events = view.events[self.read:]
        if not events:
            return
        for event in events:  # whatever happens to the table below (a table that starts again reads no event)
            self.touched.update(_touches(event))
        lowest = math.inf  # the approximate table's least spread after an event that is not a draw
        self._view = view
        try:
            at = 0
            while at < len(events):
                event = events[at]
                follows = events[at + 1] if at + 1 < len(events) else None
                if follows is not None and self._draws_unseen_then_plays(event, follows):
                    self.deck_size -= 1
                    self._at = self.read + at + 1
                    self._play(follows, drawn_first=True)
                    event, at = follows, at + 2
                else:
                    self._at = self.read + at
                    self._read(event)
                    at += 1
                self.tells = after_event(self.tells, event)  # after the play is read: it was chosen before
                self.plays.read(event)
                if not self.exact and event.kind not in _DRAWS:
                    lowest = min(lowest, _spread(self.table))
        except _Lost:
            self._recover(view)  # (the evidence of the events not read is not counted)
        else:
            if not self.exact:
                self._start_again_if_wider(view, lowest)
        if view.over:
            self._all_shown(events)
        self.read = len(view.events)
        self.public_odds = {} if self.exact else _public_odds(view)

    def _all_shown(self, events: Sequence[Event]) -> None:
        """At the round's end every card is shown (R6.5), and the table becomes the one deal shown,
        whatever it held (it read on as if the hands were still hidden: a hand shown to be a Prince
        was still given 10% of a Guard). ``events``: the round's last, with the showing."""
        hands: list[tuple[Card, ...] | None] = [None] * self.players
        for e in events:
            if e.kind == "reveal" and e.card is not None:
                if e.seat is None:  # the set-aside card
                    self.public[e.card] += 1
                elif e.seat != self.seat:
                    hands[e.seat] = (e.card,)
            elif e.kind == "round_end":
                self.public.update(e.cards or ())
        self.table = {(tuple(hands), ()): 1.0}
        self.exact = True
        self.set_aside_present = False
        self.deck_size = self.bottom_size = 0

    def _start_again_if_wider(self, view: View, lowest: float = math.inf) -> None:
        """Start again (:meth:`_recover`) if the table spreads too little (:data:`MIN_SPREAD`) or is
        sure of a hand nothing revealed, and only if the table started again is wider: late in a
        round there may be few deals left, and the old table may know more than the new one can.
        ``lowest``: its least spread after the events just read that are not draws (a draw after a
        collapse multiplies the few deals left by the cards drawn, and would hide it)."""
        spread, sure = min(_spread(self.table), lowest), self._sure_unseen(view)
        if spread >= MIN_SPREAD and not sure:
            return
        before = dict(self.__dict__)  # _recover replaces these, never changes them in place (its generator goes on)
        self._recover(view)
        if _spread(self.table) <= spread and not (sure and not self._sure_unseen(view)):
            self.__dict__.update(before)

    def _recover(self, view: View) -> None:
        """A resampled (approximate) table dropped every deal the new events allow, or kept too few
        to spread the odds: start again from what is public now, what this seat knows of the others'
        hands (``view.known``) and what is public about them (the cards ruled out, and two players
        holding the cards of a Baron tie, which a King's trade may have moved, holding the same card:
        :func:`~loveletter.bots.facts.ruled_out_and_ties`),
        and who knows this seat's card. The evidence read so far stands (building the new table is no
        event)."""
        evidence = self.evidence
        self.exact = False
        self.public = Counter(view.face_up)
        for pile in view.discards:
            self.public.update(pile)
        self.tells = countess_tells(view.events)
        self.plays = PlayReading(view.edition, view.players)
        for event in view.events:
            self.plays.read(event)
        self.mine = list(view.hand)
        self.deck_size, self.bottom_size = view.deck_size, 0  # the cards under the deck come last
        self.set_aside_present = not view.set_aside_taken
        self.baron_winner = None
        self.table = {((None,) * self.players, ()): 1.0}
        under = view.under_deck()
        mine_under = [card for card in under if card is not None]
        self.public.update(mine_under)  # in no one's hand: hidden from the others' draws below
        others = [s for s in range(self.players) if s != self.seat and view.alive[s]]
        drawn = known_draws(view.events, self.seat)  # a card of ours the player to move drew
        # the cards known to be in hands first, so that no hand drawn before has taken the last copy
        for seat in others:
            if seat in view.known:
                self._give(seat, view.known[seat])
            if seat in drawn:
                self._give(seat, drawn[seat])
        # Then each hand in turn, kept to what is public about it as soon as it is whole: filtered
        # only at the end, a table resampled on the way (five or six players) kept few of its deals
        # where two tied players held the same card (an effective 37 deals of 750, the median over
        # 73 six-player checks). The players those facts concern come first, while the table is small.
        out, ties = ruled_out_and_ties(view)
        ties = {(a, b) for a, b in ties if a in others and b in others}
        tied = {seat for pair in ties for seat in pair}
        whole = {seat for seat in others if seat in view.known and seat != view.current}
        for seat in sorted(others, key=lambda s: (s not in tied, not out.get(s), s)):
            if seat not in view.known:
                self._opponent_draws(seat)
            if seat == view.current:  # the player to move holds more: two (three after a Chancellor)
                for _ in range(self._held_by_current(view) - (seat in drawn)):
                    self._opponent_draws(seat)
            whole.add(seat)
            self._keep_fitting(seat, out.get(seat, set()), [pair for pair in ties if seat in pair and set(pair) <= whole],
                               drawn)
        self.public.subtract(mine_under)
        self._put_under(under)
        if self.reader is not None:
            self._reread(view)
        self.evidence = evidence

    def _keep_fitting(self, seat: int, ruled_out: set[Card], ties: list[tuple[int, int]],
                      drawn: dict[int, Card]) -> None:
        """Keep the deals in which ``seat``'s card before its known draw (``drawn``) is not one
        ``ruled_out``, and both players of each pair in ``ties`` may hold the same card; where no
        deal is left (a resampled table may lack them all), the table goes without that fact."""
        def held(hands: Hands, s: int) -> tuple[Card, ...]:
            return _held_before(hands[s], drawn.get(s)) or ()

        def alike(a: int, b: int) -> Callable[[Hands], bool]:  # (drawn for each alone, they mostly differed)
            return lambda hands: bool(set(held(hands, a)) & set(held(hands, b)))

        if ruled_out:
            self._filter(lambda hands: not _all_ruled_out(held(hands, seat), ruled_out), or_all=True)
        for a, b in ties:
            self._filter(alike(a, b), or_all=True)

    def _put_under(self, under: list[Card | None]) -> None:
        """Put the cards under the deck (:meth:`~loveletter.engine.View.under_deck`) into the table:
        this seat's own as it put them there, another player's (``None``) drawn from what is left."""
        for i, card in enumerate(under):
            if card is not None:
                self._map(_with_under(card))
                continue
            unseen = self._unseen()
            for later in under[i + 1:]:  # this seat's cards further down are not there to be drawn
                if later is not None:
                    unseen[later] -= 1
            new: dict[Key, float] = {}
            for (hands, bottom), w in self.table.items():
                for kind, count in enumerate(self._pool((hands, bottom), unseen)):
                    if count > 0:
                        _add(new, (hands, bottom + (CARDS[kind],)), w * count)
            self._replace(new)
        self.bottom_size = len(under)

    def _reread(self, view: View) -> None:
        """Weigh a rebuilt table by how likely each player's card made the play it was kept beside
        (:func:`~loveletter.bots.facts.last_plays`), as ``self.reader`` judges it, with what each
        player knew of this seat's card then: the most telling part of what the events
        said of the hands now, which the rebuilt table would otherwise forget."""
        assert self.reader is not None
        for seat, last in last_plays(view).items():
            if seat in view.known:
                continue
            known = {self.seat: last.knew_mine} if last.knew_mine is not None else {}
            chance: dict[Card, float] = {}
            new: dict[Key, float] = {}
            for key, w in self.table.items():
                hand = key[0][seat]
                if hand is None or len(hand) != 1:
                    new[key] = w
                    continue
                p = chance.get(hand[0])
                if p is None:
                    p = chance[hand[0]] = self.reader(self.edition, _sorted((hand[0], last.play.card)), last.play,
                                                      last.player, last.choosable, last.seen, known, last.tells,
                                                      last.odds)
                if p > 0:
                    new[key] = w * p
            if new:  # a resampled table may lack the deals left: then it goes without
                self._replace(new)

    def _sure_unseen(self, view: View) -> bool:
        """Whether the table is sure of the card of a player whose card this seat has not seen (every
        deal left gives it the same card), where the public facts do not make it sure (then a table
        started again would be as sure, and thrown away)."""
        public: dict[int, Counter[Card]] | None = None
        for seat in range(self.players):
            if seat != self.seat and view.alive[seat] and seat not in view.known:
                held: Card | None = None
                for hands, _ in self.table:
                    hand = hands[seat]
                    if hand is None or len(hand) != 1 or held not in (None, hand[0]):
                        break
                    held = hand[0]
                else:
                    public = publicly_possible(view) if public is None else public
                    if len(public.get(seat, ())) != 1:
                        return True
        return False

    def _read(self, e: Event) -> None:
        me = self.seat
        kind = e.kind
        if kind == "setup":
            self.public.update(e.cards or ())
            self.deck_size = int(e.result or 0)
        elif kind == "deal":
            assert e.seat is not None
            if e.seat == me:
                assert e.card is not None
                self._observe_draw(e.card)
            else:
                self._opponent_draws(e.seat)
            # no change to deck_size: setup's figure already leaves the dealt cards out
        elif kind == "draw":
            assert e.seat is not None
            from_set_aside = e.result == "set_aside"
            if e.seat == me:
                assert e.card is not None
                self._observe_draw(e.card, from_set_aside)
            else:
                self._opponent_draws(e.seat, from_set_aside)
            if from_set_aside:
                self.set_aside_present = False
            else:
                self.deck_size -= 1
        elif kind == "play":
            self._play(e)
        elif kind == "priest":
            if e.seat == me and e.card is not None and e.target is not None:
                card, target = e.card, e.target
                self._filter(lambda h: h[target] == (card,))
        elif kind == "baron":
            self._baron(e)
        elif kind == "discard":
            assert e.seat is not None and e.card is not None
            self.public[e.card] += 1
            if e.seat == me:
                self.mine.remove(e.card)
            else:
                self._set_hand(e.seat, (e.card,), ())
        elif kind == "king":
            self._king(e)
        elif kind == "chancellor":
            assert e.seat is not None
            n = int(e.result if e.result is not None else len(e.cards or ()))
            for i in range(n):  # one by one: the last may come from under the deck
                if e.seat == me:
                    assert e.cards is not None
                    self._observe_draw(e.cards[i])
                else:
                    self._opponent_draws(e.seat)
                self.deck_size -= 1
        elif kind == "bottom":
            self._bottom(e)
        elif kind == "out":
            assert e.seat is not None
            self._out(e)

    # ------------------------------------------------------------------------ the updates

    def _pool(self, key: Key, unseen: list[int] | None = None) -> list[int]:
        """The hidden cards of a hypothesis not in an opponent's hand or under the deck — the
        set-aside card and the free part of the deck (a uniform shuffle) — as a count per card
        (indexed by the card's number). ``unseen`` is :meth:`_unseen`, if already at hand."""
        hands, bottom = key
        pool = list(unseen if unseen is not None else self._unseen())
        for hand in hands:
            if hand:
                for card in hand:
                    pool[card] -= 1
        for card in bottom:
            pool[card] -= 1
        return pool

    def _unseen(self) -> list[int]:
        """How many of each card this seat has not seen face up or in its own hand."""
        unseen = list(self.edition.counts)
        for card, n in self.public.items():
            unseen[card] -= n
        for card in self.mine:
            unseen[card] -= 1
        return unseen

    def _free_deck(self) -> int:
        return self.deck_size - self.bottom_size

    def _draws_from_bottom(self) -> bool:
        """Whether the next card drawn from the deck is one put under it by a Chancellor (R5.9): the
        shuffled part of the deck is used up."""
        return self._free_deck() <= 0 and self.bottom_size > 0

    def _observe_draw(self, card: Card, from_set_aside: bool = False) -> None:
        """The believer draws ``card``: deals in which it could not have are dropped, and each
        hypothesis is weighed by how many ways it leaves that card to draw."""
        new: dict[Key, float] = {}
        from_bottom = not from_set_aside and self._draws_from_bottom()
        unseen = self._unseen()
        for key, w in self.table.items():
            if from_bottom:
                hands, bottom = key
                if bottom and bottom[0] == card:
                    _add(new, (hands, bottom[1:]), w)
                continue
            pool = self._pool(key, unseen)
            count = pool[card]
            if from_set_aside:  # the pool is exactly the set-aside card now
                count = 1 if count == 1 and sum(pool) == 1 else 0
            if count > 0:
                _add(new, key, w * count)
        if from_bottom:
            self.bottom_size -= 1
        self._replace(new)
        self.mine.append(card)

    def _draws_unseen_then_plays(self, draw: Event, play: Event) -> bool:
        """Whether ``draw`` is another player's draw from the shuffled deck (not the set-aside card,
        not a card put under the deck) and ``play`` its play that follows: the two are then read as
        one update (see :meth:`_drawn_before`)."""
        return (draw.kind == "draw" and draw.seat is not None and draw.seat != self.seat
                and draw.result != "set_aside" and not self._draws_from_bottom()
                and play.kind == "play" and play.seat == draw.seat)

    def _drawn_before(self, seat: int, card: Card, unseen: list[int]) -> Iterator[tuple[Key, float]]:
        """The deals after ``seat`` drew a card unseen from the shuffled deck (``unseen``: what
        :meth:`_unseen` was before the draw), each with its weight, not yet merged nor normalised; but
        only those whose hand then holds ``card``, the card it played next: the play drops the others.
        Reading a draw and the play after it together so skips the table of every card that may have
        been drawn, several times larger than what the play leaves of it (in exact tables of 2019
        four-player rounds, 3,146 deals on average against 695), which could also pass the cap in
        between and be resampled."""
        for key, w in self.table.items():
            hands, bottom = key
            held = hands[seat] or ()
            pool = self._pool(key, unseen)
            grown = _grown(held)
            before, after = hands[:seat], hands[seat + 1:]
            for number in range(len(pool)) if card in held else (card,):
                count = pool[number]
                if count > 0:
                    yield (before + (grown[number],) + after, bottom), w * count

    def _opponent_draws(self, seat: int, from_set_aside: bool = False) -> None:
        """``seat`` draws a card the believer does not see."""
        new: dict[Key, float] = {}
        from_bottom = not from_set_aside and self._draws_from_bottom()
        if from_bottom or from_set_aside:  # a card no longer drawn from the shuffled pool
            self.touched.add(seat)
        unseen = self._unseen()
        if from_bottom:
            for (hands, bottom), w in self.table.items():
                if bottom:
                    _add(new, (_with(hands, seat, _sorted((hands[seat] or ()) + (bottom[0],))), bottom[1:]), w)
            self.bottom_size -= 1
            self._replace(new)
            return
        pools = [self._pool(key, unseen) for key in self.table]
        if self._drawn_table_is_resampled(seat, pools):
            self._draw_resampled(seat, pools)
            return
        # The hottest loop of a crowded table (a table of thousands of deals, times every card): the
        # helpers _add and _with written out in place, the hands after the draw looked up.
        add = new.get
        for (key, w), pool in zip(self.table.items(), pools, strict=True):
            hands, bottom = key
            grown = _grown(hands[seat] or ())
            before, after = hands[:seat], hands[seat + 1:]
            for number, count in enumerate(pool):
                if count > 0:
                    drawn = (before + (grown[number],) + after, bottom)
                    new[drawn] = add(drawn, 0.0) + w * count
        self._replace(new)

    def _drawn_table_is_resampled(self, seat: int, pools: list[list[int]]) -> bool:
        """Whether the table after ``seat`` draws from ``pools`` (each hypothesis' pool) is sure to
        be larger than the cap, and so resampled. A hand of ``h`` cards after the draw comes from at
        most ``h`` hypotheses before it (the card drawn is any one of them), so the table after the
        draw has at least the number of (hypothesis, card) pairs over ``h``."""
        cap = self._cap()
        if len(pools) * len(CARDS) <= cap:  # too few hypotheses to pass the cap, whatever is drawn
            return False
        pairs = sum(len(pool) - pool.count(0) for pool in pools)
        return pairs > cap * (1 + max(len(hands[seat] or ()) for hands, _ in self.table))

    def _draw_resampled(self, seat: int, pools: list[list[int]]) -> None:
        """``seat`` draws from ``pools`` into a table sure to be resampled: draw the resampled table's
        deals straight from the hypotheses and their pools, without building the whole table first.
        The same in distribution as :meth:`_replace` with the whole table: each deal drawn by weight
        (a hypothesis' weight times the copies of the card drawn), as many as :meth:`_resample` keeps."""
        keys = list(self.table)
        weights = [w * sum(pool) for w, pool in zip(self.table.values(), pools, strict=True)]
        total = sum(weights)
        if total <= 0:
            self._replace({})  # raises: no deal fits (lost, or impossible)
        self.evidence += math.log(total)
        self.exact = False
        rng = self.rng
        thinned: dict[Key, float] = {}
        for i in rng.choices(range(len(keys)), weights=weights, k=self._cap() // 2):
            (hands, bottom), pool = keys[i], pools[i]
            number = _copy_at(pool, rng.random() * sum(pool))  # the card drawn: each copy in the pool alike
            _add(thinned, (_with(hands, seat, _grown(hands[seat] or ())[number]), bottom), 1.0)
        size = sum(thinned.values())
        self.table = {k: n / size for k, n in thinned.items()}

    def _cap(self) -> int:
        """The most hypotheses a table may hold before it is resampled."""
        return (MAX_HYPOTHESES_TWO if self.players == 2 else MAX_HYPOTHESES if self.players <= 4
                else MAX_HYPOTHESES_CROWDED)

    def _give(self, seat: int, card: Card) -> None:
        """``seat`` holds ``card`` too (this seat knows it is there): deals that leave no copy of it
        for that hand are dropped."""
        unseen = self._unseen()
        self._replace({(_with(hands, seat, _sorted((hands[seat] or ()) + (card,))), bottom): w
                       for (hands, bottom), w in self.table.items()
                       if self._pool((hands, bottom), unseen)[card] > 0})

    def _play(self, e: Event, drawn_first: bool = False) -> None:
        """Read the play ``e``; ``drawn_first``: its player drew a card unseen from the shuffled deck
        just before, not read yet (:meth:`_drawn_before`)."""
        assert e.seat is not None and e.card is not None
        seat, card = e.seat, e.card
        seen, tells = self._seen(), self.tells
        deals = self._drawn_before(seat, card, self._unseen()) if drawn_first else self.table.items()
        self.public[card] += 1
        if seat == self.seat:
            self.mine.remove(card)
        else:
            rests: dict[tuple[Card, ...] | None, tuple[Card, ...] | None] = {}  # by hand: a table has few

            def played(key: Key) -> Key | None:
                hands, bottom = key
                hand = hands[seat]
                if hand in rests:
                    rest = rests[hand]
                else:
                    rest = rests[hand] = _rest_after_play(hand, card)
                return None if rest is None else (hands[:seat] + (rest,) + hands[seat + 1:], bottom)

            if self.reader is None:
                self._map(played, deals)
            else:
                self._weigh_play(e, played, seen, tells, self.plays.odds, deals)
        target, guess = e.target, e.guess
        missed = card is Card.GUARD and e.result == "miss" and guess is not None
        if missed and target is not None and target != self.seat:  # R5.1: not that card
            self._filter(lambda h: h[target] != (guess,))

    def _seen(self) -> list[int]:
        """The cards every player has seen, by number: face up and discarded."""
        seen = [0] * len(CARDS)
        for card, n in self.public.items():
            seen[card] = n
        return seen

    def _weigh_play(self, e: Event, played: Callable[[Key], Key | None], seen: list[int], tells: int,
                    odds: PlayOdds, deals: Iterable[tuple[Key, float]]) -> None:
        """Like ``self._map(played, deals)``, but each hypothesis is also weighed by how likely its
        hand was to make this play, as ``self.reader`` judges it."""
        assert e.seat is not None and e.card is not None and self.reader is not None
        seat = e.seat
        action = Action(e.card, e.target, e.guess)
        # the players it could choose: ``plays`` has read the events before this play (R4.2: its own
        # protection has ended, and it is left out anyway)
        mask = self.plays.choosable(seat)
        # what the player knew of our card as it chose (a look, a tie, a trade, a tie's twin shown…)
        knew = who_knows_mine(self._view, self._at, (seat,)).get(seat)
        known = {} if knew is None else {self.seat: knew}
        # and of the others' cards (its look, its trade, its Baron tie, the card unchanged since): in
        # each hypothesis, the card it puts in that hand (a player told the King's player holds the
        # card it gave away guesses that card, whatever else it holds); and those it may still know
        # (their holder played once since: at even odds, where that hand holds another card than it played)
        holders, unsure = known_to(self._view.events[:self._at], self.seat, seat)
        watched = (*holders, *unsure)  # (mostly none: then every deal's cards there are ``()``)
        sure = len(holders)
        chance: dict[tuple[tuple[Card, ...], tuple[Card, ...]], float] = {}
        new: dict[Key, float] = {}
        for key, w in deals:
            moved = played(key)
            if moved is None:
                continue
            hands = key[0]
            hand = hands[seat] or ()
            cards = tuple(cast(tuple[Card, ...], hands[holder])[0] for holder in watched) if watched else ()
            p = chance.get((hand, cards))
            if p is None:
                p = chance[hand, cards] = (
                    self._chance_knowing(hand, action, seat, mask, seen,
                                         {**known, **dict(zip(holders, cards[:sure], strict=True))},
                                         dict(zip(unsure, cards[sure:], strict=True)), unsure, tells, odds)
                    if len(hand) == 2 else 1.0
                )
            if p > 0:
                _add(new, moved, w * p)
        self._replace(new)

    def _chance_knowing(self, hand: tuple[Card, ...], action: Action, seat: int, mask: int, seen: list[int],
                        known: dict[int, Card], maybe: dict[int, Card], played: dict[int, Card], tells: int,
                        odds: PlayOdds) -> float:
        """How likely ``hand`` made ``action``, as ``self.reader`` judges it, its player knowing ``known``
        (holder: card), and perhaps the card ``maybe`` puts in a hand whose holder has played a card
        since (``played``: the :class:`~loveletter.bots.facts.Links` ``unsure``): unknown where that was
        another copy of it, else known at :data:`~loveletter.bots.facts.STILL_KNOWN` odds (each case
        weighed)."""
        assert self.reader is not None
        doubtful = [holder for holder, card in maybe.items() if card is not played[holder]]
        p = 0.0
        for still in product((True, False), repeat=len(doubtful)):
            told = {**known, **{holder: maybe[holder] for holder, kept in zip(doubtful, still, strict=True) if kept}}
            p += (math.prod(STILL_KNOWN if kept else 1.0 - STILL_KNOWN for kept in still)
                  * self.reader(self.edition, hand, action, seat, mask, seen, told, tells, odds))
        return p

    def _baron(self, e: Event) -> None:
        assert e.seat is not None and e.target is not None
        a, b, me = e.seat, e.target, self.seat
        if e.cards is not None:  # the believer took part and saw both cards
            if a == me:
                theirs = e.cards[1]
                self._filter(lambda h: h[b] == (theirs,))
            elif b == me:
                theirs = e.cards[0]
                self._filter(lambda h: h[a] == (theirs,))
        elif e.result == "tie":
            self._filter(lambda h: h[a] is not None and h[a] == h[b])
        elif e.result in ("win", "loss"):
            self.baron_winner = a if e.result == "win" else b  # the loser's card comes with "out"

    def _king(self, e: Event) -> None:
        assert e.seat is not None and e.target is not None
        a, b, me = e.seat, e.target, self.seat
        if e.cards is not None and me in (a, b):
            other = b if a == me else a
            now_mine = e.cards[0] if a == me else e.cards[1]
            now_theirs = e.cards[1] if a == me else e.cards[0]
            self._set_hand(other, (now_mine,), (now_theirs,))
            self.mine = [now_mine]
        else:
            self._map(lambda key: (_swap(key[0], a, b), key[1]))

    def _bottom(self, e: Event) -> None:
        assert e.seat is not None
        seat = e.seat
        n = int(e.result or 0)
        if seat == self.seat:
            assert e.cards is not None
            for card in e.cards:
                self.mine.remove(card)
            returned = tuple(e.cards)
            self._map(lambda key: (key[0], key[1] + returned))
        else:  # which card was kept and the order are hidden: every choice equally likely
            new: dict[Key, float] = {}
            by_hand: dict[tuple[Card, ...], list[tuple[Card, tuple[Card, ...]]]] = {}  # a table has few hands
            for (hands, bottom), w in self.table.items():
                hand = hands[seat] or ()
                choices = by_hand.get(hand)
                if choices is None:
                    choices = by_hand[hand] = [
                        (hand[i], order)
                        for i in range(len(hand))
                        for order in permutations(hand[:i] + hand[i + 1 :])
                    ]
                share = w / len(choices)
                for keep, order in choices:
                    _add(new, (_with(hands, seat, (keep,)), bottom + order), share)
            self._replace(new)
        self.deck_size += n
        self.bottom_size += n

    def _out(self, e: Event) -> None:
        assert e.seat is not None
        seat = e.seat
        shown = tuple(e.cards or ())
        self.public.update(shown)
        winner, self.baron_winner = self.baron_winner, None
        if seat == self.seat:
            self.mine = []
            return
        value = self.edition.value
        revealed = _sorted(shown)

        def knocked(key: Key) -> Key | None:
            hands, bottom = key
            if (hands[seat] or ()) != revealed:
                return None
            if winner is not None and winner != self.seat:  # a Baron's winner holds more (R5.3)
                held = hands[winner]
                if not held or value(held[0]) <= value(shown[0]):
                    return None
            return (_with(hands, seat, None), bottom)

        self._map(knocked)

    # ------------------------------------------------------------------------ table plumbing

    def _set_hand(self, seat: int, expected: tuple[Card, ...], now: tuple[Card, ...]) -> None:
        """Keep hypotheses where ``seat`` holds ``expected``; it holds ``now`` afterwards."""
        self._map(lambda key: (_with(key[0], seat, now), key[1]) if key[0][seat] == expected else None)

    def _filter(self, keep: Callable[[Hands], bool], or_all: bool = False) -> None:
        """Keep the hypotheses whose hands pass ``keep``; with ``or_all``, all of them where none does
        (a resampled table may lack every deal a fact leaves: it then goes without the fact)."""
        kept = {k: w for k, w in self.table.items() if keep(k[0])}
        if kept or not or_all:
            self._replace(kept)

    def _map(self, change: Callable[[Key], Key | None], deals: Iterable[tuple[Key, float]] | None = None) -> None:
        """Move each hypothesis (of ``deals``, with their weights, if given) to ``change(key)``, or
        drop it where that is ``None``."""
        new: dict[Key, float] = {}
        for key, w in self.table.items() if deals is None else deals:
            moved = change(key)
            if moved is not None:
                _add(new, moved, w)
        self._replace(new)

    def _held_by_current(self, view: View) -> int:
        """How many cards beyond one the player to move holds (by counting every card's place)."""
        placed = len(view.face_up) + sum(len(p) for p in view.discards) + len(view.hand) + view.deck_size
        placed += 0 if view.set_aside_taken else 1
        others = sum(1 for s in range(view.players) if s != self.seat and view.alive[s])
        return len(self.edition.full_deck) - placed - others

    def _replace(self, new: dict[Key, float]) -> None:
        if not new:
            if not self.exact:
                raise _Lost
            raise ValueError("the events are impossible for this seat (no deal fits them)")
        total = sum(new.values())
        self.evidence += math.log(total)
        cap = self._cap()
        if len(new) > cap:
            new = self._resample(new, cap // 2)
            total = sum(new.values())
        self.table = {k: w / total for k, w in new.items()}

    def _resample(self, table: dict[Key, float], size: int) -> dict[Key, float]:
        """Keep ``size`` hypotheses drawn by weight (the belief is no longer exact)."""
        self.exact = False
        keys = list(table)
        drawn = self.rng.choices(keys, weights=list(table.values()), k=size)  # (in the keys' order)
        thinned: dict[Key, float] = {}
        for key in drawn:
            _add(thinned, key, 1.0)
        return thinned

    # ------------------------------------------------------------------------ asking

    def assume(self, seat: int, hand: Iterable[Card]) -> None:
        """Keep only the deals in which ``seat`` holds ``hand`` now (for experiments that reveal a
        hand, e.g. ``benchmarks/ceiling.py``)."""
        held = _sorted(hand)
        self._filter(lambda h: h[seat] == held)

    def hand_odds(self, seat: int, floor: bool = True) -> dict[Card, float]:
        """The probability of each card being in ``seat``'s hand (one card between turns; for the player
        to move, with two, each card's share of them, so the figures still sum to 1); in an
        approximate table, with a :data:`FLOOR` for every card the public facts leave possible
        (unless ``floor`` is false: the table's own odds, as the search samples its deals), or, for a
        seat nothing has touched, the odds of the pool it is one shuffle with
        (:meth:`_exchangeable_odds`: no floor needed)."""
        if floor and not self.exact and seat not in self.touched:
            return self._exchangeable_odds(seat)
        odds: dict[Card, float] = {}
        for (hands, _), w in self.table.items():
            hand = hands[seat] or ()
            for card in hand:
                odds[card] = odds.get(card, 0.0) + w / len(hand)
        odds = summing_to_one(odds)
        public = self.public_odds.get(seat) if floor else None
        if public and odds:
            for card in odds:
                odds[card] *= 1.0 - FLOOR
            for card, p in public.items():
                if p > 0:
                    odds[card] = odds.get(card, 0.0) + FLOOR * p
        return odds

    def _exchangeable_odds(self, seat: int) -> dict[Card, float]:
        """:meth:`hand_odds` for a seat that nothing has touched since it was dealt (no play, no
        target, no draw but from the shuffled pool), in an approximate table. The cards of all such
        seats and the pool are then one uniform shuffle, whatever the other hands: each hypothesis
        gives the seat's card the odds of its pool with those seats' cards put back, rather than the
        one card it sampled (a resampled table keeps only some hundreds of deals, and the one card
        each gave made two seats that the believer knows the same about show odds five points apart)."""
        odds = [0.0] * len(CARDS)
        unseen = self._unseen()
        for key, w in self.table.items():
            hands = key[0]
            if not hands[seat]:
                continue
            pool = self._pool(key, unseen)
            for other, hand in enumerate(hands):  # every untouched hand, this seat's among them
                if hand and other not in self.touched:
                    for held in hand:
                        pool[held] += 1
            total = sum(pool)
            for number, count in enumerate(pool):
                if count > 0:
                    odds[number] += w * count / total
        whole = sum(odds)
        return {CARDS[number]: p / whole for number, p in enumerate(odds) if p > 0} if whole else {}

    def all_odds(self) -> dict[int, dict[Card, float]]:
        """:meth:`hand_odds` for every other seat still in the round."""
        seats = {s for (hands, _) in self.table for s, h in enumerate(hands) if h}
        return {s: self.hand_odds(s) for s in sorted(seats)}

    def sample(self, rng: random.Random) -> World:
        """A deal of the hidden cards drawn from the belief."""
        drawn = self._drawn_from
        if drawn is None or drawn[0] is not self.table:  # a new table (tables are replaced, never changed)
            keys = list(self.table)
            drawn = self._drawn_from = (self.table, keys, list(accumulate(self.table[k] for k in keys)))
        _, keys, cumulative = drawn
        key = rng.choices(keys, cum_weights=cumulative)[0]  # the draw that weights= makes, without its sums
        hands, bottom = key
        pool = [CARDS[card] for card, count in enumerate(self._pool(key)) for _ in range(count)]
        rng.shuffle(pool)
        set_aside = pool.pop() if self.set_aside_present else None
        full = tuple(
            tuple(self.mine) if s == self.seat else (hands[s] or ()) for s in range(self.players)
        )
        return World(hands=full, deck=tuple(pool) + bottom, set_aside=set_aside)

    def __len__(self) -> int:
        return len(self.table)


def summing_to_one(odds: dict[Card, float]) -> dict[Card, float]:
    """``odds`` divided by their sum, which adding up the table's weights leaves a rounding off one:
    a card certain is then exactly 1.0, as a hand the seat knows must be (0.9999999999999999 showed
    as ">99%"; Python 3.12 sums floats more exactly, and the table's weights came out so)."""
    whole = sum(odds.values())
    return {card: p / whole for card, p in odds.items()} if whole else odds


def _rest_after_play(hand: tuple[Card, ...] | None, card: Card) -> tuple[Card, ...] | None:
    """What is left of ``hand`` once its player has played ``card``, or ``None`` if it could not
    have played it from that hand."""
    if hand is None or card not in hand:
        return None
    rest = list(hand)
    rest.remove(card)
    # R4.4: the King or a Prince is never played beside the Countess.
    if card in (Card.KING, Card.PRINCE) and Card.COUNTESS in rest:
        return None
    return tuple(rest)


def _copy_at(pool: list[int], place: float) -> int:
    """The number of the card at ``place`` (from 0 to the pool's size) when the copies of ``pool``
    (counts by card number) are laid out in order of number."""
    for number, count in enumerate(pool):
        place -= count
        if count > 0 and place < 0:
            return number
    raise ValueError("a place beyond the pool")


def _held_before(hand: tuple[Card, ...] | None, drawn: Card | None) -> tuple[Card, ...] | None:
    """``hand`` less the card its player is known to have drawn (``drawn``, if any): what the facts
    about the card it held before the draw (:func:`~loveletter.bots.facts.ruled_out`) must fit."""
    if hand is None or drawn is None or drawn not in hand:
        return hand
    rest = list(hand)
    rest.remove(drawn)
    return tuple(rest)


def _all_ruled_out(hand: tuple[Card, ...] | None, cards: set[Card]) -> bool:
    """Whether every card of ``hand`` is one of ``cards`` (the cards ruled out for the card a player
    held: a player to move holds that card and one drawn unseen)."""
    return hand is not None and len(hand) > 0 and all(card in cards for card in hand)


def _public_odds(view: View) -> dict[int, dict[Card, float]]:
    """For each other player still in the round whose card this seat does not know, the chance of
    each card by what is public alone: the cards the public facts leave possible for that player, in
    proportion to the copies that may be in its hand (:func:`~loveletter.bots.facts.publicly_possible`)."""
    odds: dict[int, dict[Card, float]] = {}
    for seat, counts in publicly_possible(view).items():
        total = sum(counts.values())
        if total:
            odds[seat] = {card: n / total for card, n in counts.items()}
    return odds


#: Events that only move cards out of sight (dealt, drawn, put under the deck by a Chancellor): they add
#: no knowledge, and multiply a table's deals.
_DRAWS = frozenset(("deal", "draw", "chancellor", "bottom"))


def _touches(e: Event) -> tuple[int, ...]:
    """The seats whose hands ``e`` tells something about, beyond a draw from the shuffled deck (see
    :attr:`Belief.touched`)."""
    if e.kind in ("setup", "deal", "draw", "showdown", "round_end"):
        return ()
    if (e.kind == "play" and e.card is Card.PRIEST) or (e.kind == "priest" and e.card is None):
        # another's look at a card unseen here tells nothing of it (and its holder plays, touched
        # then, before the one who looked can act on it): taken as touched, it took a resampled
        # table's few deals, and a card looked at showed up to 28 points from a like player's
        return () if e.seat is None else (e.seat,)
    return tuple(s for s in (e.seat, e.target, *(e.seats or ())) if s is not None)


def _spread(table: dict[Key, float]) -> float:
    """The effective number of deals in a table (weights summing to one)."""
    return 1.0 / sum(w * w for w in table.values())


class _Lost(Exception):
    """An approximate table has no deal left that fits the events."""


def _add(table: dict[Key, float], key: Key, weight: float) -> None:
    table[key] = table.get(key, 0.0) + weight


def _with(hands: Hands, seat: int, hand: tuple[Card, ...] | None) -> Hands:
    return hands[:seat] + (hand,) + hands[seat + 1 :]


def _with_under(card: Card) -> Callable[[Key], Key]:
    """A hypothesis with ``card`` put under the deck (below the cards already there)."""
    return lambda key: (key[0], key[1] + (card,))


def _swap(hands: Hands, a: int, b: int) -> Hands:
    swapped = list(hands)
    swapped[a], swapped[b] = hands[b], hands[a]
    return tuple(swapped)


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards))


_GROWN: dict[tuple[Card, ...], tuple[tuple[Card, ...], ...]] = {}


def _grown(held: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """The hand ``held`` (sorted) with each card added, by the card's number, sorted."""
    grown = _GROWN.get(held)
    if grown is None:
        grown = _GROWN[held] = tuple(_sorted(held + (card,)) for card in CARDS)
    return grown


class _Reads(Protocol):
    def update(self, view: View) -> None: ...


Read = TypeVar("Read", bound=_Reads)


class Following(Generic[Read]):
    """A belief (or anything that reads a round's events) kept from one decision to the next of the
    same round, and started afresh for a new round or match: by ``start``, from the view and the
    reading it replaces (``None`` at first), which a match's next round may carry on from."""

    def __init__(self, start: Callable[[View, Read | None], Read]) -> None:
        self.start = start
        self.current: Read | None = None
        self.events: tuple[Event, ...] = ()

    def at(self, view: View) -> Read:
        """The belief brought up to ``view``."""
        # The same round only if the events read so far are where they were (a new match or a new
        # round starts over, even with the same round number).
        if self.current is None or view.events[: len(self.events)] != self.events:
            self.current = self.start(view, self.current)
        else:
            self.current.update(view)
        self.events = view.events
        return self.current
