"""The shared action numbering and observation encoding (loveletter.encoding), and its document."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scenarios import permuted_copy  # (tests/engine: importable by tests/conftest.py)

from loveletter.encoding import actions_for, document, observation_table, observations_for, shares
from loveletter.engine import CLASSIC, EDITION_2019, Action, Card, Match, Phase, view

CONFIGS = [(CLASSIC, p) for p in (2, 3, 4)] + [(EDITION_2019, p) for p in (2, 3, 4, 5, 6)]
DOCS = Path(__file__).parent.parent / "docs" / "encoding.md"


def test_the_document_is_in_step_with_the_code() -> None:
    assert DOCS.read_text(encoding="utf-8") == document(), "regenerate: python -m loveletter.encoding > docs/encoding.md"


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_every_legal_move_has_its_own_number_and_comes_back(edition, players: int) -> None:
    numbering = actions_for(edition, players)
    rng = random.Random(players)
    chancellor_choices = 0
    for seed in range(60):
        match = Match(edition, players, seed=seed)
        while not match.round.over:
            legal = match.legal_actions()
            numbers = numbering.numbers(legal)
            assert len(set(numbers)) == len(legal)
            assert numbering.mask(legal).sum() == len(legal)
            for action in legal:
                number = numbering.number(action)
                assert numbering.action(number, legal) == action
                if action.keep is None:
                    assert numbering.names[number] == action.notation()
                else:
                    chancellor_choices += 1
                    assert action.notation().startswith(numbering.names[number])
            match.apply(rng.choice(legal))
    assert chancellor_choices > 0 or edition is CLASSIC


def test_numbers_follow_the_documented_order() -> None:
    names = actions_for(CLASSIC, 2).names
    assert names[:3] == ("guard", "guard 0 priest", "guard 0 baron")
    assert names.index("priest") == 1 + 2 * 7  # after the Guard's untargeted and 2 seats x 7 guesses
    assert "prince" not in names and names[-1] == "princess"
    assert actions_for(EDITION_2019, 2).names[-1] == "chancellor keep princess bottom princess"


def test_numbers_that_are_not_legal_now_are_refused() -> None:
    match = Match(CLASSIC, 2, seed=1)
    numbering = actions_for(CLASSIC, 2)
    legal = match.legal_actions()
    with pytest.raises(ValueError, match="there is no action 99"):
        numbering.action(99, legal)
    illegal = next(n for n in range(numbering.size) if n not in numbering.numbers(legal))
    with pytest.raises(ValueError, match="is not legal now"):
        numbering.action(illegal, legal)
    with pytest.raises(ValueError, match="not an action of 2-player classic games"):
        numbering.number(Action(Card.CHANCELLOR))


@pytest.mark.parametrize("given", ["guard 1 priest", None, 8])
def test_what_is_not_an_action_is_refused_in_words_when_numbered(given) -> None:
    """An action's name ("guard 1 priest"), numbered or masked, failed on an attribute of a string."""
    numbering = actions_for(CLASSIC, 2)
    for numbered in (numbering.number, lambda given: numbering.mask([given])):
        with pytest.raises(TypeError, match=f"an action to number is an engine Action .*, not {given!r}$"):
            numbered(given)


@pytest.mark.parametrize(("edition", "players"), [(CLASSIC, 2), (CLASSIC, 4), (EDITION_2019, 3), (EDITION_2019, 6)])
def test_vectors_come_from_the_seats_view_only(edition, players: int) -> None:
    """Shuffling what a seat cannot know (other hands, the deck, the set-aside card, the others'
    secrets) leaves its vectors as they were; it does change another seat's."""
    codec = observations_for(edition, players)
    rng = random.Random(players)
    changed = 0
    for seed in range(25):
        match = Match(edition, players, seed=seed)
        for _ in range(rng.randrange(0, 10)):
            if match.round.over:
                break
            match.apply(rng.choice(match.legal_actions()))
        for seat in range(players):
            other = permuted_copy(match.round, seat, rng)
            mine, theirs = view(match.round, seat), view(other, seat)
            assert np.array_equal(codec.observation(mine), codec.observation(theirs))
            assert np.array_equal(codec.information_state(mine), codec.information_state(theirs))
            changed += any(
                not np.array_equal(codec.information_state(view(match.round, s)), codec.information_state(view(other, s)))
                for s in range(players) if s != seat and match.round.is_alive(s)
            )
    assert changed > 0


def test_the_information_state_keeps_the_order_of_play() -> None:
    """Seat 0 plays the same two cards in either order: seat 1's observation is the same, its
    information state is not."""
    codec = observations_for(CLASSIC, 2)
    deck = ["princess", "guard", "guard", "guard", "priest", "handmaid", "countess", "baron", "king", "guard", "guard", "priest", "baron", "handmaid", "prince", "prince"]
    views = []
    for plays in (("countess", "handmaid", "priest"), ("priest 1", "handmaid", "countess")):
        match = Match(CLASSIC, 2, deck=deck)
        for play in plays:
            match.apply(Action.parse(play))
        views.append(view(match, 1))
    first, second = views
    assert first.discards[0] == (Card.COUNTESS, Card.PRIEST) and second.discards[0] == (Card.PRIEST, Card.COUNTESS)
    assert np.array_equal(codec.observation(first), codec.observation(second))
    assert not np.array_equal(codec.information_state(first), codec.information_state(second))


def test_the_information_state_keeps_which_play_showed_which_card() -> None:
    """Seat 2's Prince makes seat 1 discard a Guard, then seat 0's Baron knocks seat 1 out showing a
    Priest; or the Prince's discard is the Priest and the Baron shows a Guard. Seat 1's discards add
    up alike, yet seat 2 can tell the two apart, and infers that seat 0 holds more than a Priest in
    the one and more than a Guard in the other: the plays' blocks kept no card a play made a player
    show, so the two information states were the same."""
    codec = observations_for(CLASSIC, 3)
    # set aside, the deal (seats 0, 1, 2), then the draws; the rest of the deck alike in both
    start, rest = ["princess", "baron", "guard", "prince", "handmaid"], ["guard"] * 3 + ["baron", "handmaid", "prince", "countess"]
    views = []
    for draws in (["guard", "priest", "priest", "king"], ["priest", "priest", "guard", "king"]):
        match = Match(CLASSIC, 3, deck=start + draws + rest)
        for play in ("handmaid", "guard 2 princess", "prince 1", "baron 1"):
            match.apply(Action.parse(play))
        views.append(view(match, 2))
    first, second = views
    assert not first.alive[1] and not second.alive[1]
    assert sorted(first.discards[1]) == sorted(second.discards[1]) and first.discards[1] != second.discards[1]
    assert np.array_equal(codec.observation(first), codec.observation(second))  # the piles' counts only
    assert not np.array_equal(codec.information_state(first), codec.information_state(second))
    # the Prince's block shows the card discarded, the Baron's the card shown and the seat knocked out
    names = [part.name for part in codec.play_parts()]
    width, at = sum(part.size for part in codec.play_parts()), codec.observation_size
    starts = dict(zip(names, np.cumsum([0] + [part.size for part in codec.play_parts()]), strict=False))
    cards = list(CLASSIC.cards)
    for v, prince_shows, baron_shows in ((first, Card.GUARD, Card.PRIEST), (second, Card.PRIEST, Card.GUARD)):
        state = codec.information_state(v)
        prince, baron = state[at + 2 * width:at + 3 * width], state[at + 3 * width:at + 4 * width]
        shown = slice(starts["shown"], starts["shown"] + len(cards))
        out = slice(starts["out"], starts["out"] + 3)
        assert prince[shown].tolist() == [float(card is prince_shows) for card in cards] and not prince[out].any()
        assert baron[shown].tolist() == [float(card is baron_shows) for card in cards]
        assert baron[out].tolist() == [0.0, 1.0, 0.0]


def test_the_cards_a_seat_put_under_the_deck_are_in_its_vectors() -> None:
    """Seat 0's Chancellor puts the Princess and a Priest under the deck, or a Baron and a Priest:
    seat 0 can tell the two apart (it will draw them back), so its vectors differ; seat 1 cannot,
    so its vectors are the same. The vectors had no place for them: the two looked alike."""
    from collections import Counter

    codec = observations_for(EDITION_2019, 2)
    views: dict[int, list] = {0: [], 1: []}
    for returned in (["princess", "priest"], ["baron", "priest"]):
        top = ["guard", "guard", "guard", "guard", "chancellor", "guard", "spy", *returned]
        rest = Counter(card.word for card in EDITION_2019.full_deck)
        rest.subtract(top)
        match = Match(EDITION_2019, 2, deck=top + sorted(rest.elements()))
        match.apply(Action.parse("chancellor"))
        match.apply(Action.parse(f"chancellor keep spy bottom {','.join(returned)}"))
        for seat in (0, 1):
            views[seat].append(view(match, seat))
    assert [v.under_deck() for v in views[0]] == [[Card.PRINCESS, Card.PRIEST], [Card.BARON, Card.PRIEST]]
    first, second = views[0]
    assert not np.array_equal(codec.observation(first), codec.observation(second))
    assert not np.array_equal(codec.information_state(first), codec.information_state(second))
    first, second = views[1]
    assert np.array_equal(codec.observation(first), codec.observation(second))
    assert np.array_equal(codec.information_state(first), codec.information_state(second))
    # where: the first place under the deck is the Princess (or the Baron), the second the Priest
    at = sum(part.size for part in codec.observation_parts()[:8])
    places = codec.observation(views[0][0])[at:at + 2 * 11].reshape(2, 11)
    cards = list(EDITION_2019.cards)
    assert places[0].tolist() == [float(i == cards.index(Card.PRINCESS)) for i in range(11)]
    assert places[1].tolist() == [float(i == cards.index(Card.PRIEST)) for i in range(11)]
    assert codec.observation(views[1][0])[at:at + 11].tolist() == [0.0] * 10 + [1.0]  # another's card there


def test_tables_add_up_to_the_sizes() -> None:
    for edition, players in CONFIGS:
        codec = observations_for(edition, players)
        last = observation_table(edition, players)[-1][0]
        assert int(last.split("-")[-1]) + 1 == codec.observation_size
        last = observation_table(edition, players, information=True)[-1][0]
        assert int(last.split("-")[-1]) + 1 == codec.information_size


def test_shares_are_zero_sum_and_refuse_nonsense() -> None:
    for players in range(2, 7):
        for k in range(1, players + 1):
            winners = tuple(range(k))
            assert sum(shares(winners, players)) == pytest.approx(0)
    with pytest.raises(ValueError, match="1 to 2 winners, not 0"):
        shares((), 2)
    # seats that are not the game's, or one twice: the returns did not sum to 0 ([-1, -1], [0, -1])
    for winners in ((3,), (0, 0), (-1,)):
        with pytest.raises(ValueError, match=r"the winners must be different seats from 0 to 1, not \("):
            shares(winners, 2)
    with pytest.raises(ValueError, match="a game has 2 players or more, not 1"):  # (it divided by zero)
        shares((0,), 1)


def test_the_numberings_take_an_edition_or_its_name_and_refuse_what_is_neither() -> None:
    assert actions_for("2019", 3) is actions_for(EDITION_2019, 3)
    assert observations_for("classic", 4) is observations_for(CLASSIC, 4)
    for call, says in [
        (lambda: actions_for(CLASSIC, "2"), "players must be a whole number, not '2'"),  # (a comparison failed)
        (lambda: actions_for("classic", True), "players must be a whole number, not True"),
        (lambda: observations_for(CLASSIC, 2.0), "players must be a whole number, not 2.0"),
        (lambda: actions_for(["classic"], 2), "an edition is named by text, 'classic' or '2019', not by list"),
        (lambda: actions_for(2019, 2), "an edition is named by text, 'classic' or '2019', not by int"),
    ]:
        with pytest.raises(TypeError, match=says):
            call()
    legal = Match(CLASSIC, 2, seed=1).legal_actions()
    numbering = actions_for(CLASSIC, 2)
    number = numbering.numbers(legal)[0]
    assert numbering.action(np.int64(number), legal) == numbering.action(number, legal)
    assert numbering.action(np.array(number), legal) == numbering.action(number, legal)  # as the environments take one
    for wrong in (float(number), True, str(number)):  # 0.0 was action 0
        with pytest.raises(TypeError, match="an action is a whole number"):
            numbering.action(wrong, legal)  # type: ignore[arg-type]


def test_a_spectator_has_no_observation() -> None:
    with pytest.raises(ValueError, match="for a seat"):
        observations_for(CLASSIC, 2).observation(view(Match(CLASSIC, 2, seed=0), None))


@pytest.mark.parametrize(("edition", "players"), [(CLASSIC, 4), (EDITION_2019, 2)])
@pytest.mark.parametrize("vector", ["observation", "information_state"])
def test_a_game_of_another_size_or_edition_is_refused(edition, players, vector) -> None:
    """A two-player classic encoding wrote a four-player game's seat 3 to move into its phase, and
    read a 2019 game without a word."""
    match = Match(edition, players, seed=1)
    encode = getattr(observations_for(CLASSIC, 2), vector)
    with pytest.raises(ValueError, match=f"^this encoding is for 2-player classic games, not a {players}-player"
                                         f" {edition} game$"):
        encode(view(match, 1))


def test_the_information_state_keeps_which_card_of_the_seat_a_priest_saw() -> None:
    """Seat 0's Priest looks at seat 1's dealt card, a Guard or a Spy; seat 1 then draws the other.
    Its hand is the same, but seat 0 knows a different card of it (a Spy kept would fall to seat 0's
    Guard naming it, R5.1): the vectors were the same, since the dealt card was in no block."""
    codec = observations_for(EDITION_2019, 3)
    views = []
    for dealt, drawn in (("guard", "spy"), ("spy", "guard")):
        top = ["princess", "priest", dealt, "baron", "guard", drawn]  # set aside, deal 0-2, draws
        rest = Counter(card.word for card in EDITION_2019.full_deck)
        rest.subtract(top)
        match = Match(EDITION_2019, 3, deck=top + sorted(rest.elements()))
        match.apply(Action.parse("priest 1"))
        views.append(view(match, 1))
    first, second = views
    assert sorted(first.hand) == sorted(second.hand)
    assert np.array_equal(codec.observation(first), codec.observation(second))
    assert not np.array_equal(codec.information_state(first), codec.information_state(second))


# ----------------------------------------------------------------------- what each part says


def _split(vector: np.ndarray, parts) -> dict[str, list[float]]:
    """The vector cut into its parts, by the table's names."""
    out, at = {}, 0
    for part in parts:
        out[part.name] = vector[at:at + part.size].tolist()
        at += part.size
    assert at == len(vector)
    return out


def _one_hot(index: int | None, size: int) -> list[float]:
    return [float(i == index) for i in range(size)]


SEMANTIC_CONFIGS = [(CLASSIC, 2), (CLASSIC, 4), (EDITION_2019, 2), (EDITION_2019, 3), (EDITION_2019, 5)]


@pytest.mark.parametrize(("edition", "players"), SEMANTIC_CONFIGS)
def test_each_part_of_the_observation_means_what_its_table_says(edition, players: int) -> None:
    """Every part of a seat's observation holds the fact of the seat's view that the table names
    (the tests above check that the vectors stay alike or differ, not what they say: seat 0's
    "current" one-hot, the phase, the set-aside flag, the alive and protected flags swapped, the
    known cards or the card tracker could be wrong unseen)."""
    codec = observations_for(edition, players)
    cards = list(edition.cards)
    c = len(cards)

    def counts(held) -> list[float]:
        held = list(held)
        return [float(held.count(card)) for card in cards]

    rng = random.Random(players)
    seen: Counter[str] = Counter()
    for seed in range(40):
        match = Match(edition, players, seed=seed)
        while True:
            for seat in range(players):
                v = view(match, seat)
                got = _split(codec.observation(v), codec.observation_parts())
                assert got["seat"] == _one_hot(seat, players)
                assert got["current"] == _one_hot(v.current, players)
                phase = 2 if v.over else 1 if v.phase is Phase.CHANCELLOR else 0
                assert got["phase"] == _one_hot(phase, 3)
                assert got["hand"] == counts(v.hand)
                assert got["deck"] == [float(v.deck_size)]
                assert got["set_aside_taken"] == [float(v.set_aside_taken)]
                assert got["face_up"] == counts(v.face_up)
                assert got["unseen"] == counts(v.unseen().elements())
                for s in range(players):
                    assert got[f"alive_{s}"] == [float(v.alive[s])]
                    assert got[f"protected_{s}"] == [float(v.protected[s])]
                    assert got[f"tokens_{s}"] == [float(v.tokens[s])]
                    assert got[f"discards_{s}"] == counts(v.discards[s])
                    known = v.known.get(s)
                    assert got[f"known_{s}"] == _one_hot(None if known is None else cards.index(known), c)
                    seen["known"] += known is not None and s != seat
                    seen["protected"] += v.protected[s]
                seen["chancellor"] += phase == 1
                seen["another's turn"] += v.current != seat
            if match.round.over:
                break
            match.apply(rng.choice(match.legal_actions()))
    assert seen["known"] and seen["protected"] and seen["another's turn"]
    assert seen["chancellor"] or edition is CLASSIC


@pytest.mark.parametrize(("edition", "players"), SEMANTIC_CONFIGS)
def test_each_play_of_the_information_state_says_what_the_play_table_says(edition, players: int) -> None:
    """The plays' blocks against the round itself (every hand known here): who played what on whom
    naming what, whether a Guard hit, the card a seat learned (its Priest's look, the other's card
    in its Baron's comparison, the card a King gave it), and the card it kept (the other card of its
    own play, or the card its Chancellor kept; on a Priest or Baron that chose it, its card)."""
    codec = observations_for(edition, players)
    cards = list(edition.cards)
    c = len(cards)
    width = sum(part.size for part in codec.play_parts())
    rng = random.Random(players)
    seen: Counter[str] = Counter()
    for seed in range(40):
        match = Match(edition, players, seed=seed)
        plays: list[tuple[Action, int, dict[int, Card | None], dict[int, Card | None], bool]] = []
        while not match.round.over:
            r = match.round
            action = rng.choice(match.legal_actions())
            cur = r.current
            if action.keep is not None:  # the Chancellor's choice: what its player kept
                plays[-1][3][cur] = action.keep
                match.apply(action)
                continue
            hands = {s: list(r.hands[s]) for s in range(players)}
            other = list(hands[cur])
            other.remove(action.card)
            mine = other[0]
            t = action.target
            learned: dict[int, Card | None] = {}
            kept: dict[int, Card | None] = {cur: mine}
            if t is not None:
                theirs = hands[t][0]
                if action.card is Card.PRIEST:
                    learned[cur] = theirs
                    kept[t] = theirs
                elif action.card is Card.BARON:
                    learned[cur], learned[t] = theirs, mine
                    kept[t] = theirs
                elif action.card is Card.KING:
                    learned[cur], learned[t] = theirs, mine
            hit = action.card is Card.GUARD and t is not None and hands[t] == [action.guess]
            plays.append((action, cur, learned, kept, hit))
            match.apply(action)
        for seat in range(players):
            state = codec.information_state(view(match, seat))
            for k, (action, by, learned, kept, hit) in enumerate(plays):
                start = codec.observation_size + k * width
                block = _split(state[start:start + width], codec.play_parts())
                assert block["by"] == _one_hot(by, players)
                assert block["card"] == _one_hot(cards.index(action.card), c)
                assert block["target"] == _one_hot(action.target, players)
                assert block["guess"] == _one_hot(None if action.guess is None else cards.index(action.guess), c)
                assert block["hit"] == [float(hit)]
                want = learned.get(seat)
                assert block["learned"] == _one_hot(None if want is None else cards.index(want), c), (k, action)
                want = kept.get(seat)
                assert block["kept"] == _one_hot(None if want is None else cards.index(want), c), (k, action)
                seen["hit"] += hit
                seen[f"learned from {action.card.word}"] += seat in learned
            rest = state[codec.observation_size + len(plays) * width:]
            assert not rest.any()
    assert seen["hit"] and seen["learned from priest"] and seen["learned from baron"] and seen["learned from king"]


def test_the_number_just_past_the_last_is_no_action() -> None:
    """``action(size)`` is refused as every other number out of range is (it read past the names)."""
    numbering = actions_for(CLASSIC, 2)
    legal = Match(CLASSIC, 2, seed=1).legal_actions()
    with pytest.raises(ValueError, match=f"^there is no action {numbering.size}: actions are numbered 0 to"):
        numbering.action(numbering.size, legal)
