"""One round of Love Letter: setup (R3), turns (R4, R5) and the end of the round (R6).

A :class:`Round` is always at a decision of its current player, or over. After every turn the next
player's draw is already done, so ``legal_actions()`` is what that player may do now.

Built for search: plain lists and bit masks, no allocation for move generation (legal actions are
cached per situation and shared), an optional event log (``log=False`` when simulating), and
:meth:`Round.clone`.

>>> from loveletter.engine.cards import CLASSIC
>>> r = Round(CLASSIC, 2, deck="princess guard guard guard priest baron handmaid prince "
...           "king countess guard guard prince baron handmaid priest".split())
>>> r.hands, r.current
([[<Card.PRIEST: 2>, <Card.HANDMAID: 4>], [<Card.BARON: 3>]], 0)
>>> [str(a) for a in r.legal_actions()][:3]
['priest 1', 'handmaid']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from enum import IntEnum
from itertools import permutations

from loveletter.engine.actions import Action
from loveletter.engine.cards import TARGETED, Card, Edition, edition_named
from loveletter.engine.errors import IllegalActionError, check_whole, is_whole, quoted, typed
from loveletter.engine.events import ONLY, Event

GUARD, PRIEST, BARON, HANDMAID, PRINCE = Card.GUARD, Card.PRIEST, Card.BARON, Card.HANDMAID, Card.PRINCE
CHANCELLOR, KING, COUNTESS, PRINCESS, SPY = (
    Card.CHANCELLOR, Card.KING, Card.COUNTESS, Card.PRINCESS, Card.SPY
)


class Phase(IntEnum):
    PLAY = 0  # the current player holds two cards and plays one
    CHANCELLOR = 1  # the current player played a Chancellor and keeps one card (R5.9)
    OVER = 2


_PLAY, _CHANCELLOR = Phase.PLAY, Phase.CHANCELLOR

# Legal actions per (edition, hand, who may be chosen, who plays): computed once, shared.
# The second element maps every legal action (and anything equal to it) to the canonical one.
_LEGAL: dict[str, dict[int, tuple[tuple[Action, ...], dict[Action, Action]]]] = {}


def _legal_memo(edition: Edition) -> dict[int, tuple[tuple[Action, ...], dict[Action, Action]]]:
    """The legal actions computed so far in this process for ``edition``'s rounds."""
    return _LEGAL.get(edition.name) or _LEGAL.setdefault(edition.name, {})


def _parse_cards(cards: Iterable[Card | str]) -> list[Card]:
    """The cards named, each a :class:`Card` or its lowercase English word (:meth:`Card.from_word`);
    a ``ValueError`` names the first that is neither."""
    parsed = []
    for card in cards:
        if not isinstance(card, Card):
            try:
                card = Card.from_word(card)
            except (KeyError, TypeError):  # (TypeError: a list, which no dict can look up)
                raise ValueError(f"the deck holds {quoted(card)!r}, which is not a card: the cards are"
                                 f" {', '.join(c.word for c in Card)}") from None
        parsed.append(card)
    return parsed


class Round:
    """The state of one round. Seats are ``0 .. players-1``.

    Public attributes (read them; change the round only through :meth:`apply`):

    ``hands[s]``       the cards seat ``s`` holds (empty once out)
    ``discards[s]``    seat ``s``'s discard pile, in order (public)
    ``face_up``        the cards removed face up with two players (R3.3)
    ``set_aside``      the face-down card, ``None`` once a Prince has given it out (R5.5)
    ``current``        the seat whose decision it is
    ``knocked_out``    seats out of the round, in order
    ``winners``        seats that won the round (when over), ascending
    ``spy_bonus``      the seat that gains the Spy's token (R6.4), or ``None``
    ``log``            the events so far, or ``None`` when not logging
    """

    __slots__ = (
        "edition", "players", "starter", "deck", "set_aside", "face_up", "hands", "discards",
        "alive_mask", "protected_mask", "knocked_out", "current", "phase", "turn", "winners",
        "spy_bonus", "log", "initial_deck", "_legal_cache", "_legal_now",
    )

    def __init__(
        self,
        edition: Edition | str,
        players: int,
        deck: Sequence[Card | str],
        starter: int = 0,
        *,
        log: bool = True,
    ) -> None:
        """Set up a round (R3) from ``deck``, top card first, and make the starter's first draw.

        ``edition``: an edition or its name; ``deck`` must hold exactly the edition's cards; a
        ``ValueError`` says what is wrong.
        """
        edition = edition_named(edition)  # ('classic' was an AttributeError)
        edition.check_players(players)
        _check_starter(players, starter)
        cards = _parse_cards(deck)
        _check_deck(edition, cards)
        self._setup(edition, players, cards, starter, log)

    def _setup(self, edition: Edition, players: int, cards: list[Card], starter: int, log: bool) -> None:
        self.edition = edition
        self.players = players
        self.starter = starter
        self.initial_deck: tuple[Card, ...] = tuple(cards)
        self.log: list[Event] | None = [] if log else None
        self._legal_cache = _legal_memo(edition)
        self._legal_now: tuple[tuple[Action, ...], dict[Action, Action]] | None = None

        pile = cards[::-1]  # internally the top card is at the end: draw = pop()
        self.set_aside: Card | None = pile.pop()  # R3.2
        self.face_up: tuple[Card, ...] = (pile.pop(), pile.pop(), pile.pop()) if players == 2 else ()  # R3.3
        self.discards: list[list[Card]] = [[] for _ in range(players)]
        self.alive_mask = (1 << players) - 1
        self.protected_mask = 0
        self.knocked_out: list[int] = []
        self.winners: tuple[int, ...] = ()
        self.spy_bonus: int | None = None
        self.phase = Phase.PLAY
        self.turn = 1
        self.current = starter
        # R3.4: deal from the starter, in turn order; then the starter draws (R4.1).
        hands: list[list[Card]] = [[] for _ in range(players)]
        for i in range(players):
            hands[(starter + i) % players].append(pile.pop())
        hands[starter].append(pile.pop())
        self.hands = hands
        self.deck = pile
        if log:
            events = self.log
            assert events is not None
            events.append(Event("setup", seat=starter, cards=self.face_up, result=len(pile) + 1))
            for i in range(players):
                seat = (starter + i) % players
                events.append(Event("deal", seat=seat, card=hands[seat][0], secret=("card",),
                                    privy=ONLY[seat]))
            events.append(Event("draw", seat=starter, card=hands[starter][1], secret=("card",),
                                privy=ONLY[starter]))

    @classmethod
    def shuffled(
        cls, edition: Edition, players: int, rng: random.Random, starter: int = 0, *, log: bool = True
    ) -> Round:
        """A round with the edition's cards shuffled by ``rng`` (the same ``rng`` state, the same deck)."""
        edition.check_players(players)
        _check_starter(players, starter)  # (taken modulo, seat 5 of three would quietly be seat 2)
        pick = rng.random
        # Sorting by independent uniform keys gives a uniform shuffle, faster than rng.shuffle.
        deck = sorted(edition.full_deck, key=lambda _: pick())
        new = cls.__new__(cls)
        new._setup(edition, players, deck, starter, log)
        return new

    @classmethod
    def from_parts(
        cls,
        edition: Edition,
        *,
        hands: Sequence[Sequence[Card]],
        discards: Sequence[Sequence[Card]],
        deck: Sequence[Card],
        set_aside: Card | None,
        face_up: Sequence[Card],
        alive: Sequence[bool],
        protected: Sequence[bool],
        knocked_out: Sequence[int],
        current: int,
        phase: Phase = Phase.PLAY,
        turn: int = 1,
        starter: int = 0,
    ) -> Round:
        """A round in the middle of play, from its parts (``deck`` top card first), without an event
        log: for search bots that sample the hidden cards of a view (a determinisation).

        The parts are trusted: the caller keeps every card of the edition exactly once.
        """
        players = len(hands)
        new = cls.__new__(cls)
        new.edition = edition
        new.players = players
        new.starter = starter
        new.initial_deck = ()
        new.log = None
        new._legal_cache = _legal_memo(edition)
        new._legal_now = None
        new.hands = [list(h) for h in hands]
        new.discards = [list(d) for d in discards]
        new.deck = list(reversed(deck))
        new.set_aside = set_aside
        new.face_up = tuple(face_up)
        new.alive_mask = sum(1 << s for s in range(players) if alive[s])
        new.protected_mask = sum(1 << s for s in range(players) if protected[s])
        new.knocked_out = list(knocked_out)
        new.winners = ()
        new.spy_bonus = None
        new.phase = phase
        new.turn = turn
        new.current = current
        return new

    def clone(self, *, log: bool = False) -> Round:
        """An independent copy, by default without the event log (for simulations)."""
        other = Round.__new__(Round)
        other.edition = self.edition
        other.players = self.players
        other.starter = self.starter
        other.initial_deck = self.initial_deck
        other._legal_cache = self._legal_cache
        other._legal_now = self._legal_now
        other.deck = self.deck[:]
        other.set_aside = self.set_aside
        other.face_up = self.face_up
        other.hands = [h[:] for h in self.hands]
        other.discards = [d[:] for d in self.discards]
        other.alive_mask = self.alive_mask
        other.protected_mask = self.protected_mask
        other.knocked_out = self.knocked_out[:]
        other.winners = self.winners
        other.spy_bonus = self.spy_bonus
        other.phase = self.phase
        other.turn = self.turn
        other.current = self.current
        other.log = (self.log[:] if self.log is not None else []) if log else None
        return other

    def __getstate__(self) -> dict[str, object]:
        """What a copy or a pickle keeps: the round, without the process's memo of legal actions,
        which every round of the edition shares and which grows with all the process has played
        (pickled along, it grew every pickle with it)."""
        return {name: getattr(self, name) for name in self.__slots__ if name not in ("_legal_cache", "_legal_now")}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self._legal_cache = _legal_memo(self.edition)  # this process's own
        self._legal_now = None

    # ----------------------------------------------------------------- reading the state

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def deck_size(self) -> int:
        return len(self.deck)

    def deck_top_first(self) -> tuple[Card, ...]:
        """The cards left in the deck, top card first (hidden information)."""
        return tuple(reversed(self.deck))

    def is_alive(self, seat: int) -> bool:
        """Whether ``seat`` is still in the round."""
        return bool(self.alive_mask >> seat & 1)

    def is_protected(self, seat: int) -> bool:
        """Whether ``seat`` is protected by a Handmaid (R5.4)."""
        return bool(self.protected_mask >> seat & 1)

    @property
    def alive(self) -> list[bool]:
        return [self.is_alive(s) for s in range(self.players)]

    @property
    def protected(self) -> list[bool]:
        return [self.is_protected(s) for s in range(self.players)]

    def choosable(self, seat: int) -> list[int]:
        """Seats that ``seat``'s Guard, Priest, Baron or King may choose now (R4.5)."""
        mask = self.alive_mask & ~self.protected_mask & ~(1 << seat)
        return [s for s in range(self.players) if mask >> s & 1]

    # ----------------------------------------------------------------- legal actions

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action :meth:`apply` accepts now, and nothing else (empty when over)."""
        phase = self.phase
        if phase is _PLAY:
            return (self._legal_now or self._legal_play())[0]
        if phase is _CHANCELLOR:
            return _chancellor_choices(self.hands[self.current])[0]
        return ()

    def _legal_play(self) -> tuple[tuple[Action, ...], dict[Action, Action]]:
        if self._legal_now is not None:
            return self._legal_now
        cur = self.current
        a, b = self.hands[cur]
        if a > b:
            a, b = b, a
        others = self.alive_mask & ~self.protected_mask & ~(1 << cur)
        key = ((a * 10 + b) << 10) | (others << 3) | cur
        found = self._legal_cache.get(key)
        if found is None:
            found = self._legal_cache[key] = _play_actions(self.edition, a, b, others, cur)
        self._legal_now = found
        return found

    def is_legal(self, action: Action) -> bool:
        return self._canonical(action) is not None

    def _canonical(self, action: Action) -> Action | None:
        """The legal move ``action`` is (the very one :meth:`legal_actions` lists), or ``None``: for a
        move that is not legal now, and for anything that is not an action at all or only equals a
        legal one (:func:`_form_error`)."""
        if self.phase is _PLAY:
            legal = self._legal_now or self._legal_play()
            try:
                found = legal[1].get(action) if isinstance(action, Action) and action.bottom is None else None
            except TypeError:  # (a list where a seat or a card goes: it has no hash)
                return None
            # (an action from legal_actions() is found as itself: the check of its form is for others)
            if found is None or found is action:
                return found
            return found if _form_error(action) is None else None
        if self.phase is _CHANCELLOR and _form_error(action) is None:
            return _chancellor_choices(self.hands[self.current])[1].get(_bottom_as_tuple(action))
        return None

    # ----------------------------------------------------------------- applying

    def apply(self, action: Action) -> None:
        """Carry out ``action`` for the current player.

        Anything not in :meth:`legal_actions` raises :class:`IllegalActionError`, naming the rule
        broken, and leaves the round unchanged: so does anything that is not an action at all (text,
        a plain tuple, a list where a seat or card goes), and an action that only equals a legal one
        (``True`` or ``1.0`` for seat 1, the number 2 for the Priest).
        """
        canonical = self._canonical(action)
        if canonical is None:
            raise self._why_illegal(action)
        self.apply_unchecked(canonical)

    def apply_unchecked(self, action: Action) -> None:
        """:meth:`apply` without the legality check: only for actions from :meth:`legal_actions`."""
        if self.phase is _PLAY:
            self._play(action)
        else:
            self._chancellor_choice(action)

    def _play(self, action: Action) -> None:
        # The hot path of every simulation: locals over attributes, the common cases first.
        self._legal_now = None
        cur = self.current
        card, target, guess = action.card, action.target, action.guess
        hands = self.hands
        hand = hands[cur]
        hand.remove(card)
        self.discards[cur].append(card)
        log = self.log
        if log is not None:
            result = None
            if card is GUARD and target is not None:
                result = "hit" if hands[target][0] is guess else "miss"
            elif card is CHANCELLOR and not self.deck:  # R5.9: nothing to draw, so no effect
                result = "no_effect"
            log.append(Event("play", seat=cur, card=card, target=target, guess=guess, result=result))

        if target is None:
            if card is HANDMAID:  # R5.4
                self.protected_mask |= 1 << cur
            elif card is PRINCESS:  # R5.8
                self._knock_out(cur, "princess")
            elif card is CHANCELLOR and self.deck:  # R5.9: draw, then choose (Phase.CHANCELLOR)
                deck = self.deck
                drawn = [deck.pop() for _ in range(min(2, len(deck)))]
                hand.extend(drawn)
                self.phase = Phase.CHANCELLOR
                if log is not None:
                    log.append(Event("chancellor", seat=cur, cards=tuple(drawn), result=len(drawn),
                                     secret=("cards",), privy=ONLY[cur]))
                return
            # Spy, Countess, a Chancellor on an empty deck, and targeted cards with no one to
            # choose (R4.6): no effect.
        elif card is GUARD:  # R5.1
            if hands[target][0] is guess:
                self._knock_out(target, "guard")
        elif card is BARON:  # R5.3
            mine, theirs = hand[0], hands[target][0]
            if log is not None:
                outcome = "tie" if mine == theirs else ("win" if mine > theirs else "loss")
                log.append(Event("baron", seat=cur, target=target, cards=(mine, theirs), result=outcome,
                                 secret=("cards",), privy=frozenset((cur, target))))
            if mine < theirs:
                self._knock_out(cur, "baron")
            elif theirs < mine:
                self._knock_out(target, "baron")
        elif card is PRIEST:  # R5.2
            if log is not None:
                log.append(Event("priest", seat=cur, target=target, card=hands[target][0],
                                 secret=("card",), privy=ONLY[cur]))
        elif card is PRINCE:  # R5.5
            dropped = hands[target].pop()
            self.discards[target].append(dropped)
            if log is not None:
                log.append(Event("discard", seat=target, card=dropped))
            if dropped is PRINCESS:  # R5.8
                self._knock_out(target, "princess")
            else:
                self._draw(target)
        else:  # KING, R5.6
            hands[cur], hands[target] = hands[target], hand
            if log is not None:
                log.append(Event("king", seat=cur, target=target, cards=(hands[cur][0], hands[target][0]),
                                 secret=("cards",), privy=frozenset((cur, target))))
        # The usual end of a turn, inlined (see _end_turn for the rules).
        alive = self.alive_mask
        deck = self.deck
        if alive & (alive - 1) == 0 or not deck:
            self._end_turn()
            return
        n = self.players
        nxt = cur + 1 if cur + 1 < n else 0
        while not alive >> nxt & 1:
            nxt = nxt + 1 if nxt + 1 < n else 0
        self.protected_mask &= ~(1 << nxt)
        self.current = nxt
        self.turn += 1
        new_card = deck.pop()
        hands[nxt].append(new_card)
        if log is not None:
            log.append(Event("draw", seat=nxt, card=new_card, secret=("card",), privy=ONLY[nxt]))

    def _chancellor_choice(self, action: Action) -> None:
        self._legal_now = None
        cur = self.current
        hand = self.hands[cur]
        bottom = action.bottom or ()
        for c in bottom:
            hand.remove(c)
            self.deck.insert(0, c)  # the last one listed ends up at the very bottom
        if self.log is not None:
            self.log.append(Event("bottom", seat=cur, card=action.keep, cards=tuple(bottom),
                                  result=len(bottom), secret=("card", "cards"), privy=ONLY[cur]))
        self.phase = Phase.PLAY
        self._end_turn()

    def _draw(self, seat: int) -> None:
        if self.deck:
            card = self.deck.pop()
            source = None
        else:  # R5.5: a Prince on an empty deck gives the set-aside card
            card = self.set_aside  # type: ignore[assignment]
            self.set_aside = None
            source = "set_aside"
        self.hands[seat].append(card)
        if self.log is not None:
            self.log.append(Event("draw", seat=seat, card=card, result=source,
                                  secret=("card",), privy=ONLY[seat]))

    def _knock_out(self, seat: int, cause: str) -> None:
        # R5.11: the hand is discarded face up, without effect.
        self.alive_mask &= ~(1 << seat)
        self.protected_mask &= ~(1 << seat)
        hand = self.hands[seat]
        revealed = tuple(hand)
        self.discards[seat].extend(hand)
        hand.clear()
        self.knocked_out.append(seat)
        if self.log is not None:
            self.log.append(Event("out", seat=seat, cards=revealed, result=cause))

    def _end_turn(self) -> None:
        alive = self.alive_mask
        if alive & (alive - 1) == 0:  # R6.1: one player left
            self._finish((alive.bit_length() - 1,))
            return
        if not self.deck:  # R6.2
            self._finish(*self._showdown())
            return
        n = self.players
        nxt = (self.current + 1) % n
        while not alive >> nxt & 1:
            nxt = (nxt + 1) % n
        self.protected_mask &= ~(1 << nxt)  # R4.2: protection ends as the turn starts
        self.current = nxt
        self.turn += 1
        card = self.deck.pop()  # R4.1
        self.hands[nxt].append(card)
        if self.log is not None:
            self.log.append(Event("draw", seat=nxt, card=card, secret=("card",), privy=ONLY[nxt]))

    def _showdown(self) -> tuple[tuple[int, ...], str | None]:
        """R6.2, R6.3: the winners, and how a tie for the highest card was settled (``None``: there
        was none; see :mod:`~loveletter.engine.events`, ``round_end``)."""
        alive = [s for s in range(self.players) if self.alive_mask >> s & 1]
        if self.log is not None:  # (said before the hands are shown: why the round ends)
            self.log.append(Event("showdown", seats=tuple(alive)))
        best = max(self.hands[s][0] for s in alive)
        tied = [s for s in alive if self.hands[s][0] == best]
        if len(tied) == 1:
            return tuple(tied), None
        if self.edition.name != "classic":
            return tuple(tied), "tie"
        value = self.edition.value  # R6.3: the highest discard total
        totals = {s: sum(value(c) for c in self.discards[s]) for s in tied}
        top = max(totals.values())
        winners = tuple(s for s in tied if totals[s] == top)
        return winners, "discard_total" if len(winners) < len(tied) else "discard_total_tie"

    def _finish(self, winners: tuple[int, ...], settled: str | None = None) -> None:
        self.phase = Phase.OVER
        self.winners = winners
        if self.edition.has(SPY):  # R6.4
            spies = [s for s in range(self.players) if self.alive_mask >> s & 1 and SPY in self.discards[s]]
            if len(spies) == 1:
                self.spy_bonus = spies[0]
        if self.log is not None:  # R6.5: every card is public now
            for s in range(self.players):
                if self.hands[s]:
                    self.log.append(Event("reveal", seat=s, card=self.hands[s][0]))
            if self.set_aside is not None:
                self.log.append(Event("reveal", card=self.set_aside))
            self.log.append(Event("round_end", seats=winners, target=self.spy_bonus,
                                  cards=self.deck_top_first(), result=settled))

    # ----------------------------------------------------------------- explaining refusals

    def _why_illegal(self, action: Action) -> IllegalActionError:
        """The rule that ``action`` breaks (it is known not to be legal), or what keeps it from being
        an action at all; in a round over, that it is over, whatever the action."""
        if self.phase is Phase.OVER:
            return IllegalActionError("round_over")
        malformed = _form_error(action)
        if malformed is not None:
            return malformed
        cur = self.current
        hand = self.hands[cur]
        card = action.card
        if not self.edition.has(card):  # (a Card: see _form_error)
            return IllegalActionError("not_edition", card=card, edition=self.edition.name)
        if self.phase is Phase.CHANCELLOR:
            return _why_bad_chancellor(cur, hand, action)
        if card not in hand:  # (first: "play the Chancellor first" to one who holds none misled)
            return IllegalActionError("not_in_hand", seat=cur, card=card)
        if action.keep is not None or action.bottom is not None:  # (a choice that comes later, if a Chancellor)
            return IllegalActionError("keep_after_drawing" if card is Card.CHANCELLOR else "not_chancellor")
        other = hand[1] if hand[0] is card else hand[0]
        if card in (KING, PRINCE) and other is COUNTESS:  # R4.4
            return IllegalActionError("countess", seat=cur, card=card)
        if action.guess is not None and card is not GUARD:
            return IllegalActionError("not_guard")
        if card not in TARGETED:
            return IllegalActionError("untargeted", card=card)  # the only field left is a target
        others = self.choosable(cur)
        choosable = sorted(others + [cur]) if card is PRINCE else others
        target = action.target
        if target is None:
            if choosable:
                return IllegalActionError("needs_target", card=card, options=choosable)
            return IllegalActionError("guess_untargeted")  # a Guard with a guess and no one to choose
        if not 0 <= target < self.players:  # (a whole number: see _form_error)
            return IllegalActionError("no_such_seat", target=target)
        if target == cur and card is not PRINCE:
            if not choosable:  # R4.6: nobody else may be chosen, so the card goes without a target
                return IllegalActionError("no_target", card=card)
            return IllegalActionError("target_self", card=card, seat=cur)
        if card is PRINCE and not others and target != cur:  # R4.6
            return IllegalActionError("prince_self", seat=cur)
        if not self.is_alive(target):
            return IllegalActionError("target_out", target=target)
        if self.is_protected(target):
            return IllegalActionError("target_protected", target=target)
        if action.guess is None:
            return IllegalActionError("needs_guess")
        if action.guess is GUARD:
            return IllegalActionError("guess_guard")
        return IllegalActionError("not_edition", card=action.guess, edition=self.edition.name)

    def __repr__(self) -> str:
        return (
            f"<Round {self.edition.name} {self.players}p turn {self.turn} seat {self.current}"
            f" hands={[[c.word for c in h] for h in self.hands]} deck={len(self.deck)}"
            f"{' over' if self.over else ''}>"
        )


def wrong_counts(edition: Edition, cards: Sequence[Card]) -> list[tuple[int, Card, int]]:
    """How ``cards`` fails to be the edition's deck (R3.1): ``(count, card, copies needed)`` for each
    card whose count is wrong, by value; empty for a right deck."""
    counts = {c: list(cards).count(c) for c in set(cards) | set(edition.copies)}
    return [(counts[c], c, edition.copies.get(c, 0)) for c in sorted(counts) if counts[c] != edition.copies.get(c, 0)]


def _check_starter(players: int, starter: int) -> None:
    check_whole("the starter", starter)  # (True started as seat 1)
    if not 0 <= starter < players:
        raise ValueError(f"the starter must be a seat from 0 to {players - 1}, not {starter}")


def _check_deck(edition: Edition, cards: list[Card]) -> None:
    wrong = wrong_counts(edition, cards)
    if wrong:
        listed = ", ".join(f"{count} {card.word} (needs {needed})" for count, card, needed in wrong)
        raise ValueError(
            f"the deck must hold the {len(edition.full_deck)} cards of the {edition.name} edition"
            f" once per copy; it has {listed} (R3.1)"
        )


def legal_plays(edition: Edition, hand: tuple[Card, Card], others_mask: int, seat: int) -> tuple[Action, ...]:
    """The plays ``seat`` could make holding ``hand`` when the seats in ``others_mask`` may be chosen
    (for reasoning about hands one cannot see)."""
    a, b = sorted(hand)
    key = ((a * 10 + b) << 10) | (others_mask << 3) | seat
    cache = _legal_memo(edition)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _play_actions(edition, a, b, others_mask, seat)
    return found[0]


def _play_actions(
    edition: Edition, a: Card, b: Card, others_mask: int, cur: int
) -> tuple[tuple[Action, ...], dict[Action, Action]]:
    """The legal plays with hand ``{a, b}`` when the seats in ``others_mask`` may be chosen."""
    if COUNTESS in (a, b) and ({a, b} & {KING, PRINCE}):  # R4.4
        actions: list[Action] = [Action(COUNTESS)]
    else:
        others = [s for s in range(8) if others_mask >> s & 1]
        actions = []
        for card in sorted({a, b}):
            if card not in TARGETED:
                actions.append(Action(card))
                continue
            targets = sorted(others + [cur]) if card is PRINCE else others  # R4.5, R4.6
            if not targets:
                actions.append(Action(card))  # R4.6: no effect
            elif card is GUARD:
                actions += [Action(GUARD, t, g) for t in targets for g in edition.guessable]
            else:
                actions += [Action(card, t) for t in targets]
    found = tuple(actions)
    return found, {a: a for a in found}


# Chancellor choices per hand (as a sorted tuple): the actions, and each mapped to itself.
_CHOICES: dict[tuple[Card, ...], tuple[tuple[Action, ...], dict[Action, Action]]] = {}


def _chancellor_choices(hand: list[Card]) -> tuple[tuple[Action, ...], dict[Action, Action]]:
    """Keep one card of ``hand``, put the others under the deck in any order (R5.9)."""
    key = tuple(sorted(hand))
    found = _CHOICES.get(key)
    if found is None:
        choices: dict[Action, None] = {}
        for i, keep in enumerate(key):
            for order in permutations(key[:i] + key[i + 1 :]):
                choices[Action(CHANCELLOR, keep=keep, bottom=order)] = None
        actions = tuple(sorted(choices, key=lambda a: (a.keep, a.bottom)))
        found = _CHOICES[key] = (actions, {a: a for a in actions})
    return found


def _why_bad_chancellor(cur: int, hand: list[Card], action: Action) -> IllegalActionError:
    if action.card is not CHANCELLOR or action.keep is None:
        return _keep_one_of("chancellor_pending", cur, hand)
    if action.target is not None or action.guess is not None:
        return IllegalActionError("chancellor_choice_only", seat=cur)
    if action.keep not in hand:
        return _keep_one_of("chancellor_keep", cur, hand)
    rest = list(hand)
    rest.remove(action.keep)
    return IllegalActionError("chancellor_bottom", cards=sorted(rest))


def _keep_one_of(key: str, cur: int, hand: list[Card]) -> IllegalActionError:
    """The Chancellor's player must keep one of ``hand``: each card named once, and a hand of one
    card twice told as that card ("must keep the Guard", not "one of these cards: Guard")."""
    options = sorted(set(hand))
    if len(options) == 1:
        return IllegalActionError(f"{key}_one", seat=cur, card=options[0])
    return IllegalActionError(key, seat=cur, options=options)


def _form_error(action: object) -> IllegalActionError | None:
    """What keeps ``action`` from being an action at all, if anything: not an :class:`Action`, or a
    field of another kind than its own (a seat is a whole number, not ``True``, ``1.0`` or ``"1"``;
    a card is a :class:`Card`, not the number 2). Such an action could equal a legal one, or fail to
    be looked up at all (a list has no hash)."""
    if not isinstance(action, Action):
        return IllegalActionError("not_an_action", value=typed(action))
    card, target, guess, keep, bottom = action
    if not isinstance(card, Card):
        return IllegalActionError("not_a_card", value=typed(card))
    for value in (guess, keep):
        if value is not None and not isinstance(value, Card):
            return IllegalActionError("not_a_card", value=typed(value))
    if target is not None and not is_whole(target):
        return IllegalActionError("not_a_seat", value=typed(target))
    if bottom is not None:
        if not isinstance(bottom, (tuple, list)):
            return IllegalActionError("not_cards", value=typed(bottom))
        for value in bottom:
            if not isinstance(value, Card):
                return IllegalActionError("not_a_card", value=typed(value))
    return None


def _bottom_as_tuple(action: Action) -> Action:
    """``action`` with the cards it puts under the deck as a tuple (given as a list, to be looked up)."""
    bottom = action.bottom
    return action if bottom is None or isinstance(bottom, tuple) else action._replace(bottom=tuple(bottom))
