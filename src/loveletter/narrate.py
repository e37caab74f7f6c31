"""Events told as sentences, in the reader's language (the terminal game, replays, logs).

Narration reads only the event as given: pass events as a seat sees them (``View.events``) and the
secret parts of other seats' events are simply not there to tell.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence

import regex
from confusable_homoglyphs.confusables import confusables_data

from loveletter.engine import Card, Event, Match
from loveletter.i18n import BIDI_CONTROLS, Translator

#: Characters that would reorder the text around a name (as :func:`str.translate` drops them).
_BIDI_CONTROLS = dict.fromkeys(map(ord, BIDI_CONTROLS))
#: Kinds of character that break a line or cannot be printed at all: each becomes a space.
_BREAKING = frozenset(("Cc", "Zl", "Zp", "Cs"))


#: The most characters a player's name may have (in the terminal and the browser alike): a table
#: row and a line of the story must have room for it. Characters as a reader counts them
#: (:func:`name_length`).
MAX_NAME = 24
#: And at most this many code points: a character may carry any number of accents and joiners, and
#: a name must still fit a line of the store (an emoji family is five to eleven).
MAX_NAME_POINTS = 200


def name_length(name: str) -> int:
    """How many characters ``name`` has as a reader counts them: grapheme clusters (Unicode's
    extended ones), so an emoji family, a flag or a letter with its accents is one, not several code
    points."""
    return len(regex.findall(r"\X", name))


def name_too_long(name: str) -> str | None:
    """Which limit the one-line name ``name`` breaks: ``"long"`` (more than :data:`MAX_NAME`
    characters), ``"marks"`` (more than :data:`MAX_NAME_POINTS` code points), or ``None``."""
    if name_length(name) > MAX_NAME:
        return "long"
    if len(name) > MAX_NAME_POINTS:
        return "marks"
    return None


#: Characters that show nothing where they stand (zero-width spaces and joiners, variation selectors,
#: the Hangul fillers, ...): Unicode's default-ignorable code points; and the Braille pattern with
#: no dots, a symbol that shows nothing.
_IGNORABLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\u2800]")


def without_invisible(typed: str) -> str:
    """``typed`` without the characters that show nothing: a byte-order mark at the start of a script
    saved on Windows, a zero-width space pasted with a move ("\\ufeff1" was an unknown card)."""
    return _IGNORABLE.sub("", typed)


def not_text(typed: str) -> bool:
    """Whether ``typed`` holds bytes its reader's encoding could not read (UTF-8's, or standard input's:
    Python keeps them as escapes, \\udc80 to \\udcff, in what it reads from a terminal or a command line)."""
    return any("\udc80" <= ch <= "\udcff" for ch in typed)


def visible(name: str) -> bool:
    """Whether ``name`` shows anything: a letter, digit, mark of punctuation or symbol (a zero-width
    space alone, a Hangul filler, or a combining accent, shows a player with no name)."""
    return any(unicodedata.category(c)[0] in "LNPS" for c in _IGNORABLE.sub("", name))


def look(name: str) -> str:
    """What ``name`` looks like, near enough to tell two names that print alike: its compatibility
    form without the characters that show nothing ("Zoë" with its accent joined or apart; "Anna"
    with or without a zero-width space). Letters of other scripts that look the same are matched by
    :func:`skeleton`."""
    return _IGNORABLE.sub("", unicodedata.normalize("NFKC", name))


def looks_like_any(name: str, others: Iterable[str]) -> bool:
    """Whether two players' names would be hard to tell apart at one table: ``name`` looks like one
    of ``others`` in any case and spaces aside, letters that look alike in other scripts taken as one
    ("Ann", "ANN", "A nn", "Ann" with a zero-width space, "Ann" in full-width letters, "\\u0410nn"
    with a Cyrillic A and "ANN" in Greek capitals are one name; :func:`skeleton`; and a person called
    "Bot 2(expert)" would pass for the bot "Bot 2 (expert)")."""
    return first_look_alike(name, others) is not None


def first_look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` looks like (:func:`looks_like_any`), if any: the name a
    refusal should give ("already called Joann" was said to a newcomer "Joann" beside "Jo Ann")."""
    mine = _name_keys(name)  # alike in capitals or in small letters
    return next((other for other in others
                 if any(a == b for a, b in zip(mine, _name_keys(other), strict=True))), None)


def _name_keys(name: str) -> tuple[str, str]:
    """How ``name`` looks in capitals and in small letters, without its spaces, each letter as the
    one it looks like. Both: some letters look alike only as capitals (Greek capital nu and "N"),
    others only as small ones (Greek small nu and "v")."""
    seen = "".join(look(name).split())
    return skeleton(seen.upper()).casefold(), skeleton(seen.casefold()).casefold()


def skeleton(text: str) -> str:
    """``text`` with each character that Unicode's list of confusables (UTS #39, as the
    confusable-homoglyphs package holds it) says looks like another replaced by the one it is
    listed under (Cyrillic and Greek small a by Latin "a", "1" by "l", "m" by "rn")."""
    return "".join(_prototype(ch) for ch in text)


def _prototype(ch: str) -> str:
    """The character ``ch`` is listed under: the package lists each such character under one
    prototype, and the prototype with all its look-alikes. A pair listed only under each other is
    taken as its first in code-point order (so both parts of the pair name the same one)."""
    alike = _CONFUSABLES.get(ch)
    if not alike or len(alike) > 1:
        return ch  # no look-alike, or a prototype
    other = alike[0]
    return other if len(_CONFUSABLES.get(other, ())) > 1 else min(ch, other)


def _unmarked(text: str) -> str:
    return text.strip("\u200e\u200f")


#: The package's list of look-alikes, by character: each with the characters listed with it. The
#: package writes a right-to-left character between two left-to-right marks ("\u200e\u0661\u200e", an
#: Arabic-Indic one, listed with "l"), so that, looked for alone, 1,079 of them (Arabic and Hebrew
#: letters and digits) were never found: "Bi\u0661\u0661" passed for a name apart from "Bill". (A name is
#: read one character at a time; a sequence of several is found only as what one is listed with:
#: "m" with "rn".)
_CONFUSABLES: dict[str, list[str]] = {
    _unmarked(key): [_unmarked(entry["c"]) for entry in alike] for key, alike in confusables_data.items()
}


def bots_named_in(names: Sequence[str], t: Translator) -> list[str]:
    """``names``, where a browser table's bot is named as its record names it ("Bot 1 (random)", in
    the language of the page that kept the record, at seat 1), named in ``t``'s language as a table
    names it there ("Bot 1 (willekeurig)"): a record kept from an English page, replayed in Dutch,
    named its bots in English among Dutch words. Only a name a table gives: its own seat's number
    (a person called "Bot 1 (random)" elsewhere, or "Bot 007 (random)", keeps the name as written;
    and two players are never made alike)."""
    named = list(names)
    for seat, name in enumerate(names):
        for pattern, key in _bot_names():
            found = pattern.fullmatch(name)
            if found and found[1] == str(seat) and seat:
                named[seat] = t(key, n=seat)
                break
    return named


@functools.cache
def _bot_names() -> tuple[tuple[re.Pattern[str], str], ...]:
    """How a browser table names its bots, in each language, as a pattern with the number of the
    seat in it, and the key that words it."""
    from loveletter.bots import LEVELS  # (here: the bots are not loaded to tell a story)
    from loveletter.i18n import LANGUAGES

    seat = re.escape("{n}")  # (a stand-in for the number, put in as it is and found again escaped)
    return tuple((re.compile(re.escape(Translator(language)(f"web_bot_{level}", n="{n}")).replace(seat, "([0-9]{1,2})")),
                  f"web_bot_{level}") for language in LANGUAGES for level in LEVELS)


def names_apart(names: list[str]) -> list[str]:
    """A record's names as a replay shows them: each on one line (:func:`one_line`); where that would
    make two look alike ("Anna" and "Anna\\n", "Zoë" written with and without its accent joined,
    "Anna" and "Anna" with a zero-width space: :func:`look`; "Anna" with a Cyrillic A:
    :func:`skeleton`) or show nothing, the name is shown escaped (``'Anna\\n'``, ``'Zoe\\u0308'``)
    so each player stays apart; and so is a name shown as another's escaped form would be (beside
    "Bob" with a zero-width space, shown ``'Bob\\u200b'``, "'Bob\\u200b'" is shown ``"'Bob\\u200b'"``).
    (A record may hold any distinct names, docs/record.md; a table's names are made apart when they
    are taken.)"""
    escaped = [ascii(name) for name in names]
    shown = [line if visible(line) else escape for line, escape in zip(map(one_line, names), escaped, strict=True)]
    while True:
        # letters of other scripts that look alike as one; escaped names are apart as they are
        looks = [skeleton(look(s)) for s in shown]
        alike = [i for i, s in enumerate(shown) if looks.count(looks[i]) > 1 and s != escaped[i]]
        if not alike:
            return shown
        for i in alike:
            shown[i] = escaped[i]


def one_line(name: str) -> str:
    """A name as it can be shown on one line: a control code (a newline, a terminal's escape), a line
    or paragraph separator or a lone surrogate becomes a space, runs of spaces one, and bidirectional
    controls are dropped. Joiners stay (an emoji family, a Persian word). A record may hold any name
    (docs/record.md)."""
    spaced = "".join(" " if unicodedata.category(ch) in _BREAKING else ch for ch in name.translate(_BIDI_CONTROLS))
    return " ".join(spaced.split())


def narrate(event: Event, names: Sequence[str], t: Translator, round_number: int = 1) -> str | None:
    """One event as a sentence, or ``None`` for events not worth a line (a hidden draw, a deal)."""
    name = names[event.seat] if event.seat is not None else ""
    target = names[event.target] if event.target is not None else ""
    kind = event.kind
    if kind == "setup":
        if event.cards:
            return t("ev_setup_face_up", round=round_number, name=name, cards=t.cards(event.cards))
        return t("ev_setup", round=round_number, name=name)
    if kind == "deal":
        return t("ev_deal", name=name, card=t.the(event.card)) if event.card is not None else None
    if kind == "draw":
        if event.result == "set_aside":
            if event.card is None:
                return t("ev_draw_set_aside", name=name)
            return t("ev_draw_set_aside_card", name=name, card=t.the(event.card))
        return t("ev_draw", name=name, card=t.the(event.card)) if event.card is not None else None
    if kind == "play":
        return _play(event, name, target, t)
    if kind == "priest":
        return t("ev_priest", name=name, target=target, card=t.the(event.card)) if event.card is not None else None
    if kind == "baron":
        if event.cards is not None:
            key = "ev_baron_shown_tie" if event.result == "tie" else "ev_baron"
            return t(key, name=name, target=target, a=t.card(event.cards[0]), b=t.card(event.cards[1]))
        return t("ev_baron_tie", name=name, target=target) if event.result == "tie" else None
    if kind == "discard" and event.card is not None:
        return t("ev_discard", name=name, card=t.the(event.card))
    if kind == "king":
        if event.cards is not None:
            return t("ev_king", name=name, target=target, a=t.the(event.cards[0]), b=t.the(event.cards[1]))
        return t("ev_king_hidden", name=name, target=target)
    if kind == "chancellor":
        if event.cards is not None:
            return t("ev_chancellor", name=name, cards=t.the_cards(event.cards))
        n = int(event.result or 0)
        return t("ev_chancellor_hidden_one" if n == 1 else "ev_chancellor_hidden", name=name, n=n)
    if kind == "bottom":
        if event.card is not None and event.cards is not None:
            return t("ev_bottom", name=name, card=t.the(event.card), cards=t.the_cards(event.cards))
        n = int(event.result or 0)
        return t("ev_bottom_hidden_one" if n == 1 else "ev_bottom_hidden", name=name, n=n)
    if kind == "out":
        if event.cards:
            return t("ev_out", name=name, cards=t.the_cards(event.cards))
        return t("ev_out_empty", name=name)
    if kind == "showdown":
        return t("ev_showdown")
    if kind == "reveal" and event.card is not None:
        if event.seat is None:
            return t("ev_reveal_set_aside", card=t.the(event.card))
        return t("ev_reveal", name=name, card=t.the(event.card))
    if kind == "round_end":
        return " ".join(round_end_lines(event, names, t))
    return None


def round_end_lines(event: Event, names: Sequence[str], t: Translator) -> list[str]:
    """A ``round_end`` event as lines, as the terminal game tells it (:func:`round_end_parts`; a log
    with one line per event joins them: :func:`narrate`)."""
    return [line for line in round_end_parts(event, names, t) if line is not None]


def round_end_parts(event: Event, names: Sequence[str],
                    t: Translator) -> tuple[str | None, str | None, str, str | None]:
    """A ``round_end`` event's sentences: the cards left in the deck (R6.5: public now), how a tie for
    the highest card was settled (R6.3), the winners, and the Spy's token; ``None`` for those there
    are none of."""
    winners = [names[s] for s in event.seats or ()]
    deck = t("ev_deck_left", cards=t.the_cards(event.cards)) if event.cards else None
    tie = t(f"ev_{event.result}") if event.result is not None else None  # (R6.3: the engine's word for it)
    won = (t("ev_round_end_one", name=winners[0]) if len(winners) == 1
           else t("ev_round_end", names=t.join_names(winners)))
    spy = t("ev_spy_bonus", name=names[event.target]) if event.target is not None else None
    return deck, tie, won, spy


def _play(event: Event, name: str, target: str, t: Translator) -> str:
    card = event.card
    assert card is not None
    if card is Card.GUARD and event.guess is not None:
        key = "ev_guard_hit" if event.result == "hit" else "ev_guard_miss"
        return t(key, name=name, target=target, guess=t.the(event.guess))
    if card is Card.HANDMAID:
        return t("ev_handmaid", name=name, card=t.the(card))
    if event.target is not None:
        if event.target == event.seat:
            return t("ev_play_self", name=name, card=t.the(card))
        return t("ev_play_target", name=name, card=t.the(card), target=target)
    if card in (Card.GUARD, Card.PRIEST, Card.BARON, Card.KING):
        return t("ev_play_none", name=name, card=t.the(card))
    if card is Card.CHANCELLOR and event.result == "no_effect":
        return t("ev_play_empty_deck", name=name, card=t.the(card))
    return t("ev_play", name=name, card=t.the(card))


def narrate_all(
    events: Iterable[Event], names: Sequence[str], t: Translator, round_number: int = 1
) -> list[str]:
    """Every event worth telling, as lines (:func:`event_lines`)."""
    return [line for event in events for line in event_lines(event, names, t, round_number)]


def event_lines(event: Event, names: Sequence[str], t: Translator, round_number: int = 1) -> list[str]:
    """One event as the lines of a log: :func:`narrate`'s sentence, if any, but the round's end on
    lines of its own (:func:`round_end_lines`), as the terminal game tells it."""
    if event.kind == "round_end":
        return round_end_lines(event, names, t)
    line = narrate(event, names, t, round_number)
    return [line] if line else []


def scores(names: Sequence[str], tokens: Sequence[int]) -> str:
    """Each player's tokens: ``Anna 2, Bram 0``."""
    return ", ".join(f"{name} {n}" for name, n in zip(names, tokens, strict=True))


def match_result(match: Match, names: Sequence[str], t: Translator) -> str:
    """How a record's match stands where the record ends, in a line: who won it, or that the record
    ends before the match does; with the tokens."""
    if not match.over:
        return t("replay_match_going", scores=scores(names, match.tokens))
    winners = [names[s] for s in match.winners]
    key = "replay_match_over_one" if len(winners) == 1 else "replay_match_over"
    return t(key, name=winners[0], names=t.join_names(winners), scores=scores(names, match.tokens))
