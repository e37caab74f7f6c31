"""Cards and editions (docs/rules.md R1, R2.1, R2.3).

A :class:`Card` is a character; its integer value is its 2019 value. The classic edition uses the
same characters with the King, Countess and Princess one lower, which keeps the order of the cards
the same in both editions — so comparing two cards compares their values in either edition. Where
the actual number matters (the classic discard-pile tie-break, R6.3), use :meth:`Edition.value`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from loveletter.engine.errors import check_whole


class Card(IntEnum):
    """The ten characters, ordered by value."""

    SPY = 0
    GUARD = 1
    PRIEST = 2
    BARON = 3
    HANDMAID = 4
    PRINCE = 5
    CHANCELLOR = 6
    KING = 7
    COUNTESS = 8
    PRINCESS = 9

    @property
    def word(self) -> str:
        """The lowercase English name used in code, records and notation: ``"guard"``."""
        return _WORDS[self]

    @classmethod
    def from_word(cls, word: str) -> Card:
        """The card named by its lowercase English word; ``KeyError`` if there is none."""
        return _BY_WORD[word]

    def __str__(self) -> str:
        return self.word


#: Every card, by number (``CARDS[n] is Card(n)``, only faster): for counts kept in lists by card.
CARDS = tuple(Card)

_WORDS = {card: card.name.lower() for card in Card}
_BY_WORD = {word: card for card, word in _WORDS.items()}

#: Cards that choose a player (R4.5).
TARGETED = frozenset({Card.GUARD, Card.PRIEST, Card.BARON, Card.PRINCE, Card.KING})


@dataclass(frozen=True)
class Edition:
    """One edition's facts as data: which cards, how many, their values, players and targets."""

    name: str
    copies: dict[Card, int]
    values: dict[Card, int]
    min_players: int
    max_players: int
    targets: dict[int, int]  # players -> tokens needed (R2.3)
    cards: tuple[Card, ...] = field(init=False)
    guessable: tuple[Card, ...] = field(init=False)
    full_deck: tuple[Card, ...] = field(init=False)
    #: The copies of every card, by number (0 where the edition has none): see :data:`CARDS`.
    counts: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        cards = tuple(sorted(self.copies))
        object.__setattr__(self, "cards", cards)
        # R5.1: a Guard may name any card of the edition except the Guard.
        object.__setattr__(self, "guessable", tuple(c for c in cards if c is not Card.GUARD))
        object.__setattr__(
            self, "full_deck", tuple(c for c in cards for _ in range(self.copies[c]))
        )
        object.__setattr__(self, "counts", tuple(self.copies.get(card, 0) for card in CARDS))

    def __deepcopy__(self, memo: dict[int, object]) -> Edition:
        return self  # an edition is a fixed value: copies of games share it

    def value(self, card: Card) -> int:
        """The printed value of ``card`` in this edition."""
        return self.values[card]

    def has(self, card: Card) -> bool:
        return card in self.copies

    def default_target(self, players: int) -> int:
        """Tokens needed to win a match of ``players`` players (R2.3)."""
        return self.targets[players]

    def check_players(self, players: int) -> None:
        check_whole("the number of players", players)  # (2.5 players failed as a KeyError)
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"the {self.name} edition is for {self.min_players}-{self.max_players} players,"
                f" not {players} (R2.1)"
            )

    def __str__(self) -> str:
        return self.name


CLASSIC = Edition(
    name="classic",
    copies={
        Card.GUARD: 5, Card.PRIEST: 2, Card.BARON: 2, Card.HANDMAID: 2, Card.PRINCE: 2,
        Card.KING: 1, Card.COUNTESS: 1, Card.PRINCESS: 1,
    },
    values={
        Card.GUARD: 1, Card.PRIEST: 2, Card.BARON: 3, Card.HANDMAID: 4, Card.PRINCE: 5,
        Card.KING: 6, Card.COUNTESS: 7, Card.PRINCESS: 8,
    },
    min_players=2,
    max_players=4,
    targets={2: 7, 3: 5, 4: 4},
)

EDITION_2019 = Edition(
    name="2019",
    copies={
        Card.SPY: 2, Card.GUARD: 6, Card.PRIEST: 2, Card.BARON: 2, Card.HANDMAID: 2,
        Card.PRINCE: 2, Card.CHANCELLOR: 2, Card.KING: 1, Card.COUNTESS: 1, Card.PRINCESS: 1,
    },
    values={card: int(card) for card in Card},
    min_players=2,
    max_players=6,
    targets={2: 6, 3: 5, 4: 4, 5: 3, 6: 3},
)

EDITIONS: dict[str, Edition] = {CLASSIC.name: CLASSIC, EDITION_2019.name: EDITION_2019}


def edition_named(name: str | Edition) -> Edition:
    """The edition called ``name`` (``"classic"`` or ``"2019"``), or ``name`` itself if it is an
    edition (the programme's interfaces take either)."""
    if isinstance(name, Edition):
        return name
    if not isinstance(name, str):  # (a list failed as "unhashable type")
        raise TypeError(f"an edition is named by text, 'classic' or '2019', not by {type(name).__name__}")
    try:
        return EDITIONS[name]
    except KeyError:
        raise ValueError(f"unknown edition {name!r}: choose classic or 2019") from None
