"""Rule scenarios for the 2019 edition (docs/rules.md): 2-6 players, the Spy and the Chancellor, ties.

Decks are written top card first (see scenarios.py): set-aside | 3 face-up (2 players) | deal from the
starter | the starter's draw | the rest. Seat 0 starts unless a row says otherwise.
"""

from __future__ import annotations

import pytest
from scenarios import cards, deck_2019, events, last, legal, play, play_quietly, quiet_move

from loveletter.engine import EDITION_2019, Card, Phase, known_draws, view

C = Card

# Both players keep a Prince to the end; each plays one Spy. The Baron ties, the King trades
# Prince for Prince, the Countess is forced by the Prince (R4.4). Seat 0's discards total more.
ONE_SPY_EACH = (
    ("princess | baron chancellor chancellor | prince prince | spy"
    " | spy guard guard guard guard guard guard priest priest baron king countess handmaid handmaid"),
    ("spy; spy; guard 1 baron; guard 0 baron; guard 1 baron; guard 0 baron; guard 1 baron;"
    " guard 0 baron; priest 1; priest 0; baron 1; king 0; countess; handmaid; handmaid"),
)
# The same, but seat 0 plays both Spies.
BOTH_SPIES_SEAT0 = (
    ("princess | baron chancellor chancellor | prince prince | spy"
    " | guard spy guard guard guard guard guard priest priest baron king countess handmaid handmaid"),
    ("spy; guard 0 baron; spy; guard 0 baron; guard 1 baron; guard 0 baron; guard 1 baron;"
    " guard 0 baron; priest 1; priest 0; baron 1; king 0; countess; handmaid; handmaid"),
)
# Both players keep a Baron; thirteen quiet turns (every drawn card played, nobody hurt), then a
# Chancellor (and a King) near the bottom of the deck.
BARONS_CHANCELLOR_LAST_BUT_ONE = (
    "princess | prince prince chancellor | baron baron | spy"
    " | spy guard guard guard guard guard guard priest priest handmaid handmaid countess chancellor king"
)
BARONS_CHANCELLOR_LAST = (
    "princess | prince prince chancellor | baron baron | spy"
    " | spy guard guard guard guard guard guard priest priest handmaid handmaid countess king chancellor"
)
BARONS_CHANCELLOR_LAST_BUT_TWO = (
    "princess | prince prince chancellor | baron baron | spy"
    " | spy guard guard guard guard guard guard priest priest handmaid handmaid chancellor countess king"
)


# ---------------------------------------------------------------------------------------- R2.1, R3


@pytest.mark.parametrize(
    ("players", "starter", "text", "hands", "deck_size"),
    [
        pytest.param(2, 0, "princess | spy guard chancellor | king countess | spy | ...",
                     ["king spy", "countess"], 14, id="R3.3-2019-two-players-three-face-up"),
        pytest.param(5, 3, "princess | guard priest baron handmaid prince | spy | ...",
                     ["baron", "handmaid", "prince", "guard spy", "priest"], 14,
                     id="R3.4-2019-five-players-from-seat-3"),
        pytest.param(6, 4, "princess | guard priest baron handmaid prince king | countess | ...",
                     ["baron", "handmaid", "prince", "king", "guard countess", "priest"], 13,
                     id="R3.4-2019-six-players-from-seat-4"),
    ],
)
def test_R3_2019_setup(players, starter, text, hands, deck_size):
    r = deck_2019(text, players=players, starter=starter)
    assert r.set_aside is C.PRINCESS
    assert r.hands == [cards(h) for h in hands]
    assert r.deck_size == deck_size and r.current == starter
    assert len(r.face_up) == (3 if players == 2 else 0)


def test_R2_1_six_players_take_turns_in_seat_order():
    r = deck_2019("princess | priest priest baron baron handmaid handmaid | guard | ...", players=6)
    seen = []
    for _ in range(7):
        seen.append(r.current)
        play_quietly(r, turns=1)
    assert seen == [0, 1, 2, 3, 4, 5, 0]


# ---------------------------------------------------------------------------------------- R4.4 in 2019


@pytest.mark.parametrize(
    ("dealt", "drawn", "expected"),
    [
        pytest.param("countess", "king", ["countess"], id="R4.4-2019-countess-forced-with-king"),
        pytest.param("prince", "countess", ["countess"], id="R4.4-2019-countess-forced-with-prince"),
        pytest.param("countess", "chancellor", ["chancellor", "countess"],
                     id="R4.4-2019-countess-not-forced-by-chancellor"),
        pytest.param("countess", "spy", ["spy", "countess"], id="R4.4-2019-countess-bluff-with-spy"),
    ],
)
def test_R4_4_countess_rule_2019(dealt, drawn, expected):
    r = deck_2019(f"guard | guard guard guard | {dealt} baron | {drawn} | ...")
    assert legal(r) == expected


# ---------------------------------------------------------------------------------------- R5.1 Guard


def test_R5_1_2019_guard_may_name_the_spy_and_the_chancellor_but_not_the_guard():
    r = deck_2019("princess | baron baron king | guard priest | handmaid | ...")
    assert legal(r) == [
        "guard 1 spy", "guard 1 priest", "guard 1 baron", "guard 1 handmaid", "guard 1 prince",
        "guard 1 chancellor", "guard 1 king", "guard 1 countess", "guard 1 princess", "handmaid",
    ]


@pytest.mark.parametrize(
    ("seat1", "move", "hit"),
    [
        pytest.param("spy", "guard 1 spy", True, id="R5.1-2019-guard-names-spy-hit"),
        pytest.param("chancellor", "guard 1 chancellor", True, id="R5.1-2019-guard-names-chancellor-hit"),
        pytest.param("priest", "guard 1 spy", False, id="R5.1-2019-guard-names-spy-miss"),
    ],
)
def test_R5_1_2019_guard(seat1, move, hit):
    r = deck_2019(f"princess | baron baron king | guard {seat1} | handmaid | ...")
    play(r, move)
    assert last(r, "play").result == ("hit" if hit else "miss")
    assert r.is_alive(1) is not hit


# ---------------------------------------------------------------------------------------- R5.10 Spy


def test_R5_10_spy_played_has_no_effect():
    r = deck_2019("princess | baron baron king | spy priest | guard | ...")
    play(r, "spy")
    assert r.discards[0] == [C.SPY] and r.hands[0] == [C.GUARD]
    assert r.alive == [True, True] and r.current == 1 and not r.over


def test_R5_10_spy_discarded_by_a_prince_has_no_effect():
    r = deck_2019("princess | baron baron king | prince spy | priest | guard guard ...")
    play(r, "prince 1")
    assert r.discards[1] == [C.SPY] and r.is_alive(1)
    assert r.hands[1] == cards("guard guard")


# ---------------------------------------------------------------------------------------- R5.9 Chancellor


def test_R5_9_chancellor_draws_two_and_keeps_one():
    r = deck_2019("princess | baron baron king | chancellor guard | priest | handmaid spy guard ...")
    size = r.deck_size
    play(r, "chancellor")
    assert r.phase is Phase.CHANCELLOR and r.current == 0
    assert r.hands[0] == cards("priest handmaid spy") and r.deck_size == size - 2
    assert legal(r) == [
        "chancellor keep spy bottom priest,handmaid",
        "chancellor keep spy bottom handmaid,priest",
        "chancellor keep priest bottom spy,handmaid",
        "chancellor keep priest bottom handmaid,spy",
        "chancellor keep handmaid bottom spy,priest",
        "chancellor keep handmaid bottom priest,spy",
    ]
    play(r, "chancellor keep handmaid bottom priest,spy")
    assert r.hands[0] == [C.HANDMAID]
    assert r.deck_top_first()[-2:] == (C.PRIEST, C.SPY)  # the last one listed is at the very bottom
    assert r.deck_size == size - 1  # the two returned, then seat 1 drew
    assert r.phase is Phase.PLAY and r.current == 1 and r.hands[1] == cards("guard guard")


@pytest.mark.parametrize(
    ("choice", "kept", "bottom"),
    [
        pytest.param("chancellor keep priest bottom handmaid,spy", "priest", "handmaid spy",
                     id="R5.9-chancellor-bottom-order-as-listed"),
        pytest.param("chancellor keep priest bottom spy,handmaid", "priest", "spy handmaid",
                     id="R5.9-chancellor-bottom-order-reversed"),
        pytest.param("chancellor keep spy bottom priest,handmaid", "spy", "priest handmaid",
                     id="R5.9-chancellor-may-return-the-old-card"),
    ],
)
def test_R5_9_chancellor_returns_the_others_in_the_chosen_order(choice, kept, bottom):
    r = deck_2019("princess | baron baron king | chancellor guard | priest | handmaid spy guard ...")
    play(r, "chancellor")
    play(r, choice)
    assert r.hands[0] == cards(kept)
    assert list(r.deck_top_first()[-2:]) == cards(bottom)


def test_R5_9_chancellor_events_are_private_to_its_player():
    r = deck_2019("princess | baron baron king | chancellor guard | priest | handmaid spy guard ...")
    play(r, "chancellor; chancellor keep handmaid bottom priest,spy")
    drew, returned = last(r, "chancellor"), last(r, "bottom")
    assert drew.cards == (C.HANDMAID, C.SPY) and drew.privy == frozenset({0})
    assert (returned.card, returned.cards, returned.result) == (C.HANDMAID, (C.PRIEST, C.SPY), 2)
    for seat in (1, None):
        seen = {e.kind: e for e in view(r, seat).events if e.kind in ("chancellor", "bottom")}
        assert seen["chancellor"].cards is None
        assert seen["bottom"].card is None and seen["bottom"].cards is None
        assert seen["bottom"].result == 2  # how many went under the deck is public
    mine = {e.kind: e for e in view(r, 0).events if e.kind in ("chancellor", "bottom")}
    assert mine["chancellor"].cards == (C.HANDMAID, C.SPY)


def test_R5_9_each_seat_knows_its_own_cards_under_the_deck_until_they_are_drawn():
    """Seat 0 puts priest, spy under the deck; seat 1 then puts two of its own under those. Seat 0
    knows where its two are (drawn once the rest of the deck is gone); nobody knows seat 1's."""
    r = deck_2019("princess | baron baron king | chancellor chancellor | priest | handmaid spy guard guard"
                  " guard guard guard ...")
    play(r, "chancellor; chancellor keep handmaid bottom priest,spy")
    assert view(r, 0).under_deck() == [C.PRIEST, C.SPY]
    play(r, "chancellor; chancellor keep guard bottom guard,guard")
    assert list(r.deck_top_first()[-4:]) == cards("priest spy guard guard")
    assert view(r, 0).under_deck() == [C.PRIEST, C.SPY, None, None]
    assert view(r, 1).under_deck() == [None, None, C.GUARD, C.GUARD]
    assert view(r, None).under_deck() == [None] * 4  # a spectator
    quiet = (C.HANDMAID, C.PRIEST, C.SPY, C.COUNTESS)
    while r.deck_size > 3:  # quiet turns (a Guard names the set-aside Princess) until the priest is drawn
        r.apply(next(a for a in r.legal_actions() if a.card in quiet or a.guess is C.PRINCESS))
    assert r.deck_size == 3 and view(r, 0).under_deck() == [C.SPY, None, None]


# Seat 0 keeps its Chancellor and seat 1 a Prince through quiet turns; seat 0 has seen that Prince.
CHANCELLOR_AND_PRINCE_KEPT = (
    "princess | baron baron chancellor | chancellor prince | spy"
    " | spy guard guard guard guard guard guard priest priest handmaid handmaid countess king prince"
)


@pytest.mark.parametrize(
    ("move", "known"),
    [
        pytest.param("prince 0", {1: C.KING}, id="R7-the-card-drawn-from-under-the-deck-is-kept"),
        pytest.param("prince 1", {1: C.PRINCE}, id="R7-the-card-a-prince-made-it-draw-from-under-the-deck"),
    ],
)
def test_R7_R5_9_a_card_put_under_the_deck_is_known_in_the_hand_that_draws_it(move, known):
    """Seat 0's Chancellor puts the King, then the Prince, under the deck (the last two cards). Seat 1
    draws the King: while it holds two cards, seat 0 knows only the Prince it saw. Playing the Prince at
    seat 0, it keeps the King; playing it at itself, it discards the King and draws the Prince."""
    r = deck_2019(CHANCELLOR_AND_PRINCE_KEPT)
    while r.deck_size > 2:
        r.apply(quiet_move(r))
    play(r, "chancellor; chancellor keep countess bottom king,prince")
    assert r.hands[1] == cards("prince king") and view(r, 0).under_deck() == [C.PRINCE]
    assert view(r, 0).known == {1: C.PRINCE}  # its Priest's look: still true, whichever it plays
    # ... and the King beside it, which it drew
    before = view(r, 0)
    assert known_draws(before.events, 0) == {1: C.KING} and known_draws(before.events, 2) == {}
    play(r, move)
    assert r.hands[1] == [known[1]] and view(r, 0).known == known
    assert known_draws(view(r, 0).events, 0) == {}  # once played, the card kept is known instead
    assert view(r, 1).known.get(0) is not C.PRINCE  # nobody else knows what seat 0 put there


def test_R5_9_R4_4_countess_rule_does_not_force_during_the_chancellor_choice():
    r = deck_2019("princess | baron baron priest | chancellor priest | guard | countess king ...")
    play(r, "chancellor")
    assert r.hands[0] == cards("guard countess king")
    choices = legal(r)
    assert "chancellor keep king bottom guard,countess" in choices
    assert "chancellor keep countess bottom guard,king" in choices
    assert len(choices) == 6
    play(r, "chancellor keep king bottom countess,guard")
    assert r.hands[0] == [C.KING] and r.current == 1


def test_R5_9_chancellor_with_one_card_left_draws_one():
    r = play_quietly(deck_2019(BARONS_CHANCELLOR_LAST_BUT_ONE), turns=13)
    assert (r.current, r.deck_size, r.hands[1]) == (1, 1, cards("baron chancellor"))
    play(r, "chancellor")
    assert r.hands[1] == cards("baron king") and r.deck_size == 0
    assert legal(r) == ["chancellor keep baron bottom king", "chancellor keep king bottom baron"]
    play(r, "chancellor keep king bottom baron")
    # R6.2: the returned card keeps the round going; seat 0 draws it.
    assert not r.over and r.current == 0 and r.hands[0] == cards("baron baron") and r.deck_size == 0


def test_R5_9_chancellor_on_an_empty_deck_has_no_effect_and_the_round_ends():
    r = play_quietly(deck_2019(BARONS_CHANCELLOR_LAST), turns=14)
    assert (r.current, r.deck_size, r.hands[0]) == (0, 0, cards("baron chancellor"))
    play(r, "chancellor")
    assert not events(r, "chancellor") and not events(r, "bottom")
    assert r.discards[0][-1] is C.CHANCELLOR and r.hands[0] == [C.BARON]
    assert r.over and r.winners == (0, 1)  # Baron against Baron: R6.3 (2019) all tied win


def test_R5_9_R6_2_chancellor_returning_the_last_cards_keeps_the_round_going():
    r = play_quietly(deck_2019(BARONS_CHANCELLOR_LAST_BUT_TWO), turns=12)
    assert (r.current, r.deck_size, r.hands[0]) == (0, 2, cards("baron chancellor"))
    play(r, "chancellor")
    assert r.deck_size == 0 and r.hands[0] == cards("baron countess king")
    play(r, "chancellor keep baron bottom countess,king")
    assert not r.over and r.current == 1
    assert r.hands[1] == cards("baron countess") and r.deck_top_first() == (C.KING,)


# ---------------------------------------------------------------------------------------- R6 in 2019


@pytest.mark.parametrize(
    ("text", "moves", "winners", "spy_bonus"),
    [
        pytest.param(*ONE_SPY_EACH, (0, 1), None, id="R6.3-2019-tie-all-win-R6.4-two-spy-players-no-bonus"),
        pytest.param(*BOTH_SPIES_SEAT0, (0, 1), 0, id="R6.4-one-player-with-both-spies-one-bonus"),
    ],
)
def test_R6_3_R6_4_2019_showdown(text, moves, winners, spy_bonus):
    r = play(deck_2019(text), moves)
    assert r.deck_size == 0 and r.over
    totals = [sum(EDITION_2019.value(c) for c in pile) for pile in r.discards]
    assert totals[0] != totals[1]  # discard piles do not break 2019 ties
    assert r.winners == winners and r.spy_bonus == spy_bonus
    assert last(r, "round_end").target == spy_bonus and last(r, "round_end").result == "tie"


@pytest.mark.parametrize(
    ("text", "players", "moves", "winners", "spy_bonus"),
    [
        pytest.param("princess | baron baron king | guard priest | spy | guard guard ...", 2,
                     "spy; guard 0 baron; guard 1 priest", (0,), 0,
                     id="R6.4-R6.1-last-player-standing-with-a-spy-gets-bonus"),
        pytest.param("princess | baron baron king | guard priest | guard | spy guard ...", 2,
                     "guard 1 baron; spy; guard 1 priest", (0,), None,
                     id="R6.4-spy-of-a-knocked-out-player-does-not-count"),
        pytest.param("princess | baron baron king | prince spy | priest | guard guard ...", 2,
                     "prince 1; guard 0 priest", (1,), 1,
                     id="R6.4-spy-discarded-by-a-prince-counts"),
        pytest.param("princess | guard baron priest | spy | spy guard guard ...", 3,
                     "spy; spy; guard 1 baron; guard 2 priest", (0,), 0,
                     id="R6.4-exactly-one-surviving-spy-player-three-players"),
    ],
)
def test_R6_4_spy_bonus(text, players, moves, winners, spy_bonus):
    r = play(deck_2019(text, players=players), moves)
    assert r.over and r.winners == winners and r.spy_bonus == spy_bonus


def test_R6_3_2019_three_players_tie_all_win():
    # Seats 0 and 2 keep a Prince, seat 1 a Priest; every drawn card is played quietly (the Baron
    # ties and the King trades Prince for Prince between seats 0 and 2; Chancellors keep the old card).
    r = deck_2019(
        "princess | prince priest prince | king guard chancellor countess spy guard guard spy guard"
        " priest guard baron handmaid baron guard handmaid chancellor",
        players=3,
    )
    play_quietly(r)
    assert r.over and r.deck_size == 0
    assert [h[0] if h else None for h in r.hands] == [C.PRINCE, C.PRIEST, C.PRINCE]
    assert r.winners == (0, 2)


def test_R5_9_chancellor_choices_with_equal_cards_are_listed_once():
    r = deck_2019("princess | baron baron king | chancellor priest | guard | guard spy ...")
    play(r, "chancellor")
    assert r.hands[0] == cards("guard guard spy")
    assert legal(r) == [
        "chancellor keep spy bottom guard,guard",
        "chancellor keep guard bottom spy,guard",
        "chancellor keep guard bottom guard,spy",
    ]


def test_R4_2_protection_ends_at_the_turn_after_a_chancellors_choice():
    """A turn that ends with a Chancellor's choice ends as any other: the next player's Handmaid
    protection ends as its turn starts (its own end of turn was untested: the protection lasted,
    and the Chancellor's player could not choose it on its next turn)."""
    r = deck_2019("princess | baron baron king | spy handmaid | chancellor | guard priest guard guard ...")
    play(r, "spy; handmaid")
    assert r.is_protected(1)
    play(r, "chancellor; chancellor keep priest bottom guard,guard")
    assert r.current == 1 and not r.is_protected(1)
    play(r, "guard 0 prince")  # (a miss)
    assert "guard 1 baron" in legal(r)
