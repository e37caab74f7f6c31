"""The engine's two kinds of refusal, each a ``ValueError`` (as in python-chess):

* :class:`NotationError` — text that cannot be read as an action at all;
* :class:`IllegalActionError` — a well-formed action that the rules do not allow now.

An illegal action carries a ``key`` and ``params`` so that user interfaces can word it in their own
language; ``str()`` gives the English wording, which names the rule broken (docs/rules.md section).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Integral
from typing import Any, TypeGuard

#: English wording of every refusal, by key. Placeholders: {seat}, {target}, {card}, ... (the rule's
#: number is part of the text).
#: Dutch lives in the i18n catalogue under the same keys.
MESSAGES: dict[str, str] = {
    "round_over": "the round is over: no more moves",
    "not_an_action": "{value} is not a move: a move is an Action, as Action.parse('guard 1 priest') reads one",
    "not_a_card": "{value} is not a card (R1)",
    "not_a_seat": "{value} is not a seat number (R2.1)",
    "not_cards": "the cards put under the deck are a list of cards, not {value} (R5.9)",
    "not_edition": "the {card} is not a card of the {edition} edition (R1)",
    "not_in_hand": "seat {seat} does not hold the {card} (R4.3)",
    "countess": "seat {seat} must play the Countess while holding the {card} (R4.4)",
    "needs_target": "the {card} must choose a player: seat {options} (R4.5)",
    "no_target": "the {card} has no player it may choose, so it is played without a target (R4.6)",
    "untargeted": "the {card} does not choose a player (R4.5)",
    "no_such_seat": "there is no seat {target} (R2.1)",
    "target_self": "the {card} must choose another player, not seat {seat} itself (R4.5)",
    "target_out": "seat {target} is out of the round and cannot be chosen (R4.5)",
    "target_protected": "seat {target} is protected by the Handmaid and cannot be chosen (R4.5)",
    "prince_self": "every other player is protected or out, so the Prince must choose seat {seat} (R4.6)",
    "needs_guess": "the Guard must name a card (R5.1)",
    "guess_guard": "the Guard may not name the Guard (R5.1)",
    "guess_untargeted": "a Guard without a player to choose names no card (R4.6)",
    "not_guard": "only the Guard names a card (R5.1)",
    "not_chancellor": "only the Chancellor keeps a card and puts cards under the deck (R5.9)",
    "keep_after_drawing": "what to keep is chosen only once the Chancellor is played and has drawn its cards:"
                          " play the Chancellor first (R5.9)",
    "chancellor_pending": "seat {seat} played the Chancellor and must now keep one of these cards: {options} (R5.9)",
    "chancellor_choice_only": "seat {seat} now only keeps a card and puts the others under the deck:"
    " no player, no guess (R5.9)",
    "chancellor_keep": "seat {seat} must keep one of these cards: {options} (R5.9)",
    "chancellor_pending_one": "seat {seat} played the Chancellor and must now keep the {card} (R5.9)",
    "chancellor_keep_one": "seat {seat} must keep the {card} (R5.9)",
    "chancellor_bottom": "the cards put under the deck must be exactly the others: {cards} (R5.9)",
}


def card_title(card: Any) -> str:
    """``Card.COUNTESS`` -> ``"Countess"``; lists of cards joined with commas."""
    if isinstance(card, (list, tuple)):
        return ", ".join(card_title(c) for c in card)
    return str(card.name).title()


#: English wording of notation errors, by key (Dutch in the i18n catalogue).
NOTATION_MESSAGES: dict[str, str] = {
    "empty": "empty move: write a card, e.g. 'guard 1 priest' or 'handmaid'",
    "number_first": "a move starts with a card, not a number ({text!r}): to choose from the list, type one number alone",
    "negative_seat": "seat numbers start at 0, not {seat}",
    "long_seat": "{seat} is not a seat number at any table",
    "seat_word": "{word!r} stands where the seat goes: a seat is a number, e.g. 'guard 1 priest'",
    "trailing": "unexpected {rest!r} after {text!r}",
    "comma": "a comma parts only the cards a Chancellor puts under the deck ({text!r}): write a move's words with spaces between",
    "seat_last": "the seat comes before the card named, e.g. 'guard 1 priest' (you wrote {text!r})",
    "keep_card": "after 'keep' name the card you keep, e.g. 'chancellor keep baron bottom priest,guard' (you wrote {text!r})",
    "bottom_cards": "expected 'bottom CARD,CARD' after the kept card in {text!r}",
    "unknown_card": "unknown card {word!r}: the cards are {known}",
}


#: The parameters of a notation error that quote what was typed (cut short when shown: :func:`shown`).
TYPED = ("text", "rest", "word", "seat")


def shown(typed: str, most: int = 40) -> str:
    """Typed text as an error quotes it: whole, or its first ``most`` characters and "…" (a line of
    200,000 letters was echoed whole)."""
    return typed if len(typed) <= most else typed[:most] + "…"


def is_whole(value: Any) -> TypeGuard[int]:
    """Whether ``value`` is a whole number as the programme's own interfaces take one (a seed, a
    budget, a number of games): an ``int`` or a numpy integer, not a ``bool``, nor a float such as 3.0
    (Python's ``random`` would take 3.0 as 3, and a budget of 2.5 was played as 2.5 iterations)."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def is_true_or_false(value: Any) -> bool:
    """Whether ``value`` is True or False, Python's or numpy's (not 1, not text: ``record="no"``
    recorded the moves, ``match="no"`` played whole matches)."""
    return isinstance(value, bool) or (getattr(value, "shape", None) == ()
                                       and getattr(getattr(value, "dtype", None), "kind", None) == "b")


def check_whole(name: str, value: object) -> None:
    """A :class:`TypeError` unless ``value`` is a whole number (:func:`is_whole`: ``True``, ``1.5`` and
    ``"2"`` are not), saying which: "``name`` must be a whole number"."""
    if not is_whole(value):
        raise TypeError(f"{name} must be a whole number, not {value!r}")


def check_seed(seed: object) -> int | None:
    """``seed`` as a plain ``int`` (a numpy integer too), or ``None`` (no seed). Refused: a seed that
    Python's generator would take but read as another game: 3.0 as 3, True as 1, text by its hash (a
    :class:`TypeError`), and -5 as 5 (a :class:`ValueError`)."""
    if seed is None:
        return None
    if not is_whole(seed):
        raise TypeError(f"the seed must be a whole number (or None), not {seed!r}")
    if seed < 0:
        raise ValueError(f"the seed must be a whole number from 0, not {seed}")
    return int(seed)


def check_true_or_false(name: str, value: object) -> None:
    """A :class:`TypeError` unless ``value`` is True or False (:func:`is_true_or_false`)."""
    if not is_true_or_false(value):
        raise TypeError(f"{name} must be True or False, not {value!r}")


def quoted(value: Any) -> Any:
    """A value as a refusal quotes it: text by :func:`shown`, and a whole number of more than 40 digits
    by its first digits and "…" (a number thousands of digits long was echoed whole; one of more than
    4,300, which only a dict can hold, Python will not write out at all); anything else as it is."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**40:
        leading = abs(value) // 10 ** max(0, int(value.bit_length() * 0.30103) - 45)
        return shown(("-" if value < 0 else "") + str(leading))
    return value


def typed(value: object) -> str:
    """``value`` as a refusal of its kind quotes it: as Python writes it (text in quotes), on one line
    (an array is written on several), cut short (:func:`shown`)."""
    return shown(repr(value).replace("\n", " "))


def shown_params(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with what was typed cut short (:data:`TYPED`)."""
    return {name: shown(value) if name in TYPED and isinstance(value, str) else value
            for name, value in params.items()}


class NotationError(ValueError):
    """The text is not an action in the notation (see :meth:`Action.parse`).

    Like :class:`IllegalActionError` it carries a ``key`` and ``params`` for other languages: the
    typed text whole (a translator maps its words back before cutting it short, see :func:`shown`).
    """

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(NOTATION_MESSAGES[key].format(**shown_params(params)))


def either(options: Sequence[object], word: str) -> str:
    """Choices as a sentence says them: ``1, 2 or 3`` (``word``: "or", "of")."""
    shown = [str(option) for option in options]
    return ", ".join(shown[:-1]) + f" {word} " + shown[-1] if len(shown) > 1 else "".join(shown)


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow in this state.

    >>> str(IllegalActionError("not_guard"))
    'only the Guard names a card (R5.1)'
    """

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.english())

    def english(self, wording: Mapping[str, str] = MESSAGES) -> str:
        """The refusal in English; ``wording``: the message for each key, if not :data:`MESSAGES`."""
        shown = {k: card_title(v) if _is_cards(v) and k != "options" else quoted(v) for k, v in self.params.items()}
        if "options" in shown and isinstance(shown["options"], (list, tuple)):  # seats, or cards to keep
            shown["options"] = either([card_title(o) if _is_cards(o) else o for o in shown["options"]], "or")
        return wording.get(self.key, MESSAGES[self.key]).format(**shown)

    @property
    def rule(self) -> str | None:
        """The docs/rules.md section named in the message, e.g. ``"R4.4"``."""
        text = MESSAGES[self.key]
        return text[text.rfind("(R") + 1 : -1] if text.endswith(")") and "(R" in text else None


def _is_cards(value: Any) -> bool:
    from loveletter.engine.cards import Card

    if isinstance(value, Card):
        return True
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(v, Card) for v in value)
