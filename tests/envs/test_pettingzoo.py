"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every edition and number
of players, hidden information (R7), masks, rewards, seeding and illegal actions."""

from __future__ import annotations

import copy
import math
import pickle
import random
import re

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from scenarios import permuted_copy

from loveletter.encoding import actions_for, shares
from loveletter.engine import CLASSIC, EDITION_2019, view
from loveletter.envs.pettingzoo import ILLEGAL_REWARD, env, raw_env

CONFIGS = [(CLASSIC.name, n) for n in range(2, 5)] + [(EDITION_2019.name, n) for n in range(2, 7)]
IDS = [f"{edition}-{n}p" for edition, n in CONFIGS]

# PettingZoo's checker warns about every Dict observation of an env it does not know by name (its
# own classic games with masks are on a list); the Dict with an action mask is its documented form.
DICT_OBSERVATION_WARNINGS = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
]


def play_randomly(game, rng: random.Random, steps: int | None = None):
    """Legal random moves (by the mask) until the episode is over (or ``steps`` moves); yields the
    raw environment before each move."""
    done = 0
    for agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        yield agent
        if steps is not None and done >= steps:
            return
        game.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        done += 1


@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
@pytest.mark.parametrize(("edition", "players"), CONFIGS, ids=IDS)
def test_pettingzoo_api_and_seed_tests(edition, players):
    api_test(env(edition=edition, players=players), num_cycles=200, verbose_progress=False)
    seed_test(lambda: env(edition=edition, players=players), num_cycles=200)


@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
@pytest.mark.parametrize(("edition", "players"), [("classic", 2), ("2019", 4)], ids=["classic-2p", "2019-4p"])
def test_pettingzoo_api_and_seed_tests_in_match_mode(edition, players):
    api_test(env(edition=edition, players=players, match=True), num_cycles=500, verbose_progress=False)
    seed_test(lambda: env(edition=edition, players=players, match=True), num_cycles=500)


def test_spaces_follow_the_shared_encoding():
    game = raw_env(edition="2019", players=5)
    actions = actions_for(EDITION_2019, 5)
    assert game.possible_agents == [f"player_{s}" for s in range(5)]
    assert game.metadata["name"] == "love_letter_v0"
    for agent in game.possible_agents:
        assert game.action_space(agent).n == actions.size
        space = game.observation_space(agent)
        assert space["observation"].shape == (game.observations.observation_size,)
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (actions.size,) and space["action_mask"].dtype == np.int8


@pytest.mark.parametrize(("edition", "players"), CONFIGS, ids=IDS)
def test_the_one_hot_parts_of_the_observation_are_bounded_by_one(edition, players):
    """A part the bounds did not name got a catch-all bound of 21: the places under the deck (2019)
    are one-hot, and one who scales by the space's bounds squeezed them 21 times."""
    game = raw_env(edition=edition, players=players)
    high = game.observation_space(game.possible_agents[0])["observation"].high
    at, one_hot = 0, 0
    for part in game.observations.observation_parts():
        if "one-hot" in part.meaning:
            assert (high[at:at + part.size] == 1).all(), part.name
            one_hot += 1
        at += part.size
    assert at == len(high) and one_hot >= 2 + players + (edition == "2019")


@pytest.mark.parametrize(("edition", "players"), CONFIGS, ids=IDS)
def test_observations_are_the_seats_own_views_and_masks_its_legal_moves(edition, players):
    """Every observation is the encoding of the seat's view, within the space; the mask marks exactly
    the legal moves of the seat to decide, and nothing for the others. Whole matches, so token
    counts reach their highest too."""
    game = raw_env(edition=edition, players=players, match=True)
    rng = random.Random(f"views-{edition}-{players}")
    game.reset(seed=rng.randrange(1000))
    for agent in play_randomly(game, rng):
        match = game.match
        for seat, other in enumerate(game.possible_agents):
            observed = game.observe(other)
            v = view(match, seat)
            assert np.array_equal(observed["observation"], game.observations.observation(v))
            assert game.observation_space(other).contains(observed), observed
            legal = game.actions.numbers(match.legal_actions()) if seat == match.current else []
            assert np.flatnonzero(observed["action_mask"]).tolist() == legal
        assert agent == game.possible_agents[match.current]
    assert game.match.over


@pytest.mark.parametrize(("edition", "players"), CONFIGS, ids=IDS)
def test_no_observation_depends_on_cards_the_seat_may_not_know(edition, players):
    """R7: dealing the cards seat k cannot know differently (the other hands, the deck, the set-aside
    card, the others' private events) leaves k's observation, mask and the public rendering as they
    were — and does change another seat's observation, so the check has teeth."""
    rng = random.Random(f"pz-leaks-{edition}-{players}")
    game = raw_env(edition=edition, players=players, render_mode="ansi")
    compared = differed = 0
    for _ in range(10):
        game.reset(seed=rng.randrange(10**6))
        for _agent in play_randomly(game, rng):
            match = game.match
            real = match.rounds[-1]
            for seat in [None, *range(players)]:
                seen = None if seat is None else game.observe(game.possible_agents[seat])
                shown = game.render()
                neighbour = game.possible_agents[0 if seat is None else (seat + 1) % players]
                before = game.observe(neighbour)["observation"]
                for _ in range(2):
                    match.rounds[-1] = permuted_copy(real, seat, rng)
                    try:
                        assert game.render() == shown, "the rendering shows a hidden card"
                        if seen is not None:
                            now = game.observe(game.possible_agents[seat])
                            assert np.array_equal(now["observation"], seen["observation"]), f"seat {seat} learns"
                            assert np.array_equal(now["action_mask"], seen["action_mask"])
                            compared += 1
                            differed += not np.array_equal(game.observe(neighbour)["observation"], before)
                    finally:
                        match.rounds[-1] = real
    assert compared > 100 and differed > compared / 10


@pytest.mark.parametrize("match", [False, True], ids=["round", "match"])
@pytest.mark.parametrize(("edition", "players"), CONFIGS, ids=IDS)
def test_rewards_sum_to_zero_and_go_to_the_winners(edition, players, match):
    rng = random.Random(f"rewards-{edition}-{players}-{match}")
    game = env(edition=edition, players=players, match=match)
    for episode in range(6 if not match else 2):
        game.reset(seed=episode)
        totals = dict.fromkeys(game.possible_agents, 0.0)
        for agent in game.agent_iter():
            _, reward, terminated, truncated, _ = game.last()
            totals[agent] += reward
            if terminated or truncated:
                game.step(None)
                continue
            assert reward == 0  # rewards come at the end only
            mask = game.observe(agent)["action_mask"]
            game.step(rng.choice(np.flatnonzero(mask).tolist()))
        inner = game.unwrapped.match
        winners = inner.winners if match else inner.round.winners
        assert winners and math.isclose(sum(totals.values()), 0.0, abs_tol=1e-9)
        n, k = players, len(winners)
        for seat, agent in enumerate(game.possible_agents):
            expected = (n - k) / (k * (n - 1)) if seat in winners else -1 / (n - 1)
            assert math.isclose(totals[agent], expected), (seat, winners, totals)


def test_a_lone_winner_gets_one_and_the_others_share_minus_one():
    assert shares((2,), 4) == [-1 / 3, -1 / 3, 1.0, -1 / 3]
    assert shares((0, 1), 2) == [0.0, 0.0]
    assert shares((0, 2), 3) == [0.25, -0.5, 0.25]


@pytest.mark.filterwarnings("ignore:.*[Ii]llegal move.*")
def test_an_illegal_action_ends_the_episode_with_a_penalty_for_its_player():
    game = env(players=3)
    game.reset(seed=3)
    agent = game.agent_selection
    mask = game.observe(agent)["action_mask"]
    game.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(game.terminations.values())
    totals = {}
    for other in game.agent_iter():
        totals[other] = game.last()[1]
        game.step(None)
    assert totals == {a: (ILLEGAL_REWARD if a == agent else 0) for a in game.possible_agents}


def test_the_raw_environment_refuses_an_illegal_action_and_changes_nothing():
    game = raw_env(players=2)
    game.reset(seed=5)
    agent = game.agent_selection
    before = game.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=r"not legal now"):
        game.step(illegal)
    with pytest.raises(ValueError, match=r"must choose an action"):
        game.step(None)
    legal = int(np.flatnonzero(before["action_mask"])[0])
    for wrong in (legal + 0.7, str(legal), float(legal)):  # (these were cut down to a whole number)
        with pytest.raises(TypeError, match=r"an action is a whole number \(an action number\), not "):
            game.step(wrong)
    assert game.agent_selection == agent
    assert all(np.array_equal(game.observe(agent)[k], before[k]) for k in before)


def test_seeds_fix_the_deals_and_reset_without_a_seed_goes_on():
    def deals(game, seed, episodes):
        out = []
        game.reset(seed=seed)
        for _ in range(episodes):
            out.append(game.match.round.initial_deck)
            game.reset()
        return out

    game = raw_env(edition="2019", players=4)
    first = deals(game, 11, 4)
    assert deals(raw_env(edition="2019", players=4), 11, 4) == first
    assert len(set(first)) == 4  # each episode a new deal
    assert deals(game, 12, 4) != first
    assert deals(game, 11, 4) == first  # a seed starts the stream again


def _play_on(game):
    """The rest of the episode with the first legal action each time: every observation and reward."""
    seen = []
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        seen.append((agent, observation["observation"].tolist(), reward))
        game.step(None if terminated or truncated else int(observation["action_mask"].argmax()))
    return seen


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda game: pickle.loads(pickle.dumps(game))],
                         ids=["deepcopy", "pickle"])
def test_a_copy_goes_on_with_the_same_episode(duplicate):
    game = env(edition="2019", players=3, match=True)
    game.reset(seed=5)
    for _ in range(4):
        observation = game.last()[0]
        game.step(int(observation["action_mask"].argmax()))
    twin = duplicate(game)
    assert twin.agent_selection == game.agent_selection
    ahead = _play_on(twin)  # a copy played ahead leaves the original where it was
    assert len(ahead) > 5
    assert _play_on(game) == ahead
    twin.reset()
    game.reset()  # the deals to come were copied too
    assert twin.unwrapped.match.round.initial_deck == game.unwrapped.match.round.initial_deck


def test_match_mode_plays_rounds_until_the_token_target():
    rng = random.Random(2)
    game = raw_env(players=3, match=True)
    game.reset(seed=4)
    for _ in play_randomly(game, rng):
        pass
    match = game.match
    assert match.over and len(match.rounds) > 1
    assert max(match.tokens) >= match.target


def test_render_modes():
    game = raw_env(players=2, render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert "player_0 (to play)" in text and "player_1 —" in text
    dutch = raw_env(players=2, render_mode="ansi", lang="nl")
    dutch.reset(seed=1)
    assert "player_0 (aan de beurt)" in dutch.render()
    quiet = raw_env(players=2)
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert quiet.render() is None
    with pytest.raises(ValueError, match="render mode"):
        raw_env(render_mode="rgb_array")


def test_human_render_prints_the_public_table(capsys):
    game = env(players=3, render_mode="human")
    game.reset(seed=9)
    assert "player_0" in capsys.readouterr().out  # the table as dealt too (reset printed nothing)
    mask = game.observe(game.agent_selection)["action_mask"]
    game.step(int(np.flatnonzero(mask)[0]))
    out = capsys.readouterr().out
    assert "player_0" in out and "hand" not in out  # nobody's hand in the public table


@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
def test_the_information_state_as_observation_passes_the_api_test():
    game = env(edition="2019", players=3, history=True)
    api_test(game, num_cycles=300, verbose_progress=False)
    game.reset(seed=3)
    observation = game.observe(game.agent_selection)["observation"]
    codec = game.unwrapped.observations
    assert observation.shape == (codec.information_size,)
    seat = game.possible_agents.index(game.agent_selection)
    assert np.array_equal(observation, codec.information_state(view(game.unwrapped.match, seat)))


@pytest.mark.parametrize(("options", "message"), [
    ({"players": "3"}, "players must be a whole number, not '3'"),
    ({"match": "no"}, "match must be True or False, not 'no'"),  # "no" played whole matches
    ({"history": 1}, "history must be True or False, not 1"),
    ({"edition": ["classic"]}, "an edition is named by text, 'classic' or '2019', not by list"),  # "unhashable"
])
def test_options_of_the_wrong_type_are_refused(options, message):
    with pytest.raises(TypeError, match=message):
        raw_env(**options)


def test_an_agent_that_is_not_one_is_named_so():
    game = raw_env(players=3)
    game.reset(seed=1)
    for asked in (game.observe, game.observation_space, game.action_space):  # (the spaces: a bare KeyError)
        with pytest.raises(ValueError, match=r"^no agent 'bogus': the agents are player_0, player_1, player_2$"):
            asked("bogus")  # (list.index: "'bogus' is not in list")


NO_WHOLE_NUMBER = r"^an action is a whole number \(an action number\), not "


@pytest.mark.parametrize(("wrong", "error", "refused"), [
    *((wrong, TypeError, NO_WHOLE_NUMBER) for wrong in (True, False, np.bool_(True), 1.0, "1")),
    (None, ValueError, r"^player_0 must choose an action: None is only for agents whose episode is over$"),
    *((wrong, ValueError, rf"^there is no action {wrong}: actions are numbered 0 to \d+$") for wrong in (-1, 10**6)),
])
def test_the_wrapped_environment_refuses_an_action_that_is_no_whole_number_in_words(wrong, error, refused):
    """As the raw environment does: the illegal-move wrapper indexed the mask with True ("the truth
    value of an array with more than one element is ambiguous"); a float or a text failed an assertion,
    and None from the agent to move, or a number out of range, PettingZoo's out-of-bounds wrapper
    ("action is not in action space")."""
    game = env(players=2)
    game.reset(seed=0)
    agent, before = game.agent_selection, game.observe(game.agent_selection)
    assert agent == "player_0"
    with pytest.raises(error, match=refused):
        game.step(wrong)
    assert game.agent_selection == agent and not any(game.terminations.values())
    assert all(np.array_equal(game.observe(agent)[k], before[k]) for k in before)


@pytest.mark.parametrize(("seed", "error", "message"), [
    (3.0, TypeError, "the seed must be a whole number (or None), not 3.0"),
    (True, TypeError, "not True"),
    ("a", TypeError, "not 'a'"),
    (-5, ValueError, "the seed must be a whole number from 0, not -5"),  # Python's generator deals it as 5
])
def test_a_seed_that_is_no_whole_number_from_0_is_refused(seed, error, message):
    game = raw_env()
    with pytest.raises(error, match=re.escape(message)):
        game.reset(seed=seed)
    game.reset(seed=np.int64(3))  # numpy's whole numbers are whole numbers
    first = view(game.match, 0).hand
    game.reset(seed=3)
    assert view(game.match, 0).hand == first


@pytest.mark.parametrize("action", [1, None])
def test_a_step_before_reset_says_so(action):
    """It failed with "'raw_env' object has no attribute 'agent_selection'" (the wrapped environment's
    too, for None)."""
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        raw_env().step(action)
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):  # (PettingZoo's)
        env().step(action)


@pytest.mark.parametrize("make", [raw_env, env])
def test_a_step_or_last_after_the_episode_says_so(make):
    """Once every agent had left the episode, step() and last() failed as a KeyError of the last
    (the wrapped environment's step() only warned, and did nothing, whatever the action)."""
    game = make(players=2)
    game.reset(seed=3)
    for _agent in play_randomly(game, random.Random(3)):
        pass
    raw = game.unwrapped
    assert raw.agents == [] and raw.match.over is False and raw.match.round.over
    moves = len(raw.match.round.log)
    for call in (game.last, lambda: game.step(0), lambda: game.step(10**6)):
        with pytest.raises(RuntimeError, match=r"^the episode is over: call reset\(\)$"):
            call()
    assert len(raw.match.round.log) == moves
