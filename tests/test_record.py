"""Game records at the library level (docs/record.md): hand-written records replay to the exact
summary of docs/record.md, and broken ones are refused with a one-line message that names the place:
``round R, turn T: `` for a turn, ``round R: `` for a round, nothing for the document as a whole.

The expected summaries below are worked out by hand from docs/rules.md, not taken from the engine.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from loveletter.engine import Card, Match, Phase
from loveletter.i18n import ERRORS_NL, MESSAGES, Translator
from loveletter.record import FORMAT, RecordError, load, replay, save, summary, to_record

# ------------------------------------------------------------------------------------ records


def words(text: str) -> list[str]:
    """A deck written as card names separated by spaces, top card first."""
    return text.split()


# Classic, 3 players, a target of 2 (an agreed option, R2.3): two short rounds, seat 0 wins both.
CLASSIC_3P: dict[str, Any] = {
    "format": "loveletter-record/1",
    "edition": "classic",
    "players": ["Anna", "Bram", "Cas"],
    "target": 2,
    "rounds": [
        {
            # set aside: princess; deal from seat 1: 1 guard, 2 priest, 0 baron; seat 1 draws a guard
            "deck": words(
                "princess guard priest baron guard king"
                " guard guard guard priest baron handmaid handmaid prince prince countess"
            ),
            "starter": 1,
            "turns": [
                {"play": "guard", "target": 2, "guess": "priest"},  # seat 2 holds the priest: out
                {"play": "baron", "target": 1, "seat": 0},  # seat 0 draws the king; king 6 > guard 1
            ],
        },
        {
            # seat 0 won round 1, so it starts (R3.5): deal 0 king, 1 priest, 2 baron; 0 draws a guard
            "deck": words(
                "princess king priest baron guard handmaid"
                " guard guard guard guard priest baron handmaid prince prince countess"
            ),
            "starter": 0,
            "turns": [
                {"play": "guard", "target": 1, "guess": "priest"},  # hit: seat 1 out
                {"play": "baron", "target": 0},  # seat 2 draws the handmaid: 4 < king 6, seat 2 out
            ],
        },
    ],
}

CLASSIC_3P_SUMMARY = {
    "edition": "classic",
    "players": ["Anna", "Bram", "Cas"],
    "target": 2,
    "rounds": [
        {
            "starter": 1,
            "finished": True,
            "out": [2, 1],
            "winners": [0],
            "spy_bonus": None,
            "tokens": [1, 0, 0],
        },
        {
            "starter": 0,
            "finished": True,
            "out": [1, 2],
            "winners": [0],
            "spy_bonus": None,
            "tokens": [2, 0, 0],
        },
    ],
    "tokens": [2, 0, 0],
    "finished": True,
    "winners": [0],
}

# Classic, 2 players (target 7 by default): round 1 goes to the end of the deck and ends in a tie of
# Barons that the discard piles decide (R6.3); round 2 is still being played.
SHOWDOWN_DECK = words(
    "princess king prince prince"  # set aside, then three face up (R3.3)
    " guard guard"  # dealt to seats 0 and 1
    " handmaid guard priest handmaid guard priest baron countess guard baron"  # drawn in turns 1..10
)
CLASSIC_2P: dict[str, Any] = {
    "players": ["Anna", "Bram"],
    "rounds": [
        {
            "deck": SHOWDOWN_DECK,
            "turns": [
                {"play": "handmaid"},  # 0: guard + handmaid
                {"play": "guard"},  # 1: guard + guard; seat 0 is protected: no target (R4.6)
                {"play": "priest", "target": 1},  # 0: guard + priest
                {"play": "handmaid"},  # 1: guard + handmaid
                {"play": "guard", "target": None},  # 0: guard + guard; seat 1 is protected
                {"play": "guard", "target": 0, "guess": "countess"},  # 1: guard + priest; miss
                {"play": "guard", "target": 1, "guess": "baron"},  # 0: guard + baron; miss (priest)
                {"play": "priest", "target": 0},  # 1: priest + countess
                {"play": "guard", "target": 1, "guess": "priest"},  # 0: baron + guard; miss (countess)
                {"play": "countess"},  # 1: countess + baron; the deck is empty now
            ],
            # Showdown: baron against baron. Discards: seat 0 handmaid, priest, guard, guard, guard = 9;
            # seat 1 guard, handmaid, guard, priest, countess = 15: seat 1 wins.
        },
        {
            "deck": SHOWDOWN_DECK,
            "starter": 1,
            "turns": [
                {"play": "handmaid", "seat": 1},  # 1: guard + handmaid
                {"play": "guard", "seat": 0},  # 0: guard + guard; seat 1 is protected
            ],
        },
    ],
}

CLASSIC_2P_SUMMARY = {
    "edition": "classic",
    "players": ["Anna", "Bram"],
    "target": 7,
    "rounds": [
        {"starter": 0, "finished": True, "out": [], "winners": [1], "spy_bonus": None, "tokens": [0, 1]},
        {"starter": 1, "finished": False, "out": [], "winners": [], "spy_bonus": None, "tokens": [0, 1]},
    ],
    "tokens": [0, 1],
    "finished": False,
    "winners": [],
}

# 2019, 3 players: a Chancellor turn (R5.9), a Guard, a Spy played, a Baron; seat 0 wins the round
# and, as the only one left with a Spy on their discard pile, the Spy's token (R6.4).
REST_2019 = words("spy guard guard guard priest handmaid prince prince chancellor king countess")
DECK_2019 = [
    "princess",  # set aside
    *("spy", "guard", "priest"),  # dealt to seats 0, 1, 2
    "chancellor",  # seat 0's draw
    *("baron", "guard"),  # the Chancellor's two cards
    *("guard", "handmaid", "baron"),  # drawn in turns 2, 3, 4
    *REST_2019,
]
RECORD_2019: dict[str, Any] = {
    "format": "loveletter-record/1",
    "edition": "2019",
    "players": ["Anna", "Bram", "Cas"],
    "rounds": [
        {
            "deck": DECK_2019,
            "starter": 0,
            "turns": [
                # 0: spy + chancellor; plays it, draws baron and guard, keeps the spy
                {"play": "chancellor", "keep": "spy", "bottom": ["guard", "baron"]},
                {"play": "guard", "target": 2, "guess": "priest"},  # 1: guard + guard; hit
                {"play": "spy"},  # 0: spy + handmaid
                {"play": "baron", "target": 0},  # 1: guard + baron; guard 1 < handmaid 4: seat 1 out
            ],
        },
    ],
}

RECORD_2019_SUMMARY = {
    "edition": "2019",
    "players": ["Anna", "Bram", "Cas"],
    "target": 5,
    "rounds": [
        {"starter": 0, "finished": True, "out": [2, 1], "winners": [0], "spy_bonus": 0, "tokens": [2, 0, 0]},
    ],
    "tokens": [2, 0, 0],
    "finished": False,
    "winners": [],
}

# 2019, 2 players, seat 1 starts: the deck runs out and both end with a Baron, so both win (R6.3,
# 2019); seat 1 played both Spies and gains one Spy token only (R6.4). The last turn is a Chancellor
# on an empty deck: no effect, nothing kept (R5.9). Round 2 has just been dealt: seat 1 starts it,
# the first winner in turn order counting from round 1's starter, seat 1 (R3.5).
TIE_DECK_2019 = words(
    "princess prince prince chancellor"  # set aside, then three face up (R3.3)
    " spy guard"  # dealt to seat 1, then seat 0
    " guard guard spy priest guard handmaid guard priest handmaid king baron countess guard baron"
    " chancellor"  # drawn in turns 1..15
)
TIE_2019: dict[str, Any] = {
    "edition": "2019",
    "players": ["Anna", "Bram"],
    "rounds": [
        {
            "deck": TIE_DECK_2019,
            "starter": 1,
            "turns": [
                {"play": "spy", "seat": 1},  # 1: spy + guard
                {"play": "guard", "target": 1, "guess": "priest"},  # 0: guard + guard; miss
                {"play": "spy"},  # 1: guard + spy
                {"play": "priest", "target": 1},  # 0: guard + priest
                {"play": "guard", "target": 0, "guess": "countess"},  # 1: guard + guard; miss
                {"play": "handmaid"},  # 0: guard + handmaid
                {"play": "guard"},  # 1: guard + guard; seat 0 is protected (R4.6)
                {"play": "guard", "target": 1, "guess": "baron"},  # 0: guard + priest; miss
                {"play": "handmaid"},  # 1: guard + handmaid
                {"play": "king"},  # 0: priest + king; seat 1 is protected (R4.6)
                {"play": "guard", "target": 0, "guess": "handmaid"},  # 1: guard + baron; miss (priest)
                {"play": "priest", "target": 1},  # 0: priest + countess
                {"play": "guard", "target": 0, "guess": "priest"},  # 1: baron + guard; miss (countess)
                {"play": "countess"},  # 0: countess + baron
                {"play": "chancellor", "seat": 1},  # 1: baron + chancellor; the deck is empty
            ],
        },
        {"deck": TIE_DECK_2019, "turns": []},
    ],
}

TIE_2019_SUMMARY = {
    "edition": "2019",
    "players": ["Anna", "Bram"],
    "target": 6,
    "rounds": [
        {"starter": 1, "finished": True, "out": [], "winners": [0, 1], "spy_bonus": 1, "tokens": [1, 2]},
        {"starter": 1, "finished": False, "out": [], "winners": [], "spy_bonus": None, "tokens": [1, 2]},
    ],
    "tokens": [1, 2],
    "finished": False,
    "winners": [],
}


def doc_copy(doc: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(doc)


def refused(doc: Any) -> str:
    """Replay ``doc``, which must be refused; the one-line message."""
    with pytest.raises(RecordError) as info:
        replay(doc)
    message = str(info.value)
    assert "\n" not in message and message.strip() == message and message
    return message


# ------------------------------------------------------------------------------------ valid records


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (CLASSIC_3P, CLASSIC_3P_SUMMARY),
        (CLASSIC_2P, CLASSIC_2P_SUMMARY),
        (RECORD_2019, RECORD_2019_SUMMARY),
        (TIE_2019, TIE_2019_SUMMARY),
    ],
    ids=["classic-3p-finished-match", "classic-2p-in-progress", "2019-chancellor-spy", "2019-tie"],
)
def test_valid_records_replay_to_the_exact_summary(doc: dict[str, Any], expected: dict[str, Any]) -> None:
    before = doc_copy(doc)
    result = summary(replay(doc))
    assert result == expected
    assert json.loads(json.dumps(result)) == expected  # plain JSON
    assert doc == before  # replay does not change the document


def test_the_example_summary_of_record_md() -> None:
    """docs/record.md's summary example: one round of three players, started by seat 1."""
    doc = doc_copy(CLASSIC_3P)
    doc["target"] = 5
    doc["rounds"] = doc["rounds"][:1]
    assert summary(replay(doc)) == {
        "edition": "classic",
        "players": ["Anna", "Bram", "Cas"],
        "target": 5,
        "rounds": [
            {
                "starter": 1,
                "finished": True,
                "out": [2, 1],
                "winners": [0],
                "spy_bonus": None,
                "tokens": [1, 0, 0],
            }
        ],
        "tokens": [1, 0, 0],
        "finished": False,
        "winners": [],
    }


def test_the_classic_showdown_is_decided_by_the_discard_piles() -> None:
    """R6.2, R6.3 (house): both hold a Baron; seat 1's discard pile totals 15 against 9."""
    rnd = replay(CLASSIC_2P).match.rounds[0]
    assert rnd.over and not rnd.deck
    assert rnd.hands == [[Card.BARON], [Card.BARON]]
    assert rnd.winners == (1,)


def test_the_chancellor_puts_cards_under_the_deck_in_the_order_given() -> None:
    """R5.9 and docs/record.md: the last card listed in 'bottom' ends up as the very bottom card."""
    rnd = replay(RECORD_2019).match.round
    assert rnd.discards[0] == [Card.CHANCELLOR, Card.SPY]
    expected_left = [Card.from_word(c) for c in REST_2019] + [Card.GUARD, Card.BARON]
    assert list(rnd.deck_top_first()) == expected_left


def test_a_chancellor_on_an_empty_deck_keeps_nothing() -> None:
    """R5.9: with the deck empty the Chancellor has no effect, so the turn names no card to keep."""
    rnd = replay(TIE_2019).match.rounds[0]
    assert rnd.discards[1][-1] is Card.CHANCELLOR and rnd.hands[1] == [Card.BARON]
    doc = doc_copy(TIE_2019)
    doc["rounds"][0]["turns"][-1].update(keep="baron", bottom=["chancellor"])
    assert turn_refused(doc, "round 1, turn 15: ") == (
        "the Chancellor drew no card (the deck is empty), so it keeps nothing (R5.9)"
    )


def test_the_starter_after_a_shared_win() -> None:
    """R3.5 (house): seats 0 and 1 both won round 1, which seat 1 started: seat 1 starts round 2."""
    doc = doc_copy(TIE_2019)
    doc["rounds"][1]["starter"] = 1
    assert summary(replay(doc))["rounds"][1]["starter"] == 1
    doc["rounds"][1]["starter"] = 0
    assert refused(doc) == "round 2: seat 0 cannot start this round: seat 1 does (R3.5)"


def test_the_chancellor_choice_after_one_turn() -> None:
    """Right after the Chancellor turn, seat 0 holds the kept Spy and seat 1 has drawn the next card."""
    doc = doc_copy(RECORD_2019)
    doc["rounds"][0]["turns"] = doc["rounds"][0]["turns"][:1]
    match = replay(doc).match
    rnd = match.round
    assert rnd.hands[0] == [Card.SPY]
    assert rnd.current == 1 and rnd.phase is Phase.PLAY
    assert rnd.hands[1] == [Card.GUARD, Card.GUARD]
    assert list(rnd.deck_top_first())[-2:] == [Card.GUARD, Card.BARON]


def test_optional_fields_may_be_left_out() -> None:
    """'format', 'edition' (classic), 'target' (R2.3), 'starter' (0, then R3.5) and 'seat' are optional;
    a null target and a null guess are the same as none."""
    doc = doc_copy(CLASSIC_3P)
    del doc["format"], doc["edition"], doc["target"]
    del doc["rounds"][1]["starter"]
    del doc["rounds"][0]["turns"][1]["seat"]
    result = summary(replay(doc))
    assert result["target"] == 5
    assert [r["starter"] for r in result["rounds"]] == [1, 0]
    assert result["tokens"] == [2, 0, 0] and not result["finished"]


@pytest.mark.parametrize("target", [3, 99, 100, 10**400], ids=["3", "99", "100", "10**400"])
def test_any_target_the_players_agreed_is_taken(target: int) -> None:
    """R2.3 lets the players agree on another target, and docs/record.md sets no most: the programme offers
    targets up to 99 where it asks for one, but a record may name any."""
    result = summary(replay(with_fields(target=target)))
    assert result["target"] == target
    assert result["tokens"] == [2, 0, 0] and not result["finished"]


def test_a_record_written_by_the_engine_replays_and_is_written_again_the_same() -> None:
    replayed = replay(CLASSIC_2P)
    doc = to_record(replayed.match, replayed.names)
    assert doc["format"] == FORMAT and doc["target"] == 7
    assert doc["rounds"][0]["turns"][2] == {"seat": 0, "play": "priest", "target": 1}
    again = replay(json.loads(json.dumps(doc)))
    assert summary(again) == CLASSIC_2P_SUMMARY
    assert to_record(again.match, again.names) == doc


def test_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "game.json"
    save(RECORD_2019, path)
    assert load(path) == RECORD_2019
    assert summary(replay(load(str(path)))) == RECORD_2019_SUMMARY


@pytest.mark.parametrize("links", [True, False], ids=["links", "no-links"])
def test_a_new_record_replaces_no_file_and_makes_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           links: bool) -> None:
    """A tournament's records (``new``): one another run wrote first stays as it was, and a folder
    that went away is not made again (two runs' records mixed in one folder, each run reporting
    success; a folder removed mid-run was made again with the later records alone). On a file system
    without links, a look before the rename does it."""
    if not links:
        def no_links(source: object, target: object) -> None:
            raise PermissionError(1, "Operation not permitted")

        monkeypatch.setattr("os.link", no_links)
    path = tmp_path / "game-000000.json"
    save(RECORD_2019, path, new=True)
    assert load(path) == RECORD_2019
    other = json.dumps({"another": "run"})
    path.write_text(other)
    with pytest.raises(FileExistsError) as clash:
        save(RECORD_2019, path, new=True)
    assert clash.value.filename == str(path) and path.read_text() == other
    with pytest.raises(FileNotFoundError):
        save(RECORD_2019, tmp_path / "gone" / "game-000001.json", new=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-000000.json"]  # (no temporary file left)


def test_two_runs_saving_one_new_record_keep_their_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two runs writing a record of one name each wrote it first under one temporary name: the second,
    saving between the first's link and its removal of that name, wrote its record into the first's."""
    import os

    path = tmp_path / "game-000001.json"
    link = os.link
    other = {**RECORD_2019, "players": ["Other", "Run"]}

    def link_then_another_run_saves(source: str, target: str) -> None:
        link(source, target)
        monkeypatch.setattr(os, "link", link)
        monkeypatch.setattr(os, "getpid", lambda: -1)  # (another process)
        with pytest.raises(FileExistsError):
            save(other, path, new=True)

    monkeypatch.setattr(os, "link", link_then_another_run_saves)
    save(RECORD_2019, path, new=True)
    assert load(path) == RECORD_2019 and [p.name for p in tmp_path.iterdir()] == [path.name]


# ------------------------------------------------------------------------------------ refused turns


def turn_refused(doc: dict[str, Any], prefix: str) -> str:
    message = refused(doc)
    assert message.startswith(prefix), message
    return message[len(prefix) :]


def test_an_illegal_move_names_the_rule() -> None:
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["turns"][0]["guess"] = "guard"
    assert turn_refused(doc, "round 1, turn 1: ") == "the Guard may not name the Guard (R5.1)"

    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["turns"][1]["target"] = 2  # seat 2 is out
    assert turn_refused(doc, "round 1, turn 2: ") == "seat 2 is out of the round and cannot be chosen (R4.5)"

    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][1]["turns"][0] = {"play": "priest", "target": 1}  # seat 0 holds king and guard
    assert turn_refused(doc, "round 2, turn 1: ") == "seat 0 does not hold the Priest (R4.3)"

    doc = doc_copy(CLASSIC_2P)
    doc["rounds"][0]["turns"][1] = {"play": "guard", "target": 0, "guess": "priest"}  # seat 0 protected
    assert turn_refused(doc, "round 1, turn 2: ") == (
        "seat 0 is protected by the Handmaid and cannot be chosen (R4.5)"
    )

    doc = doc_copy(CLASSIC_2P)
    doc["rounds"][0]["turns"][2] = {"play": "priest"}  # seat 1 may be chosen
    assert turn_refused(doc, "round 1, turn 3: ") == "the Priest must choose a player: seat 1 (R4.5)"

    doc = doc_copy(CLASSIC_2P)
    doc["rounds"][1]["turns"][0] = {"play": "handmaid", "target": 0}
    assert turn_refused(doc, "round 2, turn 1: ") == "the Handmaid does not choose a player (R4.5)"

    doc = doc_copy(RECORD_2019)
    doc["rounds"][0]["turns"][1]["target"] = 1  # seat 1 plays a Guard on itself
    assert turn_refused(doc, "round 1, turn 2: ") == (
        "the Guard must choose another player, not seat 1 itself (R4.5)"
    )

    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["turns"][0]["guess"] = "spy"  # not a card of the classic edition
    assert turn_refused(doc, "round 1, turn 1: ").endswith("(R1)")


COUNTESS_DOC: dict[str, Any] = {
    "players": ["Anna", "Bram"],
    "rounds": [
        {
            # set aside princess; face up guard, guard, guard; seat 0 gets the countess, seat 1 a baron;
            # seat 0 draws the king
            "deck": words(
                "princess guard guard guard countess baron king priest"
                " prince guard guard baron handmaid priest handmaid prince"
            ),
            "turns": [{"play": "king", "target": 1}],
        }
    ],
}


def test_the_countess_rule_is_enforced() -> None:
    """R4.4: the King next to the Countess is refused (the turn is named)."""
    turn_refused(doc_copy(COUNTESS_DOC), "round 1, turn 1: ")
    ok = doc_copy(COUNTESS_DOC)
    ok["rounds"][0]["turns"] = [{"play": "countess"}]
    assert summary(replay(ok))["rounds"][0]["finished"] is False


def test_the_countess_refusal_names_r4_4() -> None:
    """docs/record.md's own example of a refusal: '... must play the Countess while holding the King (R4.4)'."""
    assert turn_refused(doc_copy(COUNTESS_DOC), "round 1, turn 1: ") == (
        "seat 0 must play the Countess while holding the King (R4.4)"
    )


def test_the_countess_refusal_names_r4_4_for_the_prince() -> None:
    doc = doc_copy(COUNTESS_DOC)
    deck = doc["rounds"][0]["deck"]
    deck[6], deck[8] = "prince", "king"  # seat 0 draws a prince instead
    doc["rounds"][0]["turns"] = [{"play": "prince"}]
    assert turn_refused(doc, "round 1, turn 1: ") == (
        "seat 0 must play the Countess while holding the Prince (R4.4)"
    )


def test_a_wrong_seat_is_refused() -> None:
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["turns"][1]["seat"] = 2
    assert turn_refused(doc, "round 1, turn 2: ") == "the turn says seat 2, but it is seat 0's turn"
    doc["rounds"][0]["turns"][1]["seat"] = True
    turn_refused(doc, "round 1, turn 2: ")
    doc = doc_copy(CLASSIC_2P)
    doc["rounds"][1]["turns"][1]["seat"] = 1
    assert turn_refused(doc, "round 2, turn 2: ") == "the turn says seat 1, but it is seat 0's turn"


def test_an_unknown_turn_field_is_refused() -> None:
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][1]["turns"][1]["card"] = "baron"
    assert turn_refused(doc, "round 2, turn 2: ") == "unknown field 'card' in a turn"


@pytest.mark.parametrize("word", ["koning", "Koning", "wachter"])
def test_a_card_named_in_dutch_is_told_that_a_record_names_cards_in_english(word) -> None:
    """A Dutch player writing a record by hand: "unknown card 'koning'" did not say why."""
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["turns"][0] = {"play": word}
    english = {"koning": "king", "wachter": "guard"}[word.lower()]
    assert turn_refused(doc, "round 1, turn 1: ") == (
        f"unknown card '{word}' in 'play': a record names the cards in English ('{english}')")
    with pytest.raises(RecordError) as info:
        replay(doc)
    assert Translator("nl").record_error(info.value) == (
        f"ronde 1, beurt 1: onbekende kaart '{word}' in 'play': een verslag noemt de kaarten in het Engels ('{english}')")
    doc["rounds"][0]["turns"][0] = {"play": "houd"}  # (a Dutch word of the notation, not a card)
    assert turn_refused(doc, "round 1, turn 1: ") == "unknown card 'houd' in 'play'"


def test_malformed_turns_are_refused() -> None:
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["turns"][0] = ["guard", 2, "priest"]
    assert turn_refused(doc, "round 1, turn 1: ") == "a turn is a JSON object, not a list"
    doc["rounds"][0]["turns"][0] = {"target": 2, "guess": "priest"}
    assert turn_refused(doc, "round 1, turn 1: ") == "the turn has no 'play'"
    doc["rounds"][0]["turns"][0] = {"play": "jester"}
    assert turn_refused(doc, "round 1, turn 1: ") == "unknown card 'jester' in 'play'"
    doc["rounds"][0]["turns"][0] = {"play": "guard", "target": "2", "guess": "priest"}
    turn_refused(doc, "round 1, turn 1: ")
    doc["rounds"][0]["turns"][0] = {"play": "guard", "target": 2, "guess": 2}
    turn_refused(doc, "round 1, turn 1: ")
    doc["rounds"][0]["turns"][0] = {"play": "guard", "target": 7, "guess": "priest"}
    assert turn_refused(doc, "round 1, turn 1: ") == "there is no seat 7 (R2.1)"


def test_a_turn_after_the_end_of_the_round_is_refused() -> None:
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["turns"].append({"play": "guard", "target": 1, "guess": "king"})
    assert turn_refused(doc, "round 1, turn 3: ") == "the round is already over: no more turns"


def test_a_chancellor_that_drew_must_keep_a_card() -> None:
    doc = doc_copy(RECORD_2019)
    doc["rounds"][0]["turns"][0] = {"play": "chancellor"}
    assert turn_refused(doc, "round 1, turn 1: ") == (
        "the Chancellor drew cards, so the turn must say which of 'spy', 'guard', 'baron' to keep (R5.9)"
    )
    doc["rounds"][0]["turns"][0] = {"play": "chancellor", "bottom": ["guard", "baron"]}
    assert turn_refused(doc, "round 1, turn 1: ").endswith("to keep (R5.9)")


def test_a_bad_chancellor_choice_is_refused() -> None:
    doc = doc_copy(RECORD_2019)
    doc["rounds"][0]["turns"][0] = {"play": "chancellor", "keep": "king", "bottom": ["guard", "baron"]}
    assert turn_refused(doc, "round 1, turn 1: ") == "seat 0 must keep one of these cards: Spy, Guard or Baron (R5.9)"
    doc["rounds"][0]["turns"][0] = {"play": "chancellor", "keep": "spy", "bottom": ["guard"]}
    assert turn_refused(doc, "round 1, turn 1: ") == (
        "the cards put under the deck must be exactly the others: Guard, Baron (R5.9)"
    )
    doc["rounds"][0]["turns"][0] = {"play": "chancellor", "keep": "spy", "bottom": ["guard", "spy"]}
    turn_refused(doc, "round 1, turn 1: ")
    doc["rounds"][0]["turns"][0] = {"play": "chancellor", "keep": "spy", "bottom": "guard,baron"}
    assert turn_refused(doc, "round 1, turn 1: ") == "'bottom' must be a list of cards"


def test_keep_on_a_card_other_than_the_chancellor_is_refused() -> None:
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["turns"][0]["keep"] = "guard"
    assert turn_refused(doc, "round 1, turn 1: ") == "only a Chancellor turn has 'keep' and 'bottom' (R5.9)"
    doc = doc_copy(RECORD_2019)
    doc["rounds"][0]["turns"][2]["bottom"] = []
    assert turn_refused(doc, "round 1, turn 3: ") == "only a Chancellor turn has 'keep' and 'bottom' (R5.9)"


# ------------------------------------------------------------------------------------ refused rounds


def test_a_bad_deck_is_refused() -> None:
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["deck"] = doc["rounds"][0]["deck"][:-1]  # no countess
    message = refused(doc)
    assert message.startswith("round 1: ") and "0 × Countess (needs 1)" in message and message.endswith("(R3.1)")

    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][1]["deck"][-1] = "guard"  # six guards, no countess
    message = refused(doc)
    assert message.startswith("round 2: ") and "6 × Guard (needs 5)" in message and message.endswith("(R3.1)")

    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][1]["deck"].append("spy")  # a 2019 card in a classic deck
    message = refused(doc)
    assert message.startswith("round 2: ") and "1 × Spy (needs 0)" in message

    doc = doc_copy(RECORD_2019)
    doc["rounds"][0]["deck"][3] = "joker"
    assert refused(doc) == "round 1: unknown card 'joker' in 'deck'"

    doc = doc_copy(RECORD_2019)
    doc["rounds"][0]["deck"] = "princess spy guard"
    assert refused(doc) == "round 1: 'deck' must be a list of cards"
    del doc["rounds"][0]["deck"]
    assert refused(doc) == "round 1: 'deck' must be a list of cards"


def test_a_wrong_starter_is_refused() -> None:
    """R3.5: seat 0 won round 1, so seat 0 starts round 2."""
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][1]["starter"] = 1
    assert refused(doc) == "round 2: seat 1 cannot start this round: seat 0 does (R3.5)"
    doc = doc_copy(CLASSIC_2P)
    doc["rounds"][1]["starter"] = 0
    assert refused(doc) == "round 2: seat 0 cannot start this round: seat 1 does (R3.5)"
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["starter"] = 3
    assert refused(doc) == "round 1: 'starter' must be a seat from 0 to 2, not 3"


def test_a_round_after_the_end_of_the_match_is_refused() -> None:
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"].append(doc_copy(CLASSIC_3P)["rounds"][1])
    assert refused(doc) == "round 3: the match ended after round 2, so no round may follow"


def test_an_unfinished_round_followed_by_another_is_refused() -> None:
    doc = doc_copy(CLASSIC_2P)
    doc["rounds"][0]["turns"] = doc["rounds"][0]["turns"][:9]
    message = refused(doc)
    assert re.match(r"round [12]: ", message), message
    assert message == "round 1: the round has not ended, yet another round follows it"


def test_malformed_rounds_are_refused() -> None:
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][1] = [1, 2]
    assert refused(doc) == "round 2: a round is a JSON object, not a list"
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["turns"] = {"play": "guard"}
    assert refused(doc) == "round 1: 'turns' must be a list"


def test_unknown_fields_of_the_document_and_its_rounds_are_left_out_and_named() -> None:
    """RECORD.md refuses unknown fields in a turn alone: a record another program wrote, with an
    event's name in the document or a note in a round, was refused. It is replayed as it would be
    without them, and the fields left out are named for the reader (a misspelt 'target' is not
    taken without a word), in either language."""
    doc = doc_copy(CLASSIC_3P)
    doc["event"] = "club night"
    doc["rounds"][1]["note"] = {"by": "Anna"}
    doc["rounds"][1]["moves"] = []
    done, plain = replay(doc), replay(doc_copy(CLASSIC_3P))
    assert summary(done) == summary(plain)
    assert done.ignored == [("event", None), ("moves", 2), ("note", 2)] and plain.ignored == []
    assert Translator("en").ignored_fields(done.ignored) == (
        "Left out (not in loveletter-record/1): 'event' in the record, 'moves' in round 2,"
        " 'note' in round 2.")
    assert Translator("nl").ignored_fields(done.ignored) == (
        "Weggelaten (niet in loveletter-record/1): 'event' in het spelverslag, 'moves' in ronde 2,"
        " 'note' in ronde 2.")
    many = [(f"x{i}" * 30, None) for i in range(7)]  # (the first five, cut short as every quote is)
    told = Translator("en").ignored_fields(many)
    assert told.count(" in the record") == 5 and told.endswith(", and 2 more.") and "…'" in told
    assert Translator("nl").ignored_fields(many).endswith("' in het spelverslag en nog 2.")


def test_a_known_field_written_otherwise_is_refused_not_left_out() -> None:
    """Left out as a field the format does not name, "Target" replayed the match to the default
    target (and "Starter" round 1 from seat 0), with a note only."""
    doc = doc_copy(CLASSIC_3P)
    doc["Target"] = doc.pop("target")
    with pytest.raises(RecordError) as refused:
        replay(doc)
    assert str(refused.value) == "'Target' must be written 'target'" and refused.value.round_number is None
    assert Translator("nl").record_error(refused.value) == "'Target' moet 'target' geschreven worden"
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][1]["TURNS"] = doc["rounds"][1].pop("turns")
    with pytest.raises(RecordError, match=r"^round 2: 'TURNS' must be written 'turns'$"):
        replay(doc)


# ------------------------------------------------------------------------------------ refused documents


def document_refused(doc: Any) -> str:
    message = refused(doc)
    assert not re.match(r"round \d+", message), message
    return message


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        ([], "a record is a JSON object, not a list"),
        ("loveletter", "a record is a JSON object, not a string"),
        (None, "a record is a JSON object, not null"),
        (3, "a record is a JSON object, not a number"),
    ],
)
def test_a_record_must_be_an_object(doc: Any, expected: str) -> None:
    assert document_refused(doc) == expected


def with_fields(**fields: Any) -> dict[str, Any]:
    doc = doc_copy(CLASSIC_3P)
    for key, value in fields.items():
        if value is ...:
            del doc[key]
        else:
            doc[key] = value
    return doc


@pytest.mark.parametrize(
    ("doc", "pattern"),
    [
        (with_fields(format="loveletter-record/2"), r'unknown format "loveletter-record/2"'),
        (with_fields(format="pgn"), r"unknown format"),
        (with_fields(format=None), r'unknown format null: expected "loveletter-record/1"'),
        (with_fields(format="f" * 100), 'unknown format "' + "f" * 39 + '…: expected'),  # cut at 40, as every quote
        (with_fields(format="loveletter-tournament/1", pairwise=[]), r"unknown format"),  # not a field
        (with_fields(edition="deluxe"), r"unknown edition 'deluxe'"),
        (with_fields(edition=2019), r"'edition' must be"),
        (with_fields(players=...), r"'players' must be a list of non-empty names"),
        (with_fields(players="Anna, Bram"), r"'players' must be a list of non-empty names"),
        (with_fields(players=["Anna", "", "Cas"]), r"'players' must be a list of non-empty names"),
        (with_fields(players=["Anna", 2, "Cas"]), r"'players' must be a list of non-empty names"),
        (with_fields(players=["Anna", "Bram", "Anna"]), r"the players' names must be distinct"),
        (with_fields(players=["Anna"]), r"the classic edition is for 2-4 players, not 1 \(R2\.1\)"),
        (with_fields(players=list("ABCDE")), r"the classic edition is for 2-4 players, not 5 \(R2\.1\)"),
        (
            with_fields(edition="2019", players=list("ABCDEFG")),
            r"the 2019 edition is for 2-6 players, not 7 \(R2\.1\)",
        ),
        (with_fields(target=0), r"'target' must be a whole number of tokens, at least 1, not 0$"),
        (with_fields(target=-3), r"'target' must be a whole number"),
        (with_fields(target="5"), r"'target' must be a whole number"),
        (with_fields(target=2.5), r"'target' must be a whole number"),
        (with_fields(target=True), r"'target' must be a whole number"),
        (with_fields(rounds=...), r"'rounds' must be a list"),
        (with_fields(rounds={"deck": []}), r"'rounds' must be a list"),
        (with_fields(rounds="none"), r"'rounds' must be a list"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_document_problems_are_refused_without_a_place(doc: dict[str, Any], pattern: str) -> None:
    with pytest.raises(RecordError, match=f"^{pattern}") as info:
        replay(doc)
    assert "\n" not in str(info.value)
    assert info.value.round_number is None and info.value.turn is None
    document_refused(doc)


@pytest.mark.parametrize(("place", "field", "message"), [
    ("record", "target", "'target' must be a whole number of tokens, at least 1, not null"),
    ("round 1", "starter", "round 1: 'starter' must be a seat from 0 to 2, not null"),
    ("round 2", "starter", "round 2: 'starter' must be a seat from 0 to 2, not null"),
    ("turn", "seat", "round 1, turn 1: 'seat' must be a seat number, not null"),
    ("turn", "guess", "round 1, turn 1: 'guess' must name a card, not null"),
    ("turn", "keep", "round 1, turn 1: only a Chancellor turn has 'keep' and 'bottom' (R5.9)"),
    ("turn", "bottom", "round 1, turn 1: only a Chancellor turn has 'keep' and 'bottom' (R5.9)"),
])
def test_null_is_refused_where_record_md_does_not_allow_it(place: str, field: str, message: str) -> None:
    """docs/record.md allows null for a turn's target alone; any other optional field is absent or has a
    value. A null there was read as absent: ``"keep": null`` on a Guard's turn was taken, where
    ``"keep": "guard"`` was refused."""
    doc = doc_copy(CLASSIC_3P)
    where = (doc if place == "record" else doc["rounds"][int(place[-1]) - 1] if place.startswith("round")
             else doc["rounds"][0]["turns"][0])
    where[field] = None
    assert refused(doc) == message


@pytest.mark.parametrize(("field", "message"), [
    ("keep", "round 1, turn 1: 'keep' must name a card, not null"),
    ("bottom", "round 1, turn 1: 'bottom' must be a list of cards"),
])
def test_a_chancellor_that_drew_names_its_choice_not_null(field: str, message: str) -> None:
    doc = doc_copy(RECORD_2019)
    doc["rounds"][0]["turns"][0][field] = None
    assert refused(doc) == message


def test_a_turn_without_a_target_may_say_so_with_null() -> None:
    doc = doc_copy(RECORD_2019)
    untargeted = [turn for turn in doc["rounds"][0]["turns"] if "target" not in turn]
    assert len(untargeted) == 2  # the Chancellor and the Spy
    for turn in untargeted:
        turn["target"] = None
    assert summary(replay(doc)) == RECORD_2019_SUMMARY


def test_a_blank_name_is_a_name() -> None:
    """docs/record.md asks for non-empty names: a space is one (it was refused as "not non-empty")."""
    doc = with_fields(players=["Anna", " ", "Cas"])
    assert replay(doc).names == ["Anna", " ", "Cas"]


@pytest.mark.parametrize(("where", "value", "quoted"), [
    ("play", "x" * 100_000, "unknown card '" + "x" * 40 + "…' in 'play'"),
    ("guess", "y" * 1000, "unknown card '" + "y" * 40 + "…' in 'guess'"),
    ("z" * 100_000, 1, "unknown field '" + "z" * 40 + "…' in a turn"),
    ("seat", int("9" * 3000), "the turn says seat " + "9" * 40 + "…, but it is seat 1's turn"),
], ids=["play", "guess", "field", "seat"])
def test_a_long_value_is_quoted_cut_short(where: str, value: Any, quoted: str) -> None:
    """(A 100,000-letter card name was echoed whole, in a 100 kB line.)"""
    doc = doc_copy(CLASSIC_3P)
    turn = doc["rounds"][0]["turns"][0]
    if where == "guess":
        turn.update(play="guard", target=1)
    turn[where] = value
    assert refused(doc).endswith(quoted)


@pytest.mark.parametrize("names", [["A", "B"], ["A", "B", "C", "D"], ["A", "A", "B"], ["", "B", "C"], [1, 2, 3]])
def test_to_record_refuses_names_that_do_not_fit_the_match(names: list[Any]) -> None:
    """A record with a name too few would replay as another game (or not at all): refused."""
    match = Match(players=3, seed=1)
    with pytest.raises(ValueError, match="names"):
        to_record(match, names)


def test_refusals_carry_their_place() -> None:
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][1]["turns"][1]["seat"] = 1
    with pytest.raises(RecordError) as info:
        replay(doc)
    assert (info.value.round_number, info.value.turn) == (2, 2)
    assert info.value.reason == "the turn says seat 1, but it is seat 2's turn"
    assert isinstance(info.value, ValueError)


# ------------------------------------------------------------------------------------ files


def test_load_malformed_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"players": ["Anna", "Bram"],\n "rounds": [', encoding="utf-8")
    with pytest.raises(RecordError, match=r"is not valid JSON") as info:
        load(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_load_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nothing-here.json"
    with pytest.raises(RecordError, match=r"^no such file: ") as info:
        load(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_a_file_is_named_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "./-" is a file, not standard input ("-"): the message must not turn it into "-"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RecordError) as info:
        load("./-")
    assert str(info.value) == "no such file: ./-"
    (tmp_path / "-").write_text("{", encoding="utf-8")
    with pytest.raises(RecordError, match=r"^\./- is not valid JSON"):
        load("./-")


def test_load_a_folder_or_a_binary_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError) as info:
        load(tmp_path)
    assert "\n" not in str(info.value)
    binary = tmp_path / "game.json"
    binary.write_bytes(b"\xff\xfe\x00\x81garbage")
    with pytest.raises(RecordError) as info:
        load(binary)
    assert "\n" not in str(info.value)


def test_load_valid_json_of_the_wrong_shape_is_refused_by_replay(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text("[1, 2, 3]\n", encoding="utf-8")
    assert load(path) == [1, 2, 3]
    assert document_refused(load(path)) == "a record is a JSON object, not a list"


# ------------------------------------------------------------------------------------ in Dutch


def changed(doc: dict[str, Any], change: Any) -> dict[str, Any]:
    """A copy of ``doc`` with ``change`` applied to it."""
    doc = doc_copy(doc)
    change(doc)
    return doc


def set_turn(r: int, t: int, turn: Any) -> Any:
    return lambda doc: doc["rounds"][r - 1]["turns"].__setitem__(t - 1, turn)


# One bad record for every way replay() refuses one (the key it should be refused with).
BAD_RECORDS: list[tuple[str, Any]] = [
    ("rec_not_object", []),
    ("rec_not_object", None),
    ("rec_field_case", with_fields(Players=["A", "B"])),
    ("rec_unknown_format", with_fields(format="pgn")),
    ("rec_edition_type", with_fields(edition=2019)),
    ("rec_unknown_edition", with_fields(edition="deluxe")),
    ("rec_players", with_fields(players=...)),
    ("rec_players_distinct", with_fields(players=["Anna", "Bram", "Anna"])),
    ("rec_player_count", with_fields(players=["Anna"])),
    ("rec_player_count", with_fields(edition="2019", players=list("ABCDEFG"))),
    ("rec_target", with_fields(target=0)),
    ("rec_target", with_fields(target=2.5)),
    ("rec_target", with_fields(target=True)),
    ("rec_rounds", with_fields(rounds="none")),
    ("rec_no_rounds", with_fields(rounds=[])),
    ("rec_round_not_object", changed(CLASSIC_3P, lambda d: d["rounds"].__setitem__(1, [1, 2]))),
    ("rec_deck", changed(RECORD_2019, lambda d: d["rounds"][0].update(deck="princess spy guard"))),
    ("rec_unknown_card", changed(RECORD_2019, lambda d: d["rounds"][0]["deck"].__setitem__(3, "joker"))),
    ("rec_card_type", changed(RECORD_2019, lambda d: d["rounds"][0]["deck"].__setitem__(3, 3))),
    ("rec_deck_cards", changed(CLASSIC_3P, lambda d: d["rounds"][0]["deck"].pop())),
    ("rec_deck_cards", changed(CLASSIC_3P, lambda d: d["rounds"][1]["deck"].__setitem__(-1, "guard"))),
    ("rec_deck_cards", changed(CLASSIC_3P, lambda d: d["rounds"][1]["deck"].append("spy"))),
    ("rec_starter", changed(CLASSIC_3P, lambda d: d["rounds"][0].update(starter=3))),
    ("rec_wrong_starter", changed(CLASSIC_3P, lambda d: d["rounds"][1].update(starter=1))),
    ("rec_round_unfinished", changed(CLASSIC_2P, lambda d: d["rounds"][0].update(turns=d["rounds"][0]["turns"][:9]))),
    ("rec_match_over", changed(CLASSIC_3P, lambda d: d["rounds"].append(doc_copy(CLASSIC_3P)["rounds"][1]))),
    ("rec_turns", changed(CLASSIC_3P, lambda d: d["rounds"][0].update(turns={"play": "guard"}))),
    ("rec_turn_not_object", changed(CLASSIC_3P, set_turn(1, 1, ["guard", 2, "priest"]))),
    ("rec_unknown_field_turn", changed(CLASSIC_3P, lambda d: d["rounds"][1]["turns"][1].update(card="baron"))),
    ("rec_round_over", changed(CLASSIC_3P, lambda d: d["rounds"][0]["turns"].append({"play": "guard"}))),
    ("rec_wrong_seat", changed(CLASSIC_3P, lambda d: d["rounds"][0]["turns"][1].update(seat=2))),
    ("rec_seat_type", changed(CLASSIC_3P, lambda d: d["rounds"][0]["turns"][1].update(seat=[1]))),
    ("rec_no_play", changed(CLASSIC_3P, set_turn(1, 1, {"target": 2, "guess": "priest"}))),
    ("rec_unknown_card", changed(CLASSIC_3P, set_turn(1, 1, {"play": "jester"}))),
    ("rec_target_type", changed(CLASSIC_3P, set_turn(1, 1, {"play": "guard", "target": "2"}))),
    ("rec_card_type", changed(CLASSIC_3P, set_turn(1, 1, {"play": "guard", "target": 2, "guess": 2}))),
    ("rec_choice_not_chancellor", changed(CLASSIC_3P, lambda d: d["rounds"][0]["turns"][0].update(keep="guard"))),
    ("rec_chancellor_keep", changed(RECORD_2019, set_turn(1, 1, {"play": "chancellor"}))),
    ("rec_bottom", changed(RECORD_2019, set_turn(1, 1, {"play": "chancellor", "keep": "spy", "bottom": "guard"}))),
    ("rec_chancellor_empty",
     changed(TIE_2019, lambda d: d["rounds"][0]["turns"][-1].update(keep="baron", bottom=["chancellor"]))),
    ("illegal", changed(CLASSIC_3P, lambda d: d["rounds"][0]["turns"][0].update(guess="guard"))),
    ("illegal", changed(RECORD_2019, set_turn(1, 1, {"play": "chancellor", "keep": "king", "bottom": []}))),
    ("illegal", doc_copy(COUNTESS_DOC)),
]

# Words of the English messages that are not Dutch (quoted field names and values aside).
ENGLISH_ONLY = {"must", "round", "turn", "seat", "the", "not", "no", "cannot", "only", "unknown", "card",
                "cards", "deck", "list", "players", "edition", "number", "string", "file", "folder"}


def assert_dutch(err: RecordError) -> str:
    """``err`` worded in Dutch: translated, one line, its place in Dutch; the Dutch message."""
    if err.key == "illegal":
        assert err.cause is not None and err.cause.key in ERRORS_NL
    else:
        assert err.cause is None and err.key in MESSAGES["en"] and err.key in MESSAGES["nl"]
    assert Translator("en").record_error(err) == str(err)
    dutch = Translator("nl").record_error(err)
    assert dutch != str(err) and "\n" not in dutch and dutch.strip() == dutch
    words = set(re.findall(r"[a-z]+", re.sub(r"'[^']*'|\"[^\"]*\"", "", dutch.lower())))
    assert not words & ENGLISH_ONLY, (dutch, words & ENGLISH_ONLY)
    if err.turn is not None:
        assert dutch.startswith(f"ronde {err.round_number}, beurt {err.turn}: ")
    elif err.round_number is not None:
        assert dutch.startswith(f"ronde {err.round_number}: ")
    return dutch


@pytest.mark.parametrize(("key", "doc"), BAD_RECORDS, ids=[key for key, _ in BAD_RECORDS])
def test_every_refusal_has_a_dutch_wording(key: str, doc: Any) -> None:
    with pytest.raises(RecordError) as info:
        replay(doc)
    assert info.value.key == key, str(info.value)
    assert_dutch(info.value)


def test_every_refusal_of_replay_is_in_the_table() -> None:
    load_keys = {"rec_no_file", "rec_folder", "rec_not_text", "rec_wide_text", "rec_cut_in_a_character", "rec_unreadable", "rec_not_json", "rec_too_deep",
                 "rec_number_too_long", "rec_stdin", "rec_stdin_closed", "rec_too_big",
                 "rec_key_twice", "rec_empty", "rec_not_a_file"}  # reading, not replaying (the last: check's)
    places = {"rec_where_round", "rec_where_turn", "rec_deck_count"}
    notes = {"rec_ignored", "rec_ignored_in_record", "rec_ignored_in_round", "rec_ignored_more"}  # (not refusals)
    wordings = {"rec_card_not_english"}  # (rec_unknown_card's, of a card named in Dutch)
    replay_keys = {k for k in MESSAGES["en"] if k.startswith("rec_")} - load_keys - places - notes - wordings
    assert replay_keys <= {key for key, _ in BAD_RECORDS}


def test_dutch_refusals_word_for_word() -> None:
    nl = Translator("nl")
    cases = [
        (with_fields(players=["Anna"]), "de klassieke editie is voor 2-4 spelers, niet 1 (R2.1)"),
        (changed(CLASSIC_3P, lambda d: d["rounds"][1]["deck"].__setitem__(-1, "guard")),
         "ronde 2: de trekstapel moet de 16 kaarten van de klassieke editie precies één keer per exemplaar"
         " bevatten; hij heeft 6 × Wachter (nodig: 5), 0 × Gravin (nodig: 1) (R3.1)"),
        (changed(RECORD_2019, set_turn(1, 1, {"play": "chancellor"})),
         "ronde 1, beurt 1: de Kanselier trok kaarten, dus de beurt moet zeggen welke van 'spy', 'guard',"
         " 'baron' hij houdt (R5.9)"),  # the record's own words: those it takes in 'keep'
        (doc_copy(COUNTESS_DOC), "ronde 1, beurt 1: stoel 0 moet de Gravin spelen met de Koning in de hand (R4.4)"),
        ([], "een spelverslag is een JSON-object, geen lijst"),
    ]
    for doc, expected in cases:
        with pytest.raises(RecordError) as info:
            replay(doc)
        assert nl.record_error(info.value) == expected


def test_load_refusals_in_dutch(tmp_path: Path) -> None:
    nl = Translator("nl")
    (tmp_path / "bad.json").write_text("[1,", encoding="utf-8")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00\x81garbage")
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    # a key twice: the last one won without a word
    (tmp_path / "twice.json").write_text('{"players": ["A", "B"], "rounds": [{"deck": [], "deck": []}]}',
                                         encoding="utf-8")
    for name, key in [("nothing.json", "rec_no_file"), (".", "rec_folder"), ("binary.json", "rec_not_text"),
                      ("bad.json", "rec_not_json"), ("twice.json", "rec_key_twice"), ("deep.json", "rec_too_deep")]:
        with pytest.raises(RecordError) as info:
            load(tmp_path / name)
        assert info.value.key == key, str(info.value)
        dutch = nl.record_error(info.value)
        assert dutch != str(info.value) and str(tmp_path) in dutch and "\n" not in dutch
    assert nl.record_error(info.value) == f"{tmp_path / 'deep.json'} is te diep genest voor een spelverslag"
    with pytest.raises(RecordError) as info:
        load(tmp_path / "twice.json")
    assert str(info.value) == f"{tmp_path / 'twice.json'} names the field 'deck' twice in one object"


def test_load_words_the_json_readers_complaints_in_both_languages(tmp_path: Path) -> None:
    cases = [
        ('{"players": ["A", "B"', "a comma was expected (line 1, column 22)",
         "hier werd een komma verwacht (regel 1, kolom 22)"),
        ('{"players": "Ann', "a string is not closed (line 1, column 13)",
         "een tekst is niet afgesloten (regel 1, kolom 13)"),
        ("  x", "a value was expected (line 1, column 3)", "hier werd een waarde verwacht (regel 1, kolom 3)"),
        ("{} {}", "more follows the end of the JSON value (line 1, column 4)",
         "er volgt nog iets na het einde van de JSON-waarde (regel 1, kolom 4)"),
        # a second byte-order mark: Python's own words were shown, in English in Dutch too
        ("\ufeff\ufeff{}", "a byte-order mark (U+FEFF) stands where a value should start (line 1, column 1)",
         "een bytevolgordeteken (U+FEFF) staat waar een waarde moet beginnen (regel 1, kolom 1)"),
        # words Python's reader takes as numbers and JSON does not have (a seat of Infinity was "a number
        # with a fraction"): told where they stand, not where the same word stands in a string
        ('{"a": "NaN", "b":\n  -Infinity}', "a value was expected (line 2, column 3)",
         "hier werd een waarde verwacht (regel 2, kolom 3)"),
        ('{"NaN": 1, "seat": Infinity}', "a value was expected (line 1, column 20)",
         "hier werd een waarde verwacht (regel 1, kolom 20)"),
        ("[NaN]", "a value was expected (line 1, column 2)", "hier werd een waarde verwacht (regel 1, kolom 2)"),
    ]
    path = tmp_path / "bad.json"
    for text, english, dutch in cases:
        path.write_text(text, encoding="utf-8")
        with pytest.raises(RecordError) as info:
            load(path)
        assert str(info.value) == f"{path} is not valid JSON: {english}"
        assert Translator("nl").record_error(info.value) == f"{path} is geen geldige JSON: {dutch}"


def test_an_empty_file_is_told_as_empty(tmp_path: Path) -> None:
    # the terminal game claims its record's name with an empty file; one killed at once leaves it so
    path = tmp_path / "game.json"
    for text in ("", " \n"):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(RecordError) as info:
            load(path)
        assert str(info.value).startswith(f"{path} is empty: ")
        assert Translator("nl").record_error(info.value).startswith(f"{path} is leeg: ")


def test_load_takes_a_byte_order_mark_and_refuses_an_endless_number(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text("\ufeff" + json.dumps(CLASSIC_3P), encoding="utf-8")  # as some Windows editors save
    assert load(path) == CLASSIC_3P
    path.write_text('{"target": ' + "9" * 5000 + "}", encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load(path)
    assert str(info.value) == f"{path} holds a number too long to read (line 1, column 12)"
    assert Translator("nl").record_error(info.value) == (
        f"{path} bevat een getal dat te lang is om te lezen (regel 1, kolom 12)")


def test_a_number_too_long_to_read_is_found_where_it_is(tmp_path: Path) -> None:
    """Where the JSON reader says nothing of where: the first whole number too long, not one in a
    string, nor one with a fraction or an exponent (read as a float, however long)."""
    doc = json.loads(json.dumps(CLASSIC_3P))
    doc["players"][0] = "1" * 5000  # a name of digits: text
    doc["rounds"][0]["turns"][0]["note"] = 0.5  # (refused later; read first)
    text = json.dumps(doc, indent=2).replace('"note": 0.5', '"note": 1.' + "0" * 5000 + "e" + "1" * 3)
    at = text.index('"target"')
    text = text[:at] + '"target": ' + "7" * 4301 + text[text.index(",", at):]
    path = tmp_path / "long.json"
    path.write_text(text, encoding="utf-8")
    line = text[:at].count("\n") + 1
    column = at - text.rfind("\n", 0, at) + len('"target": ')
    with pytest.raises(RecordError) as info:
        load(path)
    assert str(info.value) == f"{path} holds a number too long to read (line {line}, column {column})"
    path.write_text(text.replace("7" * 4301, "-" + "7" * 4300), encoding="utf-8")  # as long as Python reads
    assert load(path)["target"] == -int("7" * 4300)


@pytest.mark.parametrize(("data", "line", "column"), [
    (b'{\n  "players": ["Br\xe9m", "Ann"]}', 2, 18),  # a Latin-1 name
    (b'\xef\xbb\xbf{"players": ["\xc3\xa9\xe9"]}', 1, 16),  # after a byte-order mark and an "\xe9" in UTF-8
    (b"\xff\xfe\x00\x81garbage", 1, 1),
])
def test_a_file_not_utf8_is_told_where(tmp_path: Path, data: bytes, line: int, column: int) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(data)
    with pytest.raises(RecordError) as info:
        load(path)
    assert str(info.value) == f"{path} is not a text file (not UTF-8 at line {line}, column {column})"
    assert Translator("nl").record_error(info.value) == (
        f"{path} is geen tekstbestand (geen UTF-8 op regel {line}, kolom {column})")


@pytest.mark.parametrize(("codec", "says"), [("utf-16", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32")])
def test_a_record_in_utf16_is_told_so_and_how_to_save_it(tmp_path: Path, codec: str, says: str) -> None:
    """Saved as Notepad's "Unicode", a record was "not a text file", which told a student nothing."""
    path = tmp_path / "unicode.json"
    path.write_bytes(("\ufeff" if codec.endswith("be") else "") .encode(codec) + '{"players": ["Zoë"]}'.encode(codec))
    with pytest.raises(RecordError) as info:
        load(path)
    assert str(info.value) == f"{path} is {says} text: a record is read as UTF-8 (save it as UTF-8)"
    assert Translator("nl").record_error(info.value) == (
        f"{path} is tekst in {says}: een spelverslag wordt als UTF-8 gelezen (sla het op als UTF-8)")


def test_a_file_cut_in_the_middle_of_a_character_is_told_as_cut_short(tmp_path: Path) -> None:
    """It was told as "not a text file", as if it were of another kind."""
    path = tmp_path / "cut.json"
    path.write_bytes('{"players": ["Zoë"'.encode()[:-2])  # the ë's first byte, then the end
    with pytest.raises(RecordError) as info:
        load(path)
    assert str(info.value) == f"{path} ends in the middle of a character (line 1, column 17): was it cut short?"
    assert Translator("nl").record_error(info.value) == (
        f"{path} houdt midden in een karakter op (regel 1, kolom 17): is het afgebroken?")


def test_an_unreadable_file_is_explained_in_dutch_too(tmp_path: Path) -> None:
    err = RecordError("rec_unreadable", path=tmp_path / "x.json", error=PermissionError(13, "Permission denied"))
    assert str(err) == f"cannot read {tmp_path / 'x.json'}: permission denied"
    assert Translator("nl").record_error(err) == f"kan {tmp_path / 'x.json'} niet lezen: geen toegang"


@pytest.mark.parametrize(("number", "english", "dutch"), [
    (5, "input/output error (the device failed, or this file cannot be used that way)",
     "invoer-/uitvoerfout (het apparaat faalde, of dit bestand is zo niet te gebruiken)"),  # (read or written)  # EIO: /proc/self/mem
    (0, "Something odd", "fout van het besturingssysteem: Something odd"),  # a reason we have no words for
])
def test_the_systems_reason_is_told_in_dutch(tmp_path: Path, number: int, english: str, dutch: str) -> None:
    err = RecordError("rec_unreadable", path=tmp_path / "x.json", error=OSError(number, "Something odd"))
    assert str(err) == f"cannot read {tmp_path / 'x.json'}: {english}"
    assert Translator("nl").record_error(err) == f"kan {tmp_path / 'x.json'} niet lezen: {dutch}"


def test_a_seat_of_the_wrong_kind_is_named_for_what_it_is() -> None:
    for turn, says in [({"seat": "0", "play": "guard"}, "'seat' must be a seat number, not a string"),
                       ({"play": "guard", "target": 1.0}, "'target' must be a seat number, not a number with a fraction")]:
        with pytest.raises(RecordError, match=says):
            replay(changed(CLASSIC_3P, set_turn(1, 1, turn)))


def test_refusals_name_the_field_and_the_editions_deck():
    with pytest.raises(RecordError) as info:
        replay(changed(CLASSIC_3P, set_turn(1, 1, {"play": "guard", "target": 1, "guess": "kaiser"})))
    assert info.value.params["field"] == "guess" and str(info.value).startswith("round 1, turn 1: ")
    with pytest.raises(RecordError) as info:
        replay(changed(CLASSIC_3P, lambda d: d["rounds"][0]["deck"].pop()))
    assert info.value.params["size"] == 16 and "the 16 cards" in str(info.value)
    with pytest.raises(RecordError) as info:
        replay(changed(CLASSIC_3P, set_turn(1, 1, {"play": True})))
    assert info.value.params["kind"] == "bool" and "true/false" in str(info.value)


def test_a_round_with_no_turns_is_a_round_not_yet_played_and_one_without_turns_is_refused():
    """RECORD.md marks the fields that may be left out, and ``turns`` is not one (it was taken as none)."""
    doc = changed(CLASSIC_3P, lambda d: (d["rounds"].__delitem__(slice(1, None)), d["rounds"][0].update(turns=[])))
    told = summary(replay(doc))
    assert told["rounds"][0]["finished"] is False and not told["finished"]
    del doc["rounds"][0]["turns"]
    assert refused(doc) == "round 1: 'turns' must be a list"


def test_save_writes_names_as_they_are(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    save({"players": ["Zoë", "Bram"]}, path)
    assert "Zoë" in path.read_text(encoding="utf-8")


def test_a_number_too_long_to_write_out_is_quoted_by_its_first_digits() -> None:
    """Python writes out no more than 4,300 digits: a dict (not a file) may hold a longer seat."""
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["turns"][0]["seat"] = 10**5000
    assert refused(doc).endswith("the turn says seat 1" + "0" * 39 + "…, but it is seat 1's turn")


def test_a_seat_thousands_of_digits_long_in_a_target_is_cut_as_every_quoted_number() -> None:
    """The engine's refusal of a seat that is none quotes it as the record's own refusals do: its
    first digits and "…" (it echoed all 4,000 digits), in English and in Dutch."""
    doc = doc_copy(CLASSIC_3P)
    doc["rounds"][0]["turns"][0]["target"] = 10**3999
    assert refused(doc).endswith("there is no seat 1" + "0" * 39 + "… (R2.1)")
    with pytest.raises(RecordError) as info:
        replay(doc)
    assert Translator("nl").record_error(info.value).endswith("er is geen stoel 1" + "0" * 39 + "… (R2.1)")
