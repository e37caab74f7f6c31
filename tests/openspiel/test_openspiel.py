"""The OpenSpiel game ``python_love_letter``: OpenSpiel's own conformance checks, explicit chance
that deals exactly as a shuffle does, the engine's rules, no hidden information in what a seat
observes, and resampling for information-set MCTS."""

from __future__ import annotations

import copy
import itertools
import pickle
import random
import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.tests import games_sim_test
from scenarios import permuted_copy

import loveletter.envs.openspiel  # noqa: F401 - registers the game
from loveletter.encoding import actions_for, observations_for, shares
from loveletter.engine import CLASSIC, EDITION_2019, Card, Match, Round
from loveletter.record import replay, to_record

NAME = "python_love_letter"
CONFIGS = [("classic", p) for p in (2, 3, 4)] + [("v2019", p) for p in (2, 3, 4, 5, 6)]


def load(edition: str = "classic", players: int = 2, match: bool = False) -> pyspiel.Game:
    return pyspiel.load_game(NAME, {"edition": edition, "players": players, "match": match})


def dealt(state: pyspiel.State) -> pyspiel.State:
    """``state`` with each chance outcome until a player's move taken as the first one offered."""
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def play_randomly(state: pyspiel.State, rng: np.random.RandomState, until: int | None = None) -> None:
    """Random legal moves and chance outcomes with their probabilities; stop at a decision after
    ``until`` moves."""
    moves = 0
    while not state.is_terminal() and (until is None or moves < until or state.is_chance_node()):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            moves += 1


# --------------------------------------------------------------------------- OpenSpiel's own checks


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_random_sim_test_with_serialization(edition: str, players: int) -> None:
    pyspiel.random_sim_test(load(edition, players), num_sims=4, serialize=True, verbose=False)


@pytest.mark.parametrize(("edition", "players"), [("classic", 2), ("v2019", 3)])
def test_random_sim_test_whole_matches(edition: str, players: int) -> None:
    pyspiel.random_sim_test(load(edition, players, match=True), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("edition", "players", "match"), [(e, p, False) for e, p in CONFIGS] + [("classic", 3, True)])
def test_games_sim_test_checks(edition: str, players: int, match: bool) -> None:
    """OpenSpiel's games_sim_test: clone, OpenSpiel and pickle serialization of game, game type and
    state along random games, utilities in range, no legal actions at the end."""
    np.random.seed(players)
    checks = games_sim_test.GamesSimTest("test_pig")  # its sim_game, on our game
    game = load(edition, players, match)
    for _ in range(3 if not match else 1):
        checks.sim_game(game)


def test_the_game_string_names_the_edition_so_it_loads_again() -> None:
    game = load("2019", 4)  # "2019" is stored as v2019: OpenSpiel reads edition=2019 as a number
    assert str(game) == "python_love_letter(edition=v2019,match=False,players=4)"
    again = pyspiel.load_game(str(game))
    assert again.num_distinct_actions() == actions_for(EDITION_2019, 4).size
    assert pickle.loads(pickle.dumps(game)).num_players() == 4


@pytest.mark.parametrize("copied", [copy.copy, copy.deepcopy, lambda game: pickle.loads(pickle.dumps(game))],
                         ids=["copy", "deepcopy", "pickle"])
def test_a_copied_game_plays_as_the_original(copied) -> None:
    """A copy was made of the game's C++ half alone (its parameters): it had no edition, and could
    neither start a game nor read one back (a game sent to worker processes)."""
    game = load("2019", 3, True)
    again = copied(game)
    assert str(again) == str(game) and again.num_distinct_actions() == game.num_distinct_actions()
    state, theirs = game.new_initial_state(), again.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, _ = zip(*state.chance_outcomes(), strict=True)
            action = rng.choice(outcomes)
        else:
            action = rng.choice(state.legal_actions())
        assert theirs.legal_actions() == state.legal_actions()
        state.apply_action(action)
        theirs.apply_action(action)
        if len(state.history()) > 80:
            break
    assert str(theirs) == str(state)
    assert str(again.deserialize_state(state.serialize())) == str(state)


@pytest.mark.parametrize(("params", "message"), [
    ({"edition": "deluxe"}, "unknown edition 'deluxe'"),
    ({"players": 5}, "classic edition is for 2-4 players"),
    ({"edition": "v2019", "players": 7}, "2019 edition is for 2-6 players"),
])
def test_bad_parameters_say_what_is_wrong(params: dict[str, object], message: str) -> None:
    with pytest.raises(Exception, match=message):
        pyspiel.load_game(NAME, params)


@pytest.mark.parametrize(("params", "error", "message"), [
    ({"match": "false"}, TypeError, "match must be True or False, not 'false'"),  # it played whole matches
    ({"players": 2.7}, TypeError, "players must be a whole number, not 2.7"),  # two players
    ({"players": "3"}, TypeError, "players must be a whole number, not '3'"),
    ({"edition": ["classic"]}, ValueError, r"unknown edition \['classic'\]"),
    ({"players": 3, "playres": 4}, ValueError, "unknown parameter 'playres': the parameters are players, edition and match"),
])
def test_a_game_built_directly_checks_its_parameters_as_load_game_does(params: dict[str, object], error: type,
                                                                         message: str) -> None:
    from loveletter.envs.openspiel import LoveLetterGame

    with pytest.raises(error, match=message):
        LoveLetterGame(params)
    game = LoveLetterGame({"players": np.int64(3), "match": np.bool_(True)})  # numpy's, as themselves
    assert (game.num_players(), game.whole_match) == (3, True)
    assert game.get_parameters() == {"edition": "classic", "match": True, "players": 3}


def test_the_adapter_needs_neither_gymnasium_nor_pettingzoo() -> None:
    """``loveletter[openspiel]`` installs OpenSpiel alone: the adapter must load without the other
    libraries (a check of its parameters once imported them through the other adapters' module)."""
    blocked = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('gymnasium', 'pettingzoo'):\n"
        "            raise ImportError('not installed: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import pyspiel, loveletter.envs.openspiel\n"
        "game = pyspiel.load_game('python_love_letter', {'players': 3, 'match': True})\n"
        "print(game.num_players(), game.new_initial_state().is_chance_node())\n"
    )
    done = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "3 True\n"


# --------------------------------------------------------------------------- chance and rules


def test_chance_outcomes_are_the_cards_left_with_their_odds() -> None:
    state = load().new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {int(c): n / 16 for c, n in CLASSIC.copies.items()}
    state.apply_action(int(Card.PRINCESS))
    outcomes = dict(state.chance_outcomes())
    assert int(Card.PRINCESS) not in outcomes
    assert outcomes[int(Card.GUARD)] == pytest.approx(5 / 15)
    # a card that is not left to deal is refused at once, and nothing changes: a second Princess (or
    # a Chancellor in the classic edition) was taken, the odds then added up to more than 1, and
    # the deal failed only when complete, with its history and its cards out of step
    for impossible in (Card.PRINCESS, Card.CHANCELLOR):
        with pytest.raises(ValueError, match=f"chance outcome {impossible.word} is not among the cards left to deal"):
            state.apply_action(int(impossible))
        assert state.history() == [int(Card.PRINCESS)] and dict(state.chance_outcomes()) == outcomes


@pytest.mark.parametrize(("edition", "players"), [(CLASSIC, 2), (CLASSIC, 4), (EDITION_2019, 2), (EDITION_2019, 5)])
def test_following_a_decks_order_plays_the_engines_round(edition, players: int) -> None:
    """Chance outcomes taken in a shuffled deck's order, and the same moves, give the engine's round
    exactly: the same cards drawn, the same winners."""
    game = load("v2019" if edition is EDITION_2019 else "classic", players)
    codec = actions_for(edition, players)
    for seed in range(40):
        rng = random.Random(seed)
        reference = Round.shuffled(edition, players, rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                probs = dict(state.chance_outcomes())
                card = int(_next_card(state, reference))
                assert probs[card] > 0
                state.apply_action(card)
            else:
                assert state.current_player() == reference.current
                assert state.legal_actions() == codec.numbers(reference.legal_actions())
                action = rng.choice(reference.legal_actions())
                reference.apply(action)
                state.apply_action(codec.number(action))
        assert reference.over
        assert state.match.round.winners == reference.winners
        assert state.match.round.discards == reference.discards


@pytest.mark.parametrize(("edition", "players", "match"), [("classic", 2, False), ("classic", 4, True),
                                                         ("v2019", 3, True), ("v2019", 6, False)])
def test_a_record_of_an_openspiel_game_replays_as_that_game(edition: str, players: int, match: bool) -> None:
    """Chance decides the deck's cards one draw at a time, and the round's deal, which a record
    writes as its deck, kept the rest of the deck as first dealt (sorted): such records were refused
    (a seat playing a card it never drew) or, worse, replayed as another game."""
    game = load(edition, players, match)
    for seed in range(15):
        state = game.new_initial_state()
        play_randomly(state, np.random.RandomState(seed))
        played = state.match
        replayed = replay(to_record(played, [f"p{seat}" for seat in range(players)])).match
        assert [r.log for r in replayed.rounds] == [r.log for r in played.rounds]
        assert replayed.tokens == played.tokens and replayed.over == played.over


def test_a_resampled_state_is_not_recorded_as_a_game() -> None:
    """A state resampled for a seat holds one of many worlds, not a deal: refused in one line, where
    its record (an empty deck) would not replay."""
    state = load("classic", 3).new_initial_state()
    play_randomly(state, np.random.RandomState(1), until=2)
    resampled = state.resample_from_infostate(state.current_player(), random.Random(2).random)
    with pytest.raises(ValueError, match="round 1 has no deal to record"):
        to_record(resampled.match, ["a", "b", "c"])


def _next_card(state, reference: Round) -> Card:
    """The card the reference round has where chance decides next: during the deal, the next card
    of its deck; in play, the card under the ones already decided (the reference is in step)."""
    if state._dealing():
        return reference.initial_deck[len(state.dealing)]
    return reference.deck_top_first()[state.decided]


def test_returns_share_the_pot_and_sum_to_zero() -> None:
    rng = np.random.RandomState(5)
    for edition, players in CONFIGS:
        game = load(edition, players)
        for _ in range(5):
            state = game.new_initial_state()
            play_randomly(state, rng)
            returns = state.returns()
            winners = state.match.round.winners
            assert sum(returns) == pytest.approx(0)
            assert all((r > 0) == (s in winners) for s, r in enumerate(returns))
            assert max(returns) <= game.max_utility() and min(returns) >= game.min_utility()


# --------------------------------------------------------------------------- hidden information


@pytest.mark.parametrize(("edition", "players"), [("classic", 2), ("classic", 4), ("v2019", 3), ("v2019", 6)])
def test_what_a_seat_observes_does_not_depend_on_cards_it_cannot_know(edition: str, players: int) -> None:
    game = load(edition, players)
    rng = np.random.RandomState(players)
    shuffle = random.Random(players)
    changed_for_others = 0
    for _ in range(15):
        state = game.new_initial_state()
        play_randomly(state, rng, until=int(rng.randint(1, 12)))
        if state.is_terminal():
            continue
        for seat in range(players):
            other = state.clone()
            other.match.rounds[-1] = permuted_copy(state.match.round, seat, shuffle)
            for method in ("observation_tensor", "information_state_tensor"):
                assert getattr(state, method)(seat) == getattr(other, method)(seat)
            for method in ("observation_string", "information_state_string"):
                assert getattr(state, method)(seat) == getattr(other, method)(seat)
            others = [s for s in range(players) if s != seat and state.match.round.is_alive(s)]
            changed_for_others += any(
                state.information_state_string(s) != other.information_state_string(s) for s in others
            )
    assert changed_for_others > 0  # the shuffle does reach what the other seats see


#: The ways OpenSpiel applies an action to a state.
APPLYING = ["apply_action", "apply_action_with_legality_check", "child"]


@pytest.mark.parametrize("wrong", [True, np.True_, np.array(8.0), 8.0, "8", np.zeros((3, 400))])
@pytest.mark.parametrize("way", APPLYING)
def test_an_action_that_is_no_whole_number_is_refused_in_words(wrong: object, way: str) -> None:
    """As the other adapters refuse it, each way OpenSpiel applies an action: pybind11 took ``True``,
    numpy's too, and an array of ``8.0`` as a number, and played it where it was legal (an array's
    refusal quoted it whole, in three lines)."""
    state = dealt(load().new_initial_state())
    assert 8 in state.legal_actions()  # (played, not refused as illegal, without the fix)
    history = state.history()
    with pytest.raises(TypeError, match=r"^an action is a whole number \(an action number\), not [^\n]{1,41}$"):
        getattr(state, way)(wrong)
    assert state.history() == history
    played = getattr(state, way)(np.int64(8))  # (numpy's whole numbers are whole numbers)
    assert len((played or state).history()) == len(history) + 1


@pytest.mark.parametrize("way", APPLYING)
def test_an_illegal_action_is_refused_in_one_line_without_the_hidden_cards(way: str) -> None:
    """OpenSpiel's own legality check wrote the whole state into its error (some 7,000 characters:
    every hand, the deck, the set-aside card, pickled), and -1 was refused in two lines of its C++."""
    state = dealt(load().new_initial_state())
    illegal = next(number for number in range(state.num_distinct_actions()) if number not in state.legal_actions())
    for number, says in ((illegal, r"^action \d+ \(.+\) is not legal now$"),
                         (-1, r"^there is no action -1: actions are numbered from 0$")):
        with pytest.raises(ValueError, match=says):
            getattr(state, way)(number)


def test_the_observation_string_tells_apart_what_the_tensor_tells_apart() -> None:
    """Two 2019 rounds alike but for the card the seat's Chancellor put under the deck (a Baron or a
    Handmaid): the tensor told them apart, the string did not, so an algorithm keyed on the string
    merged states whose futures differ (that card comes back at the end of the deck). The string
    names the cards under the deck, the seat's own in their order, and the phase."""
    game = load("v2019", 2)
    names = game.actions.names

    def played(*steps: Card | str) -> pyspiel.State:
        state = game.new_initial_state()
        for step in steps:
            state.apply_action(int(step) if state.is_chance_node() else names.index(step))
        return state

    dealt = [Card.GUARD] * 4 + [Card.CHANCELLOR, Card.SPY, Card.PRIEST, Card.BARON, Card.HANDMAID]
    drawn = [*dealt, "chancellor", Card.PRINCE, Card.KING]
    choosing = played(*drawn)
    assert "phase chancellor" in choosing.observation_string(0)
    baron = played(*drawn, "chancellor keep priest bottom baron")
    handmaid = played(*drawn, "chancellor keep priest bottom handmaid")
    assert baron.observation_tensor(0) != handmaid.observation_tensor(0)
    assert baron.observation_string(0) != handmaid.observation_string(0)
    assert "under-deck handmaid,baron" in handmaid.observation_string(0)  # top first, as they come back
    assert "phase play" in baron.observation_string(0)
    # the other seat cannot see which: the same for it, the cards shown unseen
    assert baron.observation_string(1) == handmaid.observation_string(1)
    assert "under-deck ?,?" in baron.observation_string(1)
    # at the round's end every card is shown (R6.5), to each seat: the set-aside card, and the cards
    # under the deck (said "?" and "set-aside in place" beside the round's end that showed them)
    play_randomly(baron, np.random.RandomState(0))
    rnd = baron.match.round
    assert baron.is_terminal() and rnd.set_aside is not None
    under = ",".join(card.word for card in rnd.deck_top_first()[-4:])  # (a second Chancellor's two too)
    codec = observations_for(EDITION_2019, 2)
    first = sum(part.size for part in itertools.takewhile(lambda part: part.name != "under_deck_0",
                                                          codec.observation_parts()))
    width = len(codec.cards) + 1
    named = [[float(card is shown) for card in codec.cards] + [0.0] for shown in rnd.deck_top_first()[-4:]]
    for seat in (0, 1):
        assert f" set-aside {rnd.set_aside.word} under-deck {under} " in baron.observation_string(seat)
        # and the tensor names them too, where it said "another player's" for the other seat's
        tensor = baron.observation_tensor(seat)
        assert [tensor[first + i * width:first + (i + 1) * width] for i in range(4)] == named


def test_tensors_have_the_documented_sizes() -> None:
    for edition, players in CONFIGS:
        game = load(edition, players)
        codec = observations_for(EDITION_2019 if edition == "v2019" else CLASSIC, players)
        assert game.observation_tensor_size() == codec.observation_size
        assert game.information_state_tensor_size() == codec.information_size
        state = game.new_initial_state()
        play_randomly(state, np.random.RandomState(0), until=2)
        assert len(state.observation_tensor(0)) == codec.observation_size


# --------------------------------------------------------------------------- resampling and ISMCTS


def test_resampling_keeps_what_the_seat_knows_and_varies_the_rest() -> None:
    game = load("classic", 4)
    rng = np.random.RandomState(11)
    varied = 0
    for _ in range(10):
        state = game.new_initial_state()
        play_randomly(state, rng, until=int(rng.randint(1, 8)))
        if state.is_terminal():
            continue
        seat = state.current_player()
        hands = set()
        for i in range(20):
            sample = state.resample_from_infostate(seat, _Draws(i))
            assert sample.information_state_string(seat) == state.information_state_string(seat)
            assert sample.observation_tensor(seat) == state.observation_tensor(seat)
            assert sample.legal_actions() == state.legal_actions()
            assert sorted(_all_cards(sample)) == sorted(CLASSIC.full_deck)
            for other, card in state.view_of(seat).known.items():
                assert sample.match.round.hands[other] == [card]
            hands.add(tuple(tuple(h) for h in sample.match.round.hands))
        varied += len(hands) > 1
    assert varied > 0


def test_a_finished_round_resamples_to_itself() -> None:
    """At the round's end every card is shown (R6.5): a state resampled then is the state itself (the
    belief's deal of the end emptied the deck and dropped the set-aside card, a state the seat could
    tell apart)."""
    for edition, players in (("classic", 2), ("v2019", 4)):
        game = load(edition, players)
        for seed in range(5):
            state = game.new_initial_state()
            play_randomly(state, np.random.RandomState(seed))
            for seat in range(players):
                sample = state.resample_from_infostate(seat, _Draws(seed))
                assert sample.is_terminal() and sample.returns() == state.returns()
                assert sample.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert sample.observation_tensor(seat) == state.observation_tensor(seat)
                rnd, again = state.match.round, sample.match.round
                assert (again.hands, again.deck, again.set_aside) == (rnd.hands, rnd.deck, rnd.set_aside)


def test_resampling_reads_only_the_seats_view() -> None:
    """Two states a seat cannot tell apart resample to the same states (same sampler draws)."""
    game = load("v2019", 3)
    rng = np.random.RandomState(2)
    shuffle = random.Random(2)
    for _ in range(8):
        state = game.new_initial_state()
        play_randomly(state, rng, until=int(rng.randint(1, 8)))
        if state.is_terminal():
            continue
        seat = state.current_player()
        twin = state.clone()
        twin.match.rounds[-1] = permuted_copy(state.match.round, seat, shuffle)
        a = state.resample_from_infostate(seat, _Draws(7))
        b = twin.resample_from_infostate(seat, _Draws(7))
        assert str(a) == str(b)


class _Draws:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self) -> float:
        return self.rng.random()


def _all_cards(state) -> list[Card]:
    rnd = state.match.round
    cards = [c for h in rnd.hands for c in h] + list(rnd.deck) + [c for d in rnd.discards for c in d]
    cards += list(rnd.face_up) + ([rnd.set_aside] if rnd.set_aside is not None else [])
    return cards


@pytest.mark.parametrize(("edition", "players"), [("classic", 2), ("v2019", 4)])
def test_openspiels_ismcts_plays_whole_games(edition: str, players: int) -> None:
    game = load(edition, players)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=30,
                           random_state=np.random.RandomState(2))
    rng = np.random.RandomState(3)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            elif state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert sum(state.returns()) == pytest.approx(0)


def test_a_whole_match_deals_rounds_until_the_target() -> None:
    game = load("classic", 2, match=True)
    state = game.new_initial_state()
    play_randomly(state, np.random.RandomState(4))
    match: Match = state.match
    assert match.over and max(match.tokens) >= 7
    assert len(match.rounds) >= 7
    assert state.returns() == shares(match.winners, 2)


def test_a_whole_matchs_returns_are_the_matchs_not_its_last_rounds() -> None:
    """In 2019 the last round may be shared, or its Spy's bonus token may take one player to the target
    alone: the returns of a whole match share the pot among the match's winners (untested: the last
    round's passed, as they are the same in a classic match)."""
    game = load("v2019", 3, match=True)
    rng = np.random.RandomState(1)
    differed = 0
    for _ in range(60):
        state = game.new_initial_state()
        play_randomly(state, rng)
        match: Match = state.match
        assert state.returns() == shares(match.winners, 3)
        differed += set(match.round.winners) != set(match.winners)
    assert differed


def test_resampling_while_dealing_gives_other_cards_at_the_same_point() -> None:
    state = load().new_initial_state()
    for card in (Card.PRINCESS, Card.GUARD, Card.GUARD):
        state.apply_action(int(card))
    samples = {str(state.resample_from_infostate(0, _Draws(seed))) for seed in range(10)}
    assert len(samples) > 1
    for seed in range(5):
        sample = state.resample_from_infostate(0, _Draws(seed))
        assert sample.is_chance_node() and len(sample.dealing) == 3
        assert sample.information_state_string(0) == state.information_state_string(0)


def test_an_action_after_the_game_is_refused_as_such():
    """At the end, "action 8 (guard 1 priest) is not legal now" did not say that the game was over."""
    state = load().new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                                      else state.legal_actions()))
    before = state.serialize()
    with pytest.raises(ValueError, match=r"^the game is over: no action can be applied \(action 8\)$"):
        state.apply_action(8)
    assert state.serialize() == before and state.is_terminal()


def test_an_argument_of_the_wrong_kind_is_refused_without_the_hidden_cards():
    """pybind11's refusal of ``child(1.5)`` and the like writes the state into its message: it wrote
    every hand, the deck and the set-aside card (the state's text), in a message a bot's log may keep
    (R7). It now shows only what is public."""
    state = dealt(load().new_initial_state())
    # (an action given to apply_action, child or apply_action_with_legality_check: ours, see
    # test_an_action_that_is_no_whole_number_is_refused_in_words)
    calls = (lambda: state.legal_actions("x"), lambda: state.action_to_string(0, 1.5),
             lambda: state.information_state_string("x"), lambda: state.observation_tensor(1.5))
    hidden = {card.word for card in Card} - {card.word for card in state.view_of(0).hand}
    for call in calls:
        with pytest.raises(TypeError) as refused:
            call()
        said = str(refused.value)
        assert "Invoked with: <LoveLetterState: round 1, turn 1, player 0 to move, phase PLAY>" in said
        assert not any(word in said for word in ("hands", "deck", "set-aside", *hidden)), said
    assert repr(load().new_initial_state()) == "<LoveLetterState: dealing>"


@pytest.mark.parametrize("edition", ["classic", "v2019"])
def test_a_bot_fed_the_view_of_a_one_round_game_plays_for_the_round(edition):
    """Given the match's view, with its target, the expert played a one-round game for a match (in
    2019 the Spy's token counted): ``view_of`` gives the round's alone there, as the Gymnasium
    environment gives its bots; a whole match's keeps its target. The observations encode the match
    as before (its tokens)."""
    from loveletter.encoding import observations_for
    from loveletter.engine import view

    for whole in (False, True):
        state = dealt(pyspiel.load_game(f"python_love_letter(players=2,edition={edition},match={whole})").new_initial_state())
        seen = state.view_of(0)
        assert seen.target == (state.match.target if whole else None)
        assert seen == view(state.match if whole else state.match.round, 0)
        codec = observations_for(state.match.edition, 2)
        rng = random.Random(2)
        while True:  # to the end, where the match's tokens hold the round's winner's
            if not state.is_chance_node():
                assert state.observation_tensor(0) == pytest.approx(list(codec.observation(view(state.match, 0))))
            if state.is_terminal():
                break
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]) if state.is_chance_node()
                               else rng.choice(state.legal_actions()))
        assert sum(state.match.tokens) >= 1


def test_out_of_range_numbers_and_asking_for_chance_off_a_chance_node_are_told():
    """A bare IndexError and an AssertionError without a word were all a researcher got."""
    game = pyspiel.load_game("python_love_letter(players=2,edition=classic)")
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="an action is a number from 0 to 28, not 500"):
        state.action_to_string(0, 500)
    with pytest.raises(ValueError, match="a chance outcome is a card number from 0 to 9, not 42"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 42)
    with pytest.raises(ValueError, match="a chance outcome is a card number from 0 to 9, not 99"):
        state.apply_action(99)  # (Python's own: "99 is not a valid Card")
    assert state.history() == [] and state.is_chance_node()
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    with pytest.raises(ValueError, match="not a chance node"):
        state.chance_outcomes()
