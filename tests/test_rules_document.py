"""docs/rules.md, the rules the game's messages cite, agrees with the engine: every card's value and
copies in both editions and both languages, the token targets, and every rule number a message or the
engine names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from loveletter import i18n
from loveletter.engine import CLASSIC, EDITION_2019, Card

ROOT = Path(__file__).parent.parent
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
ENGLISH, _, DUTCH = RULES.partition("\n## De spelregels\n")


def card_table(text: str) -> dict[str, tuple[str, str]]:
    """The R1 table of one language: card name -> (classic, 2019) as written, e.g. value 1 times 5 copies."""
    rows = re.findall(r"^\| ([^|]+?) \| ([^|]+?) \| ([^|]+?) \|", text.split("### R1", 1)[1], re.MULTILINE)
    return {name: (classic, v2019) for name, classic, v2019 in rows[1:]}  # (after the heading)


def written(edition, card: Card) -> str:
    return f"{edition.value(card)} × {edition.copies[card]}" if edition.has(card) else "—"


@pytest.mark.parametrize(("half", "language"), [(ENGLISH, "en"), (DUTCH, "nl")])
def test_every_card_has_its_value_and_copies(half, language):
    table = card_table(half)
    assert len(table) == len(Card)
    for card in Card:
        name = i18n.CARD_NAMES[language][card]
        assert table[name] == (written(CLASSIC, card), written(EDITION_2019, card)), name


@pytest.mark.parametrize(("half", "players_word"), [(ENGLISH, "players"), (DUTCH, "spelers")])
def test_the_token_targets_are_the_engines(half, players_word):
    item = re.search(r"^3\. (?:Tokens|Tekens) .*?(?=^4\.)", half, re.MULTILINE | re.DOTALL)
    assert item is not None
    classic, _, v2019 = item.group(0).partition("2019")
    for edition, text in ((CLASSIC, classic), (EDITION_2019, v2019)):
        found = {int(n): int(t) for n, t in re.findall(rf"(\d) {players_word} (\d)", text)}
        for a, b, t in re.findall(rf"(\d) (?:or|of) (\d) {players_word} (\d)", text):  # "5 or 6 players 3"
            found[int(a)] = found[int(b)] = int(t)
        assert found == {p: edition.default_target(p) for p in range(edition.min_players, edition.max_players + 1)}


CITED = sorted(set(re.findall(r"\bR(\d)\.(\d+)\b", "".join(
    path.read_text(encoding="utf-8") for path in [ROOT / "src" / "loveletter" / "i18n.py",
                                                  *(ROOT / "src" / "loveletter" / "engine").glob("*.py")]))))


@pytest.mark.parametrize("half", [ENGLISH, DUTCH], ids=["en", "nl"])
def test_every_rule_a_message_cites_is_written_out(half):
    assert len(CITED) > 20
    for section, item in CITED:
        body = half.split(f"\n### R{section} ", 1)[1].split("\n### ", 1)[0]
        assert re.search(rf"^\s*{item}\. ", body, re.MULTILINE), f"R{section}.{item}"
