"""Actions and their text notation.

An action is a small immutable value. Its notation, both ways::

    guard 2 priest          a Guard choosing seat 2 and naming the Priest
    guard                   a Guard with no player to choose (R4.6)
    prince 0                a Prince choosing seat 0
    handmaid
    chancellor              play the Chancellor (the draw of R5.9 follows) ...
    chancellor keep baron bottom spy,priest   ... then keep one card, return the others in order

>>> a = Action.parse("guard 2 priest")
>>> a
Action.parse('guard 2 priest')
>>> str(a), a.target, a.guess
('guard 2 priest', 2, <Card.PRIEST: 2>)
"""

from __future__ import annotations

import re
from typing import NamedTuple

from loveletter.engine.cards import TARGETED, Card
from loveletter.engine.errors import NotationError


class Action(NamedTuple):
    """One decision of the player whose turn it is.

    ``keep``/``bottom`` are set only on the Chancellor's second step (the choice after its draw).
    """

    card: Card
    target: int | None = None
    guess: Card | None = None
    keep: Card | None = None
    bottom: tuple[Card, ...] | None = None

    def notation(self) -> str:
        parts = [self.card.word]
        if self.keep is not None:
            parts += ["keep", self.keep.word]
            if self.bottom:
                parts += ["bottom", ",".join(c.word for c in self.bottom)]
            return " ".join(parts)
        if self.target is not None:
            parts.append(str(self.target))
        if self.guess is not None:
            parts.append(self.guess.word)
        return " ".join(parts)

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Action.parse({self.notation()!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action from its notation; :class:`NotationError` says what is wrong."""
        if not isinstance(text, str):  # (None and bytes were the regular expression's TypeErrors)
            raise TypeError(f"a move's notation is text, not {type(text).__name__}")
        # words, and each comma apart (it parts a Chancellor's cards; anywhere else it is a word too
        # many), each where it was typed: what is quoted back is the text as typed
        tokens = list(NOTATION_TOKEN.finditer(text))
        typed = [token[0] for token in tokens]
        words = [word.lower() for word in typed]
        if not words:
            raise NotationError("empty")
        if _is_number(words[0].rstrip(".")):  # "1 2", "1.": a seat, or a number from a list of moves, before any card
            raise NotationError("number_first", text=text.strip())
        card = _card(words[0])
        rest = words[1:]
        if rest and rest[0] == "keep":
            return _parse_chancellor(card, rest, text)
        target: int | None = None
        guess: Card | None = None
        if rest and _is_number(rest[0]):
            if len(rest[0].removeprefix("-")) > 9:  # no table has such a seat (and Python reads at most 4,300 digits)
                raise NotationError("long_seat", seat=rest[0])
            if rest[0].startswith("-"):  # (-0 too: read as 0, it named yourself, where +1 is refused)
                raise NotationError("negative_seat", seat=rest[0])
            target = int(rest.pop(0))

        def left_over() -> NotationError:  # the words not read, after those that were
            at = tokens[-len(rest)].start()
            return NotationError("trailing", rest=text[at:].strip(), text=text[:at].strip())

        if "," in rest:  # ("guard 1,priest" named "," as a card)
            raise NotationError("comma", text=text.strip())
        if (card is Card.GUARD and target is None and len(rest) == 2 and _is_card(rest[0])
                and _is_number(rest[1])):  # "guard priest 1" (was "unexpected '1' after 'guard priest'")
            raise NotationError("seat_last", text=text.strip())

        if rest and target is None and card in TARGETED and not _is_card(rest[0]) and (
                card is not Card.GUARD or len(rest) > 1):  # "guard one priest": a word for the seat
            raise NotationError("seat_word", word=typed[1])
        if rest:
            if card is not Card.GUARD and not _is_card(rest[0]):  # words left over, not a misnamed guess
                raise left_over()
            guess = _card(rest.pop(0))
        if rest:
            raise left_over()
        return cls(card, target, guess)


def _parse_chancellor(card: Card, rest: list[str], text: str) -> Action:
    # rest: keep X [bottom A,B]
    if len(rest) < 2:
        raise NotationError("keep_card", text=text.strip())
    keep = _card(rest[1])
    bottom: tuple[Card, ...] = ()
    tail = rest[2:]
    if tail:
        if tail[0] != "bottom" or len(tail) < 2:
            raise NotationError("bottom_cards", text=text.strip())
        bottom = tuple(_card(name) for name in tail[1:] if name != ",")  # (spaces or commas between)
    return Action(card, keep=keep, bottom=bottom)


#: A word of an action's notation, or a comma (which parts a Chancellor's cards).
NOTATION_TOKEN = re.compile(r"[^\s,]+|,")


def _is_number(word: str) -> bool:
    digits = word.removeprefix("-")
    return digits.isascii() and digits.isdigit()


def _is_card(word: str) -> bool:
    try:
        Card.from_word(word)
    except KeyError:
        return False
    return True


def _card(word: str) -> Card:
    try:
        return Card.from_word(word)
    except KeyError:
        raise NotationError("unknown_card", word=word, known=", ".join(c.word for c in Card)) from None
