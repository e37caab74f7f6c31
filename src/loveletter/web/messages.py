"""What the server says to one connection: built from that seat's :class:`~loveletter.engine.View`
only (a spectator's view for spectators), so it carries nothing the seat may not know (R7).

And what the server accepts from a connection: small JSON objects, checked field by field.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from starlette.responses import JSONResponse

from loveletter.bots.expert import Estimate, ExpertBot
from loveletter.engine import (
    Action,
    Card,
    Edition,
    Event,
    IllegalActionError,
    NotationError,
    Phase,
    View,
    view,
)
from loveletter.engine.errors import quoted
from loveletter.i18n import LANGUAGES, Translator, grouped
from loveletter.narrate import event_lines
from loveletter.percentages import best_moves, hint_text, shown_percentages, spoken_percentage
from loveletter.record import KeyTwice, no_key_twice
from loveletter.web.store import DamagedRow
from loveletter.web.table import ASK_AFTER, GameTable, Refused, Settings

MAX_MESSAGE = 2_000  # characters in one message from a client


def card_face(card: Card, edition: Edition, t: Translator) -> dict[str, Any]:
    """A card as the page draws it: its word (for the style), name, value and effect."""
    return {"card": card.word, "name": t.card(card), "value": edition.value(card), "effect": t.effect(card)}


def state_message(table: GameTable, seat: int | None, t: Translator) -> dict[str, Any]:
    """The whole table as ``seat`` may see it, in ``t``'s language."""
    waiting = not table.started
    # the game starts once every seat is taken: until then a player sees no more than a spectator (a
    # creator shown their first two cards had all the time they liked to think over the first move)
    v = table.view_for(None if waiting else seat)
    names = table.display_names(t)
    tracked = v.tracker_shown()
    match = table.match
    previous: dict[str, Any] | None = None
    # the last finished round, for its result and how it ended: at the match's end, the last round
    done = len(match.rounds) if match.round.over else len(match.rounds) - 1
    if done >= 1:
        last = view(match.rounds[done - 1], seat)
        previous = {
            "winners": list(last.winners),
            "won_by": t.join_names([names[i] for i in last.winners]),  # "Ann and Bob", as the terminal says
            "log": round_log(last.events, names, t, done, table.stand_ins(done)),
        }
    return {
        "type": "state",
        "code": table.code,
        "lang": t.language,
        "moves": len(table.moves),
        "edition": v.edition.name,
        "players": v.players,
        "names": names,
        "bots": [plan.level for plan in table.settings.seats],
        "stand_in": stand_in_rule(table.settings, t),
        "free_seats": table.free_seats(),
        "seat": seat,
        "round": v.round_number,
        "turn": v.turn,
        "current": v.current,
        "phase": v.phase.name.lower(),
        "deck_size": v.deck_size,
        "face_up": [card_face(c, v.edition, t) for c in v.face_up],
        "discards": [[card_face(c, v.edition, t) for c in pile] for pile in v.discards],
        "alive": list(v.alive),
        "protected": list(v.protected),
        "winners": list(v.winners),
        "tokens": list(v.tokens),
        "target": v.target,
        "match_winners": list(v.match_winners),
        "match_won_by": t.join_names([names[i] for i in v.match_winners]),
        "hand": [card_face(c, v.edition, t) for c in v.hand],
        "known": {str(s): card_face(c, v.edition, t) for s, c in sorted(v.known.items())},
        "tracker": [{"card": card_face(c, v.edition, t), "unseen": tracked[c]} for c in sorted(v.edition.copies)],
        "under_deck": [] if v.over else [card_face(c, v.edition, t) for c in v.under_deck() if c is not None],
        # no moves until every seat is taken: the game starts then
        "legal": [] if waiting else [move_entry(a, names, t) for a in v.legal_actions],
        "blocked": {} if waiting else blocked_cards(table, v, t),
        "log": round_log(v.events, names, t, v.round_number, table.stand_ins(v.round_number)),
        "previous": previous,
    }


def stand_in_rule(settings: Settings, t: Translator) -> str:
    """Which bot plays for a person away or not moving, and when, in ``t``'s words: told at the table,
    for whoever joins by a link never saw the lobby's form. At a table with no timeout, a bot plays
    only when another player asks it to (:data:`~loveletter.web.table.ASK_AFTER`)."""
    level = t.level(settings.stand_in)
    if settings.bot_timeout is None or settings.idle_timeout is None:
        return t("web_stand_in_asked_rule", level=level, away=t.decimal(ASK_AFTER),
                 idle=t.decimal(settings.ask_idle_after))
    return t("web_stand_in_rule", level=level, away=t.decimal(settings.bot_timeout),
             idle=t.decimal(settings.idle_timeout))


def round_log(events: Iterable[Event], names: list[str], t: Translator, round_number: int,
              stood_in: set[int]) -> list[str]:
    """The round's lines (:func:`~loveletter.narrate.narrate_all`), a move that a bot played for an
    absent person marked as such: ``stood_in`` counts the round's moves from 0 (each move is a
    ``play`` event, or a ``bottom`` one for the Chancellor's choice)."""
    lines, moves = [], 0
    for event in events:
        told = event_lines(event, names, t, round_number)
        if event.kind in ("play", "bottom"):
            if told and moves in stood_in:  # the mark inside the sentence, before its full stop
                line = told[0].removesuffix(".")
                stop = told[0][len(line):]
                told = [f"{line} {t('web_stood_in', name=names[event.seat or 0])}{stop}"]
            moves += 1
        lines += told
    return lines


def move_entry(action: Action, names: list[str], t: Translator) -> dict[str, Any]:
    return {
        "move": action.notation(),
        "card": action.card.word,
        "target": action.target,
        # (``is not None``: the Spy is card 0, which is false)
        "guess": action.guess.word if action.guess is not None else None,
        "guess_name": t.card(action.guess) if action.guess is not None else None,
        "keep": action.keep.word if action.keep is not None else None,
        "keep_name": t.card(action.keep) if action.keep is not None else None,
        "bottom": [t.card(c) for c in action.bottom or ()],
        # for a screen reader: the card kept with its article, which the page cannot know ("het Kamermeisje")
        # (one card under the deck has no order: "in this order: Priest" was said of it)
        "keep_label": (t("web_keep_label_one", keep=t.the(action.keep), bottom=t.the(action.bottom[0]))
                       if action.bottom and len(action.bottom) == 1
                       else t("web_keep_label", keep=t.the(action.keep), bottom=t.cards(action.bottom or ())))
        if action.keep is not None else None,
    }


def blocked_cards(table: GameTable, v: View, t: Translator) -> dict[str, str]:
    """For each card in the hand of the seat to move that it may not play, why (the Countess rule)."""
    if not v.legal_actions or v.phase is not Phase.PLAY:
        return {}
    playable = {a.card for a in v.legal_actions}
    reasons = {}
    for card in v.hand:
        if card not in playable:
            probe = table.match.round.clone()
            others = [s for s in range(v.players) if s != v.seat]
            try:
                probe.apply(Action(card, others[0] if others else None))
            except IllegalActionError as err:
                reason = t.error(err, yours=True)
                reasons[card.word] = reason[:1].upper() + reason[1:]  # shown alone, as a sentence
    return reasons


def refusal_message(refused: Refused, t: Translator, edition: Edition | None = None) -> dict[str, Any]:
    """The error message for a refusal; ``edition``: the table's, whose cards alone an unknown card's
    answer suggests."""
    if isinstance(refused.engine_error, IllegalActionError):
        text = t("illegal", reason=t.error(refused.engine_error, yours=True))
    elif refused.engine_error is not None:
        cards = edition.cards if edition is not None else None
        text = t("not_a_move", reason=t.notation_error(refused.engine_error, cards))
    else:
        # what was sent, cut short (a reason is our own text, and a name was checked: both whole);
        # the choices offered, as a sentence in this language says them ("random, beginner or expert")
        params = {key: t.join_choices(value) if isinstance(value, tuple)
                  else value if key in ("reason", "name") else quoted(value)
                  for key, value in refused.params.items()}
        if "edition" in params:  # named as the rest of the game names it
            params["edition"] = t.edition(params["edition"])
        text = t(refused.key, **params)
    # what the client sent may be quoted back: a lone surrogate in it cannot be sent as UTF-8
    text = text.encode("utf-8", "replace").decode("utf-8")
    return {"type": "error", "key": refused.key, "message": text}


def refusal_response(refused: Refused, t: Translator, status: int,
                     headers: Mapping[str, str] | None = None) -> JSONResponse:
    """An HTTP answer refusing a request: its refusal's message, in the language the page asked in."""
    return JSONResponse(refusal_message(refused, t), status_code=status, headers=headers)


def first_line(err: BaseException) -> str:
    """An error's first line, for a one-line message (its kind, if it says nothing)."""
    return str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__


def left_out_reason(err: Exception, t: Translator) -> str:
    """Why a stored table cannot be read back (:attr:`Server.left_out <loveletter.web.lobby.Server>`),
    in one line of ``t``'s language: a damaged row, settings the app refuses, a move the rules refuse.
    A fault of another kind (the rows changed in a way no check foresaw) keeps its own first line."""
    if isinstance(err, DamagedRow):
        return t(err.key, **err.params)
    engine_error = err.engine_error if isinstance(err, Refused) else err
    if isinstance(engine_error, IllegalActionError):
        return t.error(engine_error)
    if isinstance(engine_error, NotationError):
        return t.notation_error(engine_error)
    if isinstance(err, Refused):  # (a sentence to a player, said here within a sentence of its own)
        said = str(refusal_message(err, t)["message"]).removesuffix(".")
        return said[:1].lower() + said[1:]
    return first_line(err)


def read_client_message(text: str, first: bool = False) -> dict[str, Any]:
    """A client's message, checked: ``hello``, ``move``, ``stand_in``, ``lang``, ``hints`` or ``ping`` with the right fields, or
    :class:`Refused` saying what is wrong. The ``first`` of a connection must be a ``hello``: any other
    is told so, before its fields are checked (a move with a field too many was told of that field)."""
    if len(text) > MAX_MESSAGE:
        raise Refused("web_too_long", max=grouped(MAX_MESSAGE))
    try:
        data = json.loads(text, object_pairs_hook=no_key_twice)
    except KeyTwice as twice:  # ({"move": "guard 1 priest", "move": "handmaid"}: which was meant?)
        raise Refused("web_message_key_twice", field=twice.key) from None
    except (ValueError, RecursionError):
        raise Refused("web_not_json") from None
    if not isinstance(data, dict):
        raise Refused("web_not_json")
    kind = data.get("type")
    if first and kind != "hello":
        raise Refused("web_hello_first")
    if kind == "hello":
        _check(data, {"type", "secret", "lang"}, {"secret": (str, type(None)), "lang": (str,)})
    elif kind == "move":
        _check(data, {"type", "move", "at"}, {"move": (str,), "at": (int,)})
    elif kind == "stand_in":  # a bot asked to play the move awaited of a person away
        _check(data, {"type", "at"}, {"at": (int,)})
    elif kind == "lang":
        _check(data, {"type", "lang"}, {"lang": (str,)})
    elif kind in ("hints", "ping"):
        _check(data, {"type"}, {})
    else:
        raise Refused("web_bad_type")
    if "lang" in data and data["lang"] not in LANGUAGES:
        raise Refused("web_bad_language", lang=data["lang"][:20], langs=LANGUAGES)
    return data


def asked_language(text: str) -> str:
    """The language a client's message asks for, where it is a JSON object with a known ``lang``
    (however wrong the rest), else English: a faulty hello is refused in the language it asked for."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return "en"
    lang = data.get("lang") if isinstance(data, dict) else None
    return lang if isinstance(lang, str) and lang in LANGUAGES else "en"


def _check(data: dict[str, Any], allowed: set[str], types: dict[str, tuple[type, ...]]) -> None:
    for key in data:
        if key not in allowed:
            raise Refused("web_unknown_field", field=str(key)[:40])
    for key, kinds in types.items():  # (JSON true is no whole number, though Python's bool is an int)
        if key not in data or not isinstance(data[key], kinds) or (isinstance(data[key], bool) and bool not in kinds):
            raise Refused("web_bad_field", field=key)


class Advice(NamedTuple):
    """The expert's advice at a seat's view after ``moves`` moves, from that view only, before it is
    worded: the chance of winning the round after each legal move (``odds``), and what it believes
    each other player holds (``belief``). Kept for the seat, so that a language switch or a page
    reloaded at the same move words the same advice again: a new search gave other figures, often
    another best move, and the hints vanished for seconds while it ran."""

    moves: int
    odds: dict[Action, Estimate]
    belief: dict[int, dict[Card, float]]


def advice_at(v: View, moves: int, adviser: ExpertBot, moved_on: Callable[[], bool] = lambda: False
              ) -> Advice | None:
    """The expert's :class:`Advice` at a seat's view ``v``, the table after ``moves`` moves (a search:
    a worker thread's job); ``None`` if ``moved_on()`` tells that the table has left that position
    (asked as the search goes, which then stops: on a big table it took a second or more, holding the
    seat's adviser, for advice nobody would see)."""
    odds = adviser.move_odds(v, stop=moved_on)  # (only asked at the seat's turn: see Server.advise)
    return None if moved_on() else Advice(moves, odds, adviser.belief(v).all_odds())


def hints_message(advice: Advice, t: Translator) -> dict[str, Any]:
    """The hints of ``advice`` in ``t``'s language (which the message names: the page drops hints
    in a language it has just left)."""
    odds, best = advice.odds, best_moves(advice.odds)
    return {
        "type": "hints",
        "moves": advice.moves,
        "lang": t.language,
        # each move's figure in words and whether it is marked best, as the terminal shows them (the
        # page shows these, computing none); beside them the figures for machines ("sure": the move
        # itself decides the round, whatever the hidden cards; else a chance of 0 or 1 is only what
        # the tries saw, shown "<1%" or ">99%")
        # ("spoken": the figure in words, for a screen reader, as --screen-reader says it: ">99%" was
        # heard as "99 percent", "≈" and "±" not at all)
        "odds": [{"move": a.notation(), "text": hint_text(e, t), "spoken": hint_text(e, t, spoken=True),
                  "best": a in best, "chance": round(e.chance, 6), "margin": round(e.margin, 6), "sure": e.sure}
                 for a, e in sorted(odds.items(), key=lambda x: -x[1].chance)],
        # every card still possible, likeliest first, as the terminal shows it (whole percentages
        # adding up to about 100; "<1%" for a card possible but unlikely, never left out)
        "belief": {str(s): [{"name": t.card(c), "chance": round(held[c], 3), "shown": shown,
                             "spoken": spoken_percentage(shown, t)}
                            for c, shown in shown_percentages(held)]
                   for s, held in sorted(advice.belief.items())},
    }
