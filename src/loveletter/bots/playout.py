"""Simulated players for the expert's search: a fast rule-based policy with a memory.

In a simulated round every player follows :func:`policy`, the beginner bot's move scores
(:func:`~loveletter.bots.rule_based.score_move`) on card counts taken from the round (no view is
built, for speed): it weighs each move by the cards it has not seen (at a player whose last play
was the Countess, by the Kings and Princes alone), never throws away its own Princess, keeps its
higher card, counts the showdown on the round's last play
(:func:`~loveletter.bots.last_play.count_last_play`), reads the others' plays as the beginner does
(:mod:`~loveletter.bots.odds`, carried move by move), and above all uses what it *knows* of other
hands (its :class:`Memory`): a Priest's look, both sides of a King's trade, a Baron tie. A play-out
without that memory would value a Priest at nothing and let an opponent who has looked at our card
guess it only by chance, so the search would neither seek nor fear knowledge, which is most of this
game.

The policy sees only what its player could see in the simulated round: its own hand, the discards,
the face-up cards and its memory (never the other hands).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence

from loveletter.bots.facts import STILL_KNOWN, Links, links, who_knows_mine
from loveletter.bots.last_play import count_last_play, winning_most
from loveletter.bots.odds import PlayOdds, even, forget, play_odds, read_king, read_miss, read_play
from loveletter.bots.rule_based import (
    BARON,
    GUARD,
    KING,
    PRIEST,
    PRINCE,
    TIE,
    WEIGHTS,
    after_discard,
    after_king,
    after_play,
    countess_tells,
    score_move,
    target_counts,
)
from loveletter.engine import (
    CARDS,
    Action,
    Card,
    Edition,
    Phase,
    Round,
    View,
    known_hands,
    legal_plays,
    standing_ties,
    ties,
)
from loveletter.engine.ties import Tie

_PLAY = Phase.PLAY


class Memory(list[dict[int, Card]]):
    """Per seat: the other seats whose card it knows, and that card; and what every player takes from
    the Countess, the seats in the bit mask ``tells``
    (:func:`~loveletter.bots.rule_based.countess_tells`), from every player's plays, the ``odds``
    (:mod:`~loveletter.bots.odds`; even where not given), and from the Baron ties, the ``ties``
    (:mod:`loveletter.engine.ties`: a card shown of one player shows its twin's): all kept up as the
    round goes on, for the simulated round keeps no log."""

    __slots__ = ("odds", "tells", "ties")

    def __init__(self, known: Iterable[dict[int, Card]] = (), tells: int = 0, odds: PlayOdds | None = None,
                 ties: Iterable[Tie] = ()) -> None:
        super().__init__(known)
        self.tells = tells
        self.odds = odds if odds is not None else even(len(self))
        self.ties = list(ties)


def memory_at(view: View) -> tuple[Memory, Links]:
    """What every seat knows of the others' hands at ``view``, as far as the viewer can tell: its
    own knowledge, what anyone can tell from the public events (a tied card shown, and so its twin),
    and what each other player has learnt of the viewer's hand (a Priest look, a Baron tie, a King
    trade with the viewer), which the viewer can work out because it knows its own card. Also the
    :data:`Links` between the other players (fill them in with :func:`remember`)."""
    assert view.seat is not None
    me = view.seat
    memory = Memory(({} for _ in range(view.players)), countess_tells(view.events),
                    play_odds(view.events, view.edition, view.players), standing_ties(view.events))
    public = known_hands(view.events, None)
    for seat, known in enumerate(memory):
        known.update((holder, card) for holder, card in public.items() if holder != seat)
    memory[me] = dict(view.known)
    for other, card in who_knows_mine(view).items():
        memory[other][me] = card
    return memory, links(view.events, me)


def remember(memory: Memory, links: Links, state: Round, luck: float) -> Memory:
    """A copy of ``memory`` with the ``links`` filled in from the (sampled) hands of ``state``; the
    unsure ones, where the card held is not the one played since, by ``luck`` (in [0, 1): known where
    it falls below :data:`~loveletter.bots.facts.STILL_KNOWN`; then stretched back over [0, 1) for
    the next, its binary digits one for each at even odds)."""
    filled = Memory((dict(known) for known in memory), memory.tells, list(memory.odds), memory.ties)
    for knower, holder in links.sure:
        filled[knower][holder] = state.hands[holder][0]
    for knower, holder, played in links.unsure:
        card = state.hands[holder][0]
        kept = luck < STILL_KNOWN
        if card is not played and kept:
            filled[knower][holder] = card
        luck = luck / STILL_KNOWN if kept else (luck - STILL_KNOWN) / (1.0 - STILL_KNOWN)
    return filled


def step(state: Round, action: Action, memory: Memory) -> None:
    """Apply ``action`` (legal in ``state``) and update every player's memory."""
    cur = state.current
    if state.phase is not _PLAY:  # a Chancellor's return: its hand was forgotten when it was played
        state.apply_unchecked(action)
        return
    card, target = action.card, action.target
    for known in memory:  # R4.3: it may have been the known card that was played
        if known.get(cur) is card:
            del known[cur]
    if memory.ties:
        memory.ties = ties.played(memory.ties, cur, card)
    memory.tells = after_play(memory.tells, cur, card)
    read_play(memory.odds, public_pool(state), cur, card,
              state.alive_mask & ~state.protected_mask & ~(1 << cur), state.edition)
    if target is None or card is GUARD:
        state.apply_unchecked(action)
        _learn_untargeted(state, memory, cur, action)
        return
    hand = state.hands[cur]
    kept = hand[1] if hand[0] is card else hand[0]
    theirs = kept if target == cur else state.hands[target][0]  # (a Prince at itself discards what it kept)
    state.apply_unchecked(action)
    if card is PRIEST:
        memory[cur][target] = theirs
    elif card is BARON:
        if kept is theirs:  # a tie: each has seen the other's card, and the others that it is the same
            memory[cur][target] = theirs
            memory[target][cur] = kept
            memory.ties = ties.tied(memory.ties, cur, target)
        else:  # the loser's card is shown
            loser, shown = (target, theirs) if state.alive_mask >> cur & 1 else (cur, kept)
            _shown(memory, loser, shown)
    elif card is PRINCE:
        _shown(memory, target, theirs)
        for known in memory:
            known.pop(target, None)
        memory.tells = after_discard(memory.tells, target)
        forget(memory.odds, target)
    elif card is KING:
        _learn_king(memory, cur, target, kept, theirs)
    _spread(memory)


def _learn_untargeted(state: Round, memory: Memory, cur: int, action: Action) -> None:
    """What every player learns from ``cur``'s card played at nobody, or its Guard, just applied to
    ``state``."""
    card, target = action.card, action.target
    if card is Card.CHANCELLOR and state.phase is Phase.CHANCELLOR:
        # it drew (on an empty deck it does nothing, R5.9): nobody knows its hand any more
        # (nothing is learnt before its return)
        for known in memory:
            known.pop(cur, None)
        forget(memory.odds, cur)
        if memory.ties:
            memory.ties = ties.left(memory.ties, cur)
    elif target is not None and state.alive_mask >> target & 1:  # the Guard missed
        assert action.guess is not None
        read_miss(memory.odds, target, action.guess)
    elif target is not None:  # the Guard hit: the card shown was its tie's too
        _shown(memory, target, state.discards[target][-1])
    elif not state.alive_mask >> cur & 1:  # it played its Princess, and shows the card it kept
        _shown(memory, cur, state.discards[cur][-1])


def _learn_king(memory: Memory, cur: int, target: int, kept: Card, theirs: Card) -> None:
    """What every player learns from ``cur``'s King, which gave ``kept`` to ``target`` for ``theirs``:
    the two know each other's new card, and the others who knew a card of theirs follow it."""
    memory.tells = after_king(memory.tells, cur, target)
    read_king(memory.odds, cur, target)
    for seat, known in enumerate(memory):
        if seat in (cur, target):
            continue
        was_cur, was_target = known.pop(cur, None), known.pop(target, None)
        if was_cur is not None:
            known[target] = was_cur
        if was_target is not None:
            known[cur] = was_target
    memory[cur].pop(cur, None)
    memory[target].pop(target, None)
    memory[cur][target] = kept
    memory[target][cur] = theirs
    if memory.ties:  # a tied card that came to one of the two: it knows its twin's
        memory.ties = ties.traded(memory.ties, cur, target)
        memory[cur].update(ties.twins(memory.ties, cur, theirs))
        memory[target].update(ties.twins(memory.ties, target, kept))


def _shown(memory: Memory, holder: int, card: Card) -> None:
    """``holder``'s card was shown (knocked out, or discarded to a Prince): every player sees its
    tie's twin hold it too."""
    if memory.ties:
        shown = ties.twins(memory.ties, holder, card)
        for seat, known in enumerate(memory):
            known.update({twin: same for twin, same in shown.items() if seat != twin})
        memory.ties = ties.left(memory.ties, holder)
        _spread(memory)


def _spread(memory: Memory) -> None:
    """Who knows one card of a tie knows its twin's (:func:`loveletter.engine.ties.spread`)."""
    if memory.ties:
        for seat, known in enumerate(memory):
            ties.spread(memory.ties, known, seat)


def play_out(state: Round, memory: Memory, rng: random.Random, wild: int) -> None:
    """Finish the round, every player following :func:`policy`, except the seats in the bit mask
    ``wild``, who play at random."""
    while not state.over:
        step(state, move(state, memory, rng, wild), memory)


def move(state: Round, memory: Memory, rng: random.Random, wild: int) -> Action:
    """The move of the player to move: :func:`policy`, or any legal move if it is in ``wild``."""
    cur = state.current
    if wild >> cur & 1:
        legal = state.legal_actions()
        return legal[int(rng.random() * len(legal))]
    return policy(state, memory[cur], rng, memory.tells, memory.odds)


def public_pool(state: Round) -> list[int]:
    """How many of each card (by number) are not public: not discarded, not face up (the pool of
    :func:`~loveletter.bots.odds.read_play`)."""
    pool = list(state.edition.counts)
    for pile in state.discards:
        for card in pile:
            pool[card] -= 1
    for card in state.face_up:
        pool[card] -= 1
    return pool


def unseen_counts(state: Round) -> list[int]:
    """How many of each card (by number) the player to move has not seen: not discarded, not
    face up, not in its own hand."""
    unseen = public_pool(state)
    for card in state.hands[state.current]:
        unseen[card] -= 1
    return unseen


def unknown_counts(state: Round, known: dict[int, Card]) -> list[int]:
    """How many of each card (by number) could be in a hand unknown to the player to move, who knows
    the hands in ``known``: :func:`unseen_counts`, less the cards known to be elsewhere."""
    unknown = unseen_counts(state)
    for seat, card in known.items():
        if state.alive_mask >> seat & 1 and unknown[card] > 0:
            unknown[card] -= 1
    return unknown


def unseen_odds(state: Round) -> dict[Card, float]:
    """:func:`unseen_counts` as odds."""
    unseen = unseen_counts(state)
    total = sum(unseen)
    return {CARDS[c]: n / total for c, n in enumerate(unseen) if n > 0} if total else {}


def policy(state: Round, known: dict[int, Card], rng: random.Random, tells: int = 0,
           odds: PlayOdds | None = None) -> Action:
    """The move of the player to move, who knows the hands in ``known`` (seat: card), takes the
    seats in the bit mask ``tells`` to be told by the Countess (:attr:`Memory.tells`) and reads the
    plays by ``odds`` (:attr:`Memory.odds`)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    value = state.edition.value
    if state.phase is not _PLAY:  # a Chancellor's choice: keep the highest card
        return max(legal, key=lambda a: value(a.keep))  # type: ignore[arg-type]
    me = state.current
    hand = state.hands[me]
    unknown = unknown_counts(state, known)
    total = sum(unknown)
    others = state.alive_mask & ~(1 << me)
    if not state.deck and state.set_aside is not None and others & (others - 1) == 0:  # the last play
        other = others.bit_length() - 1
        chances = count_last_play(state.edition, hand, legal, me, known.get(other), unknown,
                                  sum(map(value, state.discards[me])), sum(map(value, state.discards[other])))
        if chances is not None:  # as the beginner: only the moves that win the showdown most often
            legal = winning_most(chances)
    best: list[Action] = []
    best_score = -math.inf
    # A move scores the same at every other target whose card the player does not know, that is not
    # told by the Countess and whose plays read the same (a Guard at six players has up to five such
    # targets for each guess): scored once per card, guess and reading.
    # The counts such a target may hold are weighed by its reading once, not per move.
    alike: dict[tuple[Card, Card | None, tuple[float, ...] | None], float] = {}
    read: dict[tuple[float, ...] | None, tuple[Sequence[float], float]] = {}
    for action in legal:
        target = action.target
        if target is None or target == me or target in known or tells >> target & 1:
            score = score_move(action, hand, known, unknown, total, value, me, WEIGHTS, tells, odds)
        else:
            reading = None if odds is None else odds[target]
            key = (action.card, action.guess, reading)
            found = alike.get(key)
            if found is None:
                counts = read.get(reading)
                if counts is None:
                    counts = read[reading] = target_counts(unknown, total, target, 0, odds)
                found = alike[key] = score_move(action, hand, known, *counts, value, me)
            score = found
        if score > best_score + TIE:
            best, best_score = [action], score
        elif score > best_score - TIE:
            best.append(action)
    return best[int(rng.random() * len(best))]


def chance_of_play(edition: Edition, hand: tuple[Card, Card], played: Action, seat: int, others_mask: int,
                   seen: list[int], known: dict[int, Card], care: float, tells: int = 0,
                   odds: PlayOdds | None = None) -> float:
    """How likely a player holding ``hand`` is to make the play ``played``, if it follows
    :func:`policy` with probability ``care`` and otherwise picks one of its cards at random (and one of
    that card's plays at random). (The policy's counting of the round's last play is left out: that
    play ends the round, so nothing it would tell is ever read.) ``seen`` counts, by card number, the
    cards it could see apart from its hand (face up and discarded); ``known`` is what it knows of other
    hands; the seats in ``others_mask`` could be chosen; those in ``tells`` were told by the Countess
    (:func:`~loveletter.bots.rule_based.countess_tells`); ``odds`` what the plays before said
    (:mod:`~loveletter.bots.odds`). Used to read the others' hands from their choices."""
    legal = legal_plays(edition, hand, others_mask, seat)
    if played not in legal:
        return 0.0
    if len(legal) == 1:
        return 1.0
    unknown = unknown_to(edition, hand, seen, known)
    total = sum(unknown)
    value = edition.value
    best: list[Action] = []
    best_score = -math.inf
    same_card = 0
    for action in legal:
        if action.card is played.card:
            same_card += 1
        score = score_move(action, hand, known, unknown, total, value, seat, WEIGHTS, tells, odds)
        if score > best_score + TIE:
            best, best_score = [action], score
        elif score > best_score - TIE:
            best.append(action)
    followed = 1.0 / len(best) if played in best else 0.0
    cards = {action.card for action in legal}
    at_random = 1.0 / (len(cards) * same_card)
    return care * followed + (1.0 - care) * at_random


def unknown_to(edition: Edition, hand: tuple[Card, ...], seen: list[int], known: dict[int, Card]) -> list[int]:
    """How many of each card (by number) could be in a hand unknown to a player holding ``hand``, who
    has seen the cards counted in ``seen`` (face up and discarded) and knows the hands in ``known``
    (the counts of :func:`chance_of_play`)."""
    unknown = [n - s for n, s in zip(edition.counts, seen, strict=True)]
    for card in hand:
        unknown[card] -= 1
    for card in known.values():
        if unknown[card] > 0:
            unknown[card] -= 1
    return unknown


def chance_at_random(edition: Edition, hand: tuple[Card, Card], played: Action, seat: int, others_mask: int,
                     seen: list[int], known: dict[int, Card], tells: int = 0,
                     odds: PlayOdds | None = None) -> float:
    """How likely a player holding ``hand`` who picks any legal play at random is to make ``played``
    (the arguments are those of :func:`chance_of_play`)."""
    legal = legal_plays(edition, hand, others_mask, seat)
    return 1.0 / len(legal) if played in legal else 0.0
