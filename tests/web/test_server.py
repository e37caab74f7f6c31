"""The web server over HTTP and WebSocket: lobby, play, refusals, spectators, bots, restarts."""

from __future__ import annotations

import asyncio
import copy
import errno
import functools
import ipaddress
import json
import logging
import math
import os
import random
import re
import signal
import socket
import threading
import time
import types
from collections.abc import Callable, Iterator
from typing import Any
from xml.etree import ElementTree

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool
from web_clients import Seat, close_all, create, join

from loveletter.bots.expert import DEFAULT_ITERATIONS
from loveletter.engine import Action, Card
from loveletter.i18n import Translator
from loveletter.record import replay
from loveletter.web import app as web_app
from loveletter.web import lobby, recent
from loveletter.web import store as storing
from loveletter.web.app import create_app
from loveletter.web.bodies import NewTable
from loveletter.web.lobby import OUTBOX, Connection, Server
from loveletter.web.logbook import written_in
from loveletter.web.process import free_port
from loveletter.web.store import InUse, Store, claim
from loveletter.web.store import tables as store_tables


@pytest.fixture
def seats_open_at_once(monkeypatch) -> None:
    """A seat kept for a player of the finished match opens the moment they leave
    (:data:`~loveletter.web.lobby.KEPT_THROUGH_A_DROP` is 30 seconds)."""
    monkeypatch.setattr(lobby, "KEPT_THROUGH_A_DROP", 0)


def until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait (a little at a time, at most ``seconds``) until ``condition`` holds, as what the server
    does once a socket closes comes after the close; the caller then asserts it."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)


# ------------------------------------------------------------------------------------ lobby


def test_create_list_join_and_a_full_table(client):
    made = create(client, players=3, bots={"2": "beginner"})
    assert made["seat"] == 0 and len(made["secret"]) >= 40
    listed = {t["code"]: t for t in client.get("/api/tables").json()}
    assert listed[made["code"]]["free"] == 1 and listed[made["code"]]["names"][0] == "Ann"
    joined = client.post(f"/api/tables/{made['code'].lower()}/join", json={"name": "Bob"}).json()
    assert joined["seat"] == 1 and joined["secret"] != made["secret"]
    assert made["code"] not in {t["code"] for t in client.get("/api/tables").json()}  # full: not open
    refused = client.post(f"/api/tables/{made['code']}/join", json={"name": "Cy"})
    assert refused.status_code == 400 and refused.json()["message"] == "This table has no free seat; you can watch it."
    in_dutch = client.post(f"/api/tables/{made['code']}/join?lang=nl", json={"name": "Cy"}).json()
    assert in_dutch["message"] == "Deze tafel heeft geen vrije stoel; je kunt wel kijken."


@pytest.mark.usefixtures("seats_open_at_once")
def test_a_request_asked_again_with_its_key_is_answered_as_it_was(client):
    """An answer lost on its way back (a connection cut after the server acted), the request asked again:
    a join was "someone at this table is already called Bob" (his seat now nobody's), a rematch "you
    are already in the next game" (no seat), a table made twice. With the same Request-Key the answer
    is the one given; another key, or none, asks anew."""
    body = {"name": "Ann", "players": 3, "edition": "classic", "bots": {"2": "beginner"}}
    made = client.post("/api/tables", json=body, headers={"Request-Key": "a" * 32}).json()
    assert client.post("/api/tables", json=body, headers={"Request-Key": "a" * 32}).json() == made
    tables = client.app.state.server.rooms
    assert len(tables) == 1  # made once
    code = made["code"]
    joined = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}, headers={"Request-Key": "b" * 32}).json()
    assert joined["seat"] == 1
    assert client.post(f"/api/tables/{code}/join", json={"name": "Bob"}, headers={"Request-Key": "b" * 32}).json() == joined
    again = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}, headers={"Request-Key": "c" * 32})
    assert again.json()["key"] == "web_name_taken"  # another request: asked anew (and refused, as it was)
    # the same key for another request is another request: Bob's seat and credential are his alone
    other = client.post(f"/api/tables/{code}/join", json={"name": "Carol"}, headers={"Request-Key": "b" * 32})
    assert other.json()["key"] == "web_table_full" and "secret" not in other.json()
    other = client.post("/api/tables", json={**body, "name": "Zed"}, headers={"Request-Key": "a" * 32}).json()
    assert other["code"] != made["code"] and other["secret"] != made["secret"]
    for bad in ("short", "x" * 65, "a b" * 8, "a.b" * 8):
        refused = client.post(f"/api/tables/{code}/join", json={"name": "Cy"}, headers={"Request-Key": bad})
        assert refused.status_code == 400 and refused.json()["message"] == (
            "The Request-Key header must be 16 to 64 letters, digits, '-' or '_'.")
    assert len(tables) == 2 and client.app.state.server.rooms[code].table.names == {0: "Ann", 1: "Bob"}


def test_a_rematch_asked_again_with_its_key_gives_the_same_seat(client):
    code, ann, bob = finished_two_people_match(client)
    key = {"Request-Key": "0123456789abcdef" * 2}
    first = client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret}, headers=key).json()
    assert first["seat"] == 1
    assert client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret}, headers=key).json() == first
    stolen = client.post(f"/api/tables/{code}/rematch", json={"secret": "nonsense"}, headers=key)
    assert stolen.json()["key"] == "web_bad_secret"  # (the key with another credential: not the answer kept)
    twice = client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret})
    assert twice.json()["key"] == "web_rematch_twice"  # (without the key: asked anew, and refused)
    ann.close()
    bob.close()


def test_private_tables_are_not_listed_but_can_be_joined_by_code(client):
    made = create(client, players=2, private=True)
    assert made["code"] not in {t["code"] for t in client.get("/api/tables").json()}
    assert client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).status_code == 200


def test_a_table_its_players_have_left_leaves_the_lobby(client, monkeypatch):
    made = create(client, players=3)
    code = made["code"]

    def listed() -> set[str]:
        return {t["code"] for t in client.get("/api/tables").json()}

    assert code in listed()  # its creator is on the way
    monkeypatch.setattr(lobby, "LOBBY_AWAY", 0)  # (as if they had been away for longer than it)
    assert code not in listed()  # nobody came
    ann = Seat(client, code, made["secret"])
    assert code in listed()  # while she is there
    watcher = Seat(client, code, None)
    ann.close()
    until(lambda: code not in listed())  # (the server notes her leaving after the socket closes)
    assert code not in listed()  # a watcher does not keep it there
    assert client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()["seat"] == 1  # the code still does
    watcher.close()


def test_a_table_read_back_after_a_restart_is_listed_only_once_a_player_comes(database):
    """A server started again listed every open table of the last day for ten minutes, the ones its
    players had long left too: newcomers were sent to tables nobody was at."""
    with TestClient(create_app(Store(database), bot_delay=0)) as client:
        made = create(client, players=3)
        Seat(client, made["code"], made["secret"]).close()
    with TestClient(create_app(Store(database), bot_delay=0)) as client:  # a new process, same database
        assert made["code"] in client.app.state.server.rooms  # (read back)
        assert client.get("/api/tables").json() == []
        ann = Seat(client, made["code"], made["secret"])  # back after the restart
        assert [t["code"] for t in client.get("/api/tables").json()] == [made["code"]]
        ann.close()
        until(lambda: client.app.state.server.rooms[made["code"]].players_away_since is not None)
        assert [t["code"] for t in client.get("/api/tables").json()] == [made["code"]]  # (as any table she left)


@pytest.mark.parametrize(("settings", "says", "zegt"), [
    ({"edition": "classic", "players": 5}, "The classic edition is for 2 to 4 players, not 5.",
     "De klassieke editie is voor 2 tot en met 4 spelers, niet 5."),
    ({"edition": "2020"}, "Unknown edition '2020': choose classic or 2019.",
     "Onbekende editie '2020': kies classic (de klassieke editie) of 2019."),
    ({"bots": {"1": "genius"}}, "Unknown bot level 'genius': choose random, beginner or expert.",
     "Onbekend botniveau 'genius': kies random, beginner of expert."),
    ({"players": 3, "bots": {"0": "beginner"}},
     "Seat 0 cannot be a bot: bots sit in seats 1 to 2 (seat 0 is yours).",
     "Stoel 0 kan geen bot zijn: bots zitten op stoel 1 tot en met 2 (stoel 0 is van jou)."),
    ({"players": 3, "bots": {"3": "beginner"}}, "Seat 3 cannot be a bot", "Stoel 3 kan geen bot zijn"),
    ({"players": 2, "bots": {"2": "beginner"}},  # not "seats 1 to 1"
     "Seat 2 cannot be a bot: with two players the bot sits in seat 1 (seat 0 is yours).",
     "Stoel 2 kan geen bot zijn: met twee spelers zit de bot op stoel 1 (stoel 0 is van jou)."),
    # a seat written otherwise was read as the same number: {"1": …, "01": …} lost one bot silently
    ({"players": 3, "bots": {"1": "expert", "01": "random"}}, "'01' is not a seat: seats are whole numbers",
     "'01' is geen stoel: stoelen zijn gehele getallen"),
    ({"players": 3, "bots": {"1.0": "expert"}}, "'1.0' is not a seat", "'1.0' is geen stoel"),
    # six bots for six seats: the seat told, where the request's size was ("a wrong or missing value")
    ({"edition": "2019", "players": 6, "bots": {str(seat): "random" for seat in range(1, 7)}},
     "Seat 6 cannot be a bot: bots sit in seats 1 to 5 (seat 0 is yours).",
     "Stoel 6 kan geen bot zijn: bots zitten op stoel 1 tot en met 5 (stoel 0 is van jou)."),
    ({"players": 3, "bots": {" 1": "expert"}}, "' 1' is not a seat", "' 1' is geen stoel"),
    # a field the server does not know was passed over: the table was made, the "budget" not taken
    ({"budget": 50}, "Unknown field 'budget'.", "Onbekend veld 'budget'."),
    # quoted, so that a name ending in a full stop, an empty one or one with control characters shows
    # as it is ("Unknown field ." before)
    ({"": 1}, "Unknown field ''.", "Onbekend veld ''."),
    ({"budget.": 1}, "Unknown field 'budget.'.", "Onbekend veld 'budget.'."),
    ({"a\u202eb": 1}, "Unknown field 'a\\u202eb'.", "Onbekend veld 'a\\u202eb'."),
    ({"target": 0}, "The token target must be from 1 to 20, not 0.",
     "Het doel in tekens van liefde moet van 1 tot en met 20 zijn, niet 0."),
    ({"target": 21}, "The token target must be from 1 to 20, not 21.",
     "Het doel in tekens van liefde moet van 1 tot en met 20 zijn, niet 21."),
    ({"edition": "2019", "players": 7}, "The 2019 edition is for 2 to 6 players, not 7.",
     "De 2019-editie is voor 2 tot en met 6 spelers, niet 7."),
    ({"players": 1}, "is for 2 to 4 players, not 1.", "is voor 2 tot en met 4 spelers, niet 1."),
    ({"players": 10**30}, "is for 2 to 4 players, not 1", "is voor 2 tot en met 4 spelers, niet 1"),
    ({"bot_timeout": 0.5}, "must be from 1 to 3\u2009600 seconds", "moet van 1 tot en met 3\u2009600 seconden zijn"),
    ({"bot_timeout": 1e9}, "must be from 1 to 3\u2009600 seconds", "moet van 1 tot en met 3\u2009600 seconden zijn"),
    ({"stand_in": "grandmaster", "bot_timeout": 30}, "Unknown level 'grandmaster' for the bot that plays for someone away: choose "
     "random, beginner or expert.", "Onbekend niveau 'grandmaster' voor de bot die speelt voor wie weg is: kies"),
    ({"stand_in": 5, "bot_timeout": 30}, "wrong or missing value for 'stand_in'", "ontbrekende waarde voor 'stand_in'"),
    ({"target": True}, "wrong or missing value for 'target'", "ontbrekende waarde voor 'target'"),
    ({"bot_timeout": True}, "wrong or missing value for 'bot_timeout'", "waarde voor 'bot_timeout'"),
    ({"players": "3"}, "wrong or missing value for 'players'", "ontbrekende waarde voor 'players'"),
    ({"private": 1}, "wrong or missing value for 'private'", "ontbrekende waarde voor 'private'"),
    ({"bots": {"1": 5}}, "wrong or missing value for 'bots.1'", "ontbrekende waarde voor 'bots.1'"),
    ({"players": "many"}, "wrong or missing value for 'players'", "ontbrekende waarde voor 'players'"),
    ({"name": "   "}, "Please give a name.", "Geef een naam op."),
    ({"name": "x" * 25}, "at most 24 characters", "hoogstens 24 karakters"),
    ({"name": "x" * 201}, "at most 24 characters", "hoogstens 24 karakters"),  # (was: "a wrong value for 'name'")
    ({"name": "\U0001f468\u200d\U0001f469\u200d\U0001f467" * 25}, "at most 24 characters", "hoogstens 24 karakters"),
    ({"name": "\u200b"}, "Please give a name.", "Geef een naam op."),  # a zero-width space alone: no name to see
    ({"name": "\u200b\u0301 \u2060"}, "Please give a name.", "Geef een naam op."),
    ({"name": "\u3164\u115f\ufe0f"}, "Please give a name.", "Geef een naam op."),  # Hangul fillers: nothing to see
    ({"name": "\u2800 \u2800"}, "Please give a name.", "Geef een naam op."),  # blank Braille patterns
])
def test_bad_table_settings_are_refused_with_a_reason(client, settings, says, zegt):
    for lang, expected in (("en", says), ("nl", zegt)):
        answer = client.post(f"/api/tables?lang={lang}", json={"name": "Ann", **settings})
        assert answer.status_code in (400, 422)
        body = answer.json()
        assert body["type"] == "error" and expected in body["message"], body
    assert client.get("/api/tables").json() == []  # nothing was created


def test_a_request_that_is_not_json_is_told_so(client):
    made = create(client, players=3)
    # (sent as text, empty, not UTF-8 or nested too deep: each answered 500 once a key named twice was looked for)
    for body, kind in ((b"notjson", "application/json"), (b"hello", "text/plain"), (b"", "application/json"),
                       (b"", "text/plain"), (b"\xff\xfe", "text/plain"), (b"[" * 60_000, "text/plain"),
                       (b"[]", "application/json"), (b"null", "application/json"), (b'{"name": "A"}', "text/plain"),
                       (b"name=A", "application/x-www-form-urlencoded")):
        for path in ("/api/tables", f"/api/tables/{made['code']}/join", f"/api/tables/{made['code']}/rematch"):
            told = {}
            for lang in ("en", "nl"):
                answer = client.post(f"{path}?lang={lang}", content=body, headers={"Content-Type": kind})
                # (the body as a whole was told as a field 'body', a name the page never shows)
                # (told in a WebSocket's words, "A message must be…", or as if the JSON object were not one)
                assert answer.status_code == 422 and answer.json()["key"] == "web_body_not_object", (
                    path, body[:9], answer.json())
                told[lang] = answer.json()["message"]
            assert told["en"] != told["nl"] and all(m and "\n" not in m for m in told.values()), told  # one line each
    for lang, says in (("en", "must be a JSON object, sent as application/json"),
                       ("nl", "moet een JSON-object zijn, verstuurd als application/json")):
        for body, kind in ((b"notjson", "application/json"), (b'{"name": "A"}', "text/plain")):
            answer = client.post(f"/api/tables?lang={lang}", content=body, headers={"Content-Type": kind})
            assert says in answer.json()["message"], answer.json()
    assert [table["code"] for table in client.get("/api/tables").json()] == [made["code"]]


def test_a_key_named_twice_in_the_body_is_refused_and_nothing_is_stored(client, database):
    """The JSON reader kept the last of a key named twice: {"1": "expert", "1": "random"} made a
    random bot without a word."""
    headers = {"content-type": "application/json"}
    for body, key in (('{"name": "Ann", "players": 2, "bots": {"1": "expert", "1": "random"}}', "1"),
                      ('{"name": "Ann", "players": 2, "name": "Bob"}', "name")):
        for lang, says in (("en", f"The request names the field '{key}' twice in one object."),
                           ("nl", f"Het verzoek noemt het veld '{key}' twee keer in één object.")):
            answer = client.post(f"/api/tables?lang={lang}", content=body, headers=headers)
            assert answer.status_code == 400
            assert answer.json() == {"type": "error", "key": "web_key_twice", "message": says}
    assert client.get("/api/tables").json() == [] and Store(database).load_all() == []
    made = create(client, players=2, name="Ann")  # joining too: nobody takes the seat
    before = client.get("/api/tables").json()
    answer = client.post(f"/api/tables/{made['code']}/join", content='{"name": "Bob", "name": "Cas"}', headers=headers)
    assert answer.status_code == 400 and answer.json()["key"] == "web_key_twice"
    assert client.get("/api/tables").json() == before


def test_names_keep_no_control_characters_and_stay_text(client):
    made = create(client, players=2, name="<b>Ann</b>\x07\n  Lee")
    listed = client.get("/api/tables").json()
    assert listed[0]["names"][0] == "<b>Ann</b> Lee"  # the page shows it as text, never as HTML
    seat = Seat(client, made["code"], made["secret"])
    assert seat.state["names"][0] == "<b>Ann</b> Lee"
    seat.close()


def test_a_name_is_counted_in_characters_as_a_reader_sees_them(client):
    """An emoji family (five code points), a flag (two) or a letter with two accents (three) is one
    character: 24 of them make a name (it was refused as over 24 code points)."""
    family, flag, accented = "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f1f3\U0001f1f1", "e\u0301\u0302"
    name = family * 8 + flag * 8 + accented * 8
    create(client, players=2, name=name)
    assert client.get("/api/tables").json()[0]["names"][0] == name


def test_a_name_of_many_accents_is_refused_and_an_older_database_takes_long_names(client, database):
    """A character may carry any number of accents: a name is also at most MAX_NAME_POINTS code points
    (the store's column). A PostgreSQL database made when names were at most 64 code points long
    is widened when the server starts (it refused the longer names with a 500)."""
    from sqlalchemy import inspect, text

    from loveletter.narrate import MAX_NAME_POINTS

    answer = client.post("/api/tables?lang=nl", json={"name": "e" + "\u0301" * 300})
    assert answer.status_code == 400 and answer.json()["message"] == (
        "De naam heeft te veel accenten of samenvoegtekens (joiners) op zijn karakters.")
    store = Store(database)
    if store.engine.dialect.name == "postgresql":
        with store.engine.begin() as db:
            db.execute(text("ALTER TABLE seats ALTER COLUMN name TYPE VARCHAR(64)"))
        store = Store(database)  # a server started again on the older database
        column = next(c for c in inspect(store.engine).get_columns("seats") if c["name"] == "name")
        assert column["type"].length == MAX_NAME_POINTS
    store.create("LONG01", {}, False)
    store.take_seat("LONG01", 0, "\U0001f468\u200d\U0001f469\u200d\U0001f467" * 24 + "x" * 80, "secret")
    store.close()


def test_unknown_table_and_words(client):
    assert client.post("/api/tables/NOPE99/join", json={"name": "Bob"}).status_code == 400
    assert client.get("/api/words/nl").json()["web_your_turn"] == "Jouw beurt"
    assert client.get("/api/words/fr").status_code == 404
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/../store.py").status_code == 404


def test_every_card_has_its_art(client):
    art = client.get("/static/cards.svg")
    assert art.headers["content-type"].startswith("image/svg+xml")
    symbols = ElementTree.fromstring(art.text).findall("{http://www.w3.org/2000/svg}symbol")
    drawn = {symbol.get("id") for symbol in symbols if len(symbol)}  # each with something drawn in it
    assert drawn == {f"art-{card.word}" for card in Card}  # both editions' characters, no more


# ------------------------------------------------------------------------------------ playing


def two_people(client, **settings):
    made = create(client, players=2, **settings)
    joined = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).json()
    ann, bob = Seat(client, made["code"], made["secret"]), Seat(client, made["code"], joined["secret"])
    ann.secret, bob.secret = made["secret"], joined["secret"]
    return made["code"], ann, bob


def _busy(*_args, **_kwargs):
    from sqlalchemy.exc import OperationalError

    raise OperationalError("INSERT INTO moves ...", {}, Exception("database is locked"))


STORE_FAILED_NL = ("De server kon dat nu niet opslaan (de database is bezet of onbereikbaar): er is niets"
                   " veranderd; probeer het opnieuw.")


def _read_only(*_args, **_kwargs):
    """(A database turned read-only, as a fail-over to a replica leaves it: its own error, not a
    connection's.)"""
    from psycopg.errors import ReadOnlySqlTransaction
    from sqlalchemy.exc import InternalError

    raise InternalError("INSERT INTO moves ...", {}, ReadOnlySqlTransaction("cannot execute INSERT in a read-only transaction"))


def _not_permitted(*_args, **_kwargs):
    from psycopg.errors import InsufficientPrivilege
    from sqlalchemy.exc import ProgrammingError

    raise ProgrammingError("INSERT INTO moves ...", {}, InsufficientPrivilege("permission denied for table moves"))


def _read_only_psycopg2(*_args, **_kwargs):
    """(The same from psycopg2, which names the SQL state ``pgcode``.)"""
    from sqlalchemy.exc import InternalError

    class ReadOnlySqlTransaction(Exception):
        pgcode = "25006"

    raise InternalError("INSERT INTO moves ...", {}, ReadOnlySqlTransaction("cannot execute INSERT in a read-only transaction"))


@pytest.mark.parametrize("refuse", [_busy, _read_only, _not_permitted, _read_only_psycopg2])
def test_a_write_the_database_refuses_is_told_in_one_line_and_changes_nothing(client, monkeypatch, refuse):
    """A database that did not take a write (locked, out of reach): a new table or seat was answered
    with a plain-text 500, and a move was dropped with the connection, without a word. So was one
    turned read-only or no longer permitting writes (with a traceback each time)."""
    store = client.app.state.server.store
    with monkeypatch.context() as failing:
        failing.setattr(store, "create", refuse)
        refused = client.post("/api/tables?lang=nl", json={"name": "Ann", "players": 2})
    assert refused.status_code == 503
    assert refused.json() == {"type": "error", "key": "web_store_failed", "message": STORE_FAILED_NL}
    assert client.get("/api/tables").json() == [] and store.load_all() == []
    with monkeypatch.context() as failing:  # the creator's seat, stored with the table: neither is
        failing.setattr(storing, "hash_secret", refuse)
        assert client.post("/api/tables", json={"name": "Ann", "players": 2}).status_code == 503
    assert client.get("/api/tables").json() == [] and store.load_all() == []  # (an empty table stayed)
    made = create(client, players=2)
    with monkeypatch.context() as failing:
        failing.setattr(store, "take_seat", refuse)
        assert client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).status_code == 503
    assert client.get("/api/tables").json()[0]["free"] == 1
    joined = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).json()
    seats = [Seat(client, made["code"], made["secret"]), Seat(client, made["code"], joined["secret"])]
    mover = seats[seats[0].state["current"]]
    move = mover.state["legal"][0]["move"]
    with monkeypatch.context() as failing:
        failing.setattr(store, "add_move", refuse)
        refusal = mover.move(move)
    assert refusal["key"] == "web_store_failed" and mover.state["moves"] == 0  # told, not applied
    assert mover.move(move)["moves"] == 1  # sent again, once the database takes it
    assert [t.moves for t in store.load_all()] == [[move]]


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # (SQLite's busy time: the test above)
def test_a_move_under_a_lock_another_session_holds_is_refused_in_time_not_awaited(database, monkeypatch):
    """An operator's open transaction holding the moves' table (a migration, a LOCK TABLE by hand):
    with PostgreSQL, a move waited for as long as the lock was held, its player told "connection
    lost", the other told nothing, a bot never moving, and nothing logged. Now refused after
    LOCK_WITHIN seconds, as SQLite's busy time does ("try again"), and stored once the lock is gone."""
    monkeypatch.setattr(storing, "LOCK_WITHIN", 0.3)
    store = Store(database)
    operator = create_engine(database, poolclass=NullPool)
    try:
        with TestClient(create_app(store, bot_delay=0)) as client:
            _code, ann, bob = two_people(client)
            mover = (ann, bob)[ann.state["current"]]
            move = mover.state["legal"][0]["move"]
            with operator.connect() as held:
                held.execute(text("LOCK TABLE moves IN ACCESS EXCLUSIVE MODE"))
                # (let go in any case: without the limits the move waits for it, and is made then)
                letting_go = threading.Timer(8, held.rollback)
                letting_go.start()
                try:
                    began = time.monotonic()
                    refusal = mover.move(move)
                    waited = time.monotonic() - began
                finally:  # (the lock goes as the connection closes, below)
                    letting_go.cancel()
                    letting_go.join()
            again = mover.move(move)  # sent again, once the lock is gone
            close_all()  # (before the asserts: seats left open hold the client's end up)
        assert refusal["key"] == "web_store_failed" and waited < 5, (refusal, waited)
        assert again["moves"] == 1 and [t.moves for t in store.load_all()] == [[move]]
    finally:
        operator.dispose()
        store.close()


def test_a_players_move_the_database_refuses_again_and_again_is_logged_once_and_its_success(client, monkeypatch,
                                                                                             caplog):
    """Each try of a player's move that the database refused was logged again: a full disk and a
    player trying every few seconds filled the operator's log. Its first failure is logged, and its
    success after it, as a bot's are."""
    store = client.app.state.server.store
    code, ann, bob = two_people(client)
    mover = (ann, bob)[ann.state["current"]]
    move, at = mover.state["legal"][0]["move"], mover.state["moves"]
    with monkeypatch.context() as failing:
        failing.setattr(store, "add_move", _busy)
        for _ in range(3):
            assert mover.move(move)["key"] == "web_store_failed"
    assert mover.move(move)["moves"] == at + 1
    told = [r.getMessage() for r in caplog.records if f"move {at} " in r.getMessage()]
    assert told == [f"table {code}: move {at} not stored: (builtins.Exception) database is locked",
                    f"table {code}: move {at} stored after 4 tries"]
    ann.close()
    bob.close()


@pytest.mark.parametrize("refuse", [_busy, _read_only])
def test_a_bots_move_the_database_refuses_is_stored_on_a_later_try(client, monkeypatch, caplog, refuse):
    """The bot's task ended with the failed write, and the table waited for ever on the bot. Its
    failure is logged once, and its success after it (a full disk logged it once a second a table);
    a database turned read-only for a while too."""

    store = client.app.state.server.store
    stored, failed = store.add_move, []

    def flaky(code, number, move, by_bot):
        if by_bot and len(failed) < 2:
            failed.append(number)
            refuse()
        stored(code, number, move, by_bot)

    monkeypatch.setattr(store, "add_move", flaky)
    monkeypatch.setattr(lobby, "STORE_RETRY", 0.05)
    made = create(client, players=2, bots={"1": "random"})
    ann = Seat(client, made["code"], made["secret"])
    rng = random.Random(1)
    while ann.state["current"] == 0:  # Ann to move (her move may end a round that she then starts)
        ann.random_move(rng)
    bots_move = ann.state["moves"]
    deadline = time.monotonic() + 10
    while len(next(t for t in store.load_all() if t.code == made["code"]).moves) == bots_move:
        assert time.monotonic() < deadline, f"the bot's move was not stored; tried {failed}"
        time.sleep(0.05)
    assert failed == [bots_move, bots_move]  # refused twice, stored on the third try
    def told() -> list[str]:
        return [r.getMessage() for r in caplog.records if f"move {bots_move} " in r.getMessage()]

    until(lambda: len(told()) == 2)  # (the success is logged just after the move is stored)
    assert told()[1:] == [f"table {made['code']}: move {bots_move} stored after 3 tries"]
    assert told()[0].startswith(f"table {made['code']}: move {bots_move} not stored: ") and told()[0].endswith(
        "database is locked" if refuse is _busy else "cannot execute INSERT in a read-only transaction")


def test_text_in_the_database_that_is_not_utf8_does_not_stop_the_tables_loading(tmp_path):
    """Another program wrote a name that is not UTF-8 (in SQLite: PostgreSQL checks its text's
    encoding itself): reading every table failed, and the server would not start."""
    from sqlalchemy import text

    database = f"sqlite:///{tmp_path / 'web.db'}"
    with TestClient(create_app(Store(database), bot_delay=0)) as client:
        made = create(client, players=2)
    store = Store(database)
    with store.engine.begin() as db:
        db.execute(text("UPDATE seats SET name = CAST(X'416eff' AS TEXT) WHERE code = :code"), {"code": made["code"]})
    server = create_app(Store(database), bot_delay=0).state.server
    assert asyncio.run(server.room(made["code"])).table.names[0] == "An\ufffd" and not server.left_out
    store.close()


def test_two_people_play_a_whole_round(client):
    _code, ann, bob = two_people(client, target=2)
    seats = {0: ann, 1: bob}
    assert ann.state["seat"] == 0 and bob.state["seat"] == 1
    rng = random.Random(3)
    while ann.state["round"] == 1:
        mover = seats[ann.state["current"]]
        other = seats[1 - ann.state["current"]]
        mine = mover.random_move(rng)
        theirs = other.receive()
        assert mine["type"] == theirs["type"] == "state" and mine["moves"] == theirs["moves"]
        for state in (mine, theirs):  # two cards for the seat to move, one (or none, if out) otherwise
            to_move = state["legal"] != []
            assert len(state["hand"]) == 2 if to_move else len(state["hand"]) <= 1
    assert ann.state["previous"]["winners"] == bob.state["previous"]["winners"]
    winner = ann.state["previous"]["winners"][0]
    assert ann.state["tokens"][winner] == 1
    ann.close()
    bob.close()


def test_refusals_go_to_the_sender_alone_and_change_nothing(client):
    _code, ann, bob = two_people(client)
    first = ann.state["current"]
    mover, waiter = (ann, bob) if first == 0 else (bob, ann)
    moves = mover.state["moves"]
    assert waiter.move(waiter.state["hand"][0]["card"])["key"] == "web_not_your_turn"
    assert mover.move(mover.state["legal"][0]["move"], at=moves + 3)["key"] == "web_stale"
    dragon = mover.move("dragon 1")
    assert dragon["key"] == "web_bad_move"
    assert "guard" in dragon["message"] and "spy" not in dragon["message"]  # this edition's cards alone
    held = {c["card"] for c in mover.state["hand"]}
    missing = next(c for c in ("guard", "priest", "baron", "handmaid", "prince", "king", "countess", "princess")
                   if c not in held)
    refusal = mover.move(missing)
    assert refusal["key"] == "web_illegal" and "you do not hold the" in refusal["message"]
    for bad, key in [
        ("not json", "web_not_json"), ("[1, 2]", "web_not_json"), ({"type": "dance"}, "web_bad_type"),
        ({"type": "move", "move": "guard 1 priest"}, "web_bad_field"),
        ({"type": "move", "move": 7, "at": 0}, "web_bad_field"),
        ({"type": "move", "move": "handmaid", "at": True}, "web_bad_field"),
        ({"type": "move", "move": "handmaid", "at": 0, "seat": 1}, "web_unknown_field"),
        ({"type": "lang", "lang": "fr"}, "web_bad_language"),
        ({"type": "lang", "lang": 7}, "web_bad_field"),
        ({"type": "hello", "secret": None, "lang": "en"}, "web_hello_twice"),
        ({"type": "ping", "at": 0}, "web_unknown_field"),
        ("x" * 3000, "web_too_long"),
        ('{"type": "move", "\\ud800": 1}', "web_unknown_field"),  # a lone surrogate, quoted back as "?"
        ('{"type": "move", "move": "guard 1 \\udfff", "at": 0}', "web_bad_move"),
        ('{"type": "move", "move": "handmaid", "move": "guard 1 priest", "at": 0}', "web_message_key_twice"),
    ]:
        assert mover.send(bad) is None and mover.receive()["key"] == key
    assert mover.next_after_a_ping() == {"type": "pong"}  # the page's check that the connection is alive: answered, nothing else
    mover.socket.send_bytes(b"\x01\x02\x03")  # the page sends text; a binary message is refused
    assert mover.receive()["key"] == "web_not_json"
    mover.send({"type": "lang", "lang": "fr"})
    assert mover.receive()["message"] == "The language 'fr' is not one of ours: choose en or nl."
    mover.send("x" * 3000)
    assert mover.receive()["message"] == "Message too long (at most 2\u2009000 characters)."  # (grouped, as elsewhere)
    # nothing changed, and the other seat heard none of it: its next message is the next state
    played = mover.move(mover.state["legal"][0]["move"])
    assert played["type"] == "state" and played["moves"] == moves + 1
    heard = waiter.receive()
    assert heard["type"] == "state" and heard["moves"] == moves + 1
    ann.close()
    bob.close()


def test_refusals_in_dutch(client):
    _code, ann, bob = two_people(client)
    waiter = bob if ann.state["current"] == 0 else ann
    waiter.send({"type": "lang", "lang": "nl"})
    assert waiter.receive()["lang"] == "nl"
    assert waiter.move("guard 1 priest")["message"] == "Je bent niet aan de beurt."
    # the card words the refusals list are words the table takes (as the terminal does)
    mover = ann if waiter is bob else bob
    mover.send({"type": "lang", "lang": "nl"})
    assert mover.receive()["lang"] == "nl"
    unknown = mover.move("draak 1")["message"]
    assert "onbekende kaart 'draak'" in unknown and "wachter" in unknown
    word = {"guard": "wachter", "priest": "priester", "baron": "baron", "handmaid": "kamermeisje",
            "prince": "prins", "king": "koning", "countess": "gravin", "princess": "prinses"}
    english = mover.state["legal"][0]["move"].split()
    played = mover.move(" ".join(word.get(w, w) for w in english))
    assert played["type"] == "state" and played["moves"] == 1, played
    ann.close()
    bob.close()


def test_a_refusal_shown_is_said_again_in_the_language_chosen(client):
    """A move refused, then the language switched: the page's alert went blank (the state it is sent
    again puts the alert away), where a refusal of a record's fields was worded anew."""
    _code, ann, bob = two_people(client)
    mover = ann if ann.state["current"] == 0 else bob
    held = {c["card"] for c in mover.state["hand"]}
    missing = next(c for c in ("princess", "countess", "king", "prince", "handmaid") if c not in held)
    assert mover.move(missing)["message"].startswith("Not allowed: you do not hold the")
    mover.send({"type": "lang", "lang": "nl"})
    assert mover.receive()["lang"] == "nl"
    again = mover.receive()
    assert again["key"] == "web_illegal" and again["message"].startswith("Niet toegestaan: je hebt de")
    assert again["again"] is True  # (the page keeps it put away, where it was)
    mover.move(mover.state["legal"][0]["move"])  # the table moved on: the refusal is no longer shown
    mover.send({"type": "lang", "lang": "en"})
    assert mover.receive()["lang"] == "en"
    assert mover.next_after_a_ping() == {"type": "pong"}  # (no refusal between)
    ann.close()
    bob.close()


def test_a_refusal_is_said_again_only_while_it_stands_and_only_where_it_can_be_worded_anew(client):
    """Re-said after a language switch: "the match starts when every seat is taken" to a table since
    filled, and a refusal with words of its own in it in two languages ("Bot 1 (random) is een bot")."""
    made = create(client, players=2)
    ann = Seat(client, made["code"], made["secret"])
    assert ann.move("handmaid")["key"] == "web_not_started"
    joined = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).json()
    assert ann.receive()["type"] == "state"  # (Bob came: the page puts the refusal away)
    ann.send({"type": "lang", "lang": "nl"})
    assert ann.receive()["lang"] == "nl"
    assert ann.next_after_a_ping() == {"type": "pong"}  # (no refusal between)
    bob = Seat(client, made["code"], joined["secret"])
    ann.send("x" * 3000)  # a refusal with words put in ("at most 2 000 characters") is not said again
    assert ann.receive()["key"] == "web_too_long"
    ann.send({"type": "lang", "lang": "en"})
    assert ann.receive()["lang"] == "en"
    assert ann.next_after_a_ping() == {"type": "pong"}
    ann.close()
    bob.close()


def test_a_wrong_credential_is_refused_and_a_spectator_sees_only_public_things(client):
    code, ann, bob = two_people(client)
    for secret in ('"' + "guess" * 9 + '"', '"\\ud800"'):  # a lone surrogate could not be hashed
        with client.websocket_connect(f"/ws/{code}") as socket:
            socket.send_text('{"type": "hello", "lang": "en", "secret": ' + secret + "}")
            assert socket.receive_json()["key"] == "web_bad_secret"
    watcher = Seat(client, code, None)
    assert watcher.state["seat"] is None and watcher.state["hand"] == [] and watcher.state["legal"] == []
    assert watcher.state["known"] == {}
    assert watcher.move("handmaid")["key"] == "web_spectator"
    mover = ann if ann.state["current"] == 0 else bob
    mover.random_move(random.Random(1))
    assert watcher.receive()["moves"] == 1  # spectators follow the game
    for seat in (ann, bob, watcher):
        seat.close()


def test_a_faulty_hello_is_refused_in_the_language_it_asks_for(client):
    """A hello's fields were checked before its language was read, so every fault in it was told in
    English, even to a client that asked for Dutch."""
    code, ann, bob = two_people(client)
    for hello, key, dutch in (
        ('{"type": "hello", "secret": 5, "lang": "nl"}', "web_bad_field", "Het veld 'secret' ontbreekt"),
        ('{"type": "hello", "secret": null, "lang": "nl", "x": 1}', "web_unknown_field", "Onbekend veld 'x'"),
        ('{"type": "hello", "secret": null, "secret": null, "lang": "nl"}', "web_message_key_twice", "twee keer"),
        ('{"type": "lang", "lang": "nl"}', "web_hello_first", "Zeg eerst hallo"),
        # a first message that is no hello is told so, whatever its fields (it was told of its "lang")
        ('{"type": "move", "move": "guard 1 priest", "at": 0, "lang": "nl"}', "web_hello_first", "Zeg eerst hallo"),
        ('{"type": "hints", "lang": "nl"}', "web_hello_first", "Zeg eerst hallo"),
        ('{"type": "hello", "secret": 5, "lang": "xx"}', "web_bad_field", "The field 'secret' is missing"),
        ('{"type": "hello", "secret": 5, "lang": ["nl"]}', "web_bad_field", "The field 'secret' is missing"),
    ):
        with client.websocket_connect(f"/ws/{code}") as socket:
            socket.send_text(hello)
            told = socket.receive_json()
            assert told["key"] == key and dutch in told["message"], (hello, told)
    for seat in (ann, bob):
        seat.close()


def test_a_connection_that_never_says_hello_is_told_why_it_is_closed(client, monkeypatch):
    """It was dropped after 30 s with no message and no close frame, unlike every other refusal."""
    from starlette.websockets import WebSocketDisconnect


    monkeypatch.setattr(web_app, "HELLO_WAIT", 0.2)
    code, ann, bob = two_people(client)
    with client.websocket_connect(f"/ws/{code}") as socket:
        told = socket.receive_json()
        assert told["key"] == "web_hello_late"
        assert told["message"] == "No hello came within 0.2 seconds: the connection is closed."
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4000
    for seat in (ann, bob):
        seat.close()


def test_an_address_that_is_not_there_is_told_in_the_page_language(client):
    """FastAPI's own answers were English only ({"detail": "Not Found"})."""
    for lang, nothing, method, language in (
        ("en", "There is nothing at this address.", "This address takes no POST requests.",
         "Unknown language 'xx': choose en or nl."),
        ("nl", "Op dit adres is niets te vinden.", "Dit adres neemt geen POST-verzoeken aan.",
         "Onbekende taal 'xx': kies en of nl."),
    ):
        for path, status, says in ((f"/api/nothing?lang={lang}", 404, nothing),
                                   (f"/static/secret.py?lang={lang}", 404, nothing),
                                   (f"/api/words/xx?lang={lang}", 404, language)):
            answer = client.get(path)
            assert (answer.status_code, answer.json()["message"]) == (status, says)
        answer = client.post(f"/api/words/en?lang={lang}")
        assert (answer.status_code, answer.json()["message"]) == (405, method)
        assert answer.headers["allow"] == "GET"


def play_to_the_end(seat: Seat, rng: random.Random) -> None:
    """Random moves for ``seat`` whenever it is to move, until the match is over."""
    while not seat.state["match_winners"]:
        if seat.state["legal"]:
            seat.random_move(rng)
        else:
            seat.receive()


def test_a_bot_table_plays_to_the_end(client):
    made = create(client, players=3, bots={"1": "beginner", "2": "random"}, target=2)
    ann = Seat(client, made["code"], made["secret"])
    play_to_the_end(ann, random.Random(5))
    assert max(ann.state["tokens"]) >= 2
    ann.close()


def test_a_tables_bots_think_in_the_turn_of_the_address_whose_player_set_them_going(client, monkeypatch):
    """One address's twenty tables of experts held up every other table's bots (web/fair.py): the
    bots' searches take turns by the client address of the player who came or moved last there."""
    server = client.app.state.server
    keys: list[object] = []
    real = server.thinkers.run

    async def noted(key, *args):
        keys.append(key)
        return await real(key, *args)

    monkeypatch.setattr(server.thinkers, "run", noted)
    made = create(client, players=3, bots={"1": "beginner", "2": "random"}, target=1)
    ann = Seat(client, made["code"], made["secret"])
    play_to_the_end(ann, random.Random(5))
    assert keys and set(keys) == {"testclient"}  # (TestClient's address: the table's code stood for none)
    ann.close()


def test_at_the_matchs_end_the_last_round_is_the_one_recalled(client):
    """The panel of the last round shows, at the match's end, the round that ended it (before, it
    showed the round before that), with every line of its end: the hands shown, the deck."""
    made = create(client, players=3, bots={"1": "beginner", "2": "random"}, target=2)
    ann = Seat(client, made["code"], made["secret"])
    play_to_the_end(ann, random.Random(5))
    last = ann.state["previous"]
    assert set(last["winners"]) & set(ann.state["match_winners"])  # (classic: no Spy's token)
    assert last["log"] == ann.state["log"] and "the round." in last["log"][-1]
    ann.close()


def test_no_moves_and_no_hints_until_every_seat_is_taken(client):
    """While a seat is free the game has not begun: the seat to move is offered no moves (the page
    offered its cards), and hints against the empty seat are refused."""
    made = create(client, players=2)
    ann = Seat(client, made["code"], made["secret"])
    assert ann.state["free_seats"] == [1] and ann.state["legal"] == [] and ann.state["blocked"] == {}
    ann.send({"type": "hints"})
    assert ann.receive()["key"] == "web_not_started"
    client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"})
    started = ann.receive()
    assert started["free_seats"] == [] and (started["legal"] != []) == (started["current"] == 0)
    ann.close()


def test_a_reconnect_returns_the_player_to_the_seat(client):
    code, ann, bob = two_people(client)
    hand = bob.state["hand"]
    bob.close()
    stored = client.app.state.server.rooms[code].table.secret_hashes[1]
    assert bob.secret not in stored  # the server keeps only a hash; the browser keeps the secret
    again = Seat(client, code, bob.secret)
    assert again.state["seat"] == 1 and again.state["hand"] == hand
    again.close()
    ann.close()


def test_the_match_survives_a_restart_of_the_server(database):
    rng = random.Random(9)
    with TestClient(create_app(Store(database), bot_delay=0)) as client:
        made = create(client, players=2, bots={"1": "beginner"})
        ann = Seat(client, made["code"], made["secret"])
        for _ in range(3):
            while not ann.state["legal"]:
                ann.receive()
            ann.random_move(rng)
        while not ann.state["legal"]:
            ann.receive()
        before = ann.state
        ann.close()
    with TestClient(create_app(Store(database), bot_delay=0)) as client:  # a new process, same database
        ann = Seat(client, made["code"], made["secret"])
        assert ann.state == before
        ann.random_move(rng)
        assert ann.state["moves"] == before["moves"] + 1
        ann.close()


def test_an_old_table_is_read_back_only_when_asked_for(database):
    """A server starting again read back every table ever made, and kept them all."""
    rng = random.Random(9)
    with TestClient(create_app(Store(database), bot_delay=0)) as client:
        made = create(client, players=2, bots={"1": "beginner"})
        ann = Seat(client, made["code"], made["secret"])
        ann.random_move(rng)
        while not ann.state["legal"]:
            ann.receive()
        before = ann.state
        ann.close()
        fresh = create(client, players=3)
    store = Store(database)
    with store.engine.begin() as db:  # made two days ago
        db.execute(update(store_tables).where(store_tables.c.code == made["code"]).values(created=time.time() - 2 * 86400))
    with TestClient(create_app(store, bot_delay=0)) as client:
        server = client.app.state.server
        assert set(server.rooms) == {fresh["code"]}  # only the table made lately is at hand
        assert client.get("/api/tables").json() == []  # (listed once a player comes back to it)
        ann = Seat(client, made["code"].lower(), made["secret"])  # asked for, it is read back
        assert ann.state == before and made["code"] in server.rooms
        ann.random_move(rng)
        assert ann.state["moves"] == before["moves"] + 1
        ann.close()
        assert server.missed.count("testclient") == 0  # (no miss)
    store.close()


def test_a_server_starting_again_brings_back_the_finished_table_of_a_recent_rematch(database):
    store = Store(database)
    with TestClient(create_app(store, bot_delay=0)) as client:
        code, _ann, bob = finished_two_people_match(client)
        new = client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret}).json()["code"]
        old = create(client, players=2)["code"]
        close_all()
    with store.engine.begin() as db:  # the finished match and another table made two days ago
        db.execute(update(store_tables).where(store_tables.c.code.in_([code, old])).values(created=time.time() - 2 * 86400))
    with TestClient(create_app(store, bot_delay=0)) as client:
        server = client.app.state.server
        assert set(server.rooms) == {code, new}
        assert server.rooms[new].origin is server.rooms[code] and server.rooms[code].rematch == new
        assert client.post(f"/api/tables/{new}/join", json={"name": "Ann"}).json()["key"] == "web_name_kept"
    store.close()


def test_a_table_nobody_is_at_is_put_away_and_read_back_when_asked_for(client, monkeypatch):
    code, ann, bob = finished_two_people_match(client)
    ann_secret, bob_secret = ann.secret, bob.secret
    server = client.app.state.server
    seen = client.get(f"/api/tables/{code}/record").json()
    monkeypatch.setattr(lobby, "PUT_AWAY_AFTER", 0)
    assert server.put_away() == []  # Ann and Bob are still there
    playing = create(client, players=2, bots={"1": "beginner"})
    ann.close()
    bob.close()
    until(lambda: not server.rooms[code].connections)  # (noted once the sockets have closed)
    watcher = Seat(client, playing["code"], None)  # a watcher keeps a table at hand too
    assert server.put_away() == [code] and code not in server.rooms
    watcher.close()
    assert client.get(f"/api/tables/{code}/record").json() == seen  # read back as it was
    assert code in server.rooms
    # and a rematch asked for at a table read back is linked to it: Ann's seat there is kept for her
    ann = Seat(client, code, ann_secret)
    again = client.post(f"/api/tables/{code}/rematch", json={"secret": bob_secret}).json()
    assert again["seat"] == 1
    new = again["code"]
    assert Seat(client, new, None).state["open_seats"] == []
    server.rooms[code].players_away_since = server.rooms[new].players_away_since = time.monotonic() - 1
    ann.close()
    until(lambda: not server.rooms[code].connections)
    close_all()
    until(lambda: not server.rooms[new].connections)
    assert sorted(server.put_away()) == sorted([code, new, playing["code"]])
    ann = Seat(client, code, ann_secret)  # Ann back at the finished table, read back: her seat is kept
    watcher = Seat(client, new, None)  # (read back too, and linked to it)
    assert watcher.state["open_seats"] == [] and watcher.state["free_seats"] == [0]
    assert client.post(f"/api/tables/{code}/rematch", json={"secret": ann_secret}).json()["seat"] == 0


def test_the_server_puts_tables_away_by_itself(database, monkeypatch):
    monkeypatch.setattr(lobby, "PUT_AWAY_AFTER", 0)
    monkeypatch.setattr(web_app, "PUT_AWAY_EVERY", 0.02)
    with TestClient(create_app(Store(database), bot_delay=0)) as client:
        made = create(client, players=2)  # and its creator never comes
        server = client.app.state.server
        until(lambda: made["code"] not in server.rooms)
        assert made["code"] not in server.rooms
        assert client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).json()["seat"] == 1


def test_what_a_table_waits_for_or_is_busy_with_keeps_it_at_hand(client, monkeypatch):
    monkeypatch.setattr(lobby, "PUT_AWAY_AFTER", 0)
    server = client.app.state.server
    monkeypatch.setattr(server, "bot_delay", 600)
    waiting = create(client, players=2, bots={"1": "beginner"})
    ann = Seat(client, waiting["code"], waiting["secret"])
    rng = random.Random(4)
    while ann.state["current"] == 0:
        ann.random_move(rng)
    ann.close()  # Ann away, the bot's move due
    busy = create(client, players=2)
    room = server.rooms[busy["code"]]
    asyncio.run(room.lock.acquire())  # (a join or a rematch under way)
    until(lambda: not server.rooms[waiting["code"]].connections)
    assert server.rooms[waiting["code"]].waiting is not None and not server.rooms[waiting["code"]].waiting.done()
    assert server.put_away() == []
    room.lock.release()
    assert server.put_away() == [busy["code"]]


def test_a_join_that_waited_for_a_table_put_away_meanwhile_joins_the_table_served(database, monkeypatch):
    """A join waiting for a table's lock went on with the table object put away meanwhile: its seat
    was stored, but the table served (read back) knew nothing of it."""
    monkeypatch.setattr(lobby, "PUT_AWAY_AFTER", 0)

    async def scenario():
        store = Store(database)
        server = Server(store, bot_delay=0)
        made = await server.create(NewTable(name="Ann", players=3))
        old = server.rooms[made["code"]]
        await old.lock.acquire()
        joined: list[lobby.Room] = []

        async def join() -> None:
            async with server.holding(made["code"]) as room:
                await lobby.seated(room.table, room.table.seating("Bob", among=room.open_seats()))
                joined.append(room)

        task = asyncio.ensure_future(join())
        await asyncio.sleep(0.05)  # waiting for the lock
        old.lock.release()
        assert server.put_away() == [made["code"]]  # (as if in the moment before the join woke)
        await asyncio.wait_for(task, 5)
        assert joined[0] is server.rooms[made["code"]] and joined[0] is not old
        assert joined[0].table.names == {0: "Ann", 1: "Bob"}
        store.close()

    asyncio.run(scenario())


def test_past_the_misses_a_player_still_opens_their_own_table_put_away(client, monkeypatch):
    made = create(client, players=2)
    server = client.app.state.server
    del server.rooms[made["code"]]  # put away
    monkeypatch.setattr(lobby, "MISSES", 0)  # this address has named too many codes with no table
    refused = Seat(client, made["code"], "a guess")
    assert refused.state["key"] == "web_too_many_misses" and made["code"] not in server.rooms  # not read back
    assert Seat(client, made["code"], made["secret"]).state["type"] == "state"


def test_a_finished_table_read_back_while_its_rematch_is_served_keeps_its_players_seats_there(client, monkeypatch):
    code, ann, bob = finished_two_people_match(client)
    ann_secret, bob_secret = ann.secret, bob.secret
    server = client.app.state.server
    new = client.post(f"/api/tables/{code}/rematch", json={"secret": bob_secret}).json()["code"]
    Seat(client, new, None)  # keeps the rematch table at hand
    ann.close()
    bob.close()
    until(lambda: not server.rooms[code].connections)
    monkeypatch.setattr(lobby, "PUT_AWAY_AFTER", 0)
    assert server.put_away() == [code]
    ann = Seat(client, code, ann_secret)  # read back: at the finished table again, her seat is kept
    assert server.rooms[new].origin is server.rooms[code]
    assert Seat(client, new, None).state["open_seats"] == []
    assert client.post(f"/api/tables/{new}/join", json={"name": "Ann"}).json()["key"] == "web_name_kept"


def test_a_rematch_table_read_back_brings_back_its_finished_table(client, monkeypatch):
    code, _ann, bob = finished_two_people_match(client)
    server = client.app.state.server
    new = client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret}).json()["code"]
    close_all()
    until(lambda: not server.rooms[code].connections and not server.rooms[new].connections)
    monkeypatch.setattr(lobby, "PUT_AWAY_AFTER", 0)
    assert sorted(server.put_away()) == sorted([code, new])
    refused = client.post(f"/api/tables/{new}/join", json={"name": "Ann"}).json()
    assert refused["key"] == "web_name_kept"  # the last match's Ann has not come on: her name is kept for her
    assert server.rooms[new].origin is server.rooms[code]


def test_a_new_tables_code_is_none_stored(client, monkeypatch):
    made = create(client, players=2)
    server = client.app.state.server
    del server.rooms[made["code"]]  # put away
    offered = iter([made["code"], "ZZZZZZ"])
    monkeypatch.setattr(lobby, "new_code", lambda taken: next(offered))
    assert create(client, players=2)["code"] == "ZZZZZZ"


def test_a_table_whose_stored_rows_are_damaged_is_left_out_and_the_others_served(database, monkeypatch, capsys):
    """Rows edited outside the app (by hand, by another program) stopped the whole server with a
    traceback: now that table alone is left out, said in one line, and kept as it is."""

    from sqlalchemy import text

    from loveletter.web import serve as serving

    with TestClient(create_app(Store(database), bot_delay=0)) as client:
        good, settings_gone, move_illegal, no_edition, no_seed, bot_unknown, stand_in_unknown, more_players = (
            create(client, players=2)["code"] for _ in range(8))
    store = Store(database)
    store.add_move(move_illegal, 0, "spy", False)  # (refused whatever the deal)
    with store.engine.begin() as db:
        db.execute(text("UPDATE tables SET settings = '{' WHERE code = :code"), {"code": settings_gone})
        for code, change in ((no_edition, {"edition": "x"}), (no_seed, {"seed": None}),
                             (bot_unknown, {"seats": [None, "godlike"]}),
                             # (no bot timeout: the level alone was left unchecked)
                             (stand_in_unknown, {"stand_in": "grandmaster"}),
                             # (told as the seats' fault, "the field 'seats' holds the wrong kind of value")
                             (more_players, {"players": 9})):
            settings = json.loads(db.execute(text("SELECT settings FROM tables WHERE code = :code"),
                                             {"code": code}).scalar_one())
            db.execute(text("UPDATE tables SET settings = :settings WHERE code = :code"),
                       {"code": code, "settings": json.dumps({**settings, **change})})
    server = create_app(Store(database), bot_delay=0).state.server
    assert set(server.rooms) == {good}
    assert str(server.left_out[settings_gone]) == "its settings are not JSON (line 1, column 2)"
    assert str(server.left_out[move_illegal]) == "the Spy is not a card of the classic edition (R1)"
    kept = {t.code: t for t in Store(database).load_all()}  # nothing deleted or mended
    assert kept[move_illegal].moves == ["spy"] and kept[settings_gone].damage is not None
    # the command says so, one line each, before it says the server is open
    monkeypatch.setattr(serving, "run_server", lambda app, listeners, **_: None)
    assert serving.serve("127.0.0.1", free_port(), database, 0, None, Translator("nl")) == 0
    said = capsys.readouterr()
    # each reason in the operator's language too
    reasons = {settings_gone: "de instellingen zijn geen JSON (regel 1, kolom 2)",
               move_illegal: "de Spion is geen kaart van de klassieke editie (R1)",
               # (a refusal's sentence within the line's own: "(Onbekende editie 'x': ... 2019.);" read oddly)
               no_edition: "onbekende editie 'x': kies classic (de klassieke editie) of 2019",
               no_seed: "het veld 'seed' van de instellingen heeft een verkeerd soort waarde",
               bot_unknown: "onbekend botniveau 'godlike': kies random, beginner of expert",
               stand_in_unknown: "onbekend niveau 'grandmaster' voor de bot die speelt voor wie weg is: kies random,"
                                 " beginner of expert",
               more_players: "de instellingen noemen 2 stoelen voor 9 spelers"}
    assert sorted(said.err.splitlines()) == sorted(
        f"loveletter serve: tafel {code} wordt overgeslagen: de opgeslagen rijen zijn niet terug te lezen"
        f" ({reason}); ze blijven ongewijzigd in de database" for code, reason in reasons.items())
    assert said.out.startswith("Love Letter draait")
    store.close()


def test_a_table_left_out_is_read_again_when_asked_for_once_its_rows_may_be_mended(database, monkeypatch):
    """A table left out stayed out until the server started again, its rows mended or not. Now it is
    read again when asked for, once it has been out for LEFT_OUT_FOR seconds (not at every ask: a
    damaged table is not read, and its line logged, again and again)."""
    from sqlalchemy import text

    from loveletter.web.table import Refused

    with TestClient(create_app(Store(database), bot_delay=0)) as client:
        made = create(client, players=2)
    code = made["code"]
    store = Store(database)
    with store.engine.begin() as db:
        kept = db.execute(text("SELECT settings FROM tables WHERE code = :code"), {"code": code}).scalar_one()
        db.execute(text("UPDATE tables SET settings = '{' WHERE code = :code"), {"code": code})
    server = create_app(Store(database), bot_delay=0).state.server
    assert code in server.left_out and code not in server.rooms
    # its own player is told it cannot be read ("There is no table with this code" was said); anyone
    # else learns nothing of it
    for secret, key in ((made["secret"], "web_table_unreadable"), (None, "web_no_table"), ("guess", "web_no_table")):
        with pytest.raises(Refused) as told:
            asyncio.run(server.room(code, "10.0.0.1", secret))
        assert told.value.key == key
    with store.engine.begin() as db:  # mended by hand
        db.execute(text("UPDATE tables SET settings = :settings WHERE code = :code"), {"code": code, "settings": kept})
    reads = []
    loading = server.store.load
    monkeypatch.setattr(server.store, "load", lambda *args: reads.append(args) or loading(*args))
    with pytest.raises(Refused):
        asyncio.run(server.room(code))
    assert reads == [] and code in server.left_out  # left out lately: not read again yet
    monkeypatch.setattr(lobby, "LEFT_OUT_FOR", 0)
    assert asyncio.run(server.room(code)).table.code == code and code not in server.left_out
    store.close()


def test_a_rematch_whose_table_is_left_out_is_said_to_be_unreadable(client):
    """A rematch table whose stored rows could not be read at a restart: a player of the finished
    table asking to go on to it was told "There is no table with this code"."""
    code, secret = finished_bot_match(client)
    server = client.app.state.server
    rematch = client.post(f"/api/tables/{code}/rematch", json={"secret": secret}).json()["code"]
    # as if the rematch table had been left out at a restart, before Ann went on to it
    server.rooms.pop(rematch)
    server.left_out[rematch], server._left_out_at[rematch] = ValueError("damaged"), time.monotonic()
    server.rooms[code].rematched.clear()
    told = client.post(f"/api/tables/{code}/rematch?lang=nl", json={"secret": secret})
    assert told.status_code == 400 and told.json()["key"] == "web_table_unreadable"
    assert told.json()["message"].startswith("Deze tafel kan nu niet uit de database gelezen worden")


def test_a_bot_stands_in_for_someone_away_after_the_timeout(client):
    made = create(client, players=2, bot_timeout=1)
    client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"})  # Bob never connects
    ann = Seat(client, made["code"], made["secret"])
    rng = random.Random(2)
    while ann.state["current"] == 0:  # (a move of Ann's that wins the round lets her start the next)
        ann.random_move(rng)
    moves = ann.state["moves"]
    assert ann.state["current"] == 1
    played = ann.receive()  # after about a second, a bot moves for Bob
    assert played["type"] == "state" and played["moves"] == moves + 1
    assert client.app.state.server.rooms[made["code"]].table.moves[moves]  # stored like any move
    # the log says who played it: Bob's move only, not Ann's (at the round's end, in its own log)
    lines = [line for part in (played["log"], (played["previous"] or {}).get("log", [])) for line in part]
    marked = [line for line in lines if "(a bot played for Bob)" in line]
    assert len(marked) == 1 and marked[0].startswith("Bob ")
    assert type(client.app.state.server.rooms[made["code"]].table.bots[-2]).__name__ == "RuleBasedBot"  # (by default)


def test_no_bot_stands_in_at_a_table_no_other_player_is_at(client):
    """Stand-ins played for a creator who never came, whole matches, nobody there: twenty such tables
    (one address's most) with expert bots made the bots of other people's tables take 16-19 s a move.
    Now a bot plays for someone away only while another player is at the table."""
    server = client.app.state.server
    made = create(client, players=2, bot_timeout=1)
    bob_seat = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).json()  # neither comes
    room = server.rooms[made["code"]]
    assert room.table.started and room.waiting is None
    watcher = Seat(client, made["code"], None)  # a spectator is no player waiting
    assert room.waiting is None
    watcher.close()
    bob = Seat(client, made["code"], bob_seat["secret"])  # Bob comes: Ann's turn is played for her
    rng = random.Random(6)
    while bob.state["current"] == 1:
        bob.random_move(rng)
    moves = bob.state["moves"]
    assert room.plan is not None and room.plan[0] == "stand-in"
    assert bob.receive()["moves"] == moves + 1
    bob.close()


@pytest.mark.parametrize(("level", "kind"), [("random", "RandomBot"), ("expert", "ExpertBot")])
def test_the_stand_ins_level_is_the_tables_and_is_kept(client, database, level, kind):
    """The table's creator chooses the level of the bot that plays for someone away; a server started
    again on the same database, and a rematch, keep it."""
    from loveletter.web.table import GameTable

    made = create(client, players=2, bot_timeout=1, stand_in=level)
    client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"})  # Bob never connects
    room = client.app.state.server.rooms[made["code"]]
    ann = Seat(client, made["code"], made["secret"])
    rng = random.Random(2)
    while ann.state["current"] == 0:
        ann.random_move(rng)
    moves = ann.state["moves"]
    assert ann.receive()["moves"] == moves + 1  # the stand-in moved for Bob
    ann.close()
    assert type(room.table.bots[-2]).__name__ == kind
    again = GameTable.load(next(s for s in Store(database).load_all() if s.code == made["code"]), Store(database))
    assert again.settings.stand_in == level
    for timeout in (600, None):  # (with no time too: it plays when asked, and went back to a beginner)
        code, secret = finished_bot_match(client, bot_timeout=timeout, stand_in=level)
        rematch = client.post(f"/api/tables/{code}/rematch", json={"secret": secret}).json()
        assert client.app.state.server.rooms[rematch["code"]].table.settings.stand_in == level, timeout


def test_the_bots_seeds_are_as_secret_as_the_deal(client, monkeypatch):
    """R7: a random bot's choices, with what it played, tell its hand to whoever can work out its
    seed. A stand-in was seeded by its seat number, and a table's bots by 31 bits (few enough to try
    them all against the moves seen): their seeds now come from the match's secret seed, as wide."""
    from loveletter.web import table as web_table

    seeds: list[tuple[str, int]] = []
    making = web_table.make_bot

    def make_bot(level, seed, budget):
        seeds.append((level, seed))
        return making(level, seed, budget)

    monkeypatch.setattr(web_table, "make_bot", make_bot)
    for _ in range(4):
        made = create(client, players=3, bots={"1": "random"}, bot_timeout=600, stand_in="random")
        table = client.app.state.server.rooms[made["code"]].table
        join(table, "Bob")  # and away
        while -1 - 2 not in table.bots:  # until a stand-in has moved for Bob
            mover = table.match.current
            choice = table.bot_choice(mover, table.view_for(mover), len(table.moves))  # Ann's moves too: a stand-in's
            table.play(mover, choice.notation(), len(table.moves))
    # the table's random bot, a stand-in for Ann, and one for Bob, at each table
    assert [level for level, _ in seeds] == ["random"] * 12
    assert len({seed for _, seed in seeds}) == 12 and min(seed for _, seed in seeds) > 2**32


@pytest.mark.parametrize(("edition", "players"), [("classic", 3), ("2019", 6)])
def test_a_table_read_back_keeps_its_experts_reading_of_how_the_others_play(database, edition, players):
    """An expert carries from round to round the chance that the others play at random. A table read
    back (after a restart, or put away) made its bots anew, and that chance started afresh at every
    such time: now each bot reads the decisions it played before its next choice, the table's experts
    and the expert standing in for Bob (away) alike, and goes on exactly where it was. Every
    decision, not the last of each round: with six players in the 2019 edition the reading is
    trimmed to a size, and depends on every step. And a stand-in that looked at turns Bob came back
    to play (all his turns of the first round) is made anew the same way, or it alone would have
    read them, and carried what it read there into the next round."""
    from loveletter.bots.reading import WILD_AT_FIRST
    from loveletter.web.table import GameTable, SeatPlan, Settings

    bob = players - 1
    seats = [SeatPlan()] + [SeatPlan("expert")] * (players - 2) + [SeatPlan()]
    settings = Settings(edition, players, 7, 5, seats, bot_timeout=1, stand_in="expert")
    table = GameTable("T", settings, Store(database), budget=20)
    table.store.create(table.code, settings.as_json(), False)
    for name in ("Ann", "Bob"):  # Ann plays at random; Bob is away, his moves the stand-in's
        join(table, name)
    rng = random.Random(2)  # (a deal in which the stand-in plays in round 2, with either edition)
    bob_came_back = False

    def play_until(seat: int, round_number: int) -> None:
        nonlocal bob_came_back
        while len(table.match.rounds) < round_number or table.match.current != seat:
            mover = table.match.current
            by_bot = mover != 0
            if mover == 0:
                action = rng.choice(table.match.legal_actions())
            else:
                action = table.bot_choice(mover, table.view_for(mover), len(table.moves))
                if mover == bob and len(table.match.rounds) == 1:  # the stand-in looked, but Bob came back
                    action, by_bot, bob_came_back = rng.choice(table.match.legal_actions()), False, True
            table.store_move(action, by_bot=by_bot)
            table.apply(action, by_bot=by_bot)

    afresh = math.log(WILD_AT_FIRST / (1 - WILD_AT_FIRST))
    # Bob's stand-in in round 2 (it has played nothing yet: what it looked at in round 1 is not
    # carried), then in round 3, and one of the table's experts in round 3
    for seat, round_number in ((bob, 2), (bob, 3), (1, 3)):
        play_until(seat, round_number)
        assert not table.match.over and bob_came_back
        again = GameTable.load(next(s for s in Store(database).load_all() if s.code == "T"), Store(database),
                               budget=20)
        for game in (table, again):  # each looks at this turn, as the server has it do at once
            game.bot_choice(seat, game.view_for(seat), len(game.moves))
        key = seat if seat == 1 else -1 - seat
        looking = again.bots[key]  # asked again at the same turn (a search given up): the same bot goes on
        again.bot_choice(seat, again.view_for(seat), len(again.moves))
        assert again.bots[key] is looking
        live, back = table.bots[key].belief(table.view_for(seat)), again.bots[key].belief(again.view_for(seat))
        assert back.prior == pytest.approx(live.prior, rel=1e-9)
        assert back.log_odds_wild() == pytest.approx(live.log_odds_wild(), rel=1e-9)  # this round's too
        if round_number == 2:
            assert live.prior == afresh
        else:
            assert abs(live.prior - afresh) > 0.5  # (what it read of Ann moved it)
        assert live.exact == (edition == "classic")


def test_the_log_marks_every_move_a_bot_played_for_someone_away_and_keeps_it_after_a_restart(database):
    """Every move of Bob's, played by a stand-in, is marked in its round's log (the Chancellor's choice
    too), and no other; a server started again on the same database still marks them."""
    from loveletter.i18n import Translator
    from loveletter.web.messages import round_log, state_message
    from loveletter.web.table import GameTable, SeatPlan, Settings

    settings = Settings("2019", 2, 7, 11, [SeatPlan()] * 2)
    table = GameTable("T", settings, Store(database))
    table.store.create(table.code, settings.as_json(), False)
    for name in ("Ann", "Bob"):
        join(table, name)
    rng, bob_moves = random.Random(4), 0
    while not table.match.over:
        seat = table.match.current
        action = rng.choice(table.match.legal_actions())
        table.store_move(action, by_bot=seat == 1)
        table.apply(action, by_bot=seat == 1)
        bob_moves += seat == 1
    t = Translator("nl")
    names = table.display_names(t)

    def marked(game: GameTable) -> list[str]:
        lines = []
        for number, rnd in enumerate(game.match.rounds, 1):
            lines += round_log(rnd.log, names, t, number, game.stand_ins(number))
        return [line for line in lines if "(een bot speelde voor Bob)" in line]

    assert len(marked(table)) == bob_moves > 5 and all(line.startswith("Bob ") for line in marked(table))
    # the mark inside the sentence, before its full stop (after a "goed!", where it stands apart)
    assert [line for line in marked(table)
            if not line.endswith((" (een bot speelde voor Bob).", "! (een bot speelde voor Bob)"))] == []
    assert any(Action.parse(m).keep is not None for m in table.moves)  # a Chancellor's choice was among them
    again = GameTable.load(next(s for s in Store(database).load_all() if s.code == "T"), Store(database))
    assert marked(again) == marked(table)
    assert round_log(table.match.rounds[0].log, names, t, 1, set()) == [
        line.replace(" (een bot speelde voor Bob)", "")
        for line in round_log(table.match.rounds[0].log, names, t, 1, table.stand_ins(1))]
    last = len(table.match.rounds)  # the state message builds its log the same way, from Ann's view
    assert state_message(table, 0, t)["log"] == round_log(table.view_for(0).events, names, t, last,
                                                          table.stand_ins(last))


def test_nobody_stands_in_without_a_timeout(client):
    made = create(client, players=2)
    client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"})
    room = client.app.state.server.rooms[made["code"]]
    ann = Seat(client, made["code"], made["secret"])
    assert room.waiting is None or room.waiting.done()
    ann.close()


# ------------------------------------------------------------------------------------ records and replays


def finished_bot_match(client, **settings):
    made = create(client, players=2, bots={"1": "random"}, target=1, **settings)
    ann = Seat(client, made["code"], made["secret"])
    play_to_the_end(ann, random.Random(8))
    ann.close()
    return made["code"], made["secret"]


def _one_round_record(names: list[str]) -> dict:
    """The record of a classic round played at random (seed 5) by players called ``names``."""
    from loveletter.engine import CLASSIC, Match
    from loveletter.record import to_record

    match = Match(CLASSIC, len(names), seed=5)
    rng = random.Random(5)
    while not match.round.over:
        match.apply(rng.choice(match.legal_actions()))
    return to_record(match, names)


def test_an_uploaded_records_names_that_look_alike_are_shown_apart(client):
    """As in the terminal's replay: the same letter written two ways, or a name on two lines, would
    show two players alike."""
    doc = _one_round_record(["Zo\u00eb", "Zoe\u0308", "Bram\nvan Dijk"])
    frames = client.post("/api/replay", content=json.dumps(doc)).json()["frames"]
    assert frames[0]["names"] == ["'Zo\\xeb'", "'Zoe\\u0308'", "Bram van Dijk"]
    assert frames[-1]["log"][0].startswith("Round 1: ")


def test_an_uploaded_records_bots_are_named_in_the_pages_language(client):
    """A record kept from an English page, replayed on a Dutch one, named its bots "Bot 1 (random)"
    among Dutch words; the table's own replay said "Bot 1 (willekeurig)"."""
    doc = _one_round_record(["Ann", "Bot 1 (random)", "Bot 2 (expert)"])
    frames = client.post("/api/replay?lang=nl", content=json.dumps(doc)).json()["frames"]
    assert frames[0]["names"] == ["Ann", "Bot 1 (willekeurig)", "Bot 2 (expert)"]
    assert any("Bot 1 (willekeurig)" in line for line in frames[-1]["log"])
    back = _one_round_record(["Ann", "Bot 1 (willekeurig)", "Bot 12 (random)x"])  # (and back; a person's name stays)
    assert client.post("/api/replay", content=json.dumps(back)).json()["frames"][0]["names"] == [
        "Ann", "Bot 1 (random)", "Bot 12 (random)x"]
    # only a name a table gives its bot: its own seat's number, not seat 0's (a person), nor "007";
    # two players never made alike; and a number of 5,000 digits is only a name (int() refused it)
    for names in (["Bot 0 (random)", "Bot 2 (random)", "Bot 1 (random)"], ["Ann", "Bot 007 (random)", "Bot 1 (random)"],
                  ["Ann", "Bot 1 (willekeurig)", "Bot 1 (random)"], ["Ann", "Bot " + "9" * 5000 + " (random)", "Cas"]):
        doc = _one_round_record(names)
        shown = client.post("/api/replay?lang=nl", content=json.dumps(doc)).json()["frames"][0]["names"]
        assert shown == names[:1] + [names[1].replace("Bot 1 (random)", "Bot 1 (willekeurig)")] + names[2:], shown


def test_replays_are_made_apart_and_only_for_the_games_own_pages(client, monkeypatch):
    """A replay was made in the threads that store every table's moves and read tables back: six
    uploads of a long record at once held the moves at other tables for seconds; and any site's page
    could have its visitors' browsers upload them (a text/plain POST needs no leave)."""
    body = json.dumps(_one_round_record(["Ann", "Bob"]))
    made_in = []
    making = lobby.frames_json

    def noted(*args):
        made_in.append(threading.current_thread().name)
        return making(*args)

    monkeypatch.setattr(lobby, "frames_json", noted)
    for sent in ({"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "empty",
                  "content-type": "text/plain"}, {"sec-fetch-site": "same-site", "sec-fetch-mode": "cors"}):
        refused = client.post("/api/replay", content=body, headers=sent)
        assert refused.status_code == 400 and refused.json()["key"] == "web_foreign_origin"
    assert made_in == []
    frames = client.post("/api/replay", content=body, headers={"sec-fetch-site": "same-origin"}).json()["frames"]
    assert frames[0]["names"] == ["Ann", "Bob"] and made_in[0].startswith("loveletter-replays")
    code, _secret = finished_bot_match(client)
    assert client.get(f"/api/tables/{code}/replay").status_code == 200 and made_in[1].startswith("loveletter-replays")


def test_replays_made_or_being_sent_at_once_are_few(client, monkeypatch):
    """Six uploads of a long record (under 1 MB, 49 MB of frames) whose answers were never read held
    350 MB: a replay counts until it is sent, and past REPLAYS_AT_ONCE another is refused, to be
    asked for again in a moment."""
    from loveletter.web import app as web_app

    monkeypatch.setattr(web_app, "REPLAYS_AT_ONCE", 1)
    server = client.app.state.server
    making, entered, held = server.replay, threading.Event(), threading.Event()

    async def slow(doc, t):
        entered.set()
        await asyncio.to_thread(held.wait, 30)
        return await making(doc, t)

    monkeypatch.setattr(server, "replay", slow)
    body = json.dumps(_one_round_record(["Ann", "Bob"]))
    answers: list = []
    first = threading.Thread(target=lambda: answers.append(client.post("/api/replay", content=body)))
    first.start()
    assert entered.wait(10)
    busy = client.post("/api/replay?lang=nl", content=body)
    assert busy.status_code == 400 and busy.json() == {
        "type": "error", "key": "web_replays_busy",
        "message": "Er worden nu te veel herhalingen gemaakt: probeer het zo opnieuw."}
    held.set()
    first.join(30)
    assert answers[0].status_code == 200
    assert client.post("/api/replay", content=body).status_code == 200  # the first sent: counted no more
    bad = client.post("/api/replay", content=b"[]")  # a record refused is counted no more either
    assert bad.json()["key"] == "web_bad_record" and client.post("/api/replay", content=body).status_code == 200


def test_a_replay_counts_until_it_is_sent():
    """A replay holds its frames until its reader has them: its count of replays at once is let go
    once they are sent (or the sending fails), not once they are made."""
    from loveletter.web.app import _SentThen

    released: list[int] = []

    async def scenario() -> None:
        async def receive():
            return {"type": "http.disconnect"}

        async def send(message):
            assert released == [], message  # (not let go while it is being sent)

        await _SentThen('{"frames":[]}', then=lambda: released.append(1))({"type": "http"}, receive, send)
        assert released == [1]

        async def reset(message):
            raise OSError("connection reset")

        with pytest.raises(OSError):
            await _SentThen("{}", then=lambda: released.append(2))({"type": "http"}, receive, reset)
        assert released == [1, 2]

    asyncio.run(scenario())


def test_a_replay_goes_out_a_part_at_a_time_and_a_reader_that_takes_nothing_is_given_up(monkeypatch):
    """Sent whole, a replay's 20 MB went into the server's write buffer at once, and its place among
    the replays at once was let go, however little its reader read: a client that read none of its
    answers had the server hold 1.4 GB in 45 seconds. It goes out in parts now, each sent once the
    buffer has room (the server's send waits until then), and a reader that takes nothing for
    READ_WITHIN seconds is given up: its place let go, its answer left unfinished (the server then
    closes the connection)."""
    from loveletter.web import app as web_app

    monkeypatch.setattr(web_app, "READ_WITHIN", 0.2)
    text = "x" * (2 * web_app.SEND_PART + 10)
    released: list[int] = []

    async def scenario() -> None:
        async def receive():
            return {"type": "http.disconnect"}

        sent: list[dict] = []

        async def send(message):
            assert released == [], message  # (not let go while it is being sent)
            sent.append(message)

        await web_app._SentThen(text, then=lambda: released.append(1))({"type": "http"}, receive, send)
        parts = [m for m in sent if m["type"] == "http.response.body"]
        assert [len(m["body"]) for m in parts] == [web_app.SEND_PART, web_app.SEND_PART, 10, 0]
        assert [m.get("more_body", False) for m in parts] == [True, True, True, False]
        assert b"".join(m["body"] for m in parts) == text.encode() and released == [1]

        parts_sent = 0

        async def stuck(message):  # a reader that takes the first part, then nothing
            nonlocal parts_sent
            if message["type"] == "http.response.body":
                parts_sent += 1
                if parts_sent > 1:
                    await asyncio.sleep(3600)

        started = asyncio.get_running_loop().time()
        await web_app._SentThen(text, then=lambda: released.append(2))({"type": "http"}, receive, stuck)
        assert released == [1, 2] and parts_sent == 2 and asyncio.get_running_loop().time() - started < 5

        async def stuck_at_the_end(message):  # a reader that took every part but the last, empty one
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                await asyncio.sleep(3600)

        await web_app._SentThen(text, then=lambda: released.append(3))({"type": "http"}, receive, stuck_at_the_end)
        assert released == [1, 2, 3] and web_app.GIVEN_UP == [0.2, 0.2]  # (each noted, for the log)
        web_app.GIVEN_UP.clear()

    asyncio.run(scenario())


def test_a_finished_match_gives_its_record_and_replay(client):
    made = create(client, players=2, bots={"1": "random"})
    early = client.get(f"/api/tables/{made['code']}/record")
    assert early.status_code == 400 and early.json()["key"] == "web_not_finished"  # no decks before the end
    assert client.get(f"/api/tables/{made['code']}/replay").status_code == 400
    code, _secret = finished_bot_match(client)
    answer = client.get(f"/api/tables/{code}/record")
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    doc = answer.json()
    replayed = replay(doc)  # a valid loveletter-record/1
    assert doc["format"] == "loveletter-record/1" and replayed.match.over and doc["players"] == ["Ann", "Bot 1 (random)"]
    told = client.get(f"/api/tables/{code}/replay?lang=nl").json()
    steps = told["frames"]
    assert len(steps) == sum(len(r["turns"]) + 1 for r in doc["rounds"])
    assert steps[0]["turn"] == 0 and steps[-1]["winners"] and "Ronde 1" in steps[0]["log"][0]
    assert all(len(step["hands"][s]) in (0, 1, 2) for step in steps for s in (0, 1))
    # the bot named in Dutch, as the table named it ("Bot 1 (random) speelt de Wachter" on a Dutch page)
    assert all(step["names"] == ["Ann", "Bot 1 (willekeurig)"] for step in steps)
    assert any("Bot 1 (willekeurig)" in line for line in steps[-1]["log"])
    # the record file uploaded: the same steps, its bot named as the table names it on this page too
    # (a record kept from an English page said "Bot 1 (random)" among Dutch words)
    uploaded = client.post("/api/replay?lang=nl", content=json.dumps(doc))
    assert uploaded.status_code == 200
    winner = ["Ann", "Bot 1 (willekeurig)"][replayed.match.winners[0]]
    tokens = replayed.match.tokens
    assert told["result"] == f"Het spel is uit: {winner} wint. Tekens van liefde: Ann {tokens[0]}, Bot 1 (willekeurig) {tokens[1]}."
    assert told["target"] == doc["target"] and told["left_out"] is None
    assert uploaded.json() == told


@pytest.mark.parametrize(("body", "says"), [
    (b"{not json", "the file is not valid JSON: "),
    (b'{\n  "players": [1,\n', "(line 3, column 1)"),  # where, as the command line says
    ("[]".encode("utf-16"), "the file is UTF-16 text: a record is read as UTF-8"),  # json.loads read UTF-16: the command line not
    (b"\xe9[]", "the file is not a text file (not UTF-8 at line 1, column 1)"),
    (b"[1" + b"0" * 5000 + b"]", "the file holds a number too long to read (line 1, column 2)"),
    (b'{"players": ["A", "B"], "players": ["C", "D"]}', "the file names the field 'players' twice in one object"),
    (b"[]", "a record is a JSON object, not a list"),
    (json.dumps({"players": ["A", "B"], "rounds": [{"deck": ["dragon"]}]}).encode(), "round 1"),
])
def test_a_bad_record_upload_is_refused_in_one_line(client, body, says):
    answer = client.post("/api/replay", content=body)
    assert answer.status_code == 400
    message = answer.json()["message"]
    assert says in message and "\n" not in message


def _chunked(body: bytes, size: int = 64_000):  # sent without a Content-Length
    for start in range(0, len(body), size):
        yield body[start:start + size]


@pytest.mark.parametrize("chunked", [False, True])
def test_a_body_over_its_limit_is_refused_before_it_is_read_whole(client, monkeypatch, chunked):
    """A 150 MB upload was read whole (uvicorn sets no limit) and only then refused; the lobby's JSON
    requests had no limit at all. Now 413, by the stated length or as the bytes come."""
    from loveletter.web import limits

    seen: list[int] = []  # the refusals the middleware made (the route never saw these bodies)
    original = limits.BodyLimit._refuse

    async def refuse(self, scope, receive, send, refused):
        seen.append(1)
        await original(self, scope, receive, send, refused)

    monkeypatch.setattr(limits.BodyLimit, "_refuse", refuse)
    big = b" " * 1_000_001
    answer = client.post("/api/replay?lang=nl", content=_chunked(big) if chunked else big)
    assert answer.status_code == 413 and seen
    assert answer.json()["message"] == "Dat bestand is te groot voor een spelverslag (hoogstens 1\u2009000 kB)."
    named = json.dumps({"name": "A" * 70_000, "players": 2}).encode()
    answer = client.post("/api/tables", content=_chunked(named) if chunked else named)
    assert answer.status_code == 413
    assert answer.json()["message"] == "The request is too large (at most 64 kB)."
    assert client.get("/api/tables").json() == []  # nothing made


def test_a_body_under_its_limit_is_handed_on_whole_even_without_a_length(client):
    code, _secret = finished_bot_match(client)
    doc = client.get(f"/api/tables/{code}/record").json()
    whole = client.post("/api/replay", content=json.dumps(doc).encode())
    sent_in_chunks = client.post("/api/replay", content=_chunked(json.dumps(doc).encode(), 100))
    assert sent_in_chunks.status_code == 200 and sent_in_chunks.json() == whole.json()
    made = client.post("/api/tables", content=_chunked(json.dumps({"name": "Ann", "players": 2}).encode(), 5),
                       headers={"content-type": "application/json"})
    assert made.status_code == 200 and made.json()["seat"] == 0


def test_a_name_already_at_the_table_is_refused(client):
    """Two "Ann"s at one table: "Ann plays the Guard on Ann", and two buttons named alike."""
    made = create(client, players=3, bots={"2": "random"})  # Ann, a free seat, a bot
    for lang, says in (("en", "Someone at this table is already called Ann: please choose another name."),
                       ("nl", "Iemand aan deze tafel heet al Ann: kies een andere naam.")):
        refused = client.post(f"/api/tables/{made['code']}/join?lang={lang}", json={"name": "ann"})
        assert refused.status_code == 400 and refused.json()["message"] == says
    # the name it reads like is the one told, as the table shows it: "already called A nn" was false
    refused = client.post(f"/api/tables/{made['code']}/join", json={"name": "A nn"})
    assert refused.json()["message"] == "Someone at this table is already called Ann: please choose another name."
    assert client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).json()["seat"] == 1


def test_a_name_that_looks_like_one_the_table_shows_is_refused(client, database):
    """Names compared only in case let "Ann" with a zero-width space, in full-width letters or with a
    Cyrillic A sit beside Ann, and a person take a bot's shown name ("Bot 1 (random)") and pass for it, or a free
    seat's ("Free seat 3") and make a taken seat look free."""
    made = create(client, players=4, bots={"1": "random"})  # Ann, a random bot, two free seats
    like_ann = ("Ann\u200b", "\u2800Ann", "ＡＮＮ", "An\u2060n", "\u0410nn", "\u0391\u039d\u039d",  # a Cyrillic A; Greek capitals
                "A nn")  # spaces aside too
    like_bot = ("bot 1 (RANDOM)", "Bot l (random)", "Bot 1 (willekeurig)",
                # right-to-left letters and digits, which the package's list wraps in left-to-right marks:
                # an Arabic-Indic one and a Hebrew vav, both listed with "l" (as "1" is)
                "Bot \u0661 (random)", "Bot \u05d5 (random)")
    like_free_seat = ("Free seat 3", "vrije stoel 2", "Freeseat 3")
    # each told as what it would pass for (a free seat was "someone at this table is already called Free seat 3")
    for names, key in ((like_ann, "web_name_taken"), (like_bot, "web_name_bot"), (like_free_seat, "web_name_free_seat")):
        for name in names:
            refused = client.post(f"/api/tables/{made['code']}/join", json={"name": name})
            assert refused.status_code == 400 and refused.json()["key"] == key, name
    assert Seat(client, made["code"], None).state["free_seats"] == [2, 3]  # nothing taken
    for name, bots, key in (("Bot 1 (expert)", {"1": "expert"}, "web_name_bot"),
                            ("Free seat 1", {}, "web_name_free_seat")):  # and nothing is stored
        bot_named = client.post("/api/tables", json={"name": name, "players": 2, "bots": bots})
        assert bot_named.status_code == 400 and bot_named.json()["key"] == key
    assert [t["code"] for t in client.get("/api/tables").json()] == [made["code"]]
    assert [t.code for t in Store(database).load_all()] == [made["code"]]
    assert client.post(f"/api/tables/{made['code']}/join", json={"name": "Zoë"}).json()["seat"] == 2
    zoe_apart = client.post(f"/api/tables/{made['code']}/join", json={"name": "Zoe\u0308"})  # the accent apart
    assert zoe_apart.json()["key"] == "web_name_taken"


def test_a_name_that_would_pass_for_a_bot_is_refused_at_any_table(client):
    """Only the bots a table shows were refused: at a table with "Bot 1 (random)", a person could
    come on as "Bot 3 (expert)" and be taken for an expert bot."""
    made = create(client, players=4, bots={"1": "random"})
    for name, lang, says in (
        ("Bot 3 (expert)", "en", "Bot 3 (expert) would pass for one of the bots: please choose another name."),
        ("bot 12 (Beginner)", "en", "bot 12 (Beginner) would pass for one of the bots: please choose another name."),
        ("Bot ３ (willekeurig)", "nl", "Bot ３ (willekeurig) zou voor een van de bots doorgaan: kies een andere naam."),
        ("Bot l (expert)", "nl", "Bot l (expert) zou voor een van de bots doorgaan: kies een andere naam."),
        # the spaces aside: "Bot 2(expert)" passed for a bot
        ("Bot 2(expert)", "en", "Bot 2(expert) would pass for one of the bots: please choose another name."),
        ("Bot2 (random)", "en", "Bot2 (random) would pass for one of the bots: please choose another name."),
        # a free seat's, at any table and for any number (a person "Free seat 1" showed as a seat untaken)
        ("Free seat 1", "en", "Free seat 1 would pass for a free seat: please choose another name."),
        ("vrije stoel 9", "nl", "vrije stoel 9 zou voor een vrije stoel doorgaan: kies een andere naam."),
        ("FreeSeat 0", "en", "FreeSeat 0 would pass for a free seat: please choose another name."),
    ):
        refused = client.post(f"/api/tables/{made['code']}/join?lang={lang}", json={"name": name})
        key = "web_name_free_seat" if "seat" in name.lower().replace("stoel", "seat") else "web_name_bot"
        assert refused.status_code == 400 and refused.json()["key"] == key, name
        assert refused.json()["message"] == says
    for name in ("Bot 1 (expert)", "Bot 1 (expert)\u2800"):  # no bot at the table; a blank Braille pattern
        lone = client.post("/api/tables", json={"name": name, "players": 2})
        assert lone.status_code == 400 and lone.json()["key"] == "web_name_bot", name
    lone = client.post("/api/tables", json={"name": "Vrije stoel 7", "players": 2})  # no such seat, in any language
    assert lone.status_code == 400 and lone.json()["key"] == "web_name_free_seat"
    assert Seat(client, made["code"], None).state["free_seats"] == [2, 3]  # nothing taken, nothing made
    assert [t["code"] for t in client.get("/api/tables").json()] == [made["code"]]
    for seat, name in ((2, "Botanist"), (3, "Free Willy")):  # names near a bot's or a free seat's, but neither
        assert client.post(f"/api/tables/{made['code']}/join", json={"name": name}).json()["seat"] == seat


def test_a_body_the_json_reader_gives_up_on_is_refused_in_the_page_language(client):
    """Python's reader refuses a number of more than 4,300 digits and very deep nesting with errors of
    its own, and the server answered in English, {"detail": "There was an error parsing the body"}."""
    headers = {"content-type": "application/json"}
    for body in (b'{"name": "A", "players": ' + b"1" * 4301 + b"}",
                 b'{"name": "A", "bots": ' + b"[" * 30_000 + b"]" * 30_000 + b"}",
                 b'{"name": "\xff\xfe", "players": 2}'):  # not UTF-8
        refused = client.post("/api/tables?lang=nl", content=body, headers=headers)
        assert refused.status_code == 400 and refused.json()["key"] == "web_body_unreadable"
        assert refused.json()["message"].startswith("Het verzoek kon niet als JSON gelezen worden")
    assert client.get("/api/tables").json() == []  # nothing made


def test_a_refusal_quotes_what_was_sent_cut_short(client):
    """A 4,000-digit number of players and a 30,000-letter bot level were echoed whole."""
    many = client.post("/api/tables", json={"name": "A", "players": int("7" * 4000)}).json()["message"]
    assert many.startswith("The classic edition is for 2 to 4 players, not 7777") and "…" in many and len(many) < 150
    level = client.post("/api/tables", json={"name": "A", "players": 2, "bots": {"1": "x" * 30_000}}).json()
    assert level["key"] == "web_err_bot_level" and len(level["message"]) < 150 and "x" * 39 + "…" in level["message"]
    families = "👨\u200d👩\u200d👧\u200d👦" * 8  # a name of 8 characters and 56 code points: quoted whole
    made = create(client, players=3, name=families)
    taken = client.post(f"/api/tables/{made['code']}/join", json={"name": families}).json()
    assert taken["key"] == "web_name_taken" and families in taken["message"]


def test_an_uploaded_records_fields_the_format_does_not_name_are_left_out_and_named(client):
    """As on the command line: RECORD.md refuses unknown fields in a turn alone, and an upload with
    another program's notes in the document or a round was refused."""
    doc = _one_round_record(["Ann", "Bob"])
    plain = client.post("/api/replay?lang=nl", content=json.dumps(doc)).json()
    doc["event"], doc["rounds"][0]["note"] = "club night", "first"
    answer = client.post("/api/replay?lang=nl", content=json.dumps(doc))
    assert answer.status_code == 200 and answer.json() == {
        **plain, "left_out": "Weggelaten (niet in loveletter-record/1): 'event' in het spelverslag, 'note' in ronde 1."}
    assert plain["left_out"] is None


def test_a_name_with_a_lone_surrogate_replays(client):
    """JSON allows a lone surrogate ("\\ud800"), UTF-8 does not: writing the frames failed with a 500."""
    code, _secret = finished_bot_match(client)
    doc = client.get(f"/api/tables/{code}/record").json()
    doc["players"] = ["\ud800Ann", "Bram"]
    answer = client.post("/api/replay", content=json.dumps(doc))
    # shown as the terminal's replay shows it: what cannot be printed is a space, the name trimmed
    assert answer.status_code == 200 and answer.json()["frames"][0]["names"] == ["Ann", "Bram"]


def test_a_replay_too_large_to_show_is_refused(client, monkeypatch):
    """A record's frames repeat its names: 300 kB of record with names of 100,000 letters made a 139 MB
    answer, and 1 MB would have made gigabytes. Now the frames stop at MAX_REPLAY_BYTES."""
    from loveletter.web import replays

    code, _secret = finished_bot_match(client)
    doc = client.get(f"/api/tables/{code}/record").json()
    assert client.post("/api/replay", content=json.dumps(doc)).status_code == 200
    monkeypatch.setattr(replays, "MAX_REPLAY_BYTES", 1_000_000)  # (64 MB: the same, more slowly)
    doc["players"] = ["A" * 300_000, "B" * 300_000]  # every frame names them
    answer = client.post("/api/replay?lang=nl", content=json.dumps(doc))
    assert answer.status_code == 400 and answer.json()["message"] == (
        "De herhaling van dit spelverslag zou te groot worden om hier te tonen (meer dan 1 MB: een heel lang spel, of heel"
        " lange namen); de opdracht loveletter replay vertelt het wel.")
    monkeypatch.setattr(replays, "MAX_REPLAY_BYTES", 500)  # a table's own replay is bounded the same way (any has more)
    answer = client.get(f"/api/tables/{code}/replay")
    assert answer.status_code == 400 and answer.json()["key"] == "web_replay_too_big"


@pytest.mark.parametrize(("body", "says"), [
    (b"[]", "Dat is geen geldig spelverslag: een spelverslag is een JSON-object, geen lijst"),
    (json.dumps({"players": ["A", "B"], "rounds": [{"deck": ["dragon"]}]}).encode(),
     "Dat is geen geldig spelverslag: ronde 1: onbekende kaart 'dragon' in 'deck'"),
])
def test_a_bad_record_upload_is_refused_in_the_page_language(client, body, says):
    answer = client.post("/api/replay?lang=nl", content=body)
    assert answer.status_code == 400
    assert answer.json()["message"] == says


def _each_cut(doc: dict) -> Iterator[tuple[int, int, Any]]:
    """For each turn of the record ``doc`` (and each round's start): the round's index, the turns
    played in it, and the match as the record cut there and replayed from the start shows it."""
    for r, rnd in enumerate(doc["rounds"]):
        for cut in range(len(rnd["turns"]) + 1):
            partial = copy.deepcopy(doc)
            partial["rounds"] = partial["rounds"][: r + 1]
            partial["rounds"][r]["turns"] = rnd["turns"][:cut]
            yield r, cut, replay(partial).match


def test_a_replay_plays_its_record_once_and_shows_what_replaying_each_cut_showed(monkeypatch):
    """Each frame was the record cut after one more turn and replayed from the start: time that grew
    with the square of the record's length (half an hour for an upload under the size limit). Now one
    pass, with the same frames as the cuts (worked out here the old way)."""
    from loveletter.i18n import Translator
    from loveletter.record import replay as replay_record
    from loveletter.tournament import Settings, run_tournament
    from loveletter.web import replays

    docs = run_tournament(Settings(lineup=("beginner", "random", "random"), edition="2019", mode="matches",
                                   games=2, seed=4), jobs=1, records=True).records
    t = Translator("en")
    for doc in docs:
        expected = [replays._frame(match.round, r + 1, cut, list(match.tokens), doc["players"], t)
                    for r, cut, match in _each_cut(doc)]
        calls: list[int] = []

        def counted(d, calls=calls, **k):
            calls.append(1)
            return replay_record(d, **k)

        monkeypatch.setattr(replays, "replay", counted)
        assert json.loads(replays.frames_json(doc, t))["frames"] == expected and len(calls) == 1
        monkeypatch.undo()


def test_a_records_names_are_made_distinct_whatever_the_names():
    """Two "Ann"s became "Ann (0)" and "Ann (1)", which a third player named "Ann (0)" already was: the
    record was refused (names must be distinct) and the table's replay failed with a server error."""
    from loveletter.web.replays import distinct_names

    assert distinct_names(["Ann", "Bob"]) == ["Ann", "Bob"]
    assert distinct_names(["Ann", "Ann", "Bob"]) == ["Ann (0)", "Ann (1)", "Bob"]
    made = distinct_names(["Ann", "Ann", "Ann (0)"])
    assert len(set(made)) == 3 and made[1] == "Ann (1)"
    made = distinct_names(["Bot 1", "Bot 1", "Bot 1 (1)", "Bot 1 (1) (1)"])
    assert len(set(made)) == 4


def test_hints_for_the_seat_to_move_only(client):
    code, ann, bob = two_people(client)
    mover, waiter = (ann, bob) if ann.state["current"] == 0 else (bob, ann)
    mover.send({"type": "hints"})
    advice = mover.receive()
    assert advice["type"] == "hints" and advice["moves"] == mover.state["moves"]
    assert {o["move"] for o in advice["odds"]} == {m["move"] for m in mover.state["legal"]}
    assert all(0 <= o["chance"] <= 1 for o in advice["odds"])
    assert all(0 <= o["margin"] <= 0.1 for o in advice["odds"])  # at least HINT_TRIES tries per move
    other = str(1 - mover.state["seat"])
    assert list(advice["belief"]) == [other]
    assert sum(o["chance"] for o in advice["belief"][other]) == pytest.approx(1, abs=0.005)  # every card possible
    assert all(re.fullmatch(r"<1%|>99%|\d{1,3}%", o["shown"]) for o in advice["belief"][other])
    # and in words, for a screen reader, as --screen-reader says them (">99%" heard as "99 percent")
    assert all(re.fullmatch(r"win (about \d+%(, give or take \d+ points?)?|less than 1%|more than 99%|\d+%)", o["spoken"])
               and o["spoken"].replace("about ", "").split(",")[0] == o["text"].replace("≈ ", "").split(" ±")[0]
               .replace("<", "less than ").replace(">", "more than ") for o in advice["odds"])
    assert [o["spoken"] for o in advice["belief"][other]] == [
        "more than 99%" if o["shown"] == ">99%" else o["shown"] for o in advice["belief"][other]]
    waiter.send({"type": "hints"})
    assert waiter.receive()["key"] == "web_not_your_turn"
    watcher = Seat(client, code, None)
    watcher.send({"type": "hints"})
    assert watcher.receive()["key"] == "web_spectator_hints"


def test_the_hints_name_every_card_still_possible_as_the_terminal_does():
    """Cards under 0.5% were left out of the browser's belief, as if impossible; it now sends every
    card the belief holds possible with its figure as the terminal shows it (``<1%``, whole
    percentages adding up to about 100)."""
    from loveletter.bots import make_bot
    from loveletter.bots.expert import ExpertBot
    from loveletter.engine import EDITION_2019, Round, view
    from loveletter.i18n import Translator
    from loveletter.percentages import shown_percentages
    from loveletter.web.messages import advice_at, hints_message

    t = Translator("en")
    unlikely = 0
    for seed in range(200):  # at least 20 deals, and on until one gives a card under 0.5% (seed 7 does)
        if seed >= 20 and unlikely:
            break
        rnd = Round.shuffled(EDITION_2019, 6, random.Random(seed), starter=1)
        bots = [make_bot("random", seed * 10 + s) for s in range(6)]
        while rnd.current != 0 and not rnd.over:  # the others play, then seat 0
            rnd.apply(bots[rnd.current].choose(view(rnd, rnd.current)))
        if rnd.over:
            continue
        v = view(rnd, 0)
        adviser = ExpertBot(seed, budget=10)
        # the belief is what is checked: the moves' figures from as few tries as the budget allows
        adviser.move_odds = functools.partial(adviser.move_odds, tries=1)
        advice = hints_message(advice_at(v, 5, adviser), t)
        for seat, held in adviser.belief(v).all_odds().items():
            shown = advice["belief"][str(seat)]
            assert [(o["name"], o["shown"]) for o in shown] == [(t.card(c), f) for c, f in shown_percentages(held)]
            assert len(shown) == len([p for p in held.values() if p > 0])  # none left out
            unlikely += sum(0 < p < 0.005 for p in held.values())
    assert unlikely > 0  # cards the browser used to leave out


@pytest.mark.parametrize(("lang", "words"), [("en", ["win more than 99%", "win about 40%, give or take 5 points", "win less than 1%"]),
                                           ("nl", ["winkans meer dan 99%", "winkans ongeveer 40%, plus of min 5 procentpunten",
                                                   "winkans minder dan 1%"])])
def test_the_hints_are_sent_in_words_too_for_a_screen_reader(lang, words):
    """The page showed ">99%", "≈ 40% ± 5": a screen reader said "99 percent", and nothing of "≈"
    or "±". Each figure comes in words too, as --screen-reader says it."""
    from loveletter.bots.expert import Estimate
    from loveletter.engine import Action, Card
    from loveletter.web.messages import Advice, hints_message

    odds = {Action(Card.GUARD, 1, Card.PRIEST): Estimate(0.996, 0.004), Action(Card.HANDMAID): Estimate(0.004, 0.004),
            Action(Card.BARON, 1): Estimate(0.4, 0.05)}
    advice = hints_message(Advice(3, odds, {1: {Card.PRINCESS: 0.996, Card.GUARD: 0.004}}), Translator(lang))
    assert [o["spoken"] for o in advice["odds"]] == words
    above = {"en": "more than 99%", "nl": "meer dan 99%"}[lang]
    assert [(o["shown"], o["spoken"]) for o in advice["belief"]["1"]] == [(">99%", above), ("<1%", "<1%")]


def test_a_hint_near_0_or_1_is_sent_as_it_is_not_rounded_to_certain():
    """The hints' chances went out rounded to three places: a move that wins 0.04% of the time was
    sent as 0, and the page showed 0%, as if it could not win. Each now comes worded too, as the
    terminal shows it (such a chance as <1%), with the best moves marked."""

    from loveletter.bots.expert import Estimate
    from loveletter.engine import CLASSIC, Match, view
    from loveletter.i18n import Translator
    from loveletter.web.messages import advice_at, hints_message

    v = view(Match(CLASSIC, 2, seed=1), 0)
    chances = dict(zip(v.legal_actions, [0.0004, 0.99996, 0.0, 1.0], strict=False))

    class Adviser:  # the expert's figures, as given
        def move_odds(self, _view, stop=None):
            return {action: Estimate(chance, 0.001, chance == 1.0) for action, chance in chances.items()}

        def belief(self, _view):
            return types.SimpleNamespace(all_odds=dict)

    odds = hints_message(advice_at(v, 0, Adviser()), Translator("en"))["odds"]
    sent = {o["move"]: o["chance"] for o in odds}
    assert sent == {action.notation(): chance for action, chance in chances.items()}
    # and whether the move itself decided the round in every try: only then is a 0 or a 1 certain
    assert {o["move"]: o["sure"] for o in odds} == {action.notation(): chance == 1.0 for action, chance in chances.items()}
    assert len(sent) == 4
    # each worded as the terminal words it, and the best marked, so the page shows them as they come
    words = {0.0004: "win <1%", 0.99996: "win >99%", 0.0: "win <1%", 1.0: "win 100%"}
    assert {o["move"]: o["text"] for o in odds} == {action.notation(): words[chance] for action, chance in chances.items()}
    assert {o["move"]: o["best"] for o in odds} == {action.notation(): chance == 1.0 for action, chance in chances.items()}


def test_a_language_switch_or_a_reload_words_the_same_advice_again(client, monkeypatch):
    """Each language switch ran a new search: other figures, often another move marked best, and on a
    big table the hints gone for seconds meanwhile. A seat's advice at a position is now searched once,
    and worded in whatever language is asked, a page reloaded at the same move included; a move on
    is searched anew."""
    searched: list[int] = []
    real = lobby.advice_at

    def counted(*args):
        searched.append(args[1])
        return real(*args)

    monkeypatch.setattr(lobby, "advice_at", counted)
    code, ann, bob = two_people(client)
    mover, other = (ann, bob) if ann.state["current"] == 0 else (bob, ann)
    mover.send({"type": "hints"})
    first = mover.receive()
    mover.send({"type": "lang", "lang": "nl"})
    assert mover.receive()["type"] == "state"
    mover.send({"type": "hints"})
    again = mover.receive()
    assert (first["lang"], again["lang"]) == ("en", "nl") and searched == [0]

    def figures(advice):
        return [(o["move"], o["chance"], o["margin"], o["best"]) for o in advice["odds"]]

    assert figures(again) == figures(first)
    assert all(o["text"].startswith("win ") for o in first["odds"])
    assert all(o["text"].startswith("winkans ") for o in again["odds"])
    assert again["belief"] != first["belief"]  # the cards named in Dutch
    reloaded = Seat(client, code, mover.secret, lang="en")
    reloaded.send({"type": "hints"})
    assert figures(reloaded.receive()) == figures(first) and searched == [0]
    reloaded.close()
    mover.move(mover.state["legal"][0]["move"])
    while other.state["moves"] < 1:
        other.receive()
    # (the other player's turn, or the mover's again where the move ended the round)
    turn = mover if mover.state["current"] == mover.state["seat"] else other
    turn.send({"type": "hints"})
    assert turn.receive()["type"] == "hints" and searched == [0, 1]  # another position: searched


def test_after_the_match_hints_are_refused_as_the_match_is_over(client):
    """Not "it is not your turn", as it said: nobody's turn comes again."""
    code, secret = finished_bot_match(client)
    ann = Seat(client, code, secret)
    ann.send({"type": "hints"})
    assert ann.receive()["key"] == "web_match_over"
    ann.close()


def test_the_table_names_each_bot_with_its_level(client):
    """A table that its creator and bots fill is never in the lobby, whose list alone showed the
    levels: at the table the bots were only "Bot 1", "Bot 2", though the hints read them by level."""
    made = create(client, players=3, bots={"1": "expert", "2": "random"})
    for lang, names in (("en", ["Ann", "Bot 1 (expert)", "Bot 2 (random)"]),
                        ("nl", ["Ann", "Bot 1 (expert)", "Bot 2 (willekeurig)"])):
        ann = Seat(client, made["code"], made["secret"], lang=lang)
        assert ann.state["names"] == names
        ann.close()


def test_the_table_does_not_wait_for_the_experts_advice(client, monkeypatch):
    # the advice is searched outside the table's lock: an out-of-turn move is answered meanwhile

    released, waited_out = threading.Event(), []
    real = lobby.advice_at

    def slow(*args):
        waited_out.append(not released.wait(10))
        return real(*args)

    monkeypatch.setattr(lobby, "advice_at", slow)
    _code, ann, bob = two_people(client)
    mover, waiter = (ann, bob) if ann.state["current"] == 0 else (bob, ann)
    mover.send({"type": "hints"})
    assert waiter.move(mover.state["legal"][0]["move"])["key"] == "web_not_your_turn"
    released.set()
    assert mover.receive()["type"] == "hints"
    assert waited_out == [False]


def held_hints(monkeypatch) -> tuple[threading.Event, threading.Event, list[int]]:
    """The server's hints held back until ``released`` is set: ``started`` once a search began, and
    the moves count of each search in ``calls``."""

    started, released, calls = threading.Event(), threading.Event(), []
    real = lobby.advice_at

    def slow(*args):
        calls.append(args[1])
        started.set()
        released.wait(10)
        return real(*args)

    monkeypatch.setattr(lobby, "advice_at", slow)
    return started, released, calls


def test_a_players_own_move_does_not_wait_for_their_advice(client, monkeypatch):
    """Hints were worked out inside the connection's loop: a move sent after asking waited for them."""
    started, released, _calls = held_hints(monkeypatch)
    code, ann, bob = two_people(client)
    mover = ann if ann.state["current"] == 0 else bob
    mover.send({"type": "hints"})
    assert started.wait(10)
    moved = mover.move(mover.state["legal"][0]["move"])
    assert not released.is_set()
    assert moved["type"] == "state" and moved["moves"] == 1
    released.set()
    # the advice for the position left is not sent (the page would drop it): the next word is the
    # answer to asking again (out of turn now, or the next round's hints where the move ended one)
    adviser = client.app.state.server.rooms[code].advisers[mover.state["seat"]]
    until(lambda: not adviser.busy.locked())
    assert not adviser.busy.locked()
    mover.send({"type": "hints"})
    answer = mover.receive()
    if mover.state["current"] == mover.state["seat"]:
        assert answer["type"] == "hints" and answer["moves"] == 1, answer
    else:
        assert answer.get("key") == "web_not_your_turn", answer


def test_only_the_latest_request_for_hints_is_worked_out(client, monkeypatch):
    """Ticking the hints box on and off queued a search per tick; the ones asked again meanwhile are
    now skipped, and only the latest is answered (with the first one's advice: the same position)."""
    started, released, calls = held_hints(monkeypatch)
    _code, ann, bob = two_people(client)
    mover = ann if ann.state["current"] == 0 else bob
    for _ in range(4):
        mover.send({"type": "hints"})
        assert started.wait(10)  # the first search is under way before the others are asked
    released.set()
    assert mover.receive()["type"] == "hints"
    mover.send({"type": "lang", "lang": "en"})  # a marker: its state comes next, no other hints before it
    assert mover.receive()["type"] == "state"
    assert len(calls) == 1  # the first (already searching); the two between skipped, the last given its advice


def test_a_position_left_is_neither_searched_nor_sent(client, monkeypatch):
    """Hints asked for at a position the table has left before their turn to be searched came were
    searched all the same, and hints kept for a position sent to a tab asking there after the table
    had moved on."""
    started, released, calls = held_hints(monkeypatch)
    code, ann, bob = two_people(client, target=7)
    mover, other = (ann, bob) if ann.state["current"] == 0 else (bob, ann)
    tab = Seat(client, code, mover.secret)  # the same seat, another tab

    def play_on() -> None:  # the player to move makes its first legal move; every tab reads it
        at = mover.state["moves"]
        turn = mover if mover.state["current"] == mover.state["seat"] else other
        turn.move(turn.state["legal"][0]["move"])
        for seat in (mover, other, tab):
            while seat.state["moves"] < at + 1:
                seat.receive()

    mover.send({"type": "hints"})  # at move 0: held
    assert started.wait(10)
    tab.send({"type": "hints"})  # at move 0 too, waiting behind it
    time.sleep(0.2)
    play_on()  # the table leaves move 0
    while mover.state["current"] != mover.state["seat"]:
        play_on()
    mover.send({"type": "hints"})  # waiting behind the first search too
    time.sleep(0.2)
    play_on()  # and the table leaves that position
    released.set()
    until(lambda: not client.app.state.server.rooms[code].advisers[mover.state["seat"]].busy.locked())
    tab.send({"type": "lang", "lang": "en"})  # a marker: no hints for move 0 before its state
    assert tab.receive()["type"] == "state"
    assert calls == [0]  # the later position, left, was not searched
    tab.close()


def test_a_search_for_a_position_left_stops_and_is_not_kept(client, monkeypatch):
    """A search for hints ran to its end after the table had left its position (a second or more
    on a big table, holding the seat's adviser) for advice nobody would see: it now stops after its
    round of tries, and nothing is kept or sent."""
    real = lobby.advice_at
    entered, go, results = threading.Event(), threading.Event(), []

    def held(v, moves, bot, moved_on):
        entered.set()
        go.wait(10)
        results.append(real(v, moves, bot, moved_on))
        return results[-1]

    monkeypatch.setattr(lobby, "advice_at", held)
    code, ann, bob = two_people(client)
    mover = ann if ann.state["current"] == 0 else bob
    legal = len(mover.state["legal"])
    mover.send({"type": "hints"})
    assert entered.wait(10)
    mover.move(mover.state["legal"][0]["move"])  # the table leaves the position
    go.set()
    adviser = client.app.state.server.rooms[code].advisers[mover.state["seat"]]
    until(lambda: bool(results) and not adviser.busy.locked())
    assert results == [None] and adviser.last is None
    assert adviser.bot.stats.iterations == legal  # one round of tries, not the budget
    mover.send({"type": "lang", "lang": "en"})  # a marker: no hints before its state
    assert mover.receive()["type"] == "state"


def test_a_fault_in_wording_the_hints_is_logged_with_its_table(client, monkeypatch, caplog):
    """Worded on the event loop since the advice is kept, a fault there went unlogged but for
    asyncio's "Task exception was never retrieved", naming no table."""
    def broken(*_args):
        raise KeyError("hint_win_margin")

    monkeypatch.setattr(lobby, "hints_message", broken)
    code, ann, bob = two_people(client)
    mover = ann if ann.state["current"] == 0 else bob
    with caplog.at_level(logging.ERROR, logger="loveletter.web"):
        mover.send({"type": "hints"})
        until(lambda: any("the hints for seat" in r.getMessage() for r in caplog.records))
    assert [r.getMessage() for r in caplog.records if "the hints" in r.getMessage()] == [
        f"the hints for seat {mover.state['seat']} of table {code} failed"]


def test_a_bot_moves_while_every_hint_thread_is_busy(client, monkeypatch):
    """Bots and hints shared one pool of threads: two people asking for hints at big tables held up
    every other table's bots until their searches ended (seconds each)."""

    released, calls, done = threading.Event(), [], []
    real = lobby.advice_at

    def held(*args):
        calls.append(args[1])
        released.wait(30)
        done.append(args[1])
        return real(*args)

    monkeypatch.setattr(lobby, "advice_at", held)
    asking = []
    for _ in range(lobby.THINKERS):  # every hint thread held
        _code, ann, bob = two_people(client)
        mover = ann if ann.state["current"] == 0 else bob
        mover.send({"type": "hints"})
        asking += [ann, bob]
    deadline = time.monotonic() + 10
    while len(calls) < lobby.THINKERS:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    made = create(client, players=2, bots={"1": "random"})
    carl = Seat(client, made["code"], made["secret"])
    rng = random.Random(3)
    while carl.state["current"] == 0:
        carl.random_move(rng)
    while carl.state["current"] == 1 and not carl.state["match_winners"]:  # the bot's move
        carl.receive()
    assert len(calls) == lobby.THINKERS and not done  # it came while every hint was still held
    released.set()
    for seat in asking:
        seat.close()
    carl.close()


def test_a_search_for_a_closed_connection_keeps_its_bot_until_it_ends(client, monkeypatch):
    """Closing the socket cancelled the hints' task, which let the bot go while its search went on in
    a thread: a reconnection could start a second search on the same bot at once."""
    started, released, calls = held_hints(monkeypatch)
    code, ann, bob = two_people(client)
    mover = ann if ann.state["current"] == 0 else bob
    mover.send({"type": "hints"})
    assert started.wait(10)
    mover.close()
    adviser = client.app.state.server.rooms[code].advisers[mover.state["seat"]]
    time.sleep(0.2)  # the closing is seen, and the task cancelled
    assert adviser.busy.locked()  # the search still runs: its bot is still taken
    again = Seat(client, code, mover.secret)
    started.clear()
    again.send({"type": "hints"})
    assert not started.wait(0.5) and len(calls) == 1  # the new search waits for the old
    released.set()
    assert again.receive()["type"] == "hints" and len(calls) == 1  # the same position: its advice again
    for seat in (again, bob if mover is ann else ann):
        seat.close()


def test_a_bot_thinks_at_once_and_moves_when_the_delay_is_over(database):
    """R7: the bot thought after the delay and its move went out when it was done, so an expert with
    one legal move (answering at once) was seen to move sooner, which told that its other card was
    the same (or, for a Countess, a King or a Prince). It now thinks at once and its move goes out
    when the delay is over, however long it thought."""
    store = Store(database)
    with TestClient(create_app(store, bot_delay=30)) as client:
        made = create(client, players=2, bots={"1": "random"})
        room = client.app.state.server.rooms[made["code"]]
        thinking = threading.Event()
        choice = room.table.bot_choice

        def bot_choice(seat, seen, at):
            thinking.set()
            return choice(seat, seen, at)

        room.table.bot_choice = bot_choice
        ann = Seat(client, made["code"], made["secret"])
        try:
            rng = random.Random(1)
            while ann.state["current"] == 0:
                ann.random_move(rng)
            moves = len(room.table.moves)
            assert thinking.wait(10)  # at once, not after the 30 seconds
            assert len(room.table.moves) == moves and not room.waiting.done()  # the move waits for the delay
        finally:
            room.waiting.cancel()  # (the server would wait for it as it stops)
            close_all()
    store.close()


def _sleeps_noted(monkeypatch) -> list[float]:
    """The server's waits (``asyncio.sleep`` in the lobby), noted in the list returned and not waited."""
    waits: list[float] = []
    asyncio_sleep = asyncio.sleep

    async def sleep(seconds, result=None):
        waits.append(seconds)
        return await asyncio_sleep(0, result)

    monkeypatch.setattr(lobby, "asyncio", types.SimpleNamespace(**{**vars(asyncio), "sleep": sleep}))
    return waits


def test_a_bot_waits_only_what_is_left_of_the_delay_after_thinking(database, monkeypatch):
    """The other half of the test above: the wait after the thinking is the delay less the time
    the bot thought (waiting the whole delay again puts the thinking back on top of it)."""
    waits = _sleeps_noted(monkeypatch)

    async def scenario():
        store = Store(database)
        server = Server(store, bot_delay=5)
        _, room, first = await _ann_against_a_bot(server)
        table = room.table
        choice = table.bot_choice

        def slow_choice(seat, seen, at):
            time.sleep(0.5)
            return choice(seat, seen, at)

        table.bot_choice = slow_choice
        table.play(0, first.notation(), 0)
        server.start_waiting(room)
        await asyncio.wait([room.waiting])  # (it ends cancelled: what comes next is scheduled anew)
        assert len(table.moves) == 2  # the bot moved
        store.close()

    asyncio.run(scenario())
    assert waits and 0 < waits[0] <= 4.5, waits


def test_a_stand_ins_move_goes_out_the_bot_delay_after_it_began_to_think(database, monkeypatch):
    """R7: once its timeout was over, a stand-in's move went out as soon as it was chosen, so how long
    an expert stand-in thought (0.08 s for a Prince and a Princess, 0.27 s for a Countess and a King)
    told the others a little of the hand it played for. It now waits out the bot delay, as a bot does."""
    waits = _sleeps_noted(monkeypatch)

    async def scenario():
        store = Store(database)
        server = Server(store, bot_delay=5)
        _, room, _ = await _ann_against_a_bot(server)  # (Ann, seat 0, to move)
        await server._bot_moves(room, 0, 60.0, stand_in=True)
        assert len(room.table.moves) == 1 and room.table.by_bot == {0}  # the stand-in played for Ann
        store.close()

    asyncio.run(scenario())
    assert waits[0] == 60.0 and 4 < waits[1] <= 5, waits


def test_watchers_coming_and_going_do_not_hold_a_bot_back(database):
    """Each connection and disconnection cancelled the bot's pending move and started its wait
    again: a watcher reloading the page faster than the bots' delay stalled the table."""
    store = Store(database)
    with TestClient(create_app(store, bot_delay=30)) as client:
        made = create(client, players=2, bots={"1": "random"})
        room = client.app.state.server.rooms[made["code"]]
        ann = Seat(client, made["code"], made["secret"])
        rng = random.Random(1)
        while ann.state["current"] == 0:
            ann.random_move(rng)
        pending = room.waiting
        assert pending is not None and not pending.done()
        for _ in range(5):
            Seat(client, made["code"], None).close()
        assert room.waiting is pending and not pending.done()
        close_all()
    store.close()


def test_a_rematch_seats_the_players_at_a_new_table(client):
    made = create(client, players=2, bots={"1": "random"})
    early = client.post(f"/api/tables/{made['code']}/rematch", json={"secret": made["secret"]})
    assert early.status_code == 400 and early.json()["key"] == "web_rematch_not_finished"
    code, secret = finished_bot_match(client)
    assert client.post(f"/api/tables/{code}/rematch", json={"secret": "x" * 43}).json()["key"] == "web_bad_secret"
    watcher = Seat(client, code, None)
    again = client.post(f"/api/tables/{code}/rematch", json={"secret": secret}).json()
    assert again["code"] != code and again["seat"] == 0 and again["secret"] != secret
    assert watcher.receive()["rematch"] == again["code"]  # everyone at the old table is shown the way
    ann = Seat(client, again["code"], again["secret"])
    assert ann.state["seat"] == 0 and ann.state["bots"] == [None, "random"] and ann.state["moves"] == 0
    assert ann.state["target"] == 1 and ann.state["tokens"] == [0, 0]
    twice = client.post(f"/api/tables/{code}/rematch", json={"secret": secret})
    assert twice.json()["key"] == "web_rematch_twice"


def finished_two_people_match(client):
    """Ann and Bob play a one-token match to its end and stay at the table."""
    code, ann, bob = two_people(client, target=1)
    seats, rng = {0: ann, 1: bob}, random.Random(4)
    while not ann.state["match_winners"]:
        mover, other = seats[ann.state["current"]], seats[1 - ann.state["current"]]
        mover.random_move(rng)
        other.receive()
    return code, ann, bob


@pytest.mark.usefixtures("seats_open_at_once")
def test_a_rematch_keeps_the_old_players_seats_from_watchers(client):
    code, ann, bob = finished_two_people_match(client)
    again = client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret}).json()
    assert again["seat"] == 1  # Bob asked first, and sits in his own seat again
    new = again["code"]
    assert new not in {t["code"] for t in client.get("/api/tables").json()}  # Ann's seat is not open to all
    watcher = Seat(client, new, None)
    assert watcher.state["free_seats"] == [0] and watcher.state["open_seats"] == []
    for lang, says in (("en", "The free seats are kept for the last match's players while they decide"),
                       ("nl", "De vrije stoelen worden vrijgehouden voor de spelers van het vorige spel")):
        refused = client.post(f"/api/tables/{new}/join?lang={lang}", json={"name": "Cy"})
        assert refused.status_code == 400 and refused.json()["message"].startswith(says)
    ann.close()  # Ann leaves the finished table without coming along: her seat opens
    assert watcher.receive()["open_seats"] == [0]
    assert new in {t["code"] for t in client.get("/api/tables").json()}
    ann = Seat(client, code, ann.secret)  # and is kept again when she comes back to it
    assert watcher.receive()["open_seats"] == []
    ann.close()
    assert watcher.receive()["open_seats"] == [0]
    assert client.post(f"/api/tables/{new}/join", json={"name": "Cy"}).json()["seat"] == 0
    assert watcher.receive()["free_seats"] == []  # and the match begins
    bob.close()


def state_with_open_seats(seat: Seat, tries: int = 5) -> dict:
    """The first state ``seat`` is told with a seat open at its table, after those told before it
    (someone coming back, a timer of a seat kept); the last of ``tries`` if none has."""
    state = seat.receive()
    for _ in range(tries - 1):
        if state["open_seats"]:
            break
        state = seat.receive()
    return state


def test_a_players_rematch_seat_is_kept_through_a_dropped_connection(client, monkeypatch):
    """A second's blip in Ann's connection to the finished table opened her kept seat at the rematch,
    and someone watching it took it: it is kept for her :data:`~loveletter.web.lobby.KEPT_THROUGH_A_DROP`
    seconds after she left, and opens then if she is not back."""
    monkeypatch.setattr(lobby, "KEPT_THROUGH_A_DROP", 3.0)
    server = client.app.state.server
    code, ann, bob = finished_two_people_match(client)
    new = client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret}).json()["code"]
    watcher = Seat(client, new, None)
    ann.close()
    until(lambda: not server.rooms[code].connected(0))
    assert client.post(f"/api/tables/{new}/join", json={"name": "Cy"}).json()["key"] == "web_seat_kept"
    ann = Seat(client, code, ann.secret)  # back: the time since her first leaving is not counted
    time.sleep(3.5)
    assert client.post(f"/api/tables/{new}/join", json={"name": "Cy"}).json()["key"] == "web_seat_kept"
    ann.close()  # gone for good: the seat opens, and the watchers are told
    # (after those of her coming back, and of the first leaving's time)
    assert state_with_open_seats(watcher)["open_seats"] == [0]
    assert client.post(f"/api/tables/{new}/join", json={"name": "Cy"}).json()["seat"] == 0
    watcher.close()
    bob.close()


def test_a_seat_kept_for_a_player_gone_before_the_rematch_was_asked_for_opens_in_time(client, monkeypatch):
    """Ann gone from the finished table a moment before Bob asks for the rematch: her seat there is
    kept for the rest of the time, and then opens, those watching it told (nothing else happens to
    tell them)."""
    monkeypatch.setattr(lobby, "KEPT_THROUGH_A_DROP", 3.0)
    server = client.app.state.server
    code, ann, bob = finished_two_people_match(client)
    ann.close()
    until(lambda: not server.rooms[code].connected(0))
    new = client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret}).json()["code"]
    watcher = Seat(client, new, None)
    assert watcher.state["open_seats"] == []
    assert state_with_open_seats(watcher)["open_seats"] == [0]
    watcher.close()
    bob.close()


def test_a_connection_made_while_a_move_is_stored_is_told_the_state_after_it(client, monkeypatch):
    """A page that took a slow store for a dead connection connected again, was told the state
    without its move, said the move had not reached the table, and the move played again was
    refused as stale: a new connection's first state comes once the move being stored is applied."""
    code, ann, bob = two_people(client)
    store = client.app.state.server.store
    storing, held, entered = store.add_move, threading.Event(), threading.Event()

    def slow(*args, **kwargs):
        entered.set()
        held.wait(30)
        return storing(*args, **kwargs)

    monkeypatch.setattr(store, "add_move", slow)
    mover = ann if ann.state["legal"] else bob
    moves = mover.state["moves"]
    mover.send({"type": "move", "move": mover.state["legal"][0]["move"], "at": moves})
    assert entered.wait(30)
    arrived = []
    again = threading.Thread(target=lambda: arrived.append(Seat(client, code, mover.secret)))
    again.start()
    again.join(1)
    assert not arrived  # (its first state waits for the move)
    held.set()
    again.join(30)
    assert arrived and arrived[0].state["moves"] == moves + 1


@pytest.mark.parametrize("asked", ["join", "new table", "rematch's table", "rematch's seat", "read back"])
def test_a_seat_or_table_stored_slowly_holds_up_no_other_request(client, monkeypatch, asked):
    """They were stored (and a table put away read back) on the event loop: while a locked database
    (SQLite's, held by another process) kept one join waiting, every table on the server stood still."""
    store = client.app.state.server.store
    if asked in ("join", "read back"):
        code = create(client, players=2)["code"]
        method, ask = "take_seat", lambda: client.post(f"/api/tables/{code}/join", json={"name": "Bob"})
        if asked == "read back":  # the table put away: the join reads it back first
            monkeypatch.setattr(lobby, "PUT_AWAY_AFTER", 0)
            assert client.app.state.server.put_away() == [code]
            method = "load"
    elif asked == "new table":
        method, ask = "create", lambda: client.post("/api/tables", json={"name": "Cy"})
    else:
        code, secret = finished_bot_match(client)
        method = "create" if asked == "rematch's table" else "take_seat"
        ask = lambda: client.post(f"/api/tables/{code}/rematch", json={"secret": secret})  # noqa: E731
    storing, held, entered = getattr(store, method), threading.Event(), threading.Event()

    def locked(*args, **kwargs):
        entered.set()
        held.wait(30)
        return storing(*args, **kwargs)

    monkeypatch.setattr(store, method, locked)
    answers, listed = [], []
    waiting = threading.Thread(target=lambda: answers.append(ask()))
    waiting.start()
    try:
        assert entered.wait(30)
        lister = threading.Thread(target=lambda: listed.append(client.get("/api/tables")))
        lister.start()
        lister.join(10)
        assert listed and listed[0].status_code == 200  # answered while the other waited for the database
        assert not answers
    finally:
        held.set()
        waiting.join(30)
    assert answers[0].status_code == 200, answers[0].text


def _three_people_after_a_match(client):
    """Ann, Bob and Cor play a one-token match to its end; Bob asks for the rematch, and Cor leaves
    the finished table (his seat there opens to newcomers). The finished table's code, the rematch's,
    and the three players' credentials."""
    made = create(client, players=3, target=1)
    code = made["code"]
    joined = [client.post(f"/api/tables/{code}/join", json={"name": name}).json() for name in ("Bob", "Cor")]
    secrets_ = [made["secret"], *(j["secret"] for j in joined)]
    seats, rng = [Seat(client, code, secret) for secret in secrets_], random.Random(2)
    while not seats[0].state["match_winners"]:
        mover = seats[seats[0].state["current"]]
        mover.random_move(rng)
        for other in seats:
            if other is not mover:
                other.receive()
    new = client.post(f"/api/tables/{code}/rematch", json={"secret": secrets_[1]}).json()["code"]
    seats[2].close()
    return code, new, secrets_, seats


@pytest.mark.usefixtures("seats_open_at_once")
def test_a_newcomer_storing_a_seat_and_its_old_player_coming_back_do_not_both_take_it(client, monkeypatch):
    """Dee's join is being stored (slowly) when Cor asks for the rematch: without the rematch table's
    lock, both took seat 2, and Dee's join failed as "another server stored it first"."""
    code, new, secrets_, seats = _three_people_after_a_match(client)
    store = client.app.state.server.store
    taking, held, entered = store.take_seat, threading.Event(), threading.Event()

    def slow_for_dee(table, seat, name, *rest):
        if name == "Dee":
            entered.set()
            held.wait(30)
        return taking(table, seat, name, *rest)

    monkeypatch.setattr(store, "take_seat", slow_for_dee)
    dee, cor = [], []
    joining = threading.Thread(target=lambda: dee.append(client.post(f"/api/tables/{new}/join", json={"name": "Dee"})))
    joining.start()
    try:
        assert entered.wait(30)
        coming = threading.Thread(target=lambda: cor.append(
            client.post(f"/api/tables/{code}/rematch", json={"secret": secrets_[2]})))
        coming.start()
        coming.join(1)
    finally:
        held.set()
        joining.join(30)
    coming.join(30)
    assert dee[0].status_code == 200 and dee[0].json()["seat"] == 2
    assert cor[0].status_code == 400 and cor[0].json()["key"] == "web_seat_taken_away"
    for seat in seats[:2]:
        seat.close()


def _asked_at_once_while_stored_slowly(monkeypatch, store, storing: str, asks: list) -> list:
    """The answers to ``asks`` (each a call that sends one request), all sent at once from threads of
    their own, while the store's method ``storing`` takes 50 ms a call."""
    stored = getattr(store, storing)

    def slow(*args, **kwargs):
        time.sleep(0.05)
        return stored(*args, **kwargs)

    monkeypatch.setattr(store, storing, slow)
    answers = []
    asking = [threading.Thread(target=lambda ask=ask: answers.append(ask())) for ask in asks]
    for thread in asking:
        thread.start()
    for thread in asking:
        thread.join(60)
    return answers


def test_new_tables_asked_for_at_once_are_held_to_the_limit(client, monkeypatch):
    """Counted before a table was stored and noted after, off the event loop: twenty-two asked for at
    once were all made (the limit is twenty per client)."""
    answers = _asked_at_once_while_stored_slowly(
        monkeypatch, client.app.state.server.store, "create",
        [lambda: client.post("/api/tables", json={"name": "Ann"})] * (lobby.NEW_TABLES + 2))
    assert sorted(a.status_code for a in answers) == [200] * lobby.NEW_TABLES + [400, 400]
    assert {a.json()["key"] for a in answers if a.status_code == 400} == {"web_too_many_tables"}
    assert len(client.app.state.server.rooms) == lobby.NEW_TABLES


def test_seats_asked_for_at_once_at_many_tables_are_held_to_the_limit(client, monkeypatch):
    """Counted before a seat was stored and noted after: joins to many tables at once (each holding
    only its own table's lock) all passed the limit."""
    monkeypatch.setattr(lobby, "JOINS", 2)
    server = client.app.state.server
    tables = [client.portal.call(server.create, NewTable(name="Ann"), "127.0.0.1")["code"] for _ in range(5)]
    answers = _asked_at_once_while_stored_slowly(
        monkeypatch, server.store, "take_seat",
        [lambda code=code: client.post(f"/api/tables/{code}/join", json={"name": "Bob"}) for code in tables])
    assert sorted(a.status_code for a in answers) == [200, 200, 400, 400, 400]
    assert {a.json()["key"] for a in answers if a.status_code == 400} == {"web_too_many_joins"}


@pytest.mark.usefixtures("seats_open_at_once")
def test_a_player_whose_seat_was_taken_while_away_is_told_so(client):
    """Cor leaves the finished table, a newcomer takes his open seat at the rematch, and Cor comes
    back: he was told the free seats are kept for the last match's players, which he is one of."""
    code, new, secrets_, (ann, bob, _) = _three_people_after_a_match(client)  # Ann's seat is still kept for her
    assert client.post(f"/api/tables/{new}/join", json={"name": "Dee"}).json()["seat"] == 2
    for lang, says in (("en", "Your seat was taken while you were away, and the free seats are kept for the last"
                              " match's other players while they decide; you can watch."),
                       ("nl", "Je stoel is ingenomen terwijl je weg was, en de vrije stoelen worden vrijgehouden"
                              " voor de andere spelers van het vorige spel zolang ze nog kiezen; je kunt wel kijken.")):
        refused = client.post(f"/api/tables/{code}/rematch?lang={lang}", json={"secret": secrets_[2]})
        assert refused.status_code == 400 and refused.json()["message"] == says
    assert Seat(client, new, None).state["free_seats"] == [0]  # nothing changed: Ann's seat still waits for her
    assert client.post(f"/api/tables/{code}/rematch", json={"secret": secrets_[0]}).json()["seat"] == 0
    # the rematch full now: he was told "this table has no free seat", and read it as the finished one
    for lang, says in (("en", "Your seat was taken while you were away, and the next match has no free seat;"
                              " you can watch it."),
                       ("nl", "Je stoel is ingenomen terwijl je weg was, en het volgende spel heeft geen vrije"
                              " stoel meer; je kunt wel kijken.")):
        refused = client.post(f"/api/tables/{code}/rematch?lang={lang}", json={"secret": secrets_[2]})
        assert refused.status_code == 400 and refused.json() == {"type": "error", "key": "web_seat_taken_full",
                                                                  "message": says}
    ann.close()
    bob.close()


@pytest.mark.usefixtures("seats_open_at_once")
def test_the_last_matchs_players_names_are_kept_for_them_at_the_rematch(client):
    """Ann, gone from the finished table, could take her open seat from the lobby under her own name
    and then come on through the finished table as well: one person in two seats, both "Ann"."""
    code, ann, bob = finished_two_people_match(client)
    new = client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret}).json()["code"]
    ann.close()
    watcher = Seat(client, new, None)
    assert watcher.state["open_seats"] == [0]
    # (the name told is the one kept, as the last match showed it)
    for lang, name, says in (("en", "ann", "Ann played the last match: the name is kept for them"),
                             ("nl", "ANN\u200b", "Ann speelde het vorige spel: die naam blijft voor die speler gereserveerd")):
        refused = client.post(f"/api/tables/{new}/join?lang={lang}", json={"name": name})
        assert refused.status_code == 400 and refused.json()["message"].startswith(says)
    taken = client.post(f"/api/tables/{new}/join", json={"name": "Bob"})
    assert taken.json()["key"] == "web_name_taken"  # Bob came on: his name is his there
    assert Seat(client, new, None).state["free_seats"] == [0]  # nothing changed
    assert client.post(f"/api/tables/{code}/rematch", json={"secret": ann.secret}).json()["seat"] == 0
    assert client.post(f"/api/tables/{new}/join", json={"name": "Cy"}).json()["key"] == "web_table_full"
    assert Seat(client, new, None).state["names"][:2] == ["Ann", "Bob"]
    bob.close()


def test_the_players_who_stay_take_their_own_seats_at_the_rematch(client):
    code, ann, bob = finished_two_people_match(client)
    assert client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret}).json()["seat"] == 1
    joined = client.post(f"/api/tables/{code}/rematch", json={"secret": ann.secret}).json()
    assert joined["seat"] == 0
    ann_again = Seat(client, joined["code"], joined["secret"])
    assert ann_again.state["names"][:2] == ["Ann", "Bob"] and ann_again.state["free_seats"] == []
    for seat in (ann, bob, ann_again):
        seat.close()


@pytest.mark.usefixtures("seats_open_at_once")
def test_a_player_going_on_takes_their_own_seat_even_when_another_seat_is_open(client):
    """With Ann gone from the finished table her seat 0 was open at the rematch, and Bob, asking first,
    was given it (the lowest open seat) rather than his own seat 1, which then stood open to anyone."""
    code, ann, bob = finished_two_people_match(client)
    ann.close()
    assert client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret}).json()["seat"] == 1
    assert client.post(f"/api/tables/{code}/rematch", json={"secret": ann.secret}).json()["seat"] == 0
    bob.close()


def test_a_rematch_and_who_went_on_survive_a_restart(database):
    """The rematch's code and the seats that went on lived only in memory: after a restart the next
    player asking was given another new table, and one who had gone on was let go on twice."""
    with TestClient(create_app(Store(database), bot_delay=0)) as client:
        code, ann, bob = finished_two_people_match(client)
        bob_on = client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret}).json()
        ann.close()
        bob.close()
        close_all()
    with TestClient(create_app(Store(database), bot_delay=0)) as client:  # a new process, same database
        twice = client.post(f"/api/tables/{code}/rematch", json={"secret": bob.secret})
        assert twice.json()["key"] == "web_rematch_twice"
        back = Seat(client, code, ann.secret)  # Ann back at the finished table: her seat is kept again
        assert back.state["rematch"] == bob_on["code"]
        watcher = Seat(client, bob_on["code"], None)
        assert watcher.state["open_seats"] == [] and watcher.state["free_seats"] == [0]
        ann_on = client.post(f"/api/tables/{code}/rematch", json={"secret": ann.secret}).json()
        assert ann_on["code"] == bob_on["code"] and ann_on["seat"] == 0
        for seat in (back, watcher):
            seat.close()


def _ends_the_round(table, action) -> bool:
    trial = table.match.round.clone()
    trial.apply(action)
    return trial.over


async def _ann_against_a_bot(server):
    """A table of Ann against a random bot (its code and room), and a first move of Ann's that does
    not end round 1 (a Baron could), so the bot moves next; a deal with no such move for her (Baron
    and Princess) is dealt again."""
    while True:
        made = await server.create(NewTable(name="Ann", players=2, bots={"1": "random"}))
        room = server.rooms[made["code"]]
        safe = [a for a in room.table.view_for(0).legal_actions if not _ends_the_round(room.table, a)]
        if safe:
            return made["code"], room, safe[0]


def test_a_bot_move_being_stored_is_not_dropped_by_a_reconnect(database):
    """A connection opening while a bot's move is being stored must not cancel it half done (the
    move would be in the database but not on the table, and the table would stall)."""

    async def scenario():
        store = Store(database)
        server = Server(store, bot_delay=0)
        code, room, first = await _ann_against_a_bot(server)
        table = room.table
        storing = table.store_move

        def slow_store(action, by_bot):
            time.sleep(0.3)
            storing(action, by_bot)

        table.store_move = slow_store
        table.play(0, first.notation(), 0)
        server.start_waiting(room)  # the bot's turn
        await asyncio.sleep(0.15)  # the bot is storing its move now
        server.start_waiting(room)  # as when a browser connects
        # Wait (generously: the machine may be busy) for the bot's move to be stored and applied;
        # a cancelled store leaves it stored but never applied, and this times out.
        stored: list[str] = []
        for _ in range(200):
            await asyncio.sleep(0.05)
            stored = next(t for t in store.load_all() if t.code == code).moves
            if len(stored) >= 2 and len(table.moves) >= 2:
                break
        assert len(stored) >= 2 and table.moves == stored[: len(table.moves)] and len(table.moves) >= 2
        store.close()

    asyncio.run(scenario())


def test_the_servers_thinking_budget_goes_to_its_experts(database):
    # ``serve --budget``: the expert bots of new and reloaded tables, and the hints
    with TestClient(create_app(Store(database), bot_delay=0, budget=77)) as client:
        made = create(client, players=3, bots={"1": "expert", "2": "beginner"})
        table = client.app.state.server.rooms[made["code"]].table
        assert table.bots[1].iterations == 77
        ann = Seat(client, made["code"], made["secret"])
        while not ann.state["legal"]:
            ann.receive()
        ann.send({"type": "hints"})
        assert ann.receive()["type"] == "hints"
        assert client.app.state.server.rooms[made["code"]].advisers[0].bot.iterations == 77
        ann.close()
    with TestClient(create_app(Store(database), bot_delay=0, budget=55)) as client:
        assert client.app.state.server.rooms[made["code"]].table.bots[1].iterations == 55
    with TestClient(create_app(Store(database), bot_delay=0)) as client:  # none given: the default
        assert client.app.state.server.rooms[made["code"]].table.bots[1].iterations == DEFAULT_ITERATIONS


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_spy_guessed_or_kept_is_named_in_the_moves(lang):
    """The Spy is card 0 (false in Python): a Guard naming it, or a Chancellor keeping it, lost its
    name in the move list, the guess buttons and the hints."""
    from loveletter.engine import Card
    from loveletter.i18n import Translator
    from loveletter.web.messages import move_entry

    t = Translator(lang)
    guess = move_entry(Action.parse("guard 1 spy"), ["A", "B"], t)
    assert guess["guess"] == "spy" and guess["guess_name"] == t.card(Card.SPY)
    keep = move_entry(Action.parse("chancellor keep spy bottom guard,guard"), ["A", "B"], t)
    assert keep["keep"] == "spy" and keep["keep_name"] == t.card(Card.SPY)
    assert keep["bottom"] == [t.card(Card.GUARD)] * 2


@pytest.mark.parametrize(("lang", "says"), [
    ("en", "You must play the Countess while holding the {card} (R4.4)"),
    ("nl", "Je moet de Gravin spelen met {card} in de hand (R4.4)"),
])
def test_a_card_the_countess_rule_blocks_says_why_as_a_sentence(lang, says):
    """The page shows, under a card that may not be played, why: to the player, as a sentence."""
    from loveletter.engine import CLASSIC, Card, Match
    from loveletter.i18n import Translator
    from loveletter.web.messages import state_message
    from loveletter.web.table import GameTable, SeatPlan, Settings

    def blocked_at_the_start(seed: int) -> bool:
        rnd = Match(CLASSIC, 2, target=2, seed=seed).round
        return Card.COUNTESS in rnd.hands[rnd.current] and bool({Card.KING, Card.PRINCE} & set(rnd.hands[rnd.current]))

    seed = next(s for s in range(10_000) if blocked_at_the_start(s))
    table = GameTable("T", Settings("classic", 2, 2, seed, [SeatPlan()] * 2), Store("sqlite://"))
    table.store.create(table.code, table.settings.as_json(), False)
    for name in ("Ann", "Bob"):
        join(table, name)
    t = Translator(lang)
    seat = table.match.round.current
    other = next(c for c in table.match.round.hands[seat] if c is not Card.COUNTESS)
    shown = t.the(other) if lang == "nl" else t.card(other)
    assert state_message(table, seat, t)["blocked"] == {other.word: says.format(card=shown)}


@pytest.mark.parametrize(("lang", "says", "one"), [
    ("en", "Keep the Handmaid; under the deck, in this order: Guard, Priest", "Keep the Guard; the Priest goes under the deck"),
    ("nl", "Houd het Kamermeisje; onder de trekstapel, in deze volgorde: Wachter, Priester",
     "Houd de Wachter; de Priester gaat onder de trekstapel"),
])
def test_a_chancellors_choice_is_named_for_a_screen_reader_with_the_cards_article(lang, says, one):
    """The page put "de" before every card kept ("Houd de Kamermeisje"): the server names it, with its
    article; one card under the deck, with no order ("in this order: Priest" was said of it)."""
    from loveletter.web.messages import move_entry

    keep = move_entry(Action.parse("chancellor keep handmaid bottom guard,priest"), ["A", "B"], Translator(lang))
    assert keep["keep_label"] == says
    assert move_entry(Action.parse("chancellor keep guard bottom priest"), ["A", "B"], Translator(lang))["keep_label"] == one
    assert move_entry(Action.parse("handmaid"), ["A", "B"], Translator(lang))["keep_label"] is None


@pytest.mark.parametrize(("lang", "says"), [("en", "Ann and Bob"), ("nl", "Ann en Bob")])
def test_winners_together_are_named_as_the_terminal_names_them(lang, says):
    """A full tie (both keep a Prince, equal discard totals) was "won by Ann, Bob" on the page."""
    from loveletter.web.messages import state_message
    from loveletter.web.table import GameTable, SeatPlan, Settings

    table = GameTable("T", Settings("classic", 2, 1, 0, [SeatPlan()] * 2), Store("sqlite://"))
    table.store.create(table.code, table.settings.as_json(), False)
    for name in ("Ann", "Bob"):
        join(table, name)
    table.match = _tied_match()
    state = state_message(table, 0, Translator(lang))
    assert state["match_winners"] == [0, 1] and state["previous"]["winners"] == [0, 1]
    assert state["match_won_by"] == state["previous"]["won_by"] == says


def test_hints_in_the_chancellors_choice():
    """The page now asks for hints when the Chancellor's cards are to be chosen too: the server gives
    a figure for each card kept, named in the move list (a Spy kept included)."""
    from loveletter.bots.expert import ExpertBot
    from loveletter.engine import EDITION_2019, Card, Match, Phase, view
    from loveletter.i18n import Translator
    from loveletter.web.messages import advice_at, hints_message, move_entry

    for seed in range(200):
        match = Match(EDITION_2019, 2, seed=seed, starter=0)
        if Card.CHANCELLOR in match.round.hands[0]:
            match.apply(next(a for a in match.round.legal_actions() if a.card is Card.CHANCELLOR))
            break
    assert match.round.phase is Phase.CHANCELLOR and match.current == 0
    v = view(match, 0)
    advice = hints_message(advice_at(v, 1, ExpertBot(seed=0, budget=10)), Translator("nl"))
    assert {o["move"] for o in advice["odds"]} == {a.notation() for a in v.legal_actions}
    assert all(move_entry(a, ["A", "B"], Translator("nl"))["keep_name"] for a in v.legal_actions)


class _StuckSocket:
    """A WebSocket whose client never reads (its sends never finish) and never speaks."""

    def __init__(self) -> None:
        self.sent = 0

    async def send_text(self, message):
        self.sent += 1
        await asyncio.Event().wait()

    async def receive(self):
        await asyncio.Event().wait()


def test_a_client_that_stops_reading_holds_up_nobody_else(database):
    """A watcher that sent many messages and read none left the server waiting on its socket while
    telling everyone of a move: the bot never moved, and a join, a rematch, every later message
    waited behind it. Now what it is told waits in its own queue."""

    async def scenario():
        store = Store(database)
        server = Server(store, bot_delay=0)
        _, room, first = await _ann_against_a_bot(server)
        stuck = Connection(_StuckSocket(), None, Translator("en"))
        room.connections.append(stuck)
        ann = Connection(_StuckSocket(), 0, Translator("en"))  # (Ann's own socket is not what is tested)
        await asyncio.wait_for(server.handle(room, ann, {"type": "move", "move": first.notation(), "at": 0}), 5)
        server.start_waiting(room)
        for _ in range(200):  # the bot's move (generously: the machine may be busy)
            if len(room.table.moves) >= 2:
                break
            await asyncio.sleep(0.05)
        assert len(room.table.moves) >= 2
        store.close()

    asyncio.run(scenario())


def test_a_change_is_told_to_many_spectators_by_one_state_for_each_seat_and_language(monkeypatch):
    """A state was made for every connection: a hundred spectators cost every move a tenth of a
    second of the loop that serves every table. Now one is made for each seat and language, and each
    connection is told the one for its own seat and language."""
    made: list[tuple[int | None, str]] = []
    real = lobby.state_message

    def counted(table, seat, t):
        made.append((seat, t.language))
        return real(table, seat, t)

    async def scenario():
        server = Server(Store("sqlite://"), bot_delay=0)
        _, room, _ = await _ann_against_a_bot(server)
        ann = Connection(_StuckSocket(), 0, Translator("nl"))
        watchers = [Connection(_StuckSocket(), None, Translator("en" if i % 3 else "nl")) for i in range(30)]
        room.connections[:] = [ann, *watchers]
        monkeypatch.setattr(lobby, "state_message", counted)
        server.tell_all(room)
        assert sorted(made, key=str) == [(0, "nl"), (None, "en"), (None, "nl")]
        shared = server._room_state(room)
        for connection in room.connections:
            told = json.loads(connection.outbox.get_nowait())
            assert told == {**real(room.table, connection.seat, connection.t), **shared}
            assert connection.outbox.empty()

    asyncio.run(scenario())


def test_a_connection_is_dropped_once_its_messages_pile_up_or_one_waits_too_long(monkeypatch):
    async def scenario():
        piling = Connection(_StuckSocket(), None, Translator("en"))
        for i in range(OUTBOX):
            piling.send({"type": "state", "n": i})
        assert not piling.dropped.is_set()
        piling.send({"type": "state", "n": OUTBOX})
        assert piling.dropped.is_set() and await asyncio.wait_for(piling.next_text(), 1) is None

        monkeypatch.setattr(lobby, "SEND_WAIT", 0.05)
        waiting = Connection(_StuckSocket(), None, Translator("en"))
        delivering = asyncio.ensure_future(waiting.deliver())
        waiting.send({"type": "state"})
        await asyncio.wait_for(waiting.next_text(), 5)  # None: dropped, its message never out
        assert waiting.dropped.is_set() and waiting.socket.sent == 1 and delivering.done()

        listening = asyncio.ensure_future(Connection(_StuckSocket(), None, Translator("en")).next_text())
        await asyncio.sleep(0.01)
        listening.cancel()  # as at the server's shutdown: the waits it started go too
        await asyncio.gather(listening, return_exceptions=True)
        await asyncio.sleep(0.01)
        assert asyncio.all_tasks() == {asyncio.current_task()}

    asyncio.run(scenario())



def test_a_database_is_one_servers_while_it_runs(database, tmp_path):
    """Two servers on one database each served their own copy of a table: a server claims its
    database (`loveletter serve` before it opens), and a second claim is refused until the first
    is let go (as when its process ends, however it ends), a claim through a link to the file too.
    A database it may write to passes."""
    first = claim(database)
    assert first is not None
    with pytest.raises(InUse):
        claim(database)
    if database.startswith("sqlite"):
        (tmp_path / "link.sqlite3").symlink_to(tmp_path / "web.sqlite3")
        with pytest.raises(InUse):
            claim(f"sqlite:///{tmp_path / 'link.sqlite3'}")
    first.close()
    again = claim(database)
    assert again is not None
    again.close()
    Store(database).check_writable()


def _end_session(database: str, pid: int) -> None:
    """End PostgreSQL's session ``pid`` (as a restart would), and wait until it is gone."""
    other = create_engine(database, poolclass=NullPool)
    try:
        with other.connect() as db:
            db.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})

            def gone() -> bool:
                db.commit()  # (pg_stat_activity is read once a transaction: asked again in a new one)
                return not db.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}).scalar()

            until(gone, 10)
            assert gone(), f"session {pid} still there"
    finally:
        other.dispose()


def test_a_hold_on_postgresql_lost_with_its_connection_is_taken_again_or_given_up(database):
    """The advisory lock is its connection's: PostgreSQL restarted, or the connection cut, it went
    unnoticed, and a second server started on the database (each then served its own copy of the
    tables). The hold finds its connection gone and takes the lock again, or finds another server
    holding it now. (An SQLite file's lock is a file's, held while the process lives.)"""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    from loveletter.web.store import Hold

    hold = claim(database)
    if not database.startswith("postgresql"):
        assert hold is not None and not isinstance(hold, Hold)
        hold.close()
        return
    assert isinstance(hold, Hold) and hold.check() == "held"

    def cut() -> None:  # the hold's connection ended, as by a restart
        _end_session(database, hold.session)

    try:
        cut()
        assert hold.check() == "taken again"
        with pytest.raises(InUse):
            claim(database)
        # its connection cut, the session that held the lock not yet gone: not another's, ended
        held_still = hold.connection
        hold.connection = None
        assert hold.check() == "unknown" and hold.check() == "taken again"
        with pytest.raises(DBAPIError):  # (ended by the hold)
            held_still.execute(text("SELECT 1"))
        cut()
        second = claim(database)  # a server started while the lock was lost
        assert second is not None and hold.check() == "lost"
        second.close()
    finally:
        hold.close()


def test_a_pooled_connection_the_database_dropped_is_not_used(database):
    """After PostgreSQL dropped the pool's connections (a restart), the first write on each failed, and
    a person's move was refused ("could not store that just now")."""
    from sqlalchemy import text

    store = Store(database)
    with store.engine.connect() as db:  # (back in the pool once closed)
        pid = db.execute(text("SELECT pg_backend_pid()" if database.startswith("postgresql") else "SELECT 0")).scalar()
    if database.startswith("postgresql"):
        _end_session(database, pid)
    store.check_writable()  # (a write: it failed on the dropped connection)
    store.close()


def test_a_server_on_postgresql_says_its_hold_taken_again_and_stops_once_another_has_it(capsys):
    from loveletter.web import serve as serving

    class Told:
        said = iter(["held", "taken again", "unknown", "held", "lost", "held"])

        def check(self) -> str:
            return next(self.said)

    lost = threading.Event()
    serving.watch_hold(Told(), Translator("en"), threading.Event(), lost, 0.001, "db")  # type: ignore[arg-type]
    assert capsys.readouterr().err.splitlines() == [
        "loveletter serve: the connection that held the database for this server was lost (PostgreSQL restarted,"
        " or the connection cut): the database is held again",
        "loveletter serve: another server took the database while the connection that held it for this one was"
        " lost: this server stops, and the other goes on"]
    assert lost.is_set()
    lost.clear()
    quiet = threading.Event()
    quiet.set()  # the server stopped: no more asking
    serving.watch_hold(Told(), Translator("en"), quiet, lost, 0.001, "db")  # type: ignore[arg-type]
    assert not lost.is_set()


def test_a_server_stops_with_status_1_once_its_database_is_lost(monkeypatch, tmp_path, capsys):
    """Told so by its watcher, the server shut down as an operator's SIGTERM does, status 143 (and, in
    the instant uvicorn had put its handlers back, the process ended there): it stops itself now, and
    says so by its status. (A hold that finds another server has the database, on a real server.)"""
    from loveletter.web import serve as serving

    class Lost:
        def check(self) -> str:
            return "lost"

        def close(self) -> None:
            pass

    monkeypatch.setattr(serving, "Hold", Lost)
    monkeypatch.setattr(serving, "claim", lambda url: Lost())
    monkeypatch.setattr(serving, "HOLD_CHECK_EVERY", 0.05)
    # uvicorn's own logging set up would close pytest's capturing handlers (every later test erred)
    real = serving.run_server
    monkeypatch.setattr(serving, "run_server", lambda app, listeners, **options: real(app, listeners, log_config=None,
                                                                                         **options))
    port = free_port()
    done: list[int] = []
    serving_thread = threading.Thread(target=lambda: done.append(serving.serve(
        "127.0.0.1", port, f"sqlite:///{tmp_path / 'web.sqlite3'}", 0, None, Translator("en"))), daemon=True)
    serving_thread.start()
    serving_thread.join(30)
    assert done == [1]
    assert capsys.readouterr().err.strip().endswith("this server stops, and the other goes on")


@pytest.mark.parametrize("how", ["replaced", "removed"])
def test_an_sqlite_file_replaced_or_removed_is_found_out_and_what_the_server_had_rescued(tmp_path, how):
    """A file replaced while the server ran (a backup put back by a rename), or its folder removed,
    went unnoticed: the moves went on into the file the server had open, which no path named any
    more, and were lost when it stopped. Its hold finds that out, and copies that file, with every
    move stored in it, beside the path (its user's alone)."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "web.sqlite3"
    url = f"sqlite:///{path}"
    store = Store(url)
    hold = claim(url)
    assert isinstance(hold, storing.FileHold) and hold.check() == "held"
    store.create("ABCD", {"players": 2}, private=False)
    if how == "replaced":
        Store(f"sqlite:///{tmp_path / 'backup.sqlite3'}").close()
        os.replace(tmp_path / "backup.sqlite3", path)
    else:
        for made in folder.iterdir():
            made.unlink()
        folder.rmdir()
    assert hold.check() == "replaced"
    store.add_move("ABCD", 0, "guard 1 priest", by_bot=False)  # (stored in the file held open)
    store.close()
    if how == "removed":
        with pytest.raises(FileNotFoundError):
            hold.rescue()
        folder.mkdir()  # (put back: the copy is made beside the path)
    copy = hold.rescue()
    hold.close()
    assert copy.startswith(f"{path}.rescued-") and os.stat(copy).st_mode & 0o777 == 0o600
    [table] = Store(storing.sqlite_url(copy)).load_all()
    assert (table.code, table.moves) == ("ABCD", ["guard 1 priest"])


def test_a_server_whose_sqlite_file_is_removed_stops_and_rescues_its_tables(monkeypatch, tmp_path, capsys):
    """The whole way: a server whose file is removed under it stops with status 1, saying why, and
    where the tables it held are copied (the copy made after its connections wrote all they held)."""
    from loveletter.web import serve as serving

    monkeypatch.setattr(serving, "FILE_CHECK_EVERY", 0.05)
    real = serving.run_server  # (uvicorn's logging set up would close pytest's capturing handlers)
    monkeypatch.setattr(serving, "run_server", lambda app, listeners, **options: real(app, listeners, log_config=None,
                                                                                         **options))
    path = tmp_path / "web.sqlite3"
    Store(f"sqlite:///{path}").create("ABCD", {"players": 2}, private=False)
    port = free_port()
    done: list[int] = []
    serving_thread = threading.Thread(target=lambda: done.append(serving.serve(
        "127.0.0.1", port, str(path), 0, None, Translator("en"))), daemon=True)
    serving_thread.start()
    until(lambda: "being served" in capsys.readouterr().out or not serving_thread.is_alive(), 30)
    path.unlink()
    serving_thread.join(30)
    assert done == [1]
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0] == (f"loveletter serve: the database file sqlite:///{path} was replaced or removed while this"
                      " server ran: it stops, for the moves it stored now would be in a file no name leads to,"
                      " lost when it stopped"), err
    [copy] = tmp_path.glob("web.sqlite3.rescued-*")
    assert err[1] == f"loveletter serve: what the database held until the server stopped is copied to {copy}"
    assert [table.code for table in Store(storing.sqlite_url(str(copy))).load_all()] == ["ABCD"]


def test_a_file_removed_since_the_last_look_is_found_as_the_server_stops(tmp_path, capsys):
    """Stopped within the second between two looks, the server copied nothing, and the moves since
    the file went were lost."""
    from loveletter.web import serve as serving

    path = tmp_path / "web.sqlite3"
    store = Store(f"sqlite:///{path}")
    hold = claim(f"sqlite:///{path}")
    store.create("ABCD", {"players": 2}, private=False)
    path.unlink()
    lost = threading.Event()
    serving.shut_down(store, hold, lost, Translator("en"), f"sqlite:///{path}")
    hold.close()
    [copy] = tmp_path.glob("web.sqlite3.rescued-*")
    assert lost.is_set() and [t.code for t in Store(storing.sqlite_url(str(copy))).load_all()] == ["ABCD"]
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"loveletter serve: the database file sqlite:///{path} was replaced or removed")
    assert err[1] == f"loveletter serve: what the database held until the server stopped is copied to {copy}"


@pytest.mark.parametrize("upgraded", [False, True], ids=["new", "made by an older version"])
def test_the_servers_files_are_its_users_alone(tmp_path, monkeypatch, upgraded):
    """The database holds every table's seed (every hidden card of every game being played) and the
    private tables' codes: it was made readable by every account on the machine, in a folder that
    was too; and an upgraded server served such a database as it found it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    before = os.umask(0o022)  # (the usual one: files every account may read)
    if upgraded:  # (with the lock and SQLite's log beside it, as an older server left them)
        (tmp_path / "loveletter").mkdir(0o755)
        Store(f"sqlite:///{tmp_path / 'loveletter' / 'web.sqlite3'}").close()
        for end in (".lock", "-wal"):
            (tmp_path / "loveletter" / f"web.sqlite3{end}").touch()
        for made in (tmp_path / "loveletter").iterdir():
            made.chmod(0o644)
    try:
        url = storing.default_database()
        Store(url)
        claimed = claim(url)
    finally:
        os.umask(before)
    path = tmp_path / "loveletter" / "web.sqlite3"
    modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "loveletter", *path.parent.iterdir())}
    assert claimed is not None and url == f"sqlite:///{path}"
    assert modes["loveletter"] == 0o700 and modes["web.sqlite3"] == modes["web.sqlite3.lock"] == 0o600, modes
    assert modes.get("web.sqlite3-wal", 0o600) == 0o600, modes
    claimed.close()


def test_a_database_that_may_only_be_read_is_refused_by_its_check(tmp_path):
    path = tmp_path / "web.sqlite3"
    Store(f"sqlite:///{path}")
    with pytest.raises(OperationalError, match="readonly database"):
        Store(f"sqlite:///file:{path}?mode=ro&uri=true").check_writable()


def test_what_another_server_on_the_database_stored_first_is_refused_in_one_line(client, database):
    """Two servers on one database (a restart overlapping the old server's last seconds): a move the
    other stored first took the connection down with a traceback in the log, and a seat taken there
    first answered 500."""
    server = client.app.state.server
    made = create(client, players=3)  # Ann and two free seats
    code = made["code"]
    server.store.take_seat(code, 1, "Cleo", "a secret")  # by the other server
    refused = client.post(f"/api/tables/{code}/join?lang=nl", json={"name": "Dirk"})
    assert refused.status_code == 409 and refused.json()["key"] == "web_store_elsewhere"
    assert refused.json()["message"].startswith("Een andere server die deze database gebruikt, was eerder")
    assert server.rooms[code].table.free_seats() == [1, 2]  # nothing changed here

    made = create(client, players=2, bots={"1": "random"})
    table = server.rooms[made["code"]].table
    ann = Seat(client, made["code"], made["secret"])
    move = ann.state["legal"][0]["move"]
    server.store.add_move(made["code"], 0, move, False)  # by the other server
    refusal = ann.move(move)
    assert refusal["type"] == "error" and refusal["key"] == "web_store_elsewhere"
    assert table.moves == []
    ann.send({"type": "lang", "lang": "en"})  # the connection is still up
    assert ann.receive()["type"] == "state"


def test_a_bot_stops_where_another_server_stored_its_move_first(database):
    """It tried to store its move again every second, for ever."""

    async def scenario():
        store = Store(database)
        server = Server(store, bot_delay=0)
        code, room, first = await _ann_against_a_bot(server)
        room.table.play(0, first.notation(), 0)
        store.add_move(code, 1, "Guard 0 Priest", True)  # by the other server (any text: never read here)
        server.start_waiting(room)
        await asyncio.wait_for(room.waiting, 30)
        assert len(room.table.moves) == 1
        store.close()

    asyncio.run(scenario())


def test_a_table_takes_so_many_spectators_and_an_address_makes_so_many_tables(client, monkeypatch):
    """One client could open thousands of spectators' connections at a table (each move is told to
    each: other tables waited) and create a thousand tables in two seconds (kept for good)."""
    monkeypatch.setattr(web_app, "WATCHERS", 2)
    monkeypatch.setattr(lobby, "NEW_TABLES", 3)
    made = create(client, players=3)
    watchers = [Seat(client, made["code"], None) for _ in range(2)]
    refused = Seat(client, made["code"], None, lang="nl")
    assert refused.state["key"] == "web_too_many_watchers"
    assert refused.state["message"] == ("Deze tafel heeft al 2 kijkers, het maximum: deze pagina probeert het elke"
                                        " 30 seconden opnieuw.")
    # the free seats told: a person invited to one takes it there (a seat's connection is no spectator's)
    assert refused.state["open_seats"] == [1, 2]
    refused.close()
    Seat(client, made["code"], made["secret"])  # a player always comes to their seat
    bob = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).json()
    assert Seat(client, made["code"], bob["secret"]).state["seat"] == 1
    client.post(f"/api/tables/{made['code']}/join", json={"name": "Cy"})
    assert "open_seats" not in Seat(client, made["code"], None).state  # (none free: none told)
    watchers[0].close()
    assert Seat(client, made["code"], None).state["type"] == "state"  # a place freed
    for _ in range(2):
        create(client)
    too_many = client.post("/api/tables", json={"name": "Ann"})
    assert too_many.status_code == 400 and too_many.json()["key"] == "web_too_many_tables"
    assert len(client.app.state.server.rooms) == 3
    for address in ("127.0.0.1", "127.0.0.2", "::1"):  # this machine's (its owner, or a proxy): any number
        for _ in range(4):
            client.portal.call(client.app.state.server.create, NewTable(name="Ann"), address)


def test_an_address_takes_so_many_seats(client, monkeypatch):
    """A script could take every free seat in the lobby, one join after another."""
    monkeypatch.setattr(lobby, "JOINS", 2)
    tables = [client.portal.call(client.app.state.server.create, NewTable(name="Ann", players=3),
                                 "127.0.0.1")["code"] for _ in range(2)]  # (made from this machine: no limit)
    for code in tables:
        assert client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()["seat"] == 1
    refused = client.post(f"/api/tables/{tables[0]}/join?lang=nl", json={"name": "Cas"})
    assert refused.status_code == 400 and refused.json() == {
        "type": "error", "key": "web_too_many_joins",
        "message": "Je hebt in de afgelopen 10 minuten aan 2 tafels plaatsgenomen, het maximum; speel aan een ervan,"
                   " of wacht even."}
    assert client.app.state.server.rooms[tables[0]].open_seats() == [2]  # nothing taken


def test_a_rematch_made_is_one_of_the_tables_an_address_may_make(client, monkeypatch):
    """A match to one token against a random bot, then its rematch, and its rematch: 30 tables past
    the limit of 20, and on without end."""
    monkeypatch.setattr(lobby, "NEW_TABLES", 2)
    code, secret = finished_bot_match(client)  # one table
    again = client.post(f"/api/tables/{code}/rematch", json={"secret": secret}).json()  # two
    seat = Seat(client, again["code"], again["secret"])
    play_to_the_end(seat, random.Random(3))
    seat.close()
    refused = client.post(f"/api/tables/{again['code']}/rematch", json={"secret": again["secret"]})
    assert refused.status_code == 400 and refused.json()["key"] == "web_too_many_tables"
    server = client.app.state.server
    assert server.rooms[again["code"]].rematch is None and len(server.rooms) == 2  # nothing made
    assert client.post("/api/tables", json={"name": "Ann"}).json()["key"] == "web_too_many_tables"


def test_every_answer_keeps_the_page_out_of_other_sites_frames_and_secrets_out_of_caches(client):
    """No header said so: another site could show the table in a hidden frame over its own buttons."""
    for answer in (client.get("/"), client.get("/static/app.js"), client.get("/api/tables"),
                   client.post("/api/tables", content=b"x" * 100_000, headers={"content-type": "application/json"})):
        headers = answer.headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], answer.request.url
        assert "default-src 'self'" in headers["content-security-policy"]
        assert (headers["x-frame-options"], headers["x-content-type-options"]) == ("DENY", "nosniff")
    made = client.post("/api/tables", json={"name": "Ann"})
    assert made.json()["secret"] and made.headers["cache-control"] == "no-store"
    assert "cache-control" not in client.get("/static/app.js").headers


def test_the_api_names_the_version_of_the_page_served(client, monkeypatch):
    """A page left open while the server was upgraded compares it with its own (the page's tests):
    an older page's replay showed nothing, and nothing said to reload it."""
    version = web_app.page_version()
    assert re.fullmatch("[0-9a-f]{16}", version)
    assert f'<html lang="en" data-page="{version}">' in client.get("/").text
    page = client.get("/api/page")
    for answer in (page, client.get("/api/tables"), client.get("/api/tables/ZZZZZZ/replay")):
        assert answer.headers["x-loveletter-page"] == version, answer.request.url
    assert page.json() == {"page": version}
    assert "x-loveletter-page" not in client.get("/static/app.js").headers
    # another page, another version
    files = web_app._static
    monkeypatch.setattr(web_app, "_static", lambda name: "// another page" if name == "app.js" else files(name))
    web_app.page_version.cache_clear()
    try:
        assert web_app.page_version() != version
    finally:
        web_app.page_version.cache_clear()


def test_a_redirect_to_a_path_without_its_slash_names_the_path_alone(client):
    """Behind a reverse proxy, "/api/tables/" was sent on to "http://localhost/api/tables": the
    proxy's internal address, which the friend's browser cannot reach."""
    headers = {"Host": "localhost", "X-Forwarded-Host": "game.example", "X-Forwarded-Proto": "https"}
    for asked, sent_to in (("/api/tables/", "/api/tables"), ("/api/tables/ABC123/record/?x=1", "/api/tables/ABC123/record?x=1")):
        answer = client.get(asked, headers=headers, follow_redirects=False)
        assert answer.status_code == 307 and answer.headers["location"] == sent_to


def test_a_websocket_from_another_sites_page_is_refused(client):
    """Any site's page could watch a table (and try codes) through its visitor's browser, a server
    on the visitor's own machine too."""
    made = create(client)
    # behind a proxy (the README's names the server "localhost" to it), a page of the visitor's own
    # machine, on any port, passed for ours: the host the browser asked for is the proxy's to say
    for foreign in ({"origin": "http://evil.example"},
                    {"origin": "http://testserver:3000", "x-forwarded-host": "games.example"}):
        with client.websocket_connect(f"/ws/{made['code']}", headers=foreign) as socket_:
            assert socket_.receive_json()["key"] == "web_foreign_origin", foreign
    for origin in ("http://testserver", "HTTP://TestServer"):  # our own page (TestClient's host)
        with client.websocket_connect(f"/ws/{made['code']}", headers={"origin": origin}) as socket_:
            socket_.send_json({"type": "hello", "secret": None, "lang": "en"})
            assert socket_.receive_json()["type"] == "state"
    for proxied in ({"origin": "https://games.example", "x-forwarded-host": "games.example"},  # behind a proxy
                    {"origin": "https://games.example:8443", "x-forwarded-host": "games.example, inner"},
                    {"origin": "http://testserver:80"}):  # (ports aside: proxies rewrite them)
        with client.websocket_connect(f"/ws/{made['code']}", headers=proxied) as socket_:
            socket_.send_json({"type": "hello", "secret": None, "lang": "en"})
            assert socket_.receive_json()["type"] == "state", proxied


def test_a_refusal_is_said_in_the_language_asked_for_else_the_browsers(client):
    """A request with no ``?lang=`` (an address typed by hand, a link followed) was refused in
    English whatever its browser asked for."""
    def said(path: str, accepted: str | None) -> str:
        return client.get(path, headers={"Accept-Language": accepted} if accepted else {}).json()["message"]

    english, dutch = said("/api/nothing", None), said("/api/nothing?lang=nl", None)
    assert english != dutch
    assert said("/api/nothing", "nl-NL,nl;q=0.9,en-US;q=0.8") == dutch
    assert said("/api/nothing", "en;q=0.4, nl-BE;q=0.6") == dutch
    assert said("/api/nothing", "de-DE, en;q=0.9, nl;q=0.8") == english
    assert said("/api/nothing", "nl;q=0, fr") == english  # (q=0: not wanted)
    assert said("/api/nothing", "nl;q=x,,;") == english  # (garbled: nothing to go by)
    assert said("/api/nothing?lang=en", "nl") == english  # (the page's own choice first)


def test_a_proxy_that_does_not_pass_what_the_readme_says_is_told_in_the_log(client, monkeypatch, caplog):
    """A proxy in front that passes no X-Forwarded-Host had every table's connection refused as
    another site's page's, one without the WebSocket's Upgrade headers every one answered 404: the
    players saw "reconnecting…" for ever, and the server's log said nothing. Each is told, at most
    once a minute (every page tries again and again)."""
    made = create(client)
    answer = client.get(f"/ws/{made['code']}?lang=nl")
    assert answer.status_code == 426 and answer.json()["key"] == "web_not_upgraded"
    assert answer.headers["upgrade"] == "websocket"  # (RFC 9110: a 426 names the protocol)
    assert "Upgrade en Connection" in answer.json()["message"]
    behind = {"origin": "https://games.example"}  # (the proxy's Host, no X-Forwarded-Host)
    for _ in range(2):
        assert client.get(f"/ws/{made['code']}").status_code == 426
        with client.websocket_connect(f"/ws/{made['code']}", headers=behind) as socket_:
            assert socket_.receive_json()["key"] == "web_foreign_origin"
    told = [r.getMessage() for r in caplog.records if r.name == "loveletter.web.app"]
    assert told == ["a table's connection came without its WebSocket upgrade: a proxy in front must pass the"
                    " Upgrade and Connection headers (see the README)",
                    "a page at 'https://games.example' was refused a table, asked for as 'testserver': another"
                    " site's page, or one behind a proxy that does not pass X-Forwarded-Host (see the README)"]
    monkeypatch.setattr(web_app, "TELL_EVERY", 0.0)  # a minute later: told again
    client.get(f"/ws/{made['code']}")
    assert len([r for r in caplog.records if r.name == "loveletter.web.app"]) == 3
    # in the operator's language: a server started with --lang nl said its first lines in Dutch and
    # logged the rest in English
    with written_in(Translator("nl")):
        client.get(f"/ws/{made['code']}")
    client.get(f"/ws/{made['code']}")
    assert [r.getMessage() for r in caplog.records if r.name == "loveletter.web.app"][3:] == [
        "de verbinding van een tafel kwam zonder de overgang naar een WebSocket: een proxy ervoor moet de"
        " headers Upgrade en Connection doorgeven (zie de README)", told[0]]


def test_codes_guessed_at_once_are_held_to_the_limit_too(client, monkeypatch):
    """Each code is looked for in a worker thread: guesses sent at once were all counted after their
    reads, and all went through."""
    monkeypatch.setattr(lobby, "MISSES", 3)
    store = client.app.state.server.store
    loading = store.load

    def slow(*args):
        time.sleep(0.2)
        return loading(*args)

    monkeypatch.setattr(store, "load", slow)
    keys = []

    def guess(code: str) -> None:
        keys.append(client.post(f"/api/tables/{code}/join", json={"name": "Eve"}).json()["key"])

    guessing = [threading.Thread(target=guess, args=(letter * 6,)) for letter in "ABCDEF"]
    for thread in guessing:
        thread.start()
    for thread in guessing:
        thread.join(30)
    assert sorted(keys) == ["web_no_table"] * 3 + ["web_too_many_misses"] * 3
    assert not client.app.state.server._reading  # (none left asking)


def test_a_table_being_made_is_not_read_back_before_it_is_served(client, monkeypatch):
    """Stored in a worker thread, then served: a join naming its code in between read it back and
    served a room of its own, which the new table then replaced (the seat taken there was lost)."""
    server = client.app.state.server
    storing, held, stored = server.store.create, threading.Event(), threading.Event()

    def stored_then_slow(*args, **kwargs):
        storing(*args, **kwargs)
        stored.set()
        held.wait(30)

    monkeypatch.setattr(server.store, "create", stored_then_slow)
    made = []
    making = threading.Thread(target=lambda: made.append(client.post("/api/tables", json={"name": "Ann"}).json()))
    making.start()
    try:
        assert stored.wait(30)
        (code,) = server._being_made
        early = client.post(f"/api/tables/{code}/join", json={"name": "Bob"})
        assert early.json()["key"] == "web_no_table" and code not in server.rooms
    finally:
        held.set()
        making.join(30)
    assert made[0]["code"] == code and not server._being_made
    assert client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()["seat"] == 1


@pytest.mark.parametrize(("lang", "says"), [
    ("en", "The server could not read this table just now (its database is busy or out of reach): try again in"
           " a moment."),
    ("nl", "De server kon deze tafel nu niet lezen (de database is bezet of onbereikbaar): probeer het zo opnieuw."),
])
def test_a_table_the_database_cannot_read_back_just_now_is_told_at_the_hello(client, monkeypatch, caplog, lang, says):
    """The hello went unanswered, with a traceback in the log; a record or a replay asked for was told
    the server "could not store that"."""
    from sqlalchemy.exc import OperationalError

    monkeypatch.setattr(lobby, "PUT_AWAY_AFTER", 0)
    server = client.app.state.server
    made = create(client, players=2)
    assert server.put_away() == [made["code"]]

    def locked(*_args):
        raise OperationalError("SELECT ...", {}, Exception("database is locked"))

    monkeypatch.setattr(server.store, "load", locked)
    refused = Seat(client, made["code"], made["secret"], lang=lang)
    assert refused.state == {"type": "error", "key": "web_read_failed", "message": says}
    assert f"table '{made['code']}' not read: (builtins.Exception) database is locked" in caplog.text
    record = client.get(f"/api/tables/{made['code']}/replay?lang={lang}")  # a page's ask, answered alike
    assert record.status_code == 503 and record.json() == {"type": "error", "key": "web_read_failed", "message": says}
    assert f"GET '/api/tables/{made['code']}/replay' not read: (builtins.Exception) database is locked" in caplog.text
    # a join, too, is told the table could not be read (it was told "could not store that")
    joined = client.post(f"/api/tables/{made['code']}/join?lang={lang}", json={"name": "Cas"})
    assert joined.status_code == 503 and joined.json() == {"type": "error", "key": "web_read_failed", "message": says}
    assert f"POST '/api/tables/{made['code']}/join' not read: (builtins.Exception) database is locked" in caplog.text
    monkeypatch.undo()
    assert Seat(client, made["code"], made["secret"]).state["type"] == "state"  # read back once it can be


def test_a_table_at_hand_is_not_refused_for_a_read_in_flight_from_the_same_address(client, monkeypatch):
    """Reads in flight counted as misses: with one under way, a served table was refused as "too
    many codes with no table"."""
    monkeypatch.setattr(lobby, "MISSES", 1)
    monkeypatch.setattr(lobby, "PUT_AWAY_AFTER", 0)
    server = client.app.state.server
    away, here = create(client, players=2)["code"], create(client, players=2)["code"]
    watcher = Seat(client, here, None)  # keeps its table at hand
    assert server.put_away() == [away]
    loading, held, entered = server.store.load, threading.Event(), threading.Event()

    def slow(*args):
        entered.set()
        held.wait(30)
        return loading(*args)

    monkeypatch.setattr(server.store, "load", slow)
    answers = []
    reading = threading.Thread(target=lambda: answers.append(client.get(f"/api/tables/{away}/replay")))
    reading.start()
    try:
        assert entered.wait(30)
        assert client.post(f"/api/tables/{here}/join", json={"name": "Bob"}).json()["seat"] == 1
    finally:
        held.set()
        reading.join(30)
    assert answers[0].json()["key"] == "web_not_finished"  # (read back, and found)
    watcher.close()


@pytest.mark.parametrize("this_machine", [False, True], ids=["another machine", "this machine"])
def test_an_address_may_name_so_many_codes_with_no_table(client, monkeypatch, this_machine):
    """Private tables are kept private by their codes alone, and thousands of guesses a second found
    one in minutes (a code with no table was told apart from a private table's). The server's own
    machine is held to it too: behind a proxy there that names no client, everyone is that machine."""
    monkeypatch.setattr(lobby, "MISSES", 3)
    address_of = web_app._address
    if this_machine:
        monkeypatch.setattr(web_app, "_address", lambda connection: "127.0.0.1")
    made = create(client, players=3, private=True)
    for code in ("AAAAAA", "BBBBBB"):
        assert client.post(f"/api/tables/{code}/join", json={"name": "Eve"}).json()["key"] == "web_no_table"
    assert client.get("/api/tables/CCCCCC/record").json()["key"] == "web_no_table"
    for asked in (lambda: client.post(f"/api/tables/{made['code']}/join?lang=nl", json={"name": "Eve"}),
                  lambda: client.get(f"/api/tables/{made['code']}/replay?lang=nl")):
        refused = asked()
        assert refused.status_code == 400 and refused.json()["key"] == "web_too_many_misses"
        assert refused.json()["message"] == "Vanaf dit adres zijn te veel codes geprobeerd waar geen tafel bij hoort: probeer het over 10 minuten opnieuw."
    watcher = Seat(client, made["code"], None)
    assert watcher.state["key"] == "web_too_many_misses"
    assert client.app.state.server.rooms[made["code"]].table.free_seats() == [1, 2]  # nothing taken
    # a player's own seat stays open to them, whoever else guessed from their address
    assert Seat(client, made["code"], made["secret"]).state["type"] == "state"
    server = client.app.state.server
    for n in range(5):  # an IPv6 client's addresses count as their /64 network
        assert server.missed.count(f"2001:db8::{n}") == 0
    assert address_of(types.SimpleNamespace(client=types.SimpleNamespace(host="2001:db8::7"))) == "2001:db8::/64"
    assert address_of(types.SimpleNamespace(client=types.SimpleNamespace(host="::ffff:10.0.0.1"))) == "10.0.0.1"
    monkeypatch.setattr(recent, "ADDRESSES_KEPT", 10)  # many addresses are forgotten, the longest idle first
    server.missed.note("10.2.0.1")
    for n in range(25):
        server.missed.note(f"10.1.0.{n}")
        server.missed.note("10.2.0.1")  # seen first, but never idle: kept
    assert len(server.missed.times) == 10 and server.missed.count("10.2.0.1") == 26
    assert [server.missed.count(f"10.1.0.{n}") for n in (15, 16, 24)] == [0, 1, 1]
    assert server.missed.count("198.51.100.1") == 0 and "198.51.100.1" not in server.missed.times  # (a lookup adds none)


def test_another_sites_page_cannot_spend_its_visitors_misses(client, monkeypatch):
    """A page of another site could name codes with no table from its visitor's browser (as an
    image's address, say) until the visitor's own address was refused."""
    monkeypatch.setattr(lobby, "MISSES", 3)
    server = client.app.state.server
    made = create(client, players=2)
    sent_by_another_site = {"sec-fetch-site": "cross-site", "sec-fetch-dest": "image", "sec-fetch-mode": "no-cors"}
    for _ in range(5):
        for asked in (lambda: client.get("/api/tables/AAAAAA/record", headers=sent_by_another_site),
                      lambda: client.get("/api/tables/AAAAAA/replay?lang=nl", headers=sent_by_another_site),
                      lambda: client.post("/api/tables/AAAAAA/join", json={"name": "Eve"},
                                          headers={**sent_by_another_site, "sec-fetch-site": "same-site"})):
            refused = asked()
            assert refused.status_code == 400 and refused.json()["key"] == "web_foreign_origin"
    assert server.missed.count("testclient") == 0
    assert refused.json()["message"] == "This game's tables can only be opened from its own pages."
    # nor does it open a table that is there
    assert client.post(f"/api/tables/{made['code']}/join", json={"name": "Eve"},
                       headers=sent_by_another_site).json()["key"] == "web_foreign_origin"
    assert server.rooms[made["code"]].table.free_seats() == [1]
    # nor a page it opens and sends from link to link, nor a prefetch
    followed = {"sec-fetch-site": "cross-site", "sec-fetch-dest": "document", "sec-fetch-mode": "navigate",
                "sec-fetch-user": "?1"}
    for sent in ({key: value for key, value in followed.items() if key != "sec-fetch-user"},  # no click of theirs
                 {**followed, "sec-purpose": "prefetch;prerender"}):
        assert client.get("/api/tables/BBBBBB/record", headers=sent).json()["key"] == "web_foreign_origin", sent
    assert server.missed.count("testclient") == 0
    # a link the visitor follows to a record, from anywhere, and the game's own pages are served as before
    assert client.get("/api/tables/BBBBBB/record", headers=followed).json()["key"] == "web_no_table"
    assert client.get("/api/tables/BBBBBB/replay", headers={"sec-fetch-site": "same-origin"}).json()["key"] == "web_no_table"
    assert server.missed.count("testclient") == 2
    assert client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"},
                       headers={"sec-fetch-site": "same-origin", "sec-fetch-dest": "empty"}).json()["seat"] == 1


def test_a_seat_may_be_open_in_so_many_places(client, monkeypatch):
    """A spectator's limit was passed by watching through one's own seat in any number of tabs."""
    monkeypatch.setattr(web_app, "TABS", 2)
    made = create(client)
    tabs = [Seat(client, made["code"], made["secret"]) for _ in range(2)]
    third = Seat(client, made["code"], made["secret"], lang="nl")
    assert third.state["key"] == "web_too_many_tabs"
    assert third.state["message"] == "Deze stoel is al op 2 plaatsen geopend, het maximum: sluit er een."
    tabs[0].close()
    assert Seat(client, made["code"], made["secret"]).state["type"] == "state"


def test_pages_that_came_while_a_page_waited_for_its_table_are_counted(client, monkeypatch):
    """A page was counted against the limits before it waited for the table's lock (a move being
    stored holds it), and taken in after: every page that came meanwhile passed the count (300
    spectators where 100 may watch)."""
    monkeypatch.setattr(web_app, "TABS", 2)
    made = create(client)
    room = client.app.state.server.rooms[made["code"]]
    real = room.lock

    class MeanwhileTwoTabs:  # the table's lock, in whose wait two more of the seat's pages came in
        async def __aenter__(self) -> None:
            await real.acquire()
            room.connections.extend(types.SimpleNamespace(seat=0) for _ in range(2))

        async def __aexit__(self, *_: object) -> None:
            real.release()

    monkeypatch.setattr(room, "lock", MeanwhileTwoTabs())
    assert Seat(client, made["code"], made["secret"]).state["key"] == "web_too_many_tabs"
    monkeypatch.setattr(room, "lock", real)
    room.connections.clear()
    assert Seat(client, made["code"], made["secret"]).state["type"] == "state"


def test_a_page_whose_table_was_put_away_while_it_waited_is_taken_in_at_the_table_served(client, monkeypatch):
    """A page waiting for its table's lock (a seat or a move being stored) was taken in at the table
    object put away meanwhile: its player and the others each saw the other away, and their moves
    never reached each other (then refused as "another server got there first")."""
    made = create(client)
    server = client.app.state.server
    found: list[lobby.Room] = []
    real = server.room

    async def room(code, *args):
        looked_up = await real(code, *args)
        if not found:  # put away, as if in the moment before the page's turn for the lock came
            found.append(looked_up)
            del server.rooms[code]
        return looked_up

    monkeypatch.setattr(server, "room", room)
    ann = Seat(client, made["code"], made["secret"])
    assert ann.state["type"] == "state"
    served = server.rooms[made["code"]]
    assert served is not found[0] and [c.seat for c in served.connections] == [0]
    ann.close()


@pytest.mark.skipif(not hasattr(socket, "TCP_USER_TIMEOUT"), reason="the system has no TCP_USER_TIMEOUT (Linux has)")
def test_the_system_drops_a_connection_whose_client_stopped_reading():
    """uvicorn closes a connection only once what it has to send has gone out: a client that stopped
    reading at all kept its socket, one of the server's file descriptors, for ever. The server's
    sockets now tell the system to drop a connection whose data goes unacknowledged a minute."""
    from loveletter.web import serve as serving

    [listener] = serving.listen("127.0.0.1", 0)
    with listener:
        listener.listen()
        with socket.create_connection(listener.getsockname()):
            accepted, _ = listener.accept()
            with accepted:  # (each connection inherits it from the listening socket)
                assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 60_000


def test_a_port_another_server_listens_on_is_refused_and_ctrl_c_stops_quietly(monkeypatch):
    """Two servers started at once could both bind the port (uvicorn listened later, outside the
    one-line errors); and Ctrl+C ended ``uvicorn.run`` without a word, as it still does (a Ctrl-C
    even before uvicorn caught the signals: told as a Ctrl-C)."""
    from loveletter.web import serve as serving

    [first] = serving.listen("127.0.0.1", 0)
    with first:
        with pytest.raises(OSError):
            serving.listen("127.0.0.1", first.getsockname()[1])

        def interrupted(self, sockets=None):
            raise KeyboardInterrupt

        monkeypatch.setattr(serving.uvicorn.Server, "run", interrupted)
        assert serving.run_server(lambda scope, receive, send: None, [first], log_level="warning") == signal.SIGINT


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGINT, signal.SIGTERM], ids=["hang-up", "Ctrl-C", "SIGTERM"])
@pytest.mark.parametrize("before", [signal.SIG_DFL, signal.SIG_IGN], ids=["heard", "ignored"])
def test_the_server_hears_a_hang_up_or_a_ctrl_c_unless_it_was_started_to_ignore_it(signum, before):
    """A hang-up shuts the server down as SIGTERM does (tests/cli: the player told, the status), and
    a Ctrl-C does too; one that whoever started the server ignores (``nohup`` a hang-up, a script's
    ``serve &`` a Ctrl-C: that stopped it anyway, with status 0) stays ignored, and the handler before
    is back after."""
    import uvicorn

    from loveletter.web import serve as serving

    server = serving._Server(uvicorn.Config(lambda scope, receive, send: None))
    old = signal.signal(signum, before)
    try:
        with server.capture_signals():
            heard = signal.getsignal(signum)
        assert signal.getsignal(signum) == before
    finally:
        signal.signal(signum, old)
    assert heard == (server.handle_exit if before is signal.SIG_DFL else signal.SIG_IGN)


def test_the_server_listens_on_ipv6_loopback_too(database, monkeypatch, capsys):
    """``--host ::1`` was refused ("unknown host name"): the port was tried as an IPv4 address."""
    from loveletter.web import serve as serving

    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
            port = probe.getsockname()[1]
    except OSError:
        pytest.skip("this machine has no IPv6 loopback address")
    bound: list[list[tuple[object, ...]]] = []
    monkeypatch.setattr(serving, "run_server",
                        lambda app, listeners, **_: bound.append([s.getsockname() for s in listeners]))
    assert serving.serve("::1", port, database, 0, None, Translator("en")) == 0
    assert [address[:2] for address in bound[0]] == [("::1", port)]
    assert f"open http://[::1]:{port}/ in a browser" in capsys.readouterr().out


@pytest.mark.parametrize("network", ["192.0.2.7", None])
def test_a_server_on_every_address_names_the_one_its_network_reaches(database, monkeypatch, capsys, network):
    """With ``--host 0.0.0.0`` it said to open http://localhost:PORT/; a table's invitation link is the
    page's own address, which on a friend's machine led to that machine. It names this machine's
    address on its network, where it has one."""
    from loveletter.web import serve as serving

    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(serving, "run_server", lambda app, listeners, **_: None)
    asked: list[socket.AddressFamily] = []
    monkeypatch.setattr(serving, "network_address", lambda family: asked.append(family) or network)
    assert serving.serve("0.0.0.0", port, database, 0, None, Translator("en")) == 0
    assert asked == [socket.AF_INET]  # (an IPv4 address for 0.0.0.0; "::" listens on IPv6 alone, and asks for one)
    said = capsys.readouterr().out.splitlines()[0]
    if network:
        assert said == (f"Love Letter is being served: open http://{network}:{port}/ in a browser, on this machine or"
                        " another on its network; the links to invite others then work there too (Ctrl+C stops it).")
    else:
        assert f"open http://localhost:{port}/ in a browser" in said


def test_this_machines_network_address_is_none_without_a_route(monkeypatch):
    from loveletter.web import serve as serving

    address = serving.network_address()
    assert address is None or not ipaddress.ip_address(address).is_loopback
    address = serving.network_address(socket.AF_INET6)  # in brackets, as a URL holds it
    assert address is None or (address[0] + address[-1] == "[]" and ipaddress.ip_address(address[1:-1]).version == 6)

    def no_route(self, where):
        raise OSError(errno.ENETUNREACH, "Network is unreachable")

    monkeypatch.setattr(socket.socket, "connect", no_route)
    assert serving.network_address() is None


def test_a_server_on_the_loopback_address_answers_only_to_this_machines_names(database, monkeypatch):
    """Any Host was taken: a site whose name its owner points at 127.0.0.1 (DNS rebinding) was the
    server's own origin in its visitor's browser, and could use it as its own pages do."""
    from starlette.websockets import WebSocketDisconnect

    from loveletter.web import serve as serving
    from loveletter.web.limits import LoopbackOnly

    served: list[object] = []
    options: list[dict[str, object]] = []
    monkeypatch.setattr(serving, "run_server", lambda app, listeners, **given: served.append(app) or options.append(given))
    # another loopback address is this machine's too (only the words "127.0.0.1", "localhost" and
    # "::1" were guarded); X-Forwarded-For believed only from the proxies named (uvicorn believed
    # anyone on this machine, which could name itself anyone)
    for host, guarded, proxy in (("127.0.0.1", True, None), ("0.0.0.0", False, "127.0.0.1,::1"),
                                 ("127.0.0.2", True, None)):
        assert serving.serve(host, free_port(), database, 0, None, Translator("en"), proxy=proxy) == 0
        assert isinstance(served[-1], LoopbackOnly) is guarded, host
        assert (options[-1]["proxy_headers"], options[-1]["forwarded_allow_ips"]) == (proxy is not None, proxy or "")
    with TestClient(served[2], base_url="http://127.0.0.2:8000") as local:
        assert local.get("/api/tables").status_code == 200
    app = served[0]
    for name in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST", "localhost.:8000"):
        with TestClient(app, base_url=f"http://{name}") as local:
            assert local.get("/api/tables").status_code == 200, name
    with TestClient(app, base_url="http://rebound.example:8000") as foreign:
        refused = foreign.get("/api/tables?lang=nl")
        assert refused.status_code == 421 and refused.json()["key"] == "web_bad_host"
        assert refused.json()["message"].startswith("Deze server luistert alleen naar")
        # the address typed by hand, no page to name its language: the browser's preference
        dutch = foreign.get("/", headers={"Accept-Language": "fr-BE, nl;q=0.8, en;q=0.5"})
        assert dutch.status_code == 421 and dutch.json()["message"] == refused.json()["message"]
        with pytest.raises(WebSocketDisconnect), foreign.websocket_connect("/ws/ABCDEF") as socket_:
            socket_.receive_json()


def test_a_server_out_of_open_files_logs_it_in_one_line_once_a_minute(monkeypatch, tmp_path):
    """A client that opened every socket the server may (10,000 half-sent requests from each of two
    processes) had asyncio log a traceback up to 2,048 times a second: 300 MB of log in a minute."""
    import logging

    from loveletter.web.serve import OutOfSockets

    def record(message: str, error: Exception | None) -> logging.LogRecord:
        exc_info = (type(error), error, None) if error else None
        return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, message, (), exc_info)

    out = OSError(24, "Too many open files")
    told = OutOfSockets(every=0.2)
    first = record("socket.accept() out of system resource\nsocket: <socket ...>", out)
    assert told.filter(first) and first.getMessage() == (
        "socket.accept() out of system resource: [Errno 24] Too many open files")
    assert first.exc_info is None  # no traceback
    assert not any(told.filter(record("socket.accept() out of system resource", out)) for _ in range(2048))
    assert told.filter(record("Task exception was never retrieved", ValueError("x")))  # others as they are
    time.sleep(0.25)
    assert told.filter(record("socket.accept() out of system resource", out))  # once again a while later
    # the server started sees to it
    from loveletter.web import serve as serving

    asyncio_log = logging.getLogger("asyncio")
    monkeypatch.setattr(asyncio_log, "filters", [])
    monkeypatch.setattr(serving, "run_server", lambda app, listeners, **_: None)
    assert serving.serve("127.0.0.1", free_port(), str(tmp_path / "web.sqlite3"), 0, None, Translator("en")) == 0
    assert [type(f) for f in asyncio_log.filters] == [OutOfSockets]


# ------------------------------------------------------------------------------------ bounds, order and stand-ins


def test_a_token_target_of_20_is_taken(client):
    """The most the refusals name (see test_bad_table_settings_are_refused_with_a_reason)."""
    assert create(client, target=20)["seat"] == 0


def test_no_move_is_taken_while_a_seat_is_free(client):
    """Sent anyway (the page offers none), a move while a seat is free is refused and changes
    nothing, with one seat free as with several: the game begins once every seat is taken."""
    made = create(client, players=3)
    ann = Seat(client, made["code"], made["secret"])
    assert ann.state["current"] == 0  # (seat 0 begins the first round)
    for free in ([1, 2], [2]):
        if free == [2]:
            client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"})
            ann.receive()
        assert ann.state["free_seats"] == free
        held = client.app.state.server.rooms[made["code"]].table.view_for(0).hand  # (not shown before the game starts)
        answer = ann.move(held[0].word)
        assert answer["type"] == "error" and answer["key"] == "web_not_started", answer
        assert client.app.state.server.rooms[made["code"]].table.moves == []
    ann.close()


def test_a_move_sent_from_a_page_behind_the_table_is_refused_as_stale(client):
    """``at`` must be the moves played: a page behind (it had not yet shown the last move) is as
    stale as one ahead, and its move is refused, not played on a table it has not seen."""
    code, ann, bob = two_people(client)
    ann.move(ann.state["legal"][0]["move"])  # (seat 0 begins)
    bob.receive()
    mover = ann if ann.state["legal"] else bob
    assert mover.state["moves"] == 1 and mover.state["legal"]
    refused = mover.move(mover.state["legal"][0]["move"], at=0)
    assert refused["key"] == "web_stale", refused
    assert len(client.app.state.server.rooms[code].table.moves) == 1
    assert mover.move(mover.state["legal"][0]["move"])["moves"] == 2
    ann.close()
    bob.close()


def test_a_move_sent_twice_at_once_is_played_once_and_the_second_told_it_is_stale(client, monkeypatch):
    """Two tabs of one seat send a move at once, while the first is being stored: the second waits
    for it and is refused as stale (the table's lock), not checked against the table before the
    first is applied: it was then stored as the next move and failed in the engine (an illegal move
    in the database, the connection dropped)."""
    code, ann, bob = two_people(client)
    again = Seat(client, code, ann.secret)  # Ann's second tab
    table = client.app.state.server.rooms[code].table
    storing, stored_from = table.store_move, threading.Event()

    server, second_in = client.app.state.server, threading.Event()
    handling, moves_in = server.handle, []

    async def counted(room, connection, data):
        moves_in.append(data["type"] == "move")
        if sum(moves_in) == 2:
            second_in.set()
        await handling(room, connection, data)

    monkeypatch.setattr(server, "handle", counted)

    def slow_store(action, by_bot):
        stored_from.set()
        second_in.wait(30)  # the second move has reached the server: it waits for the table's lock
        time.sleep(0.1)  # (without the lock it is checked at once, on the table before this move)
        storing(action, by_bot)

    monkeypatch.setattr(table, "store_move", slow_store)
    move = ann.state["legal"][0]["move"]  # (seat 0 begins)
    ann.send({"type": "move", "move": move, "at": 0})
    assert stored_from.wait(30)  # the first is being stored
    again.send({"type": "move", "move": move, "at": 0})
    told = [again.receive() for _ in range(2)]
    assert [m["type"] for m in told] == ["state", "error"], told
    assert told[1]["key"] == "web_stale", told[1]
    assert len(table.moves) == 1 and ann.receive()["moves"] == 1
    for seat in (ann, again, bob):
        seat.close()


def test_a_server_on_an_in_memory_database_stores_from_its_worker_threads():
    """``--db sqlite://`` (a database in memory, for a try-out): the tables, seats and moves are
    stored from worker threads, which must share the one database (each had an empty one of its
    own, and every join and move was refused as not stored)."""
    store = Store("sqlite://")
    with TestClient(create_app(store, bot_delay=0)) as client:
        _code, ann, bob = two_people(client)
        move = ann.state["legal"][0]["move"]
        assert ann.move(move)["moves"] == 1
        ann.close()
        bob.close()
    assert [(t.names, t.moves) for t in store.load_all()] == [({0: "Ann", 1: "Bob"}, [move])]
    store.close()


def test_a_request_naming_no_host_is_served_on_the_loopback_address():
    """No ``Host`` at all (an HTTP/1.0 client: a script, a health check; never a browser, so never
    another site's page) is served by a server on the loopback address; another name is refused."""
    from loveletter.web.app import page_language
    from loveletter.web.limits import LoopbackOnly

    reached: list[object] = []

    async def inner(scope, receive, send):
        reached.append(dict(scope["headers"]).get(b"host"))

    guard = LoopbackOnly(inner, language=page_language)

    async def ask(headers: list[tuple[bytes, bytes]]) -> list[dict]:
        sent: list[dict] = []

        async def send(message):
            sent.append(message)

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        scope = {"type": "http", "method": "GET", "path": "/api/tables", "headers": headers,
                 "query_string": b"", "http_version": "1.0"}
        await guard(scope, receive, send)
        return sent

    assert asyncio.run(ask([])) == [] and reached == [None]  # handed on, untouched
    refused = asyncio.run(ask([(b"host", b"rebound.example")]))
    assert refused[0]["status"] == 421 and reached == [None]
    # a server given another loopback address, or a name of this machine's: its own names too (it was
    # no loopback server at all, to a check of the words "--host" was given)
    guard = LoopbackOnly(inner, language=page_language, names=["127.0.0.2", "vm", "[::1]"])
    for name in (b"127.0.0.2:8000", b"VM:8000", b"localhost:8000"):
        assert asyncio.run(ask([(b"host", name)])) == [] and reached[-1] == name
    assert asyncio.run(ask([(b"host", b"rebound.example")]))[0]["status"] == 421


def test_no_bot_stands_in_before_every_seat_is_taken(client):
    """The creator away and another player here, with a seat still free: the game has not begun,
    and no bot plays the creator's first move for them after the timeout."""
    made = create(client, players=3, bot_timeout=1)  # (Ann never connects; seat 0 begins)
    bob = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).json()
    seat = Seat(client, made["code"], bob["secret"])
    assert seat.state["free_seats"] == [2] and seat.state["current"] == 0
    assert client.app.state.server.rooms[made["code"]].waiting is None  # nothing planned (told with the state)
    time.sleep(1.6)  # (and nothing done after the timeout)
    assert client.app.state.server.rooms[made["code"]].table.moves == []
    seat.close()


def test_a_player_leaving_at_their_turn_starts_the_stand_ins_timeout(client):
    """Ann leaves while it is her turn, Bob stays: her leaving alone starts the timeout, and a bot
    plays her move once it is over (nothing else happened at the table meanwhile)."""
    code, ann, bob = two_people(client, bot_timeout=1)
    assert ann.state["current"] == 0 and ann.state["legal"]  # (seat 0 begins)
    ann.close()
    table = client.app.state.server.rooms[code].table
    until(lambda: len(table.moves) == 1, seconds=60)
    assert len(table.moves) == 1 and table.by_bot == {0}
    bob.close()


def test_a_bot_plays_for_someone_here_who_does_not_move_after_a_minute_at_least(client, monkeypatch):
    """A person connected who does not move (a tab left open) held the table for good: the stand-in
    played only for someone gone. It now plays for them too, once the table's timeout is over, but
    never before :data:`~loveletter.web.table.IDLE_AT_LEAST` seconds (a short timeout is for someone
    gone, not someone thinking); and not while nobody else is at the table."""
    from loveletter.web import table as tables

    code, ann, bob = two_people(client, bot_timeout=1)
    room = client.app.state.server.rooms[code]
    assert ann.state["current"] == 0 and ann.state["legal"]  # (seat 0 begins; Ann is here)
    time.sleep(1.5)  # past the table's timeout: Ann is here, so she has a minute
    assert room.table.moves == [] and room.plan is not None and room.plan[0] == "idle"
    assert room.waiting is not None and not room.waiting.done()
    bob.close()  # Ann alone at the table, at her turn: nobody waits for her, and nothing is planned
    until(lambda: room.plan is None)
    assert room.plan is None and room.table.moves == []
    ann.close()
    monkeypatch.setattr(tables, "IDLE_AT_LEAST", 1.2)
    code, ann, bob = two_people(client, bot_timeout=1)
    room = client.app.state.server.rooms[code]
    played = bob.receive()  # the stand-in moves for Ann, who sees it too
    assert played["moves"] == 1 and room.table.by_bot == {0} and ann.receive()["moves"] == 1
    assert any("(a bot played for Ann)" in line for line in played["log"]
               + ((played["previous"] or {}).get("log") or []))
    ann.close()
    bob.close()


def test_a_bot_plays_for_nobody_here_without_a_timeout_and_waits_again_for_one_who_comes_back(client, monkeypatch):
    """Without a timeout nobody is stood in for, here or not; with one, a person who comes back at
    their turn has the whole time again (it counted from when the move was first awaited)."""
    from loveletter.web import table as tables

    monkeypatch.setattr(tables, "IDLE_AT_LEAST", 1)
    untimed = two_people(client)[0]
    assert client.app.state.server.rooms[untimed].plan is None
    code, ann, _bob = two_people(client, bot_timeout=4)
    room = client.app.state.server.rooms[code]
    assert room.plan is not None and room.plan[0] == "idle"
    time.sleep(3)
    ann.close()
    ann = Seat(client, code, ann.secret)  # back: four seconds again from now (without: one second left)
    time.sleep(2)
    assert room.table.moves == []
    until(lambda: len(room.table.moves) == 1, seconds=60)
    assert room.table.by_bot == {0}


def test_a_first_move_awaited_before_the_table_filled_is_not_played_for_at_once(client, monkeypatch):
    """The time to move counts from when the game begins: a creator who waited longer than it for the
    others had their first move played the moment the last seat was taken, unseen."""
    from loveletter.web import table as tables

    monkeypatch.setattr(tables, "IDLE_AT_LEAST", 2.5)
    made = create(client, players=2, bot_timeout=1)
    ann = Seat(client, made["code"], made["secret"])  # (seat 0 begins: her move is awaited once Bob comes)
    time.sleep(3)
    joined = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).json()
    bob = Seat(client, made["code"], joined["secret"])
    room = client.app.state.server.rooms[made["code"]]
    time.sleep(0.5)
    assert room.table.moves == []  # Ann has her time to move, from now
    until(lambda: len(room.table.moves) == 1, seconds=30)
    assert room.table.by_bot == {0}
    ann.close()
    bob.close()


def test_the_time_to_move_counts_from_when_the_move_was_awaited(client, monkeypatch):
    """Neither Bob leaving and coming back nor a second tab of Ann's gives Ann, who does not move, her
    whole time again. (Timed with room to spare: the move comes about four seconds in, and would come
    at 6.5 or 7 seconds.)"""
    from loveletter.web import table as tables

    monkeypatch.setattr(tables, "IDLE_AT_LEAST", 4)
    code, ann, bob = two_people(client, bot_timeout=1)
    room = client.app.state.server.rooms[code]
    began = time.monotonic()
    time.sleep(2.5)
    other_tab = Seat(client, code, ann.secret)  # a second tab of Ann's: she was here, and her time goes on
    bob.close()  # Ann alone: nobody waits for her, and nothing is planned
    until(lambda: room.plan is None)
    time.sleep(max(0.0, 3 - (time.monotonic() - began)))
    assert room.table.moves == []
    bob = Seat(client, code, bob.secret)  # back: Ann has what is left of her four seconds
    until(lambda: len(room.table.moves) == 1, seconds=30)
    assert time.monotonic() - began < 6 and room.table.by_bot == {0}
    for seat in (ann, other_tab, bob):
        seat.close()


def test_a_stand_in_thinks_only_once_its_time_is_over(client, monkeypatch):
    """The stand-in looked at the table and thought at once, a minute or more before it could play, at
    every turn of a person while another was here (a search per turn with an expert stand-in)."""
    looked: list[int] = []
    code, ann, bob = two_people(client, bot_timeout=1, stand_in="expert")
    table = client.app.state.server.rooms[code].table
    choose = table.bot_choice
    monkeypatch.setattr(table, "bot_choice", lambda *args: looked.append(len(table.moves)) or choose(*args))
    ann.random_move(random.Random(3))  # (a new turn: Ann's, or Bob's, with an hour for a person here)
    time.sleep(1.5)
    assert looked == []
    ann.close()
    bob.close()


def test_a_player_may_ask_a_bot_to_play_for_someone_away_at_a_table_with_no_timeout(client, monkeypatch):
    """At a table with no timeout (the lobby's default), someone gone held it for good. The others may
    now ask the table's stand-in to play the move, once that person has been away a while."""
    code, ann, bob = two_people(client)  # (seat 0, Ann, begins)
    table = client.app.state.server.rooms[code].table
    ann.close()
    assert bob.receive_away() == [0]
    soon = bob.send({"type": "stand_in", "at": 0}) or bob.receive()
    assert soon["key"] == "web_stand_in_soon"
    assert re.fullmatch(r"A bot can be asked to play only for someone who has been away for 30 s: ask again for Ann in (30|29) s\.",
                        soon["message"]), soon["message"]
    assert table.moves == []
    monkeypatch.setattr(lobby, "ASK_AFTER", 0.3)
    time.sleep(0.4)
    played = bob.send({"type": "stand_in", "at": 0}) or bob.receive()
    assert played["type"] == "state" and played["moves"] == 1 and table.by_bot == {0}
    assert any("(a bot played for Ann)" in line
               for line in played["log"] + ((played["previous"] or {}).get("log") or []))
    bob.close()


def test_a_player_may_ask_a_bot_to_play_for_someone_here_who_does_not_move(client, monkeypatch):
    """At a table with no timeout, a tab left open held it for good: the others may ask the stand-in
    to play a person's move once they have not moved for a minute."""
    from loveletter.web import table as tables

    code, ann, bob = two_people(client)  # (seat 0, Ann, begins; she stays, and does not move)
    table = client.app.state.server.rooms[code].table
    soon = bob.send({"type": "stand_in", "at": 0}) or bob.receive()
    assert soon["key"] == "web_stand_in_idle_soon" and table.moves == []
    monkeypatch.setattr(tables, "IDLE_AT_LEAST", 0.3)
    time.sleep(0.4)
    played = bob.send({"type": "stand_in", "at": 0}) or bob.receive()
    assert played["type"] == "state" and played["moves"] == 1 and table.by_bot == {0}
    assert ann.receive()["moves"] == 1  # (Ann sees it too)
    rng = random.Random(4)
    while table.match.current != 0:  # Bob's moves, till Ann's turn again: her time starts anew
        bob.random_move(rng)
    at = len(table.moves)
    again = bob.send({"type": "stand_in", "at": at}) or bob.receive()
    assert again["key"] == "web_stand_in_idle_soon" and len(table.moves) == at
    time.sleep(0.4)
    ann.close()  # away, then back: her time starts anew once more
    bob.receive_away()
    ann = Seat(client, code, ann.secret)
    back = bob.send({"type": "stand_in", "at": at}) or bob.receive()
    assert back["key"] == "web_stand_in_idle_soon" and len(table.moves) == at
    ann.close()
    bob.close()


@pytest.fixture
def later(monkeypatch) -> Callable[[float], None]:
    """Moves the lobby's clock on by so many seconds, with no sleep: what it counts (how long a move
    has been awaited, how long a person has been away) is then told apart by far more than a slow
    machine's real time between two steps. (Asserted against real time instead, "under 0.3 s" failed
    on a busy machine.) For tables without a timeout: a stand-in's wait is slept by asyncio, whose
    clock this does not move."""
    ahead = [0.0]
    monkeypatch.setattr(lobby, "time", types.SimpleNamespace(
        monotonic=lambda: time.monotonic() + ahead[0], time=time.time))

    def move_on(seconds: float) -> None:
        ahead[0] += seconds
    return move_on


def test_the_state_says_how_long_the_move_has_been_awaited(client, later):
    """The page offers to ask a bot for someone here once their move has been awaited a while: it
    counted from when it saw the move, and a page reloaded counted afresh."""
    code, ann, bob = two_people(client)
    assert bob.state["waited"] < 10
    later(100)
    again = Seat(client, code, bob.secret)  # Bob's page reloaded
    assert 100 <= again.state["waited"] < 110
    if again.state["current"] == 1:  # the one to move away and back: their time to move starts again
        for tab in (bob, again):
            tab.close()
        ann.receive_away()
        back, stayed = Seat(client, code, bob.secret), ann
    else:
        ann.close()
        again.receive_away()
        back, stayed = Seat(client, code, ann.secret), again
        bob.close()
    assert back.state["waited"] < 10
    back.close()
    stayed.close()


def test_the_state_and_the_away_message_say_how_long_each_person_has_been_away(client, later):
    """The page offers to ask a bot to play for someone away once they have been away for
    ``ask_after.away`` seconds: it offered it at once, and the server refused it until then."""
    code, ann, bob = two_people(client)
    assert bob.state["away"] == [] and bob.state["away_for"] == {}
    ann.close()
    assert bob.receive_away() == [0] and bob.state["away_for"]["0"] < 10  # (its keys are JSON's: text)
    later(100)
    again = Seat(client, code, bob.secret)  # Bob's page reloaded: told how long, not since when it came
    assert again.state["away"] == [0] and 100 <= again.state["away_for"]["0"] < 110
    ann = Seat(client, code, ann.secret)
    assert again.receive_away() == [] and again.state["away_for"] == {}
    for seat in (ann, bob, again):
        seat.close()


def test_asking_a_bot_waits_for_the_tables_own_time_for_someone_here_where_longer(client, monkeypatch):
    """A table made to give an hour a move for someone here was cut short by asking after a minute."""
    from loveletter.web import table as tables

    monkeypatch.setattr(tables, "IDLE_AT_LEAST", 0.3)
    code, ann, bob = two_people(client, bot_timeout=3600)
    assert bob.state["ask_after"] == {"away": lobby.ASK_AFTER, "idle": 3600}
    assert "after 3\u2009600 s, and for someone here who does not move within 3\u2009600 s" in bob.state["stand_in"]
    time.sleep(0.4)
    refused = bob.send({"type": "stand_in", "at": 0}) or bob.receive()
    assert refused["key"] == "web_stand_in_idle_soon" and "after 3\u2009600 s without a move" in refused["message"]
    assert client.app.state.server.rooms[code].table.moves == []
    ann.close()
    bob.close()


def test_a_bot_asked_to_play_for_someone_who_then_comes_back_is_asked_no_more(client, monkeypatch):
    """A person back before the bot asked for them had played is theirs to play again: left once more
    (a page reloading), the bot played for them at once, the half minute skipped."""
    monkeypatch.setattr(lobby, "ASK_AFTER", 0)
    code, ann, bob = two_people(client)
    room = client.app.state.server.rooms[code]
    table, thinking = room.table, threading.Event()
    choose = table.bot_choice
    monkeypatch.setattr(table, "bot_choice", lambda *args: thinking.wait(30) and choose(*args))
    ann.close()
    bob.receive_away()
    bob.send({"type": "stand_in", "at": 0})
    until(lambda: room.stand_in_asked == (0, 0))
    ann = Seat(client, code, ann.secret)  # back while the bot thinks
    until(lambda: room.stand_in_asked is None)
    assert room.stand_in_asked is None and room.plan is None
    thinking.set()
    ann.close()  # gone again, at once
    time.sleep(0.5)
    assert table.moves == [] and room.plan is None  # (nothing is played without being asked again)
    bob.close()


def test_asking_a_bot_to_play_for_someone_is_refused_where_it_may_not_and_changes_nothing(client, monkeypatch):
    monkeypatch.setattr(lobby, "ASK_AFTER", 0)
    made = create(client, players=3)
    ann = Seat(client, made["code"], made["secret"])
    refused = ann.send({"type": "stand_in", "at": 0}) or ann.receive()
    assert refused["key"] == "web_not_started"
    code, ann, bob = two_people(client)
    watcher = Seat(client, code, None)
    cases = [(watcher, {"at": 0}, "web_spectator_stand_in", "Only the players may ask"),
             (bob, {"at": 0}, "web_stand_in_idle_soon", "Ann is at the table: a bot can be asked to play for someone"
                                                        " here only after 60 s without a move; ask again in"),
             (ann, {"at": 0}, "web_stand_in_yourself", "It is your own move: a bot may be asked to play only another's."),
             (bob, {"at": True}, "web_bad_field", None), (bob, {"at": 0, "seat": 0}, "web_unknown_field", None),
             (bob, {}, "web_bad_field", None)]
    for seat, fields, key, says in cases:
        seat.send({"type": "stand_in", **fields})
        answer = seat.receive()
        assert answer["key"] == key and (says is None or answer["message"].startswith(says)), answer
    ann.close()
    bob.receive_away()
    stale = bob.send({"type": "stand_in", "at": 3}) or bob.receive()
    assert stale["key"] == "web_stale"
    assert client.app.state.server.rooms[code].table.moves == []
    over = create(client, players=2, target=1)  # a match over: nothing more to play
    client.post(f"/api/tables/{over['code']}/join", json={"name": "Bob"})
    table = client.app.state.server.rooms[over["code"]].table
    rng = random.Random(1)
    while not table.match.over:
        mover = table.match.current
        table.play(mover, rng.choice(table.view_for(mover).legal_actions).notation(), len(table.moves))
    alone = Seat(client, over["code"], over["secret"])
    assert (alone.send({"type": "stand_in", "at": len(table.moves)}) or alone.receive())["key"] == "web_match_over"
    watcher.close()
    bob.close()


def test_the_others_are_told_who_is_away_and_the_table_says_who_stands_in_for_them(client):
    """A person's last tab closing, and their first coming back, is told to the others (a page showed
    a player gone as one thinking); a tab more or less of someone here tells nothing. The table's state
    says which bot plays for someone away and when, in the reader's language (a player who joined
    by a link never saw the lobby's form)."""
    code, ann, bob = two_people(client, bot_timeout=5, stand_in="expert")
    assert ann.state["away"] == [1] and bob.state["away"] == []  # (told as Bob came)
    assert ann.receive_away() == []
    second = Seat(client, code, bob.secret)  # a second tab: Bob was here already
    assert second.state["away"] == [] and ann.state["away"] == []
    second.close()
    bob.close()
    assert ann.receive_away() == [1]  # (the second tab's closing told nothing: the next news is this)
    bob = Seat(client, code, bob.secret, lang="nl")
    assert ann.receive_away() == []
    assert ann.state["stand_in"] == ("A bot (expert) plays for someone away after 5 s, and for someone here"
                                     " who does not move within 60 s, while another player is at the table.")
    assert bob.state["stand_in"] == ("Een bot (expert) speelt voor wie weg is na 5 s, en voor wie er wel is maar"
                                     " binnen 60 s geen zet doet, zolang er een andere speler aan tafel is.")
    plain = create(client, players=2)  # no timeout: a bot plays only when asked (it was told of no bot at all)
    assert Seat(client, plain["code"], plain["secret"]).state["stand_in"] == (
        "A bot (beginner) plays a move for someone away for 30 s, or here without moving for 60 s, when another"
        " player asks it to.")
    assert Seat(client, plain["code"], plain["secret"], lang="nl").state["stand_in"] == (
        "Een bot (beginner) doet een zet voor wie 30 s weg is, of wie er wel is maar al 60 s geen zet doet,"
        " als een andere speler erom vraagt.")


def test_nothing_dealt_is_shown_before_every_seat_is_taken(client):
    """The game starts once every seat is taken: until then its first player was shown their two
    cards (and had all the time they liked over the first move), each newcomer their card."""
    made = create(client, players=3)
    ann = Seat(client, made["code"], made["secret"])
    table = client.app.state.server.rooms[made["code"]].table
    held = table.view_for(0).hand
    assert ann.state["hand"] == [] and ann.state["known"] == {} and ann.state["seat"] == 0
    assert all(row["unseen"] == table.match.edition.copies[Card.from_word(row["card"]["card"])]
               for row in ann.state["tracker"])  # (her cards are not taken off the unseen ones)
    assert not any(Translator("en").card(card) in line for line in ann.state["log"] for card in held)
    client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"})
    assert ann.receive()["hand"] == []
    client.post(f"/api/tables/{made['code']}/join", json={"name": "Cleo"})
    assert [face["card"] for face in ann.receive()["hand"]] == [card.word for card in held]


def _tied_match():
    """A classic match to one token whose one round both players win: the engine's full tie
    (scenarios.FULL_TIE: a Prince each, the same discard total, R6.3), seat 0 starting."""
    from scenarios import FULL_TIE, FULL_TIE_FROM_SEAT0, full_deck

    from loveletter.engine import CLASSIC, Match

    match = Match(CLASSIC, 2, target=1, deck=full_deck(FULL_TIE))
    for move in FULL_TIE_FROM_SEAT0.split("; "):
        match.apply(Action.parse(move))
    assert match.over and match.round.winners == (0, 1)
    return match


def test_every_replay_frame_shows_the_whole_match_as_it_stands_after_its_turn():
    """A replay shows everything (the record holds the decks; README: "every hand shown"): each frame,
    field by field, is the match as the record cut after that turn and replayed shows it: every hand
    (the one to move holding two cards), the discards of each seat, the face-up cards, who is in and
    who is protected, whose turn it is, the deck's size, the tokens, every winner of a shared win (and
    only the winners, not everyone left), and the round's story so far with its own number."""
    from collections import Counter

    from loveletter.narrate import names_apart, narrate_all
    from loveletter.record import to_record
    from loveletter.tournament import Settings, run_tournament
    from loveletter.web import replays

    docs = [to_record(_tied_match(), ["Ann", "Bob"])]
    for edition, lineup in (("classic", ("random", "random")), ("2019", ("beginner", "random", "random"))):
        docs += run_tournament(Settings(lineup=lineup, edition=edition, mode="matches", games=1, seed=4),
                               jobs=1, records=True).records
    t = Translator("en")
    seen: Counter[str] = Counter()

    def words(cards):
        return [card.word for card in cards]

    for doc in docs:
        frames = json.loads(replays.frames_json(doc, t))["frames"]
        names = names_apart(doc["players"])
        for frame, (r, cut, match) in zip(frames, _each_cut(doc), strict=True):
            rnd = match.round
            assert (frame["round"], frame["turn"], frame["names"]) == (r + 1, cut, names)
            assert [[c["card"] for c in hand] for hand in frame["hands"]] == [words(h) for h in rnd.hands]
            piles = [[c["card"] for c in pile] for pile in frame["discards"]]
            assert piles == [words(pile) for pile in rnd.discards]
            assert [c["card"] for c in frame["face_up"]] == words(rnd.face_up)
            assert frame["alive"] == list(rnd.alive) and frame["protected"] == list(rnd.protected)
            assert frame["current"] == rnd.current and frame["deck_size"] == len(rnd.deck)
            assert frame["tokens"] == list(match.tokens) and frame["winners"] == list(rnd.winners)
            assert frame["log"] == narrate_all(rnd.log, names, t, r + 1)
            assert frame["log"][0].startswith(f"Round {r + 1}")
            if not rnd.over:
                assert len(frame["hands"][frame["current"]]) == 2 and not frame["winners"]
                assert all(frame["hands"][s] for s in range(len(names)) if frame["alive"][s])
            seen.update({"protected": any(frame["protected"]), "out": not all(frame["alive"]),
                         "face up": bool(frame["face_up"]), "later round": r > 0,
                         "shared win": len(frame["winners"]) > 1,
                         "in but lost": rnd.over and sum(frame["alive"]) > len(frame["winners"])})
    wanted = ("protected", "out", "face up", "later round", "shared win", "in but lost")
    assert all(seen[k] for k in wanted), seen  # (the records show each of these)


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_replay_ends_with_the_match_as_the_command_line_tells_it(lang):
    """The page's replay never said who won the match, or that a record stops before the match ends
    (nor the target beside the tokens): a replay now carries the target, and the line the command
    line's story ends with, for the page to show at the last step. A shared win, a finished match
    and one cut in its middle."""
    from loveletter.record import replay as replay_record
    from loveletter.record import to_record
    from loveletter.tournament import Settings, run_tournament
    from loveletter.tui.replay import tell
    from loveletter.web import replays

    finished = run_tournament(Settings(lineup=("beginner", "random", "random"), edition="2019", mode="matches",
                                       games=1, seed=4), jobs=1, records=True).records[0]
    cut = {**finished, "rounds": finished["rounds"][:2]}
    t = Translator(lang)
    ends = []
    for doc in (to_record(_tied_match(), ["Ann", "Bob"]), finished, cut):
        told = json.loads(replays.frames_json(doc, t))
        replayed = replay_record(doc)
        assert told["target"] == replayed.match.target
        assert told["result"] == list(tell(replayed, t))[-1]
        ends.append(told["result"].split(":")[0])
    over, going = t("replay_match_over", names="", scores="").split(":")[0], t("replay_match_going", scores="").split(":")[0]
    assert ends == [over, over, going]


def test_a_tables_record_names_players_called_alike_apart():
    """docs/record.md asks for distinct names: a table's record names two players shown alike apart
    (else the record is refused and the table's replay fails)."""
    from loveletter.web.replays import record_of

    doc = record_of(_tied_match(), ["Ann", "Ann"])
    assert doc["players"] == ["Ann (0)", "Ann (1)"] and replay(doc).match.over
