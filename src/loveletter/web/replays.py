"""Replays in the browser: a game record (docs/record.md) as frames to step through, move by move.

A record holds the whole game, decks included, so a frame shows everything: every hand, the deck
size, the discards, and the story so far. Records are validated by replaying them through the engine
(:func:`loveletter.record.replay`); each frame is the match as it stands after one more turn, taken
as the record is replayed, once.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from loveletter.engine import Match, Round
from loveletter.i18n import Translator
from loveletter.narrate import bots_named_in, match_result, names_apart, narrate_all
from loveletter.record import replay, to_record
from loveletter.web.messages import card_face
from loveletter.web.table import Refused

MAX_RECORD_BYTES = 1_000_000
#: The most a replay's frames may come to, as JSON. Each frame repeats the names and the round's story
#: so far, so a small record with very long names could make gigabytes; a game to 20 tokens with six
#: players comes to about 2 MB, and one to the most a record allows, 99 tokens, to about 20 MB. A
#: replay is held until its reader has read it (see :data:`~loveletter.web.app.REPLAYS_AT_ONCE`): a
#: record of a thousand short rounds, under 1 MB, made 49 MB.
MAX_REPLAY_BYTES = 32_000_000


def record_of(match: Any, names: list[str]) -> dict[str, Any]:
    """The record of a web table's match; names made distinct as docs/record.md asks."""
    return to_record(match, distinct_names(names))


def distinct_names(names: list[str]) -> list[str]:
    """``names``, where two are alike each followed by its seat (``Ann (0)``, ``Ann (1)``), until
    no two are alike: a name so made may be another player's ("Ann (0)" joining two "Ann"s)."""
    shown = list(names)
    while len(set(shown)) < len(shown):
        counts = Counter(shown)
        shown = [f"{name} ({seat})" if counts[name] > 1 else name for seat, name in enumerate(shown)]
    return shown


def frames_json(doc: Any, t: Translator) -> str:
    """Every step of the record ``doc`` (the deal of each round, then each turn) as the JSON sent:
    ``frames``, each written as it is made; ``left_out``, the line that names the fields of the
    document and its rounds that the format does not name (:attr:`loveletter.record.Replayed.ignored`),
    or null: the page shows it, as the command line does; the match's ``target``; and its ``result``
    where the record ends, the line the command line ends with. A bad record raises
    :class:`~loveletter.record.RecordError` (one line, naming the round and turn); frames that pass
    :data:`MAX_REPLAY_BYTES` are refused (:class:`Refused`) before they are all in memory."""
    most = MAX_REPLAY_BYTES
    parts: list[str] = []
    size = 2
    names: list[str] | None = None

    def step(number: int, turn: int, match: Match) -> None:  # in one pass: replaying each step from
        # the start took time that grew with the square of the record's length (minutes for a long one)
        nonlocal size, names
        if names is None:  # (the players are checked before the first step)
            # each shown apart from the others, as the terminal does; a table's bots named in this language
            names = names_apart(bots_named_in(doc["players"], t))
        # (ASCII, with escapes: a name may hold a lone surrogate, which JSON allows and UTF-8 does not)
        part = json.dumps(_frame(match.round, number, turn, list(match.tokens), names, t),
                          separators=(",", ":"))
        size += len(part) + 1
        if size > most:
            raise Refused("web_replay_too_big", most=most // 1_000_000)
        parts.append(part)

    replayed = replay(doc, on_step=step)  # (the players are checked before the first step)
    left_out = t.ignored_fields(replayed.ignored)
    result = match_result(replayed.match, names or names_apart(replayed.names), t)
    told = {"left_out": left_out, "target": replayed.match.target, "result": result}
    return '{"frames":[' + ",".join(parts) + "]," + json.dumps(told)[1:]


def _frame(rnd: Round, number: int, turn: int, tokens: list[int], names: list[str], t: Translator
           ) -> dict[str, Any]:
    def faces(cards: Any) -> list[dict[str, Any]]:
        return [card_face(c, rnd.edition, t) for c in cards]

    return {
        "round": number,
        "turn": turn,
        "names": names,
        "hands": [faces(hand) for hand in rnd.hands],
        "discards": [faces(pile) for pile in rnd.discards],
        "face_up": faces(rnd.face_up),
        "alive": list(rnd.alive),
        "protected": list(rnd.protected),
        "current": rnd.current,
        "deck_size": len(rnd.deck),
        "tokens": tokens,
        "winners": list(rnd.winners),
        "log": narrate_all(rnd.log or (), names, t, number),
    }

