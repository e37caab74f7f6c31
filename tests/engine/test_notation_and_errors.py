"""Notation (reading and writing actions) and refusals (docs/rules.md R4.7: an illegal turn changes nothing).

Every refusal is an :class:`IllegalActionError` with a ``key`` (for translations) and the docs/rules.md
section it names (``.rule``); the round must be exactly as before.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scenarios import deck, full_deck, play, snapshot

from loveletter.engine import (
    CLASSIC,
    EDITION_2019,
    Action,
    Card,
    IllegalActionError,
    Match,
    NotationError,
    Round,
)
from loveletter.i18n import ERRORS_NL

C = Card

# ---------------------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("text", "action", "written"),
    [
        pytest.param("guard 2 priest", Action(C.GUARD, 2, C.PRIEST), "guard 2 priest", id="guard-target-guess"),
        pytest.param("guard", Action(C.GUARD), "guard", id="R4.6-guard-without-target"),
        pytest.param("prince 0", Action(C.PRINCE, 0), "prince 0", id="prince-seat-0"),
        pytest.param("handmaid", Action(C.HANDMAID), "handmaid", id="handmaid"),
        pytest.param("chancellor", Action(C.CHANCELLOR), "chancellor", id="R5.9-chancellor-play"),
        pytest.param("chancellor keep baron bottom spy,priest",
                     Action(C.CHANCELLOR, keep=C.BARON, bottom=(C.SPY, C.PRIEST)),
                     "chancellor keep baron bottom spy,priest", id="R5.9-chancellor-choice"),
        pytest.param("chancellor keep king bottom baron",
                     Action(C.CHANCELLOR, keep=C.KING, bottom=(C.BARON,)),
                     "chancellor keep king bottom baron", id="R5.9-chancellor-choice-one-card"),
        pytest.param("  Guard  1   PRIEST ", Action(C.GUARD, 1, C.PRIEST), "guard 1 priest",
                     id="case-and-spaces-ignored"),
        pytest.param("chancellor keep baron bottom spy, priest",
                     Action(C.CHANCELLOR, keep=C.BARON, bottom=(C.SPY, C.PRIEST)),
                     "chancellor keep baron bottom spy,priest", id="space-after-comma-ignored"),
    ],
)
def test_notation_reads_and_writes(text, action, written):
    assert Action.parse(text) == action
    assert str(action) == written
    assert Action.parse(str(action)) == action
    assert eval(repr(action), {"Action": Action}) == action


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("   ", id="blank"),
        pytest.param("wizard 1", id="unknown-card"),
        pytest.param("1 guard", id="seat-first"),
        pytest.param("guard x y z", id="garbage-after-card"),
        pytest.param("guard -1 priest", id="negative-seat"),
        pytest.param("guard 1 priest extra", id="trailing-word"),
        pytest.param("guard 1 2", id="two-seats"),
        pytest.param("chancellor keep", id="keep-without-card"),
        pytest.param("chancellor keep wizard", id="keep-unknown-card"),
        pytest.param("chancellor keep baron under spy", id="bottom-misspelt"),
        pytest.param("chancellor keep baron bottom", id="bottom-without-cards"),
        pytest.param("chancellor keep baron bottom spy,wizard", id="bottom-unknown-card"),
    ],
)
def test_notation_errors(text):
    with pytest.raises(NotationError) as err:
        Action.parse(text)
    assert isinstance(err.value, ValueError) and str(err.value)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        pytest.param("1 2", "a move starts with a card, not a number ('1 2')", id="numbers"),
        pytest.param("1. guard 1 priest", "a move starts with a card, not a number ('1. guard 1 priest')",
                     id="a-line-copied-from-the-numbered-list"),  # (not "unknown card '1.'")
        pytest.param("prince 1 extra words", "unexpected 'extra words' after 'prince 1'",
                     id="words-after-a-target"),  # (it named the whole line as what came before)
        pytest.param("Guard 1 Priest Baron", "unexpected 'Baron' after 'Guard 1 Priest'", id="as-typed"),
        pytest.param("guard 1 " + "x" * 300, "unknown card '" + "x" * 40 + "…'", id="a-long-word-is-cut"),
        pytest.param("guard " + "9" * 5000 + " priest", "9" * 40 + "… is not a seat number at any table",
                     id="a-seat-too-long-to-read"),  # (a ValueError: Python reads at most 4,300 digits)
        pytest.param("guard -" + "9" * 5000, "-" + "9" * 39 + "… is not a seat number at any table",
                     id="a-negative-seat-too-long-to-read"),
        pytest.param("guard -0 priest", "seat numbers start at 0, not -0", id="minus-zero-is-no-seat"),  # (it was seat 0)
        pytest.param("guard -2 priest", "seat numbers start at 0, not -2", id="a-negative-seat"),
        pytest.param("prince 1 priest", None, id="a-guess-beside-another-card-is-the-engines-to-refuse"),
        pytest.param("guard 1 wizard", "unknown card 'wizard'", id="a-guards-guess-must-be-a-card"),
        pytest.param("guard One priest", "'One' stands where the seat goes: a seat is a number",
                     id="a-word-for-the-seat"),  # (it was told as an unknown card)
        pytest.param("guard \uff11 king", "'\uff11' stands where the seat goes", id="a-full-width-digit-for-the-seat"),
        pytest.param("priest bob", "'bob' stands where the seat goes", id="a-word-for-a-priests-seat"),
        pytest.param("guard priest", None, id="a-guess-without-a-seat-is-the-engines-to-refuse"),
        pytest.param("guard priest 1", "the seat comes before the card named", id="the-seat-after-the-guess"),
        pytest.param("baron priest 1", "unexpected '1' after 'baron priest'", id="a-baron-names-no-card"),
        pytest.param("guard 1,priest", "a comma parts only the cards a Chancellor puts under the deck",
                     id="a-comma-between-a-moves-words"),  # (it was "unknown card ','")
    ],
)
def test_a_notation_error_names_what_is_wrong(text, says):
    if says is None:
        read = {"prince 1 priest": Action(Card.PRINCE, 1, Card.PRIEST), "guard priest": Action(Card.GUARD, None, Card.PRIEST)}
        assert Action.parse(text) == read[text]
        return
    with pytest.raises(NotationError) as err:
        Action.parse(text)
    assert str(err.value).startswith(says)


def _random_states(edition, players, seed):
    """Every state of one random round (uniform among the legal actions)."""
    rng = random.Random(seed)
    r = Round.shuffled(edition, players, rng, starter=seed % players)
    while not r.over:
        yield r
        r.apply(rng.choice(r.legal_actions()))


@pytest.mark.parametrize(
    ("edition", "players"),
    [pytest.param(CLASSIC, n, id=f"classic-{n}p") for n in (2, 3, 4)]
    + [pytest.param(EDITION_2019, n, id=f"2019-{n}p") for n in (2, 3, 4, 5, 6)],
)
def test_notation_round_trip_for_every_legal_action(edition, players):
    seen = 0
    for seed in range(40):
        for r in _random_states(edition, players, seed):
            for a in r.legal_actions():
                assert Action.parse(str(a)) == a, a
                assert r.is_legal(Action.parse(str(a)))
                seen += 1
    assert seen > 200


# ---------------------------------------------------------------------------------------- refusals

# Classic, 2 players: seat 0 holds Guard + Handmaid, seat 1 a Priest.
GUARD_HANDMAID = "king | baron baron countess | guard priest | handmaid | ..."
# Classic, 2 players: seat 0 holds Priest + Baron, seat 1 a Guard.
PRIEST_BARON = "king | prince guard countess | priest guard | baron | ..."
# Classic, 2 players from seat 1: seat 1 plays a Handmaid, then seat 0 holds Guard + Priest.
OTHER_PROTECTED = ("princess | king countess prince | baron guard | handmaid | priest | ...", 1, "handmaid")
# ... or seat 0 holds Prince + Guard.
PRINCE_OTHER_PROTECTED = ("princess | baron countess king | priest prince | handmaid | guard | ...", 1, "handmaid")
# Classic, 3 players: seat 1 is knocked out, seat 2 holds Baron + Guard.
SEAT1_OUT = "princess | guard priest baron | guard | guard guard guard ..."
# 2019, 2 players: seat 0 played the Chancellor and holds Priest, Handmaid, Spy.
CHANCELLOR_CHOICE = "princess | baron baron king | chancellor guard | priest | handmaid spy guard ..."
CHANCELLOR_GUARDS = "princess | baron baron king | chancellor guard | guard | guard guard priest ..."

@pytest.mark.parametrize(
    ("edition", "players", "text", "starter", "setup", "move", "key", "rule"),
    [
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "priest 1", "not_in_hand", "R4.3",
                     id="R4.3-card-not-in-hand"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "spy", "not_edition", "R1",
                     id="R1-classic-has-no-spy"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "chancellor", "not_edition", "R1",
                     id="R1-classic-has-no-chancellor"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "guard 1 spy", "not_edition", "R1",
                     id="R5.1-classic-guard-cannot-name-spy"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "guard 1 guard", "guess_guard", "R5.1",
                     id="R5.1-guard-cannot-name-guard"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "guard 1", "needs_guess", "R5.1",
                     id="R5.1-guard-must-name-a-card"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "guard", "needs_target", "R4.5",
                     id="R4.5-guard-must-choose-when-it-can"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "guard 0 priest", "target_self", "R4.5",
                     id="R4.5-guard-cannot-choose-self"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "guard 2 priest", "no_such_seat", "R2.1",
                     id="R2.1-no-such-seat"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "handmaid 1", "untargeted", "R4.5",
                     id="R4.5-handmaid-chooses-nobody"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "handmaid priest", "not_guard", "R5.1",
                     id="R5.1-only-guard-names-a-card"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "", "guard keep priest", "not_chancellor", "R5.9",
                     id="R5.9-only-chancellor-keeps"),
        pytest.param(CLASSIC, 2, PRIEST_BARON, 0, "", "priest 0", "target_self", "R4.5",
                     id="R4.5-priest-cannot-choose-self"),
        pytest.param(CLASSIC, 2, PRIEST_BARON, 0, "", "baron 0", "target_self", "R4.5",
                     id="R4.5-baron-cannot-choose-self"),
        pytest.param(CLASSIC, 2, PRIEST_BARON, 0, "", "baron 1 priest", "not_guard", "R5.1",
                     id="R5.1-baron-names-no-card"),
        pytest.param(CLASSIC, 2, PRIEST_BARON, 0, "", "priest", "needs_target", "R4.5",
                     id="R4.5-priest-must-choose-when-it-can"),
        pytest.param(CLASSIC, 2, OTHER_PROTECTED[0], 1, "handmaid", "guard 1 baron", "target_protected", "R4.5",
                     id="R4.5-guard-cannot-choose-protected"),
        pytest.param(CLASSIC, 2, OTHER_PROTECTED[0], 1, "handmaid", "priest 1", "target_protected", "R4.5",
                     id="R4.5-priest-cannot-choose-protected"),
        pytest.param(CLASSIC, 2, OTHER_PROTECTED[0], 1, "handmaid", "priest 0", "no_target", "R4.6",
                     id="R4.6-priest-with-no-one-to-choose-goes-without-target"),
        pytest.param(CLASSIC, 2, OTHER_PROTECTED[0], 1, "handmaid", "guard priest", "guess_untargeted", "R4.6",
                     id="R4.6-guard-without-target-names-no-card"),
        pytest.param(CLASSIC, 2, PRINCE_OTHER_PROTECTED[0], 1, "handmaid", "prince 1", "prince_self", "R4.6",
                     id="R4.6-prince-must-choose-self-when-others-protected"),
        pytest.param(CLASSIC, 3, "princess | prince priest baron | guard | handmaid | guard | ...", 0,
                     "guard 1 priest; handmaid", "prince 2", "prince_self", "R4.6",
                     id="R4.6-prince-must-choose-self-when-others-protected-or-out"),
        pytest.param(CLASSIC, 2, PRINCE_OTHER_PROTECTED[0], 1, "handmaid", "prince", "needs_target", "R4.5",
                     id="R4.6-prince-always-chooses-a-player"),
        pytest.param(CLASSIC, 3, SEAT1_OUT, 0, "guard 1 priest", "guard 1 priest", "target_out", "R4.5",
                     id="R4.5-R5.11-guard-cannot-choose-knocked-out"),
        pytest.param(CLASSIC, 3, SEAT1_OUT, 0, "guard 1 priest", "baron 1", "target_out", "R4.5",
                     id="R4.5-R5.11-baron-cannot-choose-knocked-out"),
        pytest.param(CLASSIC, 2, "guard | guard guard guard | countess baron | king | ...", 0, "", "king 1",
                     "countess", "R4.4", id="R4.4-countess-forced-with-king"),
        pytest.param(CLASSIC, 2, "guard | guard guard guard | countess baron | prince | ...", 0, "", "prince 1",
                     "countess", "R4.4", id="R4.4-countess-forced-with-prince"),
        pytest.param(CLASSIC, 2, "guard | guard guard guard | prince baron | countess | ...", 0, "", "prince 0",
                     "countess", "R4.4", id="R4.4-countess-forced-with-prince-on-self"),
        pytest.param(EDITION_2019, 2, "guard | guard guard guard | king baron | countess | ...", 0, "", "king 1",
                     "countess", "R4.4", id="R4.4-2019-countess-forced-with-king"),
        pytest.param(CLASSIC, 2, GUARD_HANDMAID, 0, "guard 1 priest", "handmaid", "round_over", None,
                     id="R6.1-no-moves-after-the-round"),
        pytest.param(EDITION_2019, 2, CHANCELLOR_CHOICE, 0, "chancellor", "priest 1", "chancellor_pending",
                     "R5.9", id="R5.9-chancellor-choice-pending"),
        pytest.param(EDITION_2019, 2, CHANCELLOR_CHOICE, 0, "chancellor", "chancellor", "chancellor_pending",
                     "R5.9", id="R5.9-chancellor-choice-needs-keep"),
        pytest.param(EDITION_2019, 2, CHANCELLOR_CHOICE, 0, "chancellor",
                     "chancellor keep guard bottom priest,handmaid", "chancellor_keep", "R5.9",
                     id="R5.9-chancellor-keeps-a-card-in-hand"),
        # three Guards to choose from: "must keep the Guard", not "one of these cards: Guard"
        pytest.param(EDITION_2019, 2, CHANCELLOR_GUARDS, 0, "chancellor", "priest 1", "chancellor_pending_one",
                     "R5.9", id="R5.9-chancellor-choice-pending-of-one-card"),
        pytest.param(EDITION_2019, 2, CHANCELLOR_GUARDS, 0, "chancellor",
                     "chancellor keep priest bottom guard,guard", "chancellor_keep_one", "R5.9",
                     id="R5.9-chancellor-keeps-the-one-card-in-hand"),
        pytest.param(EDITION_2019, 2, CHANCELLOR_CHOICE, 0, "chancellor", "chancellor keep priest bottom handmaid",
                     "chancellor_bottom", "R5.9", id="R5.9-chancellor-returns-all-others"),
        pytest.param(EDITION_2019, 2, CHANCELLOR_CHOICE, 0, "chancellor",
                     "chancellor keep priest bottom handmaid,handmaid", "chancellor_bottom", "R5.9",
                     id="R5.9-chancellor-returns-exactly-the-others"),
        pytest.param(EDITION_2019, 2, CHANCELLOR_CHOICE, 0, "chancellor", "chancellor keep priest",
                     "chancellor_bottom", "R5.9", id="R5.9-chancellor-must-return-cards"),
        pytest.param(EDITION_2019, 2, CHANCELLOR_CHOICE, 0, "chancellor",
                     Action(C.CHANCELLOR, 1, keep=C.PRIEST, bottom=(C.HANDMAID, C.SPY)),
                     "chancellor_choice_only", "R5.9", id="R5.9-chancellor-choice-chooses-no-player"),
        pytest.param(EDITION_2019, 2, CHANCELLOR_CHOICE, 0, "", "chancellor keep priest bottom guard",
                     "keep_after_drawing", "R5.9", id="R5.9-no-choice-before-the-draw"),  # (not "only the Chancellor")
        # a Chancellor's choice typed by a player who holds none: "play the Chancellor first" was told
        pytest.param(EDITION_2019, 2, "guard | guard guard guard | king baron | countess | ...", 0, "",
                     "chancellor keep baron bottom king", "not_in_hand", "R4.3", id="R4.3-no-chancellor-to-choose-with"),
    ],
)
def test_R4_7_illegal_actions_are_refused_and_change_nothing(
    edition, players, text, starter, setup, move, key, rule
):
    r = play(deck(text, players=players, starter=starter, edition=edition), setup)
    action = move if isinstance(move, Action) else Action.parse(move)
    assert action not in r.legal_actions() and not r.is_legal(action)
    before = snapshot(r)
    with pytest.raises(IllegalActionError) as err:
        r.apply(action)
    assert err.value.key == key
    assert err.value.rule == rule
    if rule is not None:
        assert f"({rule})" in str(err.value)
    assert isinstance(err.value, ValueError)
    assert snapshot(r) == before


def test_R4_7_a_refused_move_leaves_the_match_unchanged():
    m = Match(CLASSIC, 2, deck=full_deck(GUARD_HANDMAID))
    before = (snapshot(m.round), list(m.tokens), len(m.rounds))
    with pytest.raises(IllegalActionError):
        m.apply(Action.parse("guard 1 guard"))
    # cards under the deck given as a list, outside the Chancellor's choice: refused as illegal too
    # (it was a TypeError, "unhashable type: 'list'", which code catching ValueError missed)
    with pytest.raises(IllegalActionError, match=r"R5\.9"):
        m.apply(Action(Card.GUARD, 1, Card.PRIEST, bottom=[Card.GUARD]))  # type: ignore[arg-type]
    assert (snapshot(m.round), list(m.tokens), len(m.rounds)) == before
    m.apply(Action.parse("guard 1 priest"))  # the same round goes on normally
    assert m.tokens == [1, 0]


@pytest.mark.parametrize(
    ("action", "key", "quoted"),
    [
        pytest.param("guard 1 priest", "not_an_action", "'guard 1 priest'", id="text"),
        pytest.param((C.GUARD, 1, C.PRIEST), "not_an_action", "(<Card.GUARD", id="plain-tuple"),  # (it equals the move)
        pytest.param(None, "not_an_action", "None", id="none"),
        pytest.param(Action(C.GUARD, True, C.PRIEST), "not_a_seat", "True", id="seat-true"),  # (it equals seat 1)
        pytest.param(Action(C.GUARD, 1.0, C.PRIEST), "not_a_seat", "1.0", id="seat-float"),
        pytest.param(Action(C.GUARD, "1", C.PRIEST), "not_a_seat", "'1'", id="seat-text"),  # ("there is no seat 1")
        pytest.param(Action(C.GUARD, [1], C.PRIEST), "not_a_seat", "[1]", id="seat-list"),  # (no hash: a TypeError)
        pytest.param(Action(1, 1, 2), "not_a_card", "1", id="card-number"),  # type: ignore[arg-type]
        pytest.param(Action(C.GUARD, 1, 2), "not_a_card", "2", id="guess-number"),  # type: ignore[arg-type]
        pytest.param(Action(C.GUARD, 1, [C.PRIEST]), "not_a_card", "[<Card.PRIEST", id="guess-list"),
        pytest.param(Action(C.GUARD, 1, C.PRIEST, keep=[C.PRIEST]), "not_a_card", "[<Card.PRIEST", id="keep-list"),
        pytest.param(Action(C.GUARD, 1, C.PRIEST, bottom=5), "not_cards", "5", id="bottom-number"),  # type: ignore[arg-type]
        pytest.param(Action(C.GUARD, 1, C.PRIEST, bottom=(2,)), "not_a_card", "2", id="bottom-numbers"),  # type: ignore[arg-type]
    ],
)
def test_R4_7_what_is_not_an_action_is_refused_as_such_and_changes_nothing(action, key, quoted):
    """Not taken as the move it equals, nor failing with Python's TypeError or AttributeError (which
    code catching the engine's refusals missed), and said for what it is, in English and Dutch."""
    m = Match(CLASSIC, 2, deck=full_deck(GUARD_HANDMAID))  # seat 0 may play guard 1 priest
    before = (snapshot(m.round), list(m.tokens))
    assert not m.round.is_legal(action)
    with pytest.raises(IllegalActionError) as err:
        m.apply(action)
    assert err.value.key == key and quoted in str(err.value)
    assert quoted in err.value.english(ERRORS_NL)
    assert (snapshot(m.round), list(m.tokens)) == before
    m.apply(Action.parse("guard 1 priest"))  # the same round goes on normally
    assert m.tokens == [1, 0]


def test_R4_7_an_action_of_a_subclass_or_a_numpy_seat_is_an_action():
    """Refused with a false reason: a subclass of Action ("the Guard must name a card" for a Priest's
    move, though is_legal said yes) and a numpy seat that breaks a rule ("there is no seat 0")."""
    import numpy as np

    class Mine(Action):
        pass

    m = Match(CLASSIC, 2, deck=full_deck(PRIEST_BARON))  # seat 0: Priest and Baron
    assert m.round.is_legal(Mine(C.PRIEST, 1))
    m.apply(Mine(C.PRIEST, 1))
    m = Match(CLASSIC, 2, deck=full_deck(PRIEST_BARON))
    with pytest.raises(IllegalActionError) as err:
        m.apply(Action(C.PRIEST, np.int64(0)))
    assert err.value.key == "target_self"
    m.apply(Action(C.PRIEST, np.int64(1)))  # a legal one is played, its seat a plain number in the log
    played = [e for e in m.round.log if e.kind == "play"][-1]
    assert played.target == 1 and type(played.target) is int


def test_R4_7_a_chancellor_choice_that_is_not_one_is_refused_as_such():
    r = play(deck(CHANCELLOR_CHOICE, players=2, edition=EDITION_2019), "chancellor")
    before = snapshot(r)
    for action, key in [(Action(C.CHANCELLOR, keep=C.PRIEST, bottom=[5, 1]), "not_a_card"),  # type: ignore[list-item]
                        (Action(C.CHANCELLOR, keep=True, bottom=(C.SPY, C.HANDMAID)), "not_a_card"),  # type: ignore[arg-type]
                        ("chancellor keep priest bottom spy,handmaid", "not_an_action")]:
        with pytest.raises(IllegalActionError) as err:
            r.apply(action)  # type: ignore[arg-type]
        assert err.value.key == key
        assert snapshot(r) == before
    r.apply(Action(C.CHANCELLOR, keep=C.PRIEST, bottom=[C.SPY, C.HANDMAID]))  # (a list of cards is taken)
    assert r.hands[0] == [C.PRIEST]


def test_R4_7_every_non_legal_action_is_refused_in_random_states():
    """Every well-formed action that is not in legal_actions() is refused, leaving the round as it was."""
    rng = random.Random(5)
    candidates = [Action(c) for c in Card] + [Action(c, t) for c in Card for t in range(4)] + [
        Action(C.GUARD, t, g) for t in range(4) for g in Card
    ]
    for seed in range(30):
        for r in _random_states(CLASSIC if seed % 2 else EDITION_2019, 2 + seed % 3, seed):
            legal = set(r.legal_actions())
            for a in rng.sample(candidates, 12):
                if a in legal:
                    continue
                before = snapshot(r)
                with pytest.raises(IllegalActionError) as err:
                    r.apply(a)
                assert err.value.key and str(err.value)
                assert snapshot(r) == before


_WORDS = st.sampled_from(["guard", "priest", "chancellor", "keep", "bottom", "1", "-2", "9" * 5000, ",", "x" * 50])


@given(st.lists(st.one_of(_WORDS, st.text(max_size=12)), max_size=8).map(" ".join))
def test_reading_any_text_gives_a_move_or_a_notation_error(text):
    """Nothing else: a seat of 5,000 digits was a ValueError from Python's int()."""
    try:
        action = Action.parse(text)
    except NotationError as err:
        assert "\n" not in str(err) and len(str(err)) < 400
    else:
        assert isinstance(action, Action)


@pytest.mark.parametrize(("text", "kind"), [(None, "NoneType"), (b"guard 1 priest", "bytes"), (3, "int")])
def test_a_notation_that_is_no_text_is_refused_as_such(text, kind):
    """None and bytes were the regular expression's own TypeErrors ("expected string or bytes-like
    object", "cannot use a string pattern on a bytes-like object")."""
    with pytest.raises(TypeError, match=f"^a move's notation is text, not {kind}$"):
        Action.parse(text)


def test_a_match_takes_its_editions_name_as_the_records_and_the_command_line_name_it():
    """``Match("classic")`` was an AttributeError ('str' object has no attribute 'check_players')."""
    assert Match("classic", 3).edition is CLASSIC
    assert Match("2019", 5).edition is EDITION_2019
    with pytest.raises(ValueError, match=r"^unknown edition 'classik': choose classic or 2019$"):
        Match("classik")
