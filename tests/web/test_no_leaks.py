"""Hidden information (R7): what the server sends a seat is the same whatever the cards it may not
know are, over many random games of both editions, for every seat and for spectators."""

from __future__ import annotations

import copy
import json
import random

import pytest
from scenarios import permuted_copy
from web_clients import join

from loveletter.bots import ExpertBot
from loveletter.engine import CLASSIC, EDITION_2019, Card
from loveletter.i18n import Translator
from loveletter.web.messages import advice_at, hints_message, state_message
from loveletter.web.store import Store
from loveletter.web.table import GameTable, SeatPlan, Settings

GAMES = [(CLASSIC, 2), (CLASSIC, 4), (EDITION_2019, 3), (EDITION_2019, 6)]


def table_of(edition, players: int, seed: int) -> GameTable:
    settings = Settings(edition.name, players, 2, seed, [SeatPlan()] * players)
    table = GameTable("T" + str(seed), settings, Store("sqlite://"))
    table.store.create(table.code, settings.as_json(), False)
    for seat in range(players):
        join(table, f"player {seat}")
    return table


def with_hidden_cards_moved(table: GameTable, seat: int | None, rng: random.Random) -> GameTable:
    """The same table, but the cards ``seat`` cannot see (and others' secrets) dealt differently,
    in the round being played and in the one before (whose result the message recalls)."""
    other = copy.copy(table)
    other.match = copy.copy(table.match)
    other.match.rounds = [*table.match.rounds[:-2],
                          *(permuted_copy(r, seat, rng) for r in table.match.rounds[-2:])]
    return other


@pytest.mark.parametrize(("edition", "players"), GAMES, ids=[f"{e.name}-{n}p" for e, n in GAMES])
def test_no_message_depends_on_cards_the_seat_may_not_know(edition, players):
    rng = random.Random(f"leaks-{edition.name}-{players}")
    t = Translator("en")
    compared = differed = 0
    for _game in range(6):
        table = table_of(edition, players, rng.randrange(10**9))
        while not table.match.over:
            for seat in [None, *range(players)]:
                sent = state_message(table, seat, t)
                for _ in range(2):
                    other = with_hidden_cards_moved(table, seat, rng)
                    assert state_message(other, seat, t) == sent, f"seat {seat} learns a hidden card"
                    compared += 1
                    # the check has teeth: what another seat is sent does change
                    neighbour = 0 if seat is None else (seat + 1) % players
                    differed += state_message(other, neighbour, t) != state_message(table, neighbour, t)
            current = table.match.current
            table.play(current, rng.choice(table.view_for(current).legal_actions).notation(), len(table.moves))
    assert compared > 300 and differed > compared / 10


def test_a_seat_sees_its_own_hand_and_the_public_table_only():
    rng = random.Random(4)
    table = table_of(CLASSIC, 3, 11)
    for _ in range(5):
        current = table.match.current
        table.play(current, rng.choice(table.view_for(current).legal_actions).notation(), len(table.moves))
    rnd = table.match.round
    for seat in range(3):
        message = state_message(table, seat, Translator("en"))
        assert [c["card"] for c in message["hand"]] == [c.word for c in rnd.hands[seat]]
        text = json.dumps(message)
        assert "deck_top" not in text and "set_aside\"" not in text
    watcher = state_message(table, None, Translator("en"))
    assert watcher["hand"] == [] and watcher["known"] == {} and watcher["legal"] == []


def test_hints_do_not_depend_on_cards_the_seat_may_not_know():
    rng = random.Random(6)
    t = Translator("en")
    for players in (2, 3):
        table = table_of(CLASSIC, players, rng.randrange(10**9))
        for _ in range(4 * players):
            if table.match.over:
                break
            seat = table.match.current
            advice = hints_message(advice_at(table.view_for(seat), len(table.moves), ExpertBot(seed=1, budget=60)), t)
            other = with_hidden_cards_moved(table, seat, rng)
            assert hints_message(advice_at(other.view_for(seat), len(other.moves), ExpertBot(seed=1, budget=60)), t) == advice
            table.play(seat, rng.choice(table.view_for(seat).legal_actions).notation(), len(table.moves))


def test_a_seat_is_told_where_its_own_cards_under_the_deck_are_and_nobody_else_is():
    """After a Chancellor, its player's page names the two cards it put under the deck (and its card
    tracker no longer counts them); the other seats and the spectators are told nothing of them."""
    rng = random.Random(9)
    t = Translator("en")
    table = table_of(EDITION_2019, 3, 21)
    while not any(e.kind == "bottom" for e in table.match.round.log or ()):
        current = table.match.current
        legal = table.view_for(current).legal_actions
        chancellor = [a for a in legal if a.card is Card.CHANCELLOR or a.keep is not None]
        table.play(current, (chancellor or [rng.choice(legal)])[0].notation(), len(table.moves))
    returned = next(e for e in table.match.round.log if e.kind == "bottom")
    mine = state_message(table, returned.seat, t)
    assert [face["card"] for face in mine["under_deck"]] == [card.word for card in returned.cards]
    me = table.view_for(returned.seat)
    assert {e["card"]["card"]: e["unseen"] for e in mine["tracker"]} == \
        {card.word: me.tracker()[card] - returned.cards.count(card) for card in EDITION_2019.copies}
    for seat in [None, *(s for s in range(3) if s != returned.seat)]:
        assert state_message(table, seat, t)["under_deck"] == []
