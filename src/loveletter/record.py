"""Game records, ``loveletter-record/1`` (docs/record.md): build, load, validate, replay, summarise.

>>> from loveletter.engine import Match
>>> m = Match(players=2, seed=3)
>>> while not m.round.over:
...     m.apply(m.legal_actions()[0])
>>> doc = to_record(m, ["Anna", "Bram"])
>>> replayed = replay(doc)
>>> summary(replayed)["rounds"][0]["winners"] == list(m.round.winners)
True
"""

from __future__ import annotations

import codecs
import errno
import json
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypeGuard

from loveletter.engine import (
    EDITIONS,
    Action,
    Card,
    Edition,
    IllegalActionError,
    Match,
    Phase,
    Round,
    edition_named,
)
from loveletter.engine.errors import quoted, shown
from loveletter.engine.round import wrong_counts
from loveletter.i18n import Translator

FORMAT = "loveletter-record/1"
_DOCUMENT_FIELDS = {"format", "edition", "players", "target", "rounds"}
_ROUND_FIELDS = {"deck", "starter", "turns"}
_TURN_FIELDS = {"play", "target", "guess", "keep", "bottom", "seat"}


class RecordError(ValueError):
    """A record that breaks docs/record.md or the rules. ``str()`` is the one-line message, beginning
    ``round R, turn T: `` or ``round R: `` when a turn or a round is at fault.

    Like the engine's :class:`IllegalActionError` it carries a message ``key`` (``rec_...`` in the
    i18n catalogue) and its ``params``, or the engine's refusal as ``cause``, so that
    :meth:`Translator.record_error` can word it in other languages; ``str()`` is the English.
    """

    def __init__(
        self,
        key: str,
        round_number: int | None = None,
        turn: int | None = None,
        *,
        cause: IllegalActionError | None = None,
        **params: Any,
    ) -> None:
        self.key = key
        self.params = {name: _quoted(name, value) for name, value in params.items()}
        self.cause = cause
        self.round_number = round_number
        self.turn = turn
        english = Translator("en")
        self.reason = english.record_reason(self)
        super().__init__(english.record_error(self))

    @classmethod
    def illegal(cls, err: IllegalActionError) -> RecordError:
        """The engine's refusal of a turn (key ``illegal``, the refusal its ``cause``)."""
        return cls("illegal", cause=err)

    def at(self, round_number: int, turn: int | None = None) -> RecordError:
        """The same refusal, placed in a round (and turn)."""
        return RecordError(self.key, round_number, turn, cause=self.cause, **self.params)


@dataclass
class Replayed:
    """A record played through the engine: the match, the players' names, and the fields of the
    document and its rounds that RECORD.md does not name, left out (it refuses unknown fields in a
    turn alone), each with its round (``None``: the document), for the reader to be told."""

    match: Match
    names: list[str]
    ignored: list[tuple[str, int | None]] = field(default_factory=list)


# ------------------------------------------------------------------------------------ writing


#: The parameters of a refusal that quote the file (a name, a field, a word): cut short when long.
_QUOTES = frozenset(("name", "field", "word"))


def _quoted(name: str, value: Any) -> Any:
    """A refusal's parameter as its message shows it (:func:`~loveletter.engine.errors.quoted`): the
    file's text (a name, a field, a word) cut to 40 characters, and a number of more than 40 digits
    too (a 100,000-letter card name was echoed whole)."""
    return quoted(value) if name in _QUOTES or not isinstance(value, str) else value


def to_record(match: Match, names: list[str]) -> dict[str, Any]:
    """The record of ``match`` so far (its rounds must have been played with the event log on).
    ``names``: one per seat, distinct and not empty (docs/record.md); else a ``ValueError``, since the
    record would not replay, or would tell another game."""
    if len(names) != match.players:
        raise ValueError(f"a record of {match.players} players needs {match.players} names, not {len(names)}")
    if not all(isinstance(n, str) and n for n in names) or len(set(names)) != len(names):
        raise ValueError(f"the players' names must be distinct, non-empty strings, not {names!r}")
    for number, rnd in enumerate(match.rounds, 1):
        if not rnd.initial_deck:  # (Round.from_parts: a search's sampled world, an OpenSpiel resampled state)
            raise ValueError(f"round {number} has no deal to record: it was rebuilt from its parts, not dealt")
    return {
        "format": FORMAT,
        "edition": match.edition.name,
        "players": list(names),
        "target": match.target,
        "rounds": [
            {"deck": [c.word for c in rnd.initial_deck], "starter": rnd.starter, "turns": turns_of(rnd)}
            for rnd in match.rounds
        ],
    }


def turns_of(rnd: Round) -> list[dict[str, Any]]:
    """The turn objects of a round, from its event log. A turn still waiting for a Chancellor's
    choice is left out: replaying the record brings the round back to just before it."""
    if rnd.log is None:
        raise ValueError("this round was played without its event log, so it cannot be recorded")
    turns: list[dict[str, Any]] = []
    if rnd.phase is Phase.CHANCELLOR:  # a Chancellor's choice still open: record up to its play
        log = rnd.log[: max(i for i, e in enumerate(rnd.log) if e.kind == "play")]
    else:
        log = rnd.log
    for e in log:
        if e.kind == "play":
            assert e.card is not None
            turn: dict[str, Any] = {"seat": e.seat, "play": e.card.word}
            if e.target is not None:
                turn["target"] = e.target
            if e.guess is not None:
                turn["guess"] = e.guess.word
            turns.append(turn)
        elif e.kind == "bottom":
            assert e.card is not None and e.cards is not None
            turns[-1]["keep"] = e.card.word
            turns[-1]["bottom"] = [c.word for c in e.cards]
    return turns


def temporary(path: Path, owner: int | None = None) -> Path:
    """The file :func:`save` writes first, then renames to ``path``; with an ``owner`` (a process),
    that one's own."""
    return path.with_name(f"{path.name}{'' if owner is None else f'.{owner}'}.tmp")


def save(doc: dict[str, Any], path: Path, new: bool = False) -> None:
    """Write a record as pretty JSON (creating the folder), atomically: a crash leaves the old file.
    With ``new``, the file must not be there yet (a ``FileExistsError`` if it is, another writer's)
    and the folder must (a ``FileNotFoundError`` if it went away): a tournament's records never
    replace one another's, nor start a folder again (and its temporary file is this process's own:
    two runs writing one name shared one, and one's record could end up holding the other's)."""
    if not new:
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary(path, os.getpid() if new else None)
    try:
        tmp.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        if new:
            _link_new(tmp, path)
        else:
            tmp.replace(path)
    except BaseException:  # a full disk, or Ctrl+C: no half-written file is left behind
        tmp.unlink(missing_ok=True)
        raise


def _link_new(tmp: Path, path: Path) -> None:
    """Give ``tmp`` the name ``path``, which must be free (a ``FileExistsError`` naming ``path`` if
    not): a link, where a rename would replace a file there; on a file system without links, a look
    first, then the rename."""
    try:
        os.link(tmp, path)
    except OSError as error:
        if not isinstance(error, FileExistsError) and not os.path.lexists(path):  # (no links here)
            tmp.replace(path)
            return
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
    tmp.unlink()


# ------------------------------------------------------------------------------------ reading


#: The most a record file may hold (a match of 200 rounds takes about 70 kB): more is refused before it
#: fills the memory (or, for a device such as /dev/zero that never ends, for ever).
MAX_RECORD_FILE = 64_000_000  # (64 MB, as the refusal says)


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file as JSON; :class:`RecordError` for a missing, unreadable, too large or
    non-JSON file."""
    # messages name the file as given: Path("./-") would print as "-", which means standard input
    name = str(path)
    try:
        with Path(path).open("rb") as f:
            data = read_at_most(f, name)
    except FileNotFoundError:
        raise RecordError("rec_no_file", path=name) from None
    except IsADirectoryError:
        raise RecordError("rec_folder", path=name) from None
    except OSError as err:
        raise RecordError("rec_unreadable", path=name, error=err) from None
    return parse(data, name)


def read_at_most(stream: BinaryIO, source: str | Path) -> bytes:
    """All of ``stream``, or :class:`RecordError` if it holds more than :data:`MAX_RECORD_FILE`."""
    data = stream.read(MAX_RECORD_FILE + 1)
    if len(data) > MAX_RECORD_FILE:
        raise RecordError("rec_too_big", path=source, most=MAX_RECORD_FILE // 1_000_000)
    return data


class KeyTwice(ValueError):
    """A JSON object named the key ``key`` twice (:func:`no_key_twice`)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def no_key_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused where it names a key twice (``object_pairs_hook`` of :func:`json.loads`):
    the last would win without a word."""
    made: dict[str, Any] = {}
    for key, value in pairs:
        if key in made:
            raise KeyTwice(key)
        made[key] = value
    return made


def _wide_text(data: bytes) -> str | None:
    """"UTF-16" or "UTF-32" where ``data`` is text in it, byte-order mark first; else None."""
    for name, marks in (("UTF-32", (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)),
                        ("UTF-16", (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))):
        if data.startswith(marks):
            try:
                data.decode(name.lower())
            except UnicodeDecodeError:
                return None
            return name
    return None


def parse(data: bytes, source: str | Path) -> dict[str, Any]:
    """A record's bytes as JSON (``source`` names them in errors); :class:`RecordError` if they are not."""
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (some Windows editors) is fine
    except UnicodeDecodeError as err:  # (its start counts from after a byte-order mark)
        wide = _wide_text(data)
        if wide:  # Notepad's "Unicode": text, told how to save it
            raise RecordError("rec_wide_text", path=source, encoding=wide) from None
        before = data.removeprefix(codecs.BOM_UTF8)[: err.start].decode("utf-8")  # (all UTF-8 up to there)
        line, column = _line_and_column(before, len(before))
        # (a character begun at the very end: a file cut short, not one of another kind)
        key = "rec_cut_in_a_character" if err.reason == "unexpected end of data" else "rec_not_text"
        raise RecordError(key, path=source, line=line, column=column) from None
    if not text.strip():  # (the terminal game claims its file empty as it starts: one killed at once)
        raise RecordError("rec_empty", path=source)
    try:
        doc = json.loads(text, object_pairs_hook=no_key_twice, parse_constant=_not_a_json_value)
    except _NotJsonValue as constant:  # NaN or Infinity: Python's reader takes them, JSON does not
        line, column = _line_and_column(text, _first_constant(text, constant.word))
        raise RecordError("rec_not_json", path=source, error="Expecting value", line=line, column=column) from None
    except KeyTwice as twice:
        raise RecordError("rec_key_twice", path=source, field=twice.key) from None
    except json.JSONDecodeError as err:
        raise RecordError(
            "rec_not_json", path=source, error=err.msg, line=err.lineno, column=err.colno
        ) from None
    except RecursionError:
        raise RecordError("rec_too_deep", path=source) from None
    except ValueError:  # an integer of thousands of digits (Python refuses to convert it)
        line, column = _line_and_column(text, _too_long(text))
        raise RecordError("rec_number_too_long", path=source, line=line, column=column) from None
    return doc  # type: ignore[no-any-return]


class _NotJsonValue(Exception):
    """``NaN``, ``Infinity`` or ``-Infinity`` in a record: words that Python's JSON reader takes as
    numbers, and JSON does not have (``"seat": Infinity`` was told as a seat with a fraction)."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


def _not_a_json_value(word: str) -> Any:
    raise _NotJsonValue(word)


def _first_constant(text: str, word: str) -> int:
    """Where ``word`` (:class:`_NotJsonValue`'s) first stands in ``text`` outside a string."""
    return _first_outside_strings(text, re.escape(word), lambda found: True)  # (the reader found it)


#: A JSON string (what is in one is text, whatever it reads like).
_JSON_STRING = r'"(?:[^"\\]|\\.)*"'
#: A number: its whole part, and its fraction or exponent (which make it a float).
_NUMBER = r"(-?(?:0|[1-9][0-9]*))((?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)"


def _too_long(text: str) -> int:
    """Where in ``text`` (JSON that :func:`json.loads` read up to there) the first whole number
    begins that has more digits than Python converts (:func:`sys.get_int_max_str_digits`); a number
    with a fraction or an exponent is read as a float, whatever its length, and one in a string is
    text."""
    most = sys.get_int_max_str_digits()
    return _first_outside_strings(
        text, _NUMBER, lambda found: not found.group(2) and len(found.group(1).lstrip("-")) > most)


def _first_outside_strings(text: str, pattern: str, wanted: Callable[[re.Match[str]], bool]) -> int:
    """Where the first match of ``pattern`` in ``text`` that is not in a JSON string, and that is
    ``wanted``, begins (0 where there is none: the start)."""
    for found in re.finditer(_JSON_STRING + "|" + pattern, text):
        if not found.group().startswith('"') and wanted(found):
            return found.start()
    return 0


def _line_and_column(text: str, at: int) -> tuple[int, int]:
    """The line and column of ``text[at]``, both counted from 1, as the JSON reader's errors give them."""
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def replay(doc: Any, on_step: Callable[[int, int, Match], None] | None = None) -> Replayed:
    """Validate ``doc`` against docs/record.md and the rules by playing it; :class:`RecordError` if refused.
    ``on_step(round, turn, match)`` is called after each round's deal (turn 0) and each turn, both
    numbered from 1, as the match stands then."""
    if not isinstance(doc, dict):
        raise RecordError("rec_not_object", kind=_kind(doc))
    fmt = doc.get("format", FORMAT)  # before the fields: another format has other fields
    if fmt != FORMAT:
        raise RecordError("rec_unknown_format", format=_shown(fmt), expected=FORMAT)
    ignored: list[tuple[str, int | None]] = [(name, None) for name in _left_out(doc, _DOCUMENT_FIELDS)]
    name = doc.get("edition", "classic")
    if not isinstance(name, str):
        raise RecordError("rec_edition_type", kind=_kind(name))
    if name not in EDITIONS:
        raise RecordError("rec_unknown_edition", name=name)
    edition = edition_named(name)
    names = doc.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise RecordError("rec_players")
    if len(set(names)) != len(names):
        raise RecordError("rec_players_distinct")
    if not edition.min_players <= len(names) <= edition.max_players:
        raise RecordError(
            "rec_player_count", edition=edition.name, low=edition.min_players, high=edition.max_players,
            n=len(names),
        )
    # (an optional field is absent or has its value: null is one only for a turn's target, docs/record.md)
    target = doc.get("target")
    if "target" in doc and (not _is_int(target) or target < 1):  # R2.3: any target agreed
        raise RecordError("rec_target", value=_shown(target))
    rounds = doc.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("rec_rounds")
    if not rounds:
        raise RecordError("rec_no_rounds")

    match: Match | None = None
    for r, rnd in enumerate(rounds, start=1):
        if not isinstance(rnd, dict):
            raise RecordError("rec_round_not_object", r, kind=_kind(rnd))
        ignored += [(name, r) for name in _left_out(rnd, _ROUND_FIELDS, r)]
        deck = _deck(rnd.get("deck"), r)
        starter = rnd.get("starter")
        if "starter" in rnd and (not _is_int(starter) or not 0 <= starter < len(names)):
            raise RecordError("rec_starter", r, last=len(names) - 1, value=_shown(starter))
        if match is None:  # players, target and starter are checked above, the deck here
            _check_deck(edition, deck, r)
            match = Match(edition, len(names), target=target, starter=starter or 0, deck=deck)
        else:
            if not match.round.over:
                raise RecordError("rec_round_unfinished", r - 1)
            if match.over:
                raise RecordError("rec_match_over", r, round=r - 1)
            expected = match.next_starter()
            if starter is not None and starter != expected:
                raise RecordError("rec_wrong_starter", r, seat=starter, expected=expected)
            _check_deck(edition, deck, r)
            match.next_round(deck)
        turns = rnd.get("turns")  # (not optional in RECORD.md: a round not yet played has [])
        if not isinstance(turns, list):
            raise RecordError("rec_turns", r)
        if on_step is not None:
            on_step(r, 0, match)
        for t, turn in enumerate(turns, start=1):
            try:
                _play_turn(match, turn)
            except RecordError as err:
                raise err.at(r, t) from err.cause
            if on_step is not None:
                on_step(r, t, match)
    assert match is not None
    return Replayed(match, list(names), ignored)


def _play_turn(match: Match, turn: Any) -> None:
    if not isinstance(turn, dict):
        raise RecordError("rec_turn_not_object", kind=_kind(turn))
    _no_unknown(turn)
    rnd = match.round
    if rnd.over:
        raise RecordError("rec_round_over")
    seat = turn.get("seat")
    if "seat" in turn and not _is_int(seat):
        raise RecordError("rec_seat_type", kind=_kind(seat))
    if seat is not None and seat != rnd.current:
        raise RecordError("rec_wrong_seat", seat=seat, current=rnd.current)
    if "play" not in turn:
        raise RecordError("rec_no_play")
    card = _card(turn["play"], "play")
    target = turn.get("target")
    if target is not None and not _is_int(target):
        raise RecordError("rec_target_type", kind=_kind(target))
    guess = _card(turn["guess"], "guess") if "guess" in turn else None
    has_choice = "keep" in turn or "bottom" in turn
    if has_choice and card is not Card.CHANCELLOR:
        raise RecordError("rec_choice_not_chancellor")
    try:
        match.apply(Action(card, target, guess))
        if rnd.phase is Phase.CHANCELLOR:
            hand = sorted(rnd.hands[rnd.current])
            if "keep" not in turn:
                raise RecordError("rec_chancellor_keep", cards=hand)
            keep = _card(turn["keep"], "keep")
            bottom = turn.get("bottom", [])
            if not isinstance(bottom, list):
                raise RecordError("rec_bottom")
            match.apply(Action(Card.CHANCELLOR, keep=keep, bottom=tuple(_card(c, "bottom") for c in bottom)))
        elif has_choice:
            raise RecordError("rec_chancellor_empty")
    except IllegalActionError as err:
        raise RecordError.illegal(err) from err


def _deck(deck: Any, r: int) -> list[Card]:
    if not isinstance(deck, list):
        raise RecordError("rec_deck", r)
    try:
        return [_card(c, "deck") for c in deck]
    except RecordError as err:
        raise err.at(r) from None


def _card(word: Any, field: str) -> Card:
    if not isinstance(word, str):
        raise RecordError("rec_card_type", field=field, kind=_kind(word))
    try:
        return Card.from_word(word)
    except KeyError:
        raise RecordError("rec_unknown_card", word=word, field=field) from None


def _check_deck(edition: Edition, deck: list[Card], r: int) -> None:
    """R3.1, as the engine checks it, but with a keyed refusal: each wrong card count and the right one."""
    wrong = wrong_counts(edition, deck)
    if wrong:
        raise RecordError("rec_deck_cards", r, size=len(edition.full_deck), edition=edition.name, wrong=wrong)


def _unknown(obj: dict[str, Any], allowed: set[str]) -> list[str]:
    """The fields of ``obj`` that are not ``allowed``, in order."""
    return sorted(set(obj) - allowed)


def _left_out(obj: dict[str, Any], known: set[str], r: int | None = None) -> list[str]:
    """The fields of the document (or of round ``r``) to leave out: those RECORD.md does not name (it
    refuses them in a turn alone). One that is a known field written otherwise ("Target") is
    refused: left out, its match was replayed to another target, with a note only."""
    unknown = _unknown(obj, known)
    for name in unknown:
        meant = next((field for field in known if field.casefold() == name.casefold()), None)
        if meant is not None:
            raise RecordError("rec_field_case", r, field=name, known=meant)
    return unknown


def _no_unknown(turn: dict[str, Any]) -> None:
    """A turn's unknown field refused (RECORD.md: "Unknown fields in a turn are refused")."""
    unknown = _unknown(turn, _TURN_FIELDS)
    if unknown:
        raise RecordError("rec_unknown_field_turn", field=unknown[0])


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    """The kind of a JSON value, a key of :data:`loveletter.i18n.RECORD_KINDS` (else the type's name)."""
    return {
        dict: "object", list: "list", str: "string", bool: "bool", type(None): "null",
        int: "number", float: "fraction",
    }.get(type(value), type(value).__name__)


def _shown(value: Any) -> str:
    """A JSON value as it stands in the file, cut short as every quote in a message is (:func:`shown`)."""
    return shown(json.dumps(value, ensure_ascii=False))


# ------------------------------------------------------------------------------------ summary


def summary(replayed: Replayed) -> dict[str, Any]:
    """The ``--json`` summary of docs/record.md."""
    match = replayed.match
    tokens = [0] * match.players
    rounds = []
    for rnd in match.rounds:
        if rnd.over:
            for s in rnd.winners:
                tokens[s] += 1
            if rnd.spy_bonus is not None:
                tokens[rnd.spy_bonus] += 1
        rounds.append({
            "starter": rnd.starter,
            "finished": rnd.over,
            "out": list(rnd.knocked_out),
            "winners": sorted(rnd.winners),
            "spy_bonus": rnd.spy_bonus,
            "tokens": list(tokens),
        })
    return {
        "edition": match.edition.name,
        "players": replayed.names,
        "target": match.target,
        "rounds": rounds,
        "tokens": list(match.tokens),
        "finished": match.over,
        "winners": sorted(match.winners),
    }
