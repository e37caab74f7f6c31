"""Game records, ``loveletter-record/1`` (shared RECORD.md): build, load, validate, replay, summarise.

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

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loveletter.engine import Action, Card, IllegalActionError, Match, Phase, Round, edition_named

FORMAT = "loveletter-record/1"
_DOCUMENT_FIELDS = {"format", "edition", "players", "target", "rounds"}
_ROUND_FIELDS = {"deck", "starter", "turns"}
_TURN_FIELDS = {"play", "target", "guess", "keep", "bottom", "seat"}


class RecordError(ValueError):
    """A record that breaks RECORD.md or the rules. ``str()`` is the one-line message, beginning
    ``round R, turn T: `` or ``round R: `` when a turn or a round is at fault."""

    def __init__(self, reason: str, round_number: int | None = None, turn: int | None = None) -> None:
        self.reason = reason
        self.round_number = round_number
        self.turn = turn
        where = ""
        if round_number is not None:
            where = f"round {round_number}, turn {turn}: " if turn is not None else f"round {round_number}: "
        super().__init__(where + reason)


@dataclass
class Replayed:
    """A record played through the engine: the match, and the players' names."""

    match: Match
    names: list[str]


# ------------------------------------------------------------------------------------ writing


def to_record(match: Match, names: list[str]) -> dict[str, Any]:
    """The record of ``match`` so far (its rounds must have been played with the event log on)."""
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


def save(doc: dict[str, Any], path: Path) -> None:
    """Write a record as pretty JSON (creating the folder), atomically: a crash leaves the old file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


# ------------------------------------------------------------------------------------ reading


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file as JSON; :class:`RecordError` for a missing, unreadable or non-JSON file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"no such file: {p}") from None
    except IsADirectoryError:
        raise RecordError(f"{p} is a folder, not a record file") from None
    except UnicodeDecodeError:
        raise RecordError(f"{p} is not a text file (not UTF-8)") from None
    except OSError as err:
        raise RecordError(f"cannot read {p}: {err.strerror}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{p} is not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
    except RecursionError:
        raise RecordError(f"{p} is nested too deeply to be a record") from None
    return doc  # type: ignore[no-any-return]


def replay(doc: Any) -> Replayed:
    """Validate ``doc`` against RECORD.md and the rules by playing it; :class:`RecordError` if refused."""
    if not isinstance(doc, dict):
        raise RecordError(f"a record is a JSON object, not {_kind(doc)}")
    _no_unknown(doc, _DOCUMENT_FIELDS, "the record")
    fmt = doc.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"unknown format {fmt!r}: expected {FORMAT!r}")
    name = doc.get("edition", "classic")
    if not isinstance(name, str):
        raise RecordError(f"'edition' must be \"classic\" or \"2019\", not {_kind(name)}")
    try:
        edition = edition_named(name)
    except ValueError as err:
        raise RecordError(str(err)) from None
    names = doc.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        raise RecordError("'players' must be a list of non-empty names")
    if len(set(names)) != len(names):
        raise RecordError("the players' names must be distinct")
    if not edition.min_players <= len(names) <= edition.max_players:
        raise RecordError(
            f"the {edition.name} edition is for {edition.min_players}-{edition.max_players} players,"
            f" not {len(names)} (R2.1)"
        )
    target = doc.get("target")
    if target is not None and (not _is_int(target) or target < 1):
        raise RecordError("'target' must be a whole number of tokens, at least 1")
    rounds = doc.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("'rounds' must be a list")
    if not rounds:
        raise RecordError("the record has no rounds")

    match: Match | None = None
    for r, rnd in enumerate(rounds, start=1):
        if not isinstance(rnd, dict):
            raise RecordError(f"a round is a JSON object, not {_kind(rnd)}", r)
        try:
            _no_unknown(rnd, _ROUND_FIELDS, "a round")
        except RecordError as err:
            raise RecordError(err.reason, r) from None
        deck = _deck(rnd.get("deck"), r)
        starter = rnd.get("starter")
        if starter is not None and (not _is_int(starter) or not 0 <= starter < len(names)):
            raise RecordError(f"'starter' must be a seat from 0 to {len(names) - 1}", r)
        try:
            if match is None:
                match = Match(edition, len(names), target=target, starter=starter or 0, deck=deck)
            else:
                if not match.round.over:
                    raise RecordError("the round has not ended, yet another round follows it", r - 1)
                if match.over:
                    raise RecordError(f"the match ended after round {r - 1}, so no round may follow", r)
                expected = match.next_starter()
                if starter is not None and starter != expected:
                    raise RecordError(
                        f"seat {starter} cannot start this round: seat {expected} does (R3.5)", r
                    )
                match.next_round(deck)
        except ValueError as err:
            if isinstance(err, RecordError):
                raise
            raise RecordError(str(err), r) from None
        turns = rnd.get("turns", [])
        if not isinstance(turns, list):
            raise RecordError("'turns' must be a list", r)
        for t, turn in enumerate(turns, start=1):
            try:
                _play_turn(match, turn)
            except RecordError as err:
                raise RecordError(err.reason, r, t) from None
    assert match is not None
    return Replayed(match, list(names))


def _play_turn(match: Match, turn: Any) -> None:
    if not isinstance(turn, dict):
        raise RecordError(f"a turn is a JSON object, not {_kind(turn)}")
    _no_unknown(turn, _TURN_FIELDS, "a turn")
    rnd = match.round
    if rnd.over:
        raise RecordError("the round is already over: no more turns")
    seat = turn.get("seat")
    if seat is not None and (not _is_int(seat) or seat != rnd.current):
        raise RecordError(f"the turn says seat {seat}, but it is seat {rnd.current}'s turn")
    if "play" not in turn:
        raise RecordError("the turn has no 'play'")
    card = _card(turn["play"], "play")
    target = turn.get("target")
    if target is not None and not _is_int(target):
        raise RecordError(f"'target' must be a seat number, not {_kind(target)}")
    guess = _card(turn["guess"], "guess") if turn.get("guess") is not None else None
    has_choice = turn.get("keep") is not None or turn.get("bottom") is not None
    if has_choice and card is not Card.CHANCELLOR:
        raise RecordError("only a Chancellor turn has 'keep' and 'bottom' (R5.9)")
    try:
        match.apply(Action(card, target, guess))
        if rnd.phase is Phase.CHANCELLOR:
            hand = sorted(rnd.hands[rnd.current])
            if turn.get("keep") is None:
                raise RecordError(
                    f"the Chancellor drew cards, so the turn must say which of"
                    f" {', '.join(c.word for c in hand)} to keep (R5.9)"
                )
            keep = _card(turn["keep"], "keep")
            bottom = turn.get("bottom", [])
            if not isinstance(bottom, list):
                raise RecordError("'bottom' must be a list of cards")
            match.apply(Action(Card.CHANCELLOR, keep=keep, bottom=tuple(_card(c, "bottom") for c in bottom)))
        elif has_choice:
            raise RecordError("the Chancellor drew no card (the deck is empty), so it keeps nothing (R5.9)")
    except IllegalActionError as err:
        raise RecordError(str(err)) from None


def _deck(deck: Any, r: int) -> list[Card]:
    if not isinstance(deck, list):
        raise RecordError("'deck' must be a list of cards", r)
    try:
        return [_card(c, "deck") for c in deck]
    except RecordError as err:
        raise RecordError(err.reason, r) from None


def _card(word: Any, field: str) -> Card:
    if not isinstance(word, str):
        raise RecordError(f"'{field}' must name a card, not {_kind(word)}")
    try:
        return Card.from_word(word)
    except KeyError:
        raise RecordError(f"unknown card {word!r} in '{field}'") from None


def _no_unknown(obj: dict[str, Any], allowed: set[str], what: str) -> None:
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise RecordError(f"unknown field {unknown[0]!r} in {what}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    return {
        dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null",
        int: "a number", float: "a number",
    }.get(type(value), type(value).__name__)


# ------------------------------------------------------------------------------------ summary


def summary(replayed: Replayed) -> dict[str, Any]:
    """The ``--json`` summary of RECORD.md."""
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
