"""What the events of a round make public, or known to one seat, about the players' hands: the
cards a player cannot hold (:func:`ruled_out`), and so those it may (:func:`publicly_possible`), the play
each player's card was kept beside (:func:`last_plays`), the cards that may be in the hands the seat
does not know (:func:`unseen_in_hands`), and who knows the seat's own card (:func:`who_knows_mine`). The belief
starts again from these when its table has collapsed (:meth:`loveletter.bots.belief.Belief._recover`);
the simulated players remember with them (:func:`loveletter.bots.playout.memory_at`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple, cast

from loveletter.bots.odds import PlayOdds, PlayReading
from loveletter.bots.rule_based import after_event
from loveletter.engine import (
    Action,
    Card,
    Edition,
    Event,
    View,
    draws_from_under,
    known_draws,
    known_hands,
    standing_ties,
)


def ruled_out(view: View) -> dict[int, set[Card]]:
    """:func:`ruled_out_and_ties`' cards ruled out."""
    return ruled_out_and_ties(view)[0]


def ruled_out_and_ties(view: View) -> tuple[dict[int, set[Card]], set[tuple[int, int]]]:
    """For each other player still in the round, the cards it cannot hold now, by what was public
    since its card last changed: a card a Guard named and missed (R5.1), the Countess beside a King or
    Prince it played (R4.4), any card no higher than the one a Baron it won revealed (R5.3), and for
    two players whose Baron tied, what rules out the other's card (the same card), or all but the
    other's card if this seat knows it, and else any card of which fewer than two copies may be in
    the hands this seat does not know. Only what stays true: once a player plays a card that was not
    ruled out, it may hold the card it drew instead, so what was ruled out is forgotten.

    Also the pairs of other players (lower seat first) whose Baron tied and who still hold that card:
    the same card in both hands (each card has a value of its own), which no card ruled out for each
    alone says. The ties as every player follows them (:func:`~loveletter.engine.standing_ties`): a
    pair stands while neither has played a card the tie may be on (a King, say, leaves the tied card
    in hand), and a King's trade moves a side with its card."""
    value = view.edition.value
    out: dict[int, set[Card]] = {s: set() for s in range(view.players) if s != view.seat}
    baron_winner: int | None = None
    for i, e in enumerate(view.events):
        kind, seat, target = e.kind, e.seat, e.target
        if seat is None:
            continue
        if kind in ("play", "discard", "chancellor", "bottom"):
            if not (kind == "play" and e.card in out.get(seat, ())):  # else it played the card drawn
                out.get(seat, set()).clear()
            if kind == "play" and e.card in (Card.KING, Card.PRINCE) and seat in out:
                out[seat].add(Card.COUNTESS)
            if kind == "play" and e.card is Card.GUARD and e.result == "miss" and target in out:
                assert target is not None and e.guess is not None
                out[target].add(e.guess)
        elif kind == "king" and target is not None:
            mine, theirs = out.get(seat, set()), out.get(target, set())
            if seat in out:
                out[seat] = theirs
            if target in out:
                out[target] = mine
        elif kind == "baron" and e.result in ("win", "loss"):
            baron_winner = seat if e.result == "win" else target
        elif kind == "baron" and e.result == "tie" and seat in out and target in out:
            assert target is not None
            _same_card(out, seat, target, known_hands(view.events[:i], view.seat), view.edition)
        elif kind == "out" and e.result == "baron" and baron_winner in out and e.cards:
            beaten = max(value(card) for card in e.cards)
            out[baron_winner].update(card for card in view.edition.copies if value(card) <= beaten)
            baron_winner = None
    # two others still holding the cards that tied (nothing played since from either side that the tie
    # may be on); each pair once, though the two may have tied twice, each Baron at the other
    ties = {(min(a, b), max(a, b)) for a, b, played_a, played_b in standing_ties(view.events)
            if not played_a and not played_b and view.seat not in (a, b)}
    if ties:
        in_hands = unseen_in_hands(view)
        # two hands whose cards we do not know hold two copies of the same card
        scarce = {card for card in view.edition.copies if in_hands[card] < 2}
    for a, b in ties:  # still the same card: what is ruled out or known of one since holds for the other
        _same_card(out, a, b, view.known, view.edition)
        if a not in view.known and b not in view.known:
            out[a] |= scarce
            out[b] |= scarce
    return {s: cards for s, cards in out.items() if cards and view.alive[s]}, ties


def _same_card(out: dict[int, set[Card]], a: int, b: int, known: dict[int, Card], edition: Edition) -> None:
    """Seats ``a`` and ``b`` hold the same card (a Baron tie): what rules one out rules the other out,
    and a card ``known`` to be one's is the other's."""
    both = out[a] | out[b]
    for one, other in ((a, b), (b, a)):
        out[one] = set(both)
        if other in known:
            out[one].update(card for card in edition.copies if card is not known[other])


def unseen_in_hands(view: View) -> Counter[Card]:
    """The cards that may be in the hands ``view.seat`` does not know: its card tracker, less the
    cards it put under the deck itself (a Chancellor's), and less such a card the player to move has
    drawn (:func:`~loveletter.engine.known_draws`: in its hand beside a card the seat does not know)."""
    left = view.tracker()
    left.subtract(card for card in view.under_deck() if card is not None)
    left.subtract(known_draws(view.events, view.seat).values())
    return left


def publicly_possible(view: View) -> dict[int, Counter[Card]]:
    """For each other player still in the round whose card ``view.seat`` does not know, the cards it
    may hold by what is public and what the seat knows alone, with how many copies of each may be
    there: those that may be in the hands the seat does not know (:func:`unseen_in_hands`), less those
    :func:`ruled_out` for it, less the copies that the same reasoning puts in other such hands. (Say a
    Baron that beat a King leaves its player only the Countess or the Princess, and the believer
    holds the Princess: that player holds the Countess, and if no other Countess is unseen, nobody
    else may hold one.) The player to move holds more than one card: it is never taken as sure."""
    left, out = unseen_in_hands(view), ruled_out(view)
    possible = {seat: {card for card, n in left.items() if n > 0 and card not in out.get(seat, ())}
                for seat in range(view.players)
                if seat != view.seat and view.alive[seat] and seat not in view.known}
    sure: set[int] = set()
    while True:  # until no more hands come out as sure: each sure hand may settle another
        found = [seat for seat, cards in possible.items()
                 if seat not in sure and seat != view.current and len(cards) == 1]
        if not found:
            break
        for seat in found:
            sure.add(seat)
            (card,) = possible[seat]
            left[card] -= 1
            if left[card] <= 0:  # every copy that may be in a hand is accounted for
                for other, cards in possible.items():
                    if other not in sure:
                        cards.discard(card)
    return {seat: Counter(dict.fromkeys(cards, 1) if seat in sure else {card: left[card] for card in cards if left[card] > 0})
            for seat, cards in possible.items()}


class LastPlay(NamedTuple):
    """The play a player's card was kept beside (see :func:`last_plays`), and what that player could
    see when it chose the play."""

    player: int
    play: Action
    seen: list[int]  # the cards face up and discarded before it, by number
    choosable: int  # bit mask of the seats it could choose
    knew_mine: Card | None  # the card it knew the viewer to hold then, if any
    tells: int  # bit mask of the seats told by the Countess then (rule_based.countess_tells)
    odds: PlayOdds  # what the plays before it said of the cards (bots.odds)


def last_plays(view: View) -> dict[int, LastPlay]:
    """For each other player still in the round whose card has not changed since (or came to it by
    a King's trade), the play its card was kept beside: how that play was chosen says something of
    the card (:meth:`~loveletter.bots.belief.Belief._reread`)."""
    shown = with_my_card_shown(view.events, view.seat)
    counts = view.edition.counts
    tells = 0  # the seats told by the Countess (rule_based.countess_tells)
    plays = PlayReading(view.edition, view.players)  # the cards made public, who is out or protected
    last: dict[int, LastPlay] = {}
    for i, e in enumerate(view.events):
        kind, seat = e.kind, e.seat
        if seat is None:
            plays.read(e)
            continue
        if kind == "play" and e.card is not None:
            knew = known_hands(shown[:i], seat).get(view.seat) if view.seat is not None else None
            seen = [n - left for n, left in zip(counts, plays.pool, strict=True)]
            last[seat] = LastPlay(seat, Action(e.card, e.target, e.guess), seen, plays.choosable(seat), knew, tells,
                                  list(plays.odds))
        elif kind == "king" and e.target is not None:
            mine, theirs = last.pop(seat, None), last.pop(e.target, None)
            if mine is not None:
                last[e.target] = mine
            if theirs is not None:
                last[seat] = theirs
        elif kind in ("discard", "out", "chancellor", "bottom"):
            last.pop(seat, None)
        tells = after_event(tells, e)
        plays.read(e)
    return {s: play for s, play in last.items() if s != view.seat and view.alive[s]}


class Links(NamedTuple):
    """Which other players know which others' cards, though the viewer does not know which card that
    is (it depends on the deal sampled)."""

    #: ``(knower, holder)``: the first knows the second's card.
    sure: list[tuple[int, int]]
    #: ``(knower, holder, played)``: the first knew the second's card, and its holder then (the
    #: second, or the one whose King's trade since gave it the card) has played ``played`` since,
    #: once: the card the first knew, or the one it drew then. Where the card now
    #: held is another, the first knows it if it was the card seen (:data:`STILL_KNOWN`); where it is
    #: ``played`` again, the first cannot tell whether the copy it saw was played. (Where the viewer
    #: knew the card seen as it was played, it can tell which: the link stays sure, or is gone.)
    unsure: list[tuple[int, int, Card]]


#: How likely a player still knows the card it saw, once its holder played another (a :class:`Links`
#: ``unsure`` link, in a deal where the card now held is not the one played): even odds, for either
#: card in the holder's hand as it played may have been the one seen (the other drawn), and the
#: holder's choice between them does not depend on which. An approximation: what was public of the
#: holder's card before it drew (a Guard's miss) is not used (docs/bots.md).
STILL_KNOWN = 0.5


def links(events: Sequence[Event], me: int) -> Links:
    """Which other players know which others' cards (a Priest look, a Baron tie, a King trade
    between them), as long as the holder has not played, discarded or returned a card since (a King's
    trade takes the knowledge to the card's new holder); after one play of the holder's (no more), an
    ``unsure`` link: the card seen may be the one it kept (or, where it played a King, gave away).
    Unless ``me`` knew that card as it was played: then it stays sure if another was played (the
    holder kept it), and is forgotten if it was played."""
    known: dict[tuple[int, int], Card | None] = {}  # (knower, holder): None where sure, else the card played since
    for i, e in enumerate(events):
        a, b = e.seat, e.target
        if a is None:
            continue
        kind = e.kind
        if kind in ("play", "discard", "bottom", "out"):
            gone = kind == "out"  # (a player out knows nothing that matters)
            held = [pair for pair, played in known.items() if played is None and pair[1] == a and not gone]
            known = {(k, h): played for (k, h), played in known.items() if h != a and not (gone and k == a)}
            if kind == "play" and e.card is not None and held:
                seen = known_hands(tuple(events[:i]), me).get(a)  # (a look between others is rare: walked then only)
                if seen is None:
                    known.update((pair, e.card) for pair in held)
                elif seen is not e.card:  # it played the card it drew, and holds the one seen
                    known.update((pair, None) for pair in held)
        elif kind == "king" and b is not None:  # a card known follows its trade (but to the viewer: not a link)
            traded = {a: b, b: a}
            known = {(k, traded.get(h, h)): played for (k, h), played in known.items()
                     if {k, h} != {a, b} and traded.get(h, h) != me}
        if me in (a, b) or b is None or a == b:
            continue
        if kind == "priest":
            learnt: tuple[tuple[int, int], ...] = ((a, b),)
        elif (kind == "baron" and e.result == "tie") or kind == "king":
            learnt = ((a, b), (b, a))
        else:
            continue
        known.update((pair, None) for pair in learnt)
    return Links(sorted(pair for pair, played in known.items() if played is None),
                 sorted((k, h, played) for (k, h), played in known.items() if played is not None))


def known_to(events: Sequence[Event], me: int, knower: int) -> tuple[list[int], dict[int, Card]]:
    """The other players whose card ``knower`` knows after ``events``, as ``me`` can tell (:func:`links`),
    though not which card: in a deal of the hidden cards, the one it puts in that hand. Then those
    it may still know (``unsure`` links), each with the card played since (by its holder, or by the
    player whose King's trade gave it that card)."""
    found = links(events, me)
    return ([holder for who, holder in found.sure if who == knower],
            {holder: played for who, holder, played in found.unsure if who == knower})


def who_knows_mine(view: View, upto: int | None = None, among: Iterable[int] | None = None) -> dict[int, Card]:
    """Each other player still in the round that knows ``view.seat``'s card (a Priest look at it, a
    Baron tie or a King trade with it, since it last changed; or a look at the card it now holds,
    while another held it), and that card. ``upto``: as it was after the view's first ``upto``
    events; ``among``: only these players (each one asked costs a pass over the events)."""
    me = view.seat
    assert me is not None
    events = with_my_card_shown(view.events[:upto], me)
    out = {e.seat for e in events if e.kind == "out"}
    knows: dict[int, Card] = {}
    for other in range(view.players) if among is None else among:
        if other != me and other not in out:
            card = known_hands(events, other).get(me)
            if card is not None:
                knows[other] = card
    return knows


def with_my_card_shown(events: tuple[Event, ...], me: int | None) -> list[Event]:
    """The events, with what others saw filled in where the viewer ``me`` can tell it: the card a
    Priest saw in its own hand (it knows what it held then), or in a third player's hand whose card it
    knew then or learnt later (its own look, a Baron against it or a King trade with it) before that
    card could change; and the cards of a Baron tie between two others, one of whose hands it knew. Then, say, a
    player who saw the card of one who later tied the viewer with a Baron knows the viewer's card
    too. And the cards of another's Chancellor that the viewer drew from under the deck: that player
    knows where they went. Not filled in: a look at a player who then draws and plays a King at the
    viewer. The viewer holds the card it kept, which the look saw unless it saw the King (the card
    drawn after the look is the other), and which of the two lies in a past hand (docs/bots.md)."""
    hand: list[Card] = []
    shown: list[Event] = []
    unseen_look: dict[int, int] = {}  # a player: where in ``shown`` a look at its card, not seen by us, is
    from_under = {} if me is None else draws_from_under(events, me)
    for i, e in enumerate(events):
        kind, seat, target = e.kind, e.seat, e.target
        put = from_under.get(i) if from_under else None
        if put is not None and e.card is not None and shown[put[0]].seat != me:
            bottom = shown[put[0]]
            cards: list[Card | None] = list(bottom.cards or [None] * int(bottom.result or 0))
            cards[put[1]] = e.card  # (the others it put there stay unknown: None, as the deck follows them)
            shown[put[0]] = bottom._replace(cards=cast(tuple[Card, ...], tuple(cards)))
        if kind == "priest" and target == me and e.card is None and hand:
            e = e._replace(card=hand[0])
        elif kind == "baron" and e.result == "tie" and e.cards is None and seat is not None:
            # a tie between two others, one of whose cards we know: both hold that card
            known = known_hands(shown, me)
            card = known.get(seat, known.get(target)) if target is not None else None
            if card is not None:
                e = e._replace(cards=(card, card))
        if seat == me and kind in ("priest", "baron", "king") and target is not None:
            # we learnt the other's card: a look at it since it last changed saw the same card
            look = unseen_look.pop(target, None)
            # (a King's cards are the hands after the trade: theirs is the one we now hold)
            theirs = e.card if kind == "priest" else e.cards[0 if kind == "king" else 1] if e.cards else None
            if look is not None and theirs is not None:
                shown[look] = shown[look]._replace(card=theirs)
        if kind in ("play", "discard", "chancellor", "bottom", "out", "king") and seat is not None:
            unseen_look.pop(seat, None)  # its card may have changed
        if kind == "king" and target is not None:
            unseen_look.pop(target, None)
        if kind == "priest" and e.card is None and target is not None and target != me:
            seen = known_hands(shown, me).get(target)  # a card we know already (say, by a tie) it saw too
            if seen is not None:
                e = e._replace(card=seen)
            else:
                unseen_look[target] = len(shown)
        shown.append(e)
        if seat != me:
            if kind == "king" and target == me and e.cards is not None:
                hand = [e.cards[1]]
            continue
        if kind in ("deal", "draw") and e.card is not None:
            hand.append(e.card)
        elif kind in ("play", "discard") and e.card is not None and e.card in hand:
            hand.remove(e.card)
        elif kind == "king" and e.cards is not None:
            hand = [e.cards[0]]
        elif kind == "chancellor" and e.cards is not None:
            hand.extend(e.cards)
        elif kind == "bottom" and e.cards is not None:
            for card in e.cards:
                if card in hand:
                    hand.remove(card)
        elif kind == "out":
            hand = []
    return shown
