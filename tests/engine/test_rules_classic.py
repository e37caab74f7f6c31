"""Rule scenarios for the classic edition (docs/rules.md R1-R7), written as tables: one row per situation.

Decks are written top card first (see scenarios.py): set-aside | 3 face-up (2 players) | deal from the
starter | the starter's draw | the rest. Seat 0 starts unless a row says otherwise.
"""

from __future__ import annotations

import numpy as np
import pytest
from scenarios import FULL_TIE, FULL_TIE_FROM_SEAT0, cards, deck, events, last, legal, play

from loveletter.engine import CARDS, CLASSIC, EDITION_2019, Card, Phase, Round, ties, view

C = Card

# A 2-player deck that runs out quietly: seat 0 keeps the King, seat 1 a Prince; every drawn card is
# played. After the nine moves below the deck is empty and seat 1 has drawn the last card, a Prince.
QUIET_PRINCE = (
    "princess | baron baron countess | king prince | guard"
    " | guard priest priest guard guard handmaid handmaid guard prince"
)
QUIET_PRINCE_MOVES = (
    "guard 1 baron; guard 0 baron; priest 1; priest 0; guard 1 baron; guard 0 baron;"
    " handmaid; handmaid; guard"
)

SEAT1_HIGHER_DISCARDS = (
    ("princess | baron king countess | prince prince | guard"
    " | guard priest priest guard guard handmaid handmaid guard baron"),
    ("guard 1 baron; guard 0 baron; priest 1; priest 0; guard 1 baron; guard 0 baron;"
    " handmaid; handmaid; guard; baron 0"),
)  # seat 0: 1+2+1+4+1 = 9, seat 1: 1+2+1+4+3 = 11
SEAT0_HIGHER_DISCARDS = (
    ("princess | baron baron king | prince prince | guard"
    " | guard priest priest guard guard handmaid handmaid countess guard"),
    ("guard 1 baron; guard 0 baron; priest 1; priest 0; guard 1 baron; guard 0 baron;"
    " handmaid; handmaid; countess; guard 0 baron"),
)  # seat 0: 1+2+1+4+7 = 15 (the Countess is forced by the Prince), seat 1: 1+2+1+4+1 = 9


# ---------------------------------------------------------------------------------------- R1, R2.1


@pytest.mark.parametrize(
    ("edition", "card", "value", "copies"),
    [
        pytest.param(CLASSIC, C.GUARD, 1, 5, id="R1-classic-guard-1x5"),
        pytest.param(CLASSIC, C.PRIEST, 2, 2, id="R1-classic-priest-2x2"),
        pytest.param(CLASSIC, C.BARON, 3, 2, id="R1-classic-baron-3x2"),
        pytest.param(CLASSIC, C.HANDMAID, 4, 2, id="R1-classic-handmaid-4x2"),
        pytest.param(CLASSIC, C.PRINCE, 5, 2, id="R1-classic-prince-5x2"),
        pytest.param(CLASSIC, C.KING, 6, 1, id="R1-classic-king-6x1"),
        pytest.param(CLASSIC, C.COUNTESS, 7, 1, id="R1-classic-countess-7x1"),
        pytest.param(CLASSIC, C.PRINCESS, 8, 1, id="R1-classic-princess-8x1"),
        pytest.param(EDITION_2019, C.SPY, 0, 2, id="R1-2019-spy-0x2"),
        pytest.param(EDITION_2019, C.GUARD, 1, 6, id="R1-2019-guard-1x6"),
        pytest.param(EDITION_2019, C.PRIEST, 2, 2, id="R1-2019-priest-2x2"),
        pytest.param(EDITION_2019, C.BARON, 3, 2, id="R1-2019-baron-3x2"),
        pytest.param(EDITION_2019, C.HANDMAID, 4, 2, id="R1-2019-handmaid-4x2"),
        pytest.param(EDITION_2019, C.PRINCE, 5, 2, id="R1-2019-prince-5x2"),
        pytest.param(EDITION_2019, C.CHANCELLOR, 6, 2, id="R1-2019-chancellor-6x2"),
        pytest.param(EDITION_2019, C.KING, 7, 1, id="R1-2019-king-7x1"),
        pytest.param(EDITION_2019, C.COUNTESS, 8, 1, id="R1-2019-countess-8x1"),
        pytest.param(EDITION_2019, C.PRINCESS, 9, 1, id="R1-2019-princess-9x1"),
    ],
)
def test_R1_card_values_and_copies(edition, card, value, copies):
    assert edition.value(card) == value
    assert edition.full_deck.count(card) == copies
    assert edition.counts[card] == copies  # (the same, by number, as the bots count cards)


def test_the_counts_by_number_give_every_card_even_those_an_edition_lacks():
    assert len(CARDS) == len(C) and all(CARDS[card] is card for card in C)  # (indexed by the card's number)
    assert CLASSIC.counts == (0, 5, 2, 2, 2, 2, 0, 1, 1, 1) and sum(EDITION_2019.counts) == 21


def test_R1_deck_sizes_and_classic_has_no_spy_or_chancellor():
    assert len(CLASSIC.full_deck) == 16
    assert len(EDITION_2019.full_deck) == 21
    assert not CLASSIC.has(C.SPY) and not CLASSIC.has(C.CHANCELLOR)


@pytest.mark.parametrize(
    ("edition", "players", "allowed"),
    [
        pytest.param(CLASSIC, 1, False, id="R2.1-classic-1-player-refused"),
        pytest.param(CLASSIC, 2, True, id="R2.1-classic-2-players"),
        pytest.param(CLASSIC, 4, True, id="R2.1-classic-4-players"),
        pytest.param(CLASSIC, 5, False, id="R2.1-classic-5-players-refused"),
        pytest.param(EDITION_2019, 2, True, id="R2.1-2019-2-players"),
        pytest.param(EDITION_2019, 6, True, id="R2.1-2019-6-players"),
        pytest.param(EDITION_2019, 7, False, id="R2.1-2019-7-players-refused"),
    ],
)
def test_R2_1_player_counts(edition, players, allowed):
    full = list(edition.full_deck)
    if allowed:
        assert Round(edition, players, full).players == players
    else:
        with pytest.raises(ValueError, match=r"R2\.1"):
            Round(edition, players, full)


def test_R2_1_play_passes_to_the_next_seat_skipping_players_who_are_out():
    r = deck("princess | guard priest baron | guard | guard ...", players=3)
    play(r, "guard 1 priest")  # seat 1 is out
    assert r.current == 2
    play(r, "guard 0 priest")  # a miss: seat 0 holds a Guard
    assert r.current == 0
    assert 1 not in {a.target for a in r.legal_actions()}


# ---------------------------------------------------------------------------------------- R3 setup


@pytest.mark.parametrize(
    ("players", "starter", "text", "set_aside", "face_up", "hands", "deck_size"),
    [
        pytest.param(
            2, 0, "princess | guard guard guard | priest baron | handmaid | ...",
            "princess", "guard guard guard", ["priest handmaid", "baron"], 9,
            id="R3.2-R3.3-R3.4-two-players-three-face-up",
        ),
        pytest.param(
            2, 1, "princess | guard guard guard | priest baron | handmaid | ...",
            "princess", "guard guard guard", ["baron", "priest handmaid"], 9,
            id="R3.4-deal-starts-with-the-starter",
        ),
        pytest.param(
            3, 2, "princess | guard priest baron | handmaid | ...",
            "princess", "", ["priest", "baron", "guard handmaid"], 11,
            id="R3.3-three-players-nothing-face-up",
        ),
        pytest.param(
            4, 1, "king | guard priest baron prince | countess | ...",
            "king", "", ["prince", "guard countess", "priest", "baron"], 10,
            id="R3.4-four-players-from-seat-1",
        ),
    ],
)
def test_R3_setting_up_a_round(players, starter, text, set_aside, face_up, hands, deck_size):
    r = deck(text, players=players, starter=starter)
    assert r.set_aside is Card.from_word(set_aside)
    assert list(r.face_up) == cards(face_up)
    assert r.hands == [cards(h) for h in hands]
    assert r.deck_size == deck_size
    assert (r.current, r.turn, r.phase) == (starter, 1, Phase.PLAY)
    assert r.discards == [[] for _ in range(players)]


def test_R3_1_the_deck_must_be_the_editions_cards():
    with pytest.raises(ValueError, match=r"R3\.1"):
        Round(CLASSIC, 2, list(CLASSIC.full_deck)[:-1] + [C.GUARD])


@pytest.mark.parametrize("stranger", ["joker", "Guard", 3, None])
def test_R3_1_a_deck_naming_no_card_is_a_value_error_that_names_it(stranger):
    """A deck may name its cards by their lowercase words; anything else is no card (it raised a
    ``KeyError``, where the docstring promises a ``ValueError`` that says what is wrong)."""
    words = [card.word for card in CLASSIC.full_deck]
    with pytest.raises(ValueError, match=rf"the deck holds {stranger!r}, which is not a card: the cards are spy,"):
        Round(CLASSIC, 2, words[:-1] + [stranger])
    assert Round(CLASSIC, 2, words, log=False).initial_deck == tuple(CLASSIC.full_deck)


def test_R3_2_R3_3_setup_event_shows_face_up_cards_but_not_the_set_aside_card():
    r = deck("princess | guard guard guard | priest baron | handmaid | ...")
    setup = r.log[0]
    assert setup.kind == "setup" and setup.cards == tuple(cards("guard guard guard"))
    spectator = view(r, None)
    assert C.PRINCESS not in [e.card for e in spectator.events]


# ---------------------------------------------------------------------------------------- R4.3 playing


def test_R4_3_the_played_card_joins_the_discard_pile_in_order():
    r = deck("princess | baron baron countess | guard priest | handmaid | guard guard ...")
    play(r, "handmaid; guard")  # seat 1 has no one to choose: seat 0 is protected
    play(r, "guard 1 king")
    assert r.discards == [cards("handmaid guard"), cards("guard")]
    assert r.turn == 4 and r.current == 1


# ---------------------------------------------------------------------------------------- R4.4 Countess

# Seat 0 is dealt the first card and draws the second; seat 1 holds a Baron.
@pytest.mark.parametrize(
    ("dealt", "drawn", "expected"),
    [
        pytest.param("countess", "king", ["countess"], id="R4.4-countess-forced-with-king"),
        pytest.param("countess", "prince", ["countess"], id="R4.4-countess-forced-with-prince"),
        pytest.param("king", "countess", ["countess"], id="R4.4-countess-forced-when-drawn-to-king"),
        pytest.param("prince", "countess", ["countess"], id="R4.4-countess-forced-when-drawn-to-prince"),
        pytest.param(
            "countess", "guard",
            ["guard 1 priest", "guard 1 baron", "guard 1 handmaid", "guard 1 prince", "guard 1 king",
             "guard 1 countess", "guard 1 princess", "countess"],
            id="R4.4-countess-bluff-allowed-with-guard",
        ),
        pytest.param("countess", "handmaid", ["handmaid", "countess"], id="R4.4-countess-bluff-with-handmaid"),
        pytest.param("countess", "priest", ["priest 1", "countess"], id="R4.4-countess-bluff-with-priest"),
        pytest.param("princess", "countess", ["countess", "princess"], id="R4.4-countess-with-princess-free"),
    ],
)
def test_R4_4_countess_rule_legal_actions(dealt, drawn, expected):
    r = deck(f"guard | guard guard guard | {dealt} baron | {drawn} | ...")
    assert legal(r) == expected


def test_R4_4_countess_bluff_plays_the_countess_and_hides_the_other_card():
    r = deck("princess | baron baron king | countess priest | guard | ...")
    play(r, "countess")
    assert r.discards[0] == [C.COUNTESS] and r.hands[0] == [C.GUARD]
    assert r.is_alive(0) and r.current == 1
    other = view(r, 1)
    assert 0 not in other.known
    assert all(e.card is not C.GUARD for e in other.events if e.seat == 0)


# ---------------------------------------------------------------------------------------- R4.5, R4.6 choosing

# Seat 1 starts and plays a Handmaid; then seat 0 draws: every other player is protected.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("princess | king countess prince | baron guard | handmaid | priest | ...",
                     ["guard", "priest"], id="R4.6-guard-and-priest-without-target"),
        pytest.param("princess | king countess prince | guard baron | handmaid | handmaid | ...",
                     ["baron", "handmaid"], id="R4.6-baron-without-target"),
        pytest.param("princess | baron countess prince | priest king | handmaid | guard | ...",
                     ["guard", "king"], id="R4.6-king-without-target"),
        pytest.param("princess | baron countess king | priest prince | handmaid | guard | ...",
                     ["guard", "prince 0"], id="R4.6-prince-must-choose-self"),
        pytest.param("princess | baron guard prince | priest king | handmaid | countess | ...",
                     ["countess"], id="R4.4-countess-still-forced-with-no-target"),
    ],
)
def test_R4_6_other_player_protected_two_players(text, expected):
    r = deck(text, starter=1)
    play(r, "handmaid")
    assert r.current == 0 and r.protected == [False, True]
    assert legal(r) == expected


def test_R4_6_other_players_protected_or_out_three_players():
    r = deck("princess | prince priest baron | guard | handmaid | guard | ...", players=3)
    play(r, "guard 1 priest; handmaid")  # seat 1 out, seat 2 protected
    assert r.current == 0 and r.hands[0] == cards("prince guard")
    assert legal(r) == ["guard", "prince 0"]


@pytest.mark.parametrize(
    ("text", "move", "kept"),
    [
        pytest.param("princess | king countess prince | baron guard | handmaid | priest | ...",
                     "guard", "priest", id="R4.6-guard-no-effect"),
        pytest.param("princess | king countess prince | baron guard | handmaid | priest | ...",
                     "priest", "guard", id="R4.6-priest-no-effect"),
        pytest.param("princess | king countess prince | guard baron | handmaid | handmaid | ...",
                     "baron", "handmaid", id="R4.6-baron-no-effect"),
        pytest.param("princess | baron countess prince | priest king | handmaid | guard | ...",
                     "king", "guard", id="R4.6-king-no-effect"),
    ],
)
def test_R4_6_card_played_with_no_one_to_choose_has_no_effect(text, move, kept):
    r = deck(text, starter=1)
    play(r, "handmaid")
    seat1_hand = list(r.hands[1])
    logged = len(r.log)
    play(r, move)
    assert r.discards[0] == cards(move)
    assert r.hands[0][0] is Card.from_word(kept)
    assert r.hands[1][: len(seat1_hand)] == seat1_hand and r.alive == [True, True]
    play_event = r.log[logged]
    assert (play_event.kind, play_event.target, play_event.guess) == ("play", None, None)
    assert not [e for e in r.log[logged:] if e.kind in ("priest", "baron", "king", "out")]


def test_R4_6_prince_on_self_when_everyone_else_is_protected():
    r = deck("princess | baron countess king | priest prince | handmaid | guard | guard ...", starter=1)
    play(r, "handmaid; prince 0")
    assert r.discards[0] == cards("prince guard")
    assert r.hands[0] == cards("guard")  # the new card from the deck
    assert last(r, "discard").seat == 0


# ---------------------------------------------------------------------------------------- R5.1 Guard


def test_R5_1_guard_names_any_classic_card_but_the_guard():
    r = deck("king | baron baron countess | guard priest | handmaid | ...")
    assert legal(r) == [
        "guard 1 priest", "guard 1 baron", "guard 1 handmaid", "guard 1 prince", "guard 1 king",
        "guard 1 countess", "guard 1 princess", "handmaid",
    ]
    assert CLASSIC.guessable == tuple(cards("priest baron handmaid prince king countess princess"))


@pytest.mark.parametrize(
    ("seat1", "move", "result", "seat1_out"),
    [
        pytest.param("priest", "guard 1 priest", "hit", True, id="R5.1-guard-right-guess-knocks-out"),
        pytest.param("priest", "guard 1 baron", "miss", False, id="R5.1-guard-wrong-guess-nothing"),
        pytest.param("princess", "guard 1 princess", "hit", True, id="R5.1-guard-names-the-princess"),
    ],
)
def test_R5_1_guard(seat1, move, result, seat1_out):
    r = deck(f"king | baron baron countess | guard {seat1} | handmaid | ...")
    play(r, move)
    assert last(r, "play").result == result
    assert r.is_alive(1) is not seat1_out
    if seat1_out:
        out = last(r, "out")
        assert (out.seat, out.cards, out.result) == (1, (Card.from_word(seat1),), "guard")
        assert r.discards[1] == cards(seat1)  # R5.11: the hand is discarded face up
        assert len(events(r, "out")) == 1  # R5.11: a discarded Princess changes nothing more
        assert r.over and r.winners == (0,)  # R6.1
    else:
        assert r.current == 1 and not r.over


# ---------------------------------------------------------------------------------------- R5.2 Priest


def test_R5_2_priest_shows_the_hand_only_to_its_player():
    r = deck("king | baron baron countess | priest handmaid | guard | ...")
    play(r, "priest 1")
    look = last(r, "priest")
    assert (look.seat, look.target, look.card, look.privy) == (0, 1, C.HANDMAID, frozenset({0}))
    assert view(r, 0).known == {1: C.HANDMAID}
    assert view(r, 1).known == {}
    for seat in (1, None):
        seen = [e for e in view(r, seat).events if e.kind == "priest"]
        assert seen[0].target == 1 and seen[0].card is None  # everyone sees whom, not what
    assert r.hands[1][0] is C.HANDMAID and r.alive == [True, True]


# ---------------------------------------------------------------------------------------- R5.3 Baron


@pytest.mark.parametrize(
    ("seat0", "seat1", "outcome", "out_seat", "revealed"),
    [
        pytest.param("king", "guard", "win", 1, "guard", id="R5.3-baron-higher-wins-other-out"),
        pytest.param("guard", "king", "loss", 0, "guard", id="R5.3-baron-lower-loses-own-player-out"),
        pytest.param("priest", "priest", "tie", None, None, id="R5.3-baron-tie-nothing-happens"),
        pytest.param("princess", "countess", "win", 1, "countess", id="R5.3-baron-princess-holder-wins"),
    ],
)
def test_R5_3_baron(seat0, seat1, outcome, out_seat, revealed):
    # Seat 0 is dealt the Baron and draws seat0; seat 1 holds seat1.
    r = deck(f"handmaid | guard guard guard | baron {seat1} | {seat0} | ...")
    play(r, "baron 1")
    compare = last(r, "baron")
    assert compare.result == outcome
    assert compare.cards == (Card.from_word(seat0), Card.from_word(seat1))
    assert compare.privy == frozenset({0, 1})
    if out_seat is None:
        assert r.alive == [True, True] and not events(r, "out") and r.current == 1
    else:
        out = last(r, "out")
        assert (out.seat, out.cards, out.result) == (out_seat, (Card.from_word(revealed),), "baron")
        assert r.discards[out_seat][-1] is Card.from_word(revealed)  # R5.11
        assert r.hands[out_seat] == []
        assert r.winners == (1 - out_seat,)


def test_R5_3_baron_tie_values_are_known_only_to_the_two():
    r = deck("princess | baron priest handmaid | priest | ...", players=3)
    play(r, "baron 1")
    assert last(r, "baron").result == "tie"
    assert view(r, 0).known == {1: C.PRIEST}
    assert view(r, 1).known == {0: C.PRIEST}
    assert view(r, 2).known == {}
    for seat in (2, None):
        seen = next(e for e in view(r, seat).events if e.kind == "baron")
        assert seen.cards is None and seen.result == "tie"
    for seat in (0, 1):
        seen = next(e for e in view(r, seat).events if e.kind == "baron")
        assert seen.cards == (C.PRIEST, C.PRIEST)


@pytest.mark.parametrize("attacker", [1, 2])
def test_R5_3_R7_a_tie_between_two_others_shows_a_card_known_of_one_to_be_the_others(attacker):
    # seat 0 looks at seat 1's Prince; then seat 1 and seat 2 (also a Prince) tie with a Baron
    defender = 3 - attacker
    draws = "handmaid baron" if attacker == 1 else "handmaid guard baron"
    r = play(deck(f"guard | priest prince prince | {draws} ...", players=3),
             "priest 1; " + ("" if attacker == 1 else "guard 0 king; ") + f"baron {defender}")
    assert last(r, "baron").result == "tie"
    assert view(r, 0).known == {1: C.PRINCE, 2: C.PRINCE}
    assert view(r, 0).tracker()[C.PRINCE] == 0


@pytest.mark.parametrize(("hand", "move", "known"), [
    ("guard", "guard 0 priest", {2: C.PRIEST}),  # seat 0 knocked out, its Priest shown
    ("prince", "prince 0", {2: C.PRIEST}),  # seat 0 discards its Priest
    ("king", "king 0", {0: C.HANDMAID, 2: C.PRIEST}),  # seat 1 takes seat 0's Priest
    ("baron", "baron 0", {2: C.PRIEST}),  # seat 0's Priest loses to the Handmaid
])
def test_R5_3_R7_a_card_shown_of_one_of_two_others_who_tied_shows_the_others(hand, move, known):
    # seats 0 and 2 tie (two Priests); seat 1 then sees seat 0's card, and so seat 2's
    r = play(deck(f"countess | priest {hand} priest | baron handmaid ...", players=3), f"baron 2; {move}")
    assert last(r, "baron").result == "tie" or move == "baron 0"
    assert view(r, 1).known == known
    assert view(r, 1).tracker()[C.PRIEST] == 0


def test_R7_a_look_at_one_of_two_others_who_tied_shows_both():
    r = play(deck("countess | guard priest guard | baron handmaid ...", players=3), "baron 2; priest 0")
    assert view(r, 1).known == {0: C.GUARD, 2: C.GUARD}


@pytest.mark.parametrize(("text", "moves", "known"), [
    # seat 0 played a King (one copy: not the tied card) and so traded its Priest to seat 1
    ("countess | priest guard priest | guard guard baron king ...", "king 1", {0: C.GUARD, 2: C.PRIEST}),
    # seat 0 played a Countess (one copy), then seat 1's Guard shows its Priest
    ("princess | priest guard priest | guard guard baron countess guard ...", "countess; guard 0 priest",
     {2: C.PRIEST}),
    # seat 0's own Baron (no tie on Barons: the third would be missing) loses, showing its Priest
    ("princess | priest guard priest | guard handmaid baron baron ...", "baron 1", {2: C.PRIEST}),
    # seat 0 plays the Princess it drew, and shows its Priest
    ("countess | priest guard priest | guard guard baron princess ...", "princess", {2: C.PRIEST}),
])
def test_R7_a_tied_player_that_played_a_card_no_tie_can_be_on_still_shows_it(text, moves, known):
    # seats 0 and 2 tie on Priests (seat 2's Baron); seat 0 then plays, and its card shows
    r = play(deck(text, players=3), "guard 1 prince; guard 0 prince; baron 0; " + moves)
    assert events(r, "baron")[0].result == "tie"
    assert view(r, 1).known == known


def test_R7_a_tied_player_that_played_only_the_card_it_shows_tied_on_that_card():
    # seats 2 and 0 tie on Guards; seat 0 plays a Guard, then discards a Guard to seat 1's Prince: its
    # hand was two Guards, so the tie was on Guards, and seat 2, which has not played since, holds one
    r = play(deck("princess | guard guard guard | priest guard baron guard prince ...", players=3),
             "priest 1; guard 0 prince; baron 0; guard 1 priest; prince 0")
    assert view(r, 1).known == {2: C.GUARD} == view(r, None).known  # a spectator can tell it too


def test_R7_a_tied_card_shown_to_be_one_no_tie_can_be_on_tells_the_one_card_played_since():
    # seats 0 and 1 tie on Guards; seat 1 plays a Guard, keeping the Countess it drew, which seat 2's
    # Guard then shows: the tie was on the Guard played, and seat 0 holds a Guard
    r = play(deck("princess | guard guard guard | baron countess guard ...", players=3),
             "baron 1; guard 2 prince; guard 1 countess")
    assert view(r, 2).known == {0: C.GUARD} == view(r, None).known


@pytest.mark.parametrize(("text", "known"), [
    # seat 2 played a Guard since its tie on Priests: it kept its Priest
    ("countess | priest handmaid priest guard | baron guard guard guard ...", {2: C.PRIEST}),
    # seat 2 played a Guard since its tie on Guards: it may hold the Guard it drew or the one it tied with
    ("countess | guard handmaid guard priest | baron guard guard prince ...", {}),
])
def test_R7_a_tied_player_who_played_since_still_holds_the_tied_card_unless_it_played_one(text, known):
    r = deck(text, players=4)
    play(r, "baron 2; handmaid; guard 3 king")
    assert last(r, "baron").result == "tie"
    play(r, "guard 0 priest" if known else "prince 0")  # seat 3 shows seat 0's card
    assert view(r, 1).known == known == view(r, 3).known


# ---------------------------------------------------------------------------------------- R5.4 Handmaid


def test_R5_4_R4_2_handmaid_protects_until_the_players_next_turn_starts():
    r = deck("princess | handmaid priest priest | guard | guard guard ...", players=3)
    play(r, "handmaid")
    assert r.current == 1 and r.protected == [True, False, False]
    assert {a.target for a in r.legal_actions()} == {2}
    play(r, "priest 2")
    assert r.current == 2 and r.protected == [True, False, False]
    assert {a.target for a in r.legal_actions()} == {1}
    play(r, "priest 1")
    # Seat 0's turn has started: protection ended before the draw (R4.2).
    assert r.current == 0 and r.protected == [False, False, False]
    assert {a.target for a in r.legal_actions() if a.card is C.GUARD} == {1, 2}
    assert view(r, 1).protected == (False, False, False)


def test_R5_4_handmaid_protection_is_public():
    r = deck("princess | baron baron countess | guard priest | handmaid | ...")
    play(r, "handmaid")
    assert view(r, None).protected == (True, False)
    assert legal(r)[:1] == ["guard"]  # seat 1's Guard has no one to choose


# ---------------------------------------------------------------------------------------- R5.5 Prince


@pytest.mark.parametrize(
    ("text", "move", "hands", "discards", "out"),
    [
        pytest.param(
            "king | baron baron countess | prince priest | guard | handmaid guard ...", "prince 1",
            ["guard", "handmaid guard"], ["prince", "priest"], None,
            id="R5.5-prince-other-discards-and-draws",
        ),
        pytest.param(
            "king | baron baron countess | prince priest | guard | handmaid guard ...", "prince 0",
            ["handmaid", "priest guard"], ["prince guard", ""], None,
            id="R5.5-prince-on-yourself",
        ),
        pytest.param(
            "king | baron baron countess | prince princess | guard | ...", "prince 1",
            ["guard", ""], ["prince", "princess"], 1,
            id="R5.5-R5.8-prince-on-princess-holder-knocks-out",
        ),
        pytest.param(
            "king | baron baron countess | prince guard | princess | ...", "prince 0",
            ["", "guard"], ["prince princess", ""], 0,
            id="R5.5-R5.8-prince-on-yourself-holding-princess",
        ),
    ],
)
def test_R5_5_prince(text, move, hands, discards, out):
    r = deck(text)
    play(r, move)
    assert r.hands == [cards(h) for h in hands]
    assert r.discards == [cards(d) for d in discards]
    target = int(move.split()[1])
    assert last(r, "discard").seat == target
    if out is not None:
        assert (last(r, "out").seat, last(r, "out").result) == (out, "princess")
        after = r.log[r.log.index(last(r, "discard")):]
        assert not [e for e in after if e.kind == "draw" and e.seat == out]  # draws nothing
        assert r.winners == (1 - out,)


@pytest.mark.parametrize(
    ("move", "taker", "winner"),
    [
        pytest.param("prince 0", 0, 0, id="R5.5-prince-empty-deck-other-takes-set-aside"),
        pytest.param("prince 1", 1, 1, id="R5.5-prince-empty-deck-self-takes-set-aside"),
    ],
)
def test_R5_5_prince_on_an_empty_deck_gives_the_set_aside_card(move, taker, winner):
    r = play(deck(QUIET_PRINCE), QUIET_PRINCE_MOVES)
    assert r.deck_size == 0 and not r.over  # seat 1 drew the last card and finishes the turn (R6.2)
    play(r, move)
    assert r.set_aside is None and r.hands[taker] == [C.PRINCESS]
    draw = [e for e in r.log if e.kind == "draw" and e.result == "set_aside"]
    assert len(draw) == 1 and draw[0].seat == taker and draw[0].privy == frozenset({taker})
    for seat in (0, 1, None):
        seen = next(e for e in view(r, seat).events if e.kind == "draw" and e.result == "set_aside")
        assert seen.result == "set_aside"
        assert seen.card == (C.PRINCESS if seat == taker else None)
        assert view(r, seat).set_aside_taken
    assert r.over and r.winners == (winner,)  # R6.2: the Princess wins the showdown


# ---------------------------------------------------------------------------------------- R5.6 King


def test_R5_6_king_trades_hands_and_only_the_two_learn_the_cards():
    r = deck("princess | king priest baron | guard | ...", players=3)
    play(r, "king 1")
    assert r.hands[0] == [C.PRIEST] and r.hands[1][0] is C.GUARD
    trade = last(r, "king")
    assert (trade.cards, trade.privy) == ((C.PRIEST, C.GUARD), frozenset({0, 1}))
    assert view(r, 0).known == {1: C.GUARD}
    assert view(r, 1).known == {0: C.PRIEST}
    assert view(r, 2).known == {}
    for seat in (2, None):
        assert next(e for e in view(r, seat).events if e.kind == "king").cards is None


# ---------------------------------------------------------------------------------------- R5.7, R5.8


@pytest.mark.parametrize(
    ("text", "move", "out_seat", "cause"),
    [
        pytest.param("king | baron baron countess | princess guard | guard | ...", "princess",
                     0, "princess", id="R5.8-princess-played-player-out"),
        pytest.param("king | baron baron countess | prince princess | guard | ...", "prince 1",
                     1, "princess", id="R5.8-princess-discarded-by-prince"),
        pytest.param("king | baron baron countess | prince guard | princess | ...", "prince 0",
                     0, "princess", id="R5.8-princess-discarded-by-own-prince"),
        pytest.param("king | baron baron countess | guard princess | guard | ...", "guard 1 princess",
                     1, "guard", id="R5.11-princess-discarded-when-knocked-out"),
    ],
)
def test_R5_8_princess_discarded_any_way_is_out(text, move, out_seat, cause):
    r = deck(text)
    play(r, move)
    assert not r.is_alive(out_seat)
    assert C.PRINCESS in r.discards[out_seat]
    outs = events(r, "out")
    assert len(outs) == 1 and (outs[0].seat, outs[0].result) == (out_seat, cause)
    assert r.over and r.winners == (1 - out_seat,)


def test_R5_7_countess_played_has_no_effect():
    r = deck("princess | baron baron king | countess priest | guard | ...")
    before = [list(h) for h in r.hands]
    play(r, "countess")
    assert r.hands[0] == before[0][1:] and r.hands[1][0] == before[1][0]
    assert r.alive == [True, True] and r.current == 1


# ---------------------------------------------------------------------------------------- R5.11


def test_R5_11_knocked_out_player_cannot_be_chosen_and_takes_no_turns():
    r = deck("princess | guard priest baron | guard | guard guard guard ...", players=3)
    play(r, "guard 1 priest")
    assert r.knocked_out == [1] and r.hands[1] == [] and r.discards[1] == [C.PRIEST]
    assert r.current == 2
    assert {a.target for a in r.legal_actions()} == {0}
    play(r, "guard 0 priest; guard 2 priest")
    assert r.current == 2  # seat 1 was skipped
    assert view(r, None).knocked_out == (1,)


# ---------------------------------------------------------------------------------------- R6 end


def test_R6_1_round_ends_when_one_player_is_left():
    r = deck("princess | guard priest baron | guard | guard guard guard ...", players=3)
    play(r, "guard 1 priest")
    assert not r.over
    play(r, "guard 0 priest; guard 2 baron")
    assert r.over and r.winners == (0,) and r.legal_actions() == ()


@pytest.mark.parametrize(
    ("text", "moves", "winners", "settled"),
    [
        pytest.param(QUIET_PRINCE, QUIET_PRINCE_MOVES + "; prince 0", (0,), None,
                     id="R6.2-deck-out-highest-card-wins"),
        pytest.param(*SEAT1_HIGHER_DISCARDS, (1,), "discard_total", id="R6.3-classic-tie-higher-discard-total-wins"),
        pytest.param(*SEAT0_HIGHER_DISCARDS, (0,), "discard_total",
                     id="R6.3-classic-tie-starter-higher-discard-total"),
        pytest.param(FULL_TIE, FULL_TIE_FROM_SEAT0, (0, 1), "discard_total_tie", id="R6.3-classic-full-tie-all-win"),
    ],
)
def test_R6_2_R6_3_showdown_when_the_deck_runs_out(text, moves, winners, settled):
    """The round's end says how a tie for the highest card was settled, for the narration to tell."""
    r = play(deck(text), moves)
    assert r.deck_size == 0
    assert r.over and r.winners == winners and last(r, "round_end").result == settled


@pytest.mark.parametrize(("discards", "winners", "settled"), [
    ([[C.PRIEST, C.BARON], [C.PRINCE], [C.HANDMAID]], (0, 1), "discard_total"),
    ([[C.PRIEST, C.BARON], [C.PRINCE], [C.HANDMAID, C.GUARD]], (0, 1, 2), "discard_total_tie"),
    ([[C.PRIEST, C.BARON], [C.PRIEST], [C.HANDMAID]], (0,), "discard_total"),
])
def test_R6_3_three_tied_for_the_highest_card(discards, winners, settled):
    """Three players hold a Guard at the deck's end (classic has three of no other card): the highest
    discard total wins, two of them alike too (both win, and it was the totals that settled it), or
    all three alike (all win). Rare in random rounds: no test of whole rounds met the first."""
    r = deck("princess | guard guard guard | ...", players=3)
    r.hands = [[C.GUARD], [C.GUARD], [C.GUARD]]
    r.discards = discards
    assert r._showdown() == (winners, settled)


def test_R6_2_the_player_who_draws_the_last_card_finishes_the_turn():
    r = play(deck(FULL_TIE), FULL_TIE_FROM_SEAT0.rsplit(";", 1)[0])
    assert r.deck_size == 0 and not r.over and r.current == 1
    assert legal(r) == ["baron 0", "prince 0", "prince 1"]


def test_R6_2_R6_5_showdown_reveals_the_hands_and_the_set_aside_card():
    r = play(deck(FULL_TIE), FULL_TIE_FROM_SEAT0)
    reveals = [e for e in r.log if e.kind == "reveal"]
    assert [(e.seat, e.card) for e in reveals] == [(0, C.PRINCE), (1, C.PRINCE), (None, C.PRINCESS)]
    # why the round ends, before the hands: the deck is empty, and the players still in compare them
    ending = [(e.kind, e.seats) for e in r.log[-5:]]
    assert ending[:2] == [("showdown", (0, 1)), ("reveal", None)] and ending[-1][0] == "round_end"


def test_R6_1_a_round_with_one_player_left_has_no_showdown():
    """The deck is not empty, so nobody compares hands (R6.1), and none is said to."""
    r = deck("king | baron baron countess | guard priest | handmaid | ...")
    play(r, "guard 1 priest")
    assert r.over and not any(e.kind == "showdown" for e in r.log)


def test_R6_5_every_card_is_public_at_the_end_of_the_round():
    r = deck("king | baron baron countess | guard priest | handmaid | ...")
    play(r, "guard 1 priest")
    spectator = view(r, None)
    reveals = [(e.seat, e.card) for e in spectator.events if e.kind == "reveal"]
    assert reveals == [(0, C.HANDMAID), (None, C.KING)]
    end = next(e for e in spectator.events if e.kind == "round_end")
    assert end.seats == (0,) and end.cards == r.deck_top_first() and len(end.cards) == 9


# ---------------------------------------------------------------------------------------- R7 views


def test_R7_spectator_sees_no_secrets_and_players_see_only_their_own():
    r = deck("princess | king priest baron | guard | ...", players=3)
    play(r, "king 1; guard 2 countess; baron 0")
    for seat in (None, 0, 1, 2):
        v = view(r, seat)
        for e in v.events:
            if e.secret and (seat is None or seat not in e.privy):
                assert all(getattr(e, name) is None for name in e.secret), (seat, e)
    assert view(r, None).known == {} and view(r, None).hand == ()


def test_R7_a_view_never_holds_another_seats_current_hand():
    r = play(deck(QUIET_PRINCE), "guard 1 baron; guard 0 baron")
    for seat in (0, 1):
        v = view(r, seat)
        assert v.hand == tuple(r.hands[seat])
        assert not hasattr(v, "hands") and not hasattr(v, "deck") and not hasattr(v, "set_aside")
        for e in v.events:
            if e.kind in ("deal", "draw") and e.seat != seat:
                assert e.card is None
        assert v.known == {}
    assert view(r, 0).legal_actions == r.legal_actions() and view(r, 1).legal_actions == ()
    assert view(r, 0).deck_size == r.deck_size


def test_R7_guard_guess_and_result_are_public():
    r = deck("king | baron baron countess | guard priest | handmaid | ...")
    play(r, "guard 1 baron")
    seen = next(e for e in view(r, None).events if e.kind == "play")
    assert (seen.seat, seen.card, seen.target, seen.guess, seen.result) == (0, C.GUARD, 1, C.BARON, "miss")


def test_R6_2_R5_5_a_prince_that_draws_the_last_card_ends_the_round_after_that_turn():
    text = (
        "princess | baron baron countess | king prince | guard"
        " | guard priest priest guard guard handmaid handmaid prince guard"
    )
    r = play(deck(text), QUIET_PRINCE_MOVES.rsplit(";", 1)[0])
    assert r.current == 0 and r.deck_size == 1 and r.protected == [False, True]
    assert legal(r) == ["prince 0", "king"]  # R4.6: seat 1 is protected
    play(r, "prince 0")  # seat 0 discards the King and draws the last card, a Guard
    assert r.deck_size == 0 and r.set_aside is C.PRINCESS
    assert r.over and r.winners == (1,)  # Guard against Prince; seat 1 takes no more turns


@pytest.mark.parametrize(
    ("seat1_draws", "moves", "known"),
    [
        pytest.param("guard", "priest 1", {1: C.HANDMAID}, id="R5.2-known-after-priest"),
        pytest.param("guard", "priest 1; guard 0 baron", {1: C.HANDMAID},
                     id="R7-known-card-kept-when-another-card-is-played"),
        pytest.param("handmaid", "priest 1; handmaid", {},
                     id="R7-known-card-forgotten-when-that-card-may-have-been-played"),
    ],
)
def test_R7_what_a_priest_taught_is_kept_until_it_may_have_changed(seat1_draws, moves, known):
    # Seat 0 looks at seat 1's Handmaid; then seat 1 draws and plays a card.
    r = play(deck(f"king | baron baron countess | priest handmaid | guard | {seat1_draws} ..."), moves)
    assert view(r, 0).known == known


def test_R7_private_events_of_a_seat():
    r = play(deck(QUIET_PRINCE), QUIET_PRINCE_MOVES + "; prince 0")
    mine = view(r, 0).private_events()
    assert [(e.kind, e.result) for e in mine] == [("priest", None), ("draw", "set_aside")]
    assert [e.kind for e in view(r, 1).private_events()] == ["priest"]
    assert view(r, None).private_events() == []


def test_R7_there_is_no_view_for_a_seat_that_does_not_exist():
    with pytest.raises(ValueError):
        view(deck(QUIET_PRINCE), 2)
    for seat in (True, 1.5, "1"):  # (True was seat 1's view, with its seat True)
        with pytest.raises(TypeError, match="a seat is a whole number"):
            view(deck(QUIET_PRINCE), seat)  # type: ignore[arg-type]
    assert type(view(deck(QUIET_PRINCE), np.int64(1)).seat) is int


def test_R7_the_card_tracker_counts_what_this_seat_has_not_seen_at_all():
    # seat 0 (priest, guard) looks at seat 1's king: the tracker no longer counts that king, for seat 0 only
    rnd = play(deck("guard | princess countess handmaid | priest king | guard guard ..."), "priest 1")
    seer, other = view(rnd, 0), view(rnd, 1)
    assert seer.known == {1: Card.KING}
    assert seer.unseen()[Card.KING] == 1 and seer.tracker()[Card.KING] == 0
    assert other.tracker()[Card.KING] == 0  # in its own hand
    assert sum(seer.tracker().values()) == sum(seer.unseen().values()) - 1
    # once the round is over every hand is shown, and the known king is counted once, not twice
    play(rnd, "guard 0 priest")
    while not rnd.over:
        rnd.apply(rnd.legal_actions()[0])
    end = view(rnd, 0)
    assert end.tracker() == end.unseen() and all(n >= 0 for n in end.tracker().values())


def test_R5_3_R7_a_card_known_spreads_along_a_chain_of_ties_at_once():
    """Seats 1 and 2 tied, then seats 0 and 1: who knows seat 0's Guard knows seat 1's, and so seat 2's,
    in one go (ties.spread, "and theirs in turn"). One step only would leave seat 2's for the next
    spread: after the next event in a view, after the next move in the expert's playout.Memory."""
    known = {0: C.GUARD}
    ties.spread([(1, 2, 0, 0), (0, 1, 0, 0)], known, 3)
    assert known == {0: C.GUARD, 1: C.GUARD, 2: C.GUARD}
