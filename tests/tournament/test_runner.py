"""The tournament runner's API: the schedule (rotating seats and starters), reproducibility whatever
the number of processes, views only for the bots, budgets, records, and the summary's figures on
games whose outcome is known."""

from __future__ import annotations

import dataclasses
import importlib
import math
import random
import signal
import sys
import threading
from collections import Counter
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import resource_tracker
from typing import ClassVar

import pytest

from loveletter.bots import LEVELS, MAX_BUDGET, RandomBot
from loveletter.engine import Action, View
from loveletter.record import replay, summary
from loveletter.tournament import (
    GameFailed,
    GameResult,
    Results,
    Settings,
    TournamentError,
    lineup_for,
    play_game,
    run_tournament,
    runner,
    summarise,
)
from loveletter.tournament.games import reverses, seating, seeds, starter
from loveletter.tournament.runner import MAX_GAMES, check, chunks
from loveletter.tournament.stats import Z95, wilson

# ------------------------------------------------------------------------------------ the schedule


@pytest.mark.parametrize("lineup", [
    ("beginner", "random"),
    ("beginner", "random", "random"),
    ("beginner", "random", "beginner", "random"),
    ("random", "beginner", "beginner", "beginner", "beginner"),
])
def test_every_entry_plays_every_seat_and_every_turn_position_equally(lineup):
    n = len(lineup)
    s = Settings(lineup=lineup, edition="2019", games=6 * n)
    seat_counts: Counter[tuple[int, int]] = Counter()  # (lineup entry, seat)
    position_counts: Counter[tuple[int, int]] = Counter()  # (lineup entry, place from the starter)
    starts: Counter[int] = Counter()
    for i in range(s.games):
        first = starter(s, i)
        for seat in range(n):
            entry = (seat + i) % n
            assert seating(s, i)[seat] == lineup[entry]
            seat_counts[(entry, seat)] += 1
            position_counts[(entry, (seat - first) % n)] += 1
        starts[(first + i) % n] += 1
    assert set(seat_counts.values()) == {6}
    assert set(position_counts.values()) == {6}
    assert set(starts.values()) == {6} and len(starts) == n
    # the starting seat rotates too, not only the lineup
    assert {starter(s, i) for i in range(s.games)} == set(range(n))


@pytest.mark.parametrize("lineup", [("expert", "beginner", "random"), ("beginner", "random", "expert", "expert"),
                                    ("random", "beginner", "expert", "beginner", "beginner")])
def test_a_table_that_reads_differently_the_other_way_round_is_played_both_ways(lineup):
    """With three different levels, rotating alone always put the same level just after the expert:
    every other block of n games plays the lineup reversed, so every lineup entry follows each of its
    two neighbours equally often, and still plays every seat and every turn position equally."""
    n = len(lineup)
    assert reverses(lineup)
    s = Settings(lineup=lineup, games=2 * n * n)
    after: Counter[tuple[str, str]] = Counter()  # (level, the level that plays next)
    seat_counts: Counter[tuple[str, int]] = Counter()
    position_counts: Counter[tuple[str, int]] = Counter()
    for i in range(s.games):
        seats, first = seating(s, i), starter(s, i)
        assert Counter(seats) == Counter(lineup)
        for seat, level in enumerate(seats):
            after[(level, seats[(seat + 1) % n])] += 1
            seat_counts[(level, seat)] += 1
            position_counts[(level, (seat - first) % n)] += 1
    forwards = Counter((a, lineup[(k + 1) % n]) for k, a in enumerate(lineup))
    backwards = Counter((a, lineup[(k - 1) % n]) for k, a in enumerate(lineup))
    assert after == Counter({pair: n * n * (forwards[pair] + backwards[pair]) for pair in forwards | backwards})
    assert all(seat_counts[(level, seat)] == 2 * n * lineup.count(level) for level in lineup for seat in range(n))
    assert all(position_counts[(level, p)] == 2 * n * lineup.count(level) for level in lineup for p in range(n))
    assert {starter(s, i) for i in range(s.games)} == set(range(n))
    # as the report's rotation text says: game 0 plays the lineup as given, the odd blocks of n games
    # reversed, and each starter starts n games of each way round (every 2n games the next one starts)
    for i in range(s.games):
        ahead = lineup[::-1] if (i // n) % 2 else lineup
        assert seating(s, i) == tuple(ahead[(seat + i) % n] for seat in range(n))
        assert starter(s, i) == (i // (2 * n)) % n
    ways = Counter((starter(s, i), (i // n) % 2) for i in range(s.games))
    assert ways == Counter({(seat, way): n for seat in range(n) for way in (0, 1)})


@pytest.mark.parametrize("lineup", [("expert", "beginner", "beginner", "beginner"), ("beginner", "random"),
                                    ("beginner", "random", "beginner", "random"), ("a", "a", "b", "b")])
def test_a_table_the_same_both_ways_round_only_rotates(lineup):
    """One expert among beginners (the benchmarks' lines): reversed it is only rotated, and the games
    are those of the rotation alone, as before."""
    n = len(lineup)
    s = Settings(lineup=lineup, games=8 * n)
    assert not reverses(lineup)
    for i in range(s.games):
        assert seating(s, i) == tuple(lineup[(seat + i) % n] for seat in range(n))
        assert starter(s, i) == (i // n) % n


def test_summary_reports_the_balance():
    s = Settings(lineup=("beginner", "random", "random"), games=9)
    report = summarise(run_tournament(s, jobs=1))
    assert report["seating"]["balanced"]
    assert report["seating"]["levels"]["beginner"] == {"seats": [3, 3, 3], "positions": [3, 3, 3], "starts": 3}
    assert report["seating"]["levels"]["random"] == {"seats": [6, 6, 6], "positions": [6, 6, 6], "starts": 6}
    report = summarise(run_tournament(Settings(lineup=("beginner", "random", "random"), games=10), jobs=1))
    assert not report["seating"]["balanced"]


def test_lineup_from_the_bots_option():
    assert lineup_for(["beginner", "random"], None) == ("beginner", "random")
    assert lineup_for(["beginner"], None) == ("beginner", "beginner")
    assert lineup_for(["beginner", "random"], 4) == ("beginner", "random", "beginner", "random")
    assert lineup_for(["beginner", "random", "random"], 4) == ("beginner", "random", "random", "beginner")
    with pytest.raises(TournamentError, match="unknown bot level 'nobody'"):
        lineup_for(["nobody"], None)
    with pytest.raises(TournamentError, match="more than the 2 players"):
        lineup_for(["beginner", "random", "random"], 2)


def test_seeds_depend_on_the_seed_and_the_game_only():
    a = Settings(lineup=("beginner", "random"), seed=5)
    b = Settings(lineup=("random", "random", "beginner"), seed=5, edition="classic", mode="matches")
    assert seeds(a, 7)[0] == seeds(b, 7)[0]  # the same deck seed for game 7
    assert len({seeds(a, i)[0] for i in range(200)}) == 200
    assert seeds(a, 7) != seeds(Settings(lineup=a.lineup, seed=6), 7)
    assert len(set(seeds(b, 7)[1])) == 3  # each seat's bot has a seed of its own
    # the same as a fresh derivation, so no process state leaks in
    rng = random.Random("loveletter-tournament:5:7")
    assert seeds(a, 7)[0] == rng.getrandbits(64)


def test_chunks_cover_every_game_once():
    for games in (1, 7, 64, 65, 1000, 20001):
        work = chunks(games)
        assert [i for a, b in work for i in range(a, b)] == list(range(games))


# ------------------------------------------------------------------------------------ reproducible


def test_same_seed_same_results_and_another_seed_others():
    s = Settings(lineup=("beginner", "random"), games=300, seed=11)
    one, two = run_tournament(s, jobs=1), run_tournament(s, jobs=1)
    assert one.games == two.games
    assert summarise(one) == summarise(two)
    other = run_tournament(Settings(lineup=s.lineup, games=300, seed=12), jobs=1)
    assert other.games != one.games


@pytest.mark.parametrize(("edition", "lineup", "mode", "games"), [
    ("classic", ("beginner", "random"), "rounds", 400),
    ("2019", ("beginner", "random", "random", "beginner", "random"), "rounds", 130),
    ("classic", ("random", "beginner", "beginner"), "matches", 30),
])
def test_results_do_not_depend_on_the_number_of_processes(edition, lineup, mode, games):
    s = Settings(lineup=lineup, edition=edition, mode=mode, games=games, seed=3)
    here = run_tournament(s, jobs=1, records=True)
    pooled = run_tournament(s, jobs=2, records=True)
    assert pooled.jobs == 2
    assert here.games == pooled.games
    assert here.records == pooled.records
    assert summarise(here) == summarise(pooled)
    # and a game alone, out of any tournament, is the same game
    i = games // 2
    assert play_game(s, i)[0] == here.games[i]


def test_the_processes_told_are_those_played_in():
    """Five games with --jobs 64 said "processes: 64"; one game with --jobs 2, "processes: 2", though
    it was played in the command's own process."""
    few = Settings(lineup=("beginner", "random"), games=5)
    assert run_tournament(few, jobs=64).jobs == len(chunks(5)) == 5
    assert run_tournament(dataclasses.replace(few, games=1), jobs=2).jobs == 1


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs signal masks (POSIX)")
def test_the_pool_is_made_with_ctrl_c_held_after_the_resource_tracker_started(monkeypatch):
    """A Ctrl-C that fell while the pool named its locks to multiprocessing's resource tracker left
    the tracker warning of a "leaked semaphore" at exit: the pool is made with Ctrl-C blocked, and
    the tracker (whose start unblocks Ctrl-C) is started before."""
    seen: list[tuple[bool, bool]] = []
    made = runner.ProcessPoolExecutor

    def watched(*args, **kwargs):
        held = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        seen.append((held, resource_tracker._resource_tracker._fd is not None))
        return made(*args, **kwargs)

    monkeypatch.setattr(runner, "ProcessPoolExecutor", watched)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    results = run_tournament(Settings(lineup=("beginner", "random"), games=4, seed=1), jobs=2)
    assert seen == [(True, True)] and len(results.games) == 4
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before  # the block is lifted after


#: A chunk's play that sends half a result and is killed, as a worker killed (for memory) while it
#: sent a chunk's records: the pool's own thread then waits for the rest of the message for ever.
HALF_SENT = """
import gc, os, signal, struct
from multiprocessing.queues import SimpleQueue

def play(*_):
    results = next(o for o in gc.get_objects() if isinstance(o, SimpleQueue))  # the pool's pipe of results
    results._wlock.acquire()  # as a worker holds it while it writes
    os.write(results._writer.fileno(), struct.pack("!i", 1 << 20) + bytes(1000))  # 1 MB said, 1 kB sent
    os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")
def test_a_worker_killed_while_it_sends_a_result_breaks_the_run_rather_than_hang(tmp_path, monkeypatch):
    """(``loveletter tournament`` hung once in CI after a worker was killed: no chunk ever came back.)
    The run ends with a broken pool within seconds, and the pool's own thread ends too (else the
    exit would wait for it)."""
    (tmp_path / "half_sent.py").write_text(HALF_SENT)
    monkeypatch.syspath_prepend(str(tmp_path))  # the workers import it from there too
    half_sent = importlib.import_module("half_sent")
    settings = Settings(lineup=("beginner", "random"), games=2)
    before = set(threading.enumerate())
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            for _ in runner._in_processes(settings, [(0, 1), (1, 2)], 2, False, False, play=half_sent.play):
                pass
            outcome.append(None)
        except BaseException as e:
            outcome.append(e)

    player = threading.Thread(target=run, daemon=True)  # (daemon: a hang fails the test, not the run)
    player.start()
    player.join(60)
    del sys.modules["half_sent"]  # (the folder goes with the test)
    assert outcome and isinstance(outcome[0], BrokenProcessPool)
    left = [t for t in set(threading.enumerate()) - before if t is not player and t.is_alive()]
    assert not left, left


def test_progress_is_reported_up_to_every_game():
    seen: ClassVar[list[int]] = []
    run_tournament(Settings(lineup=("beginner", "random"), games=150), jobs=1, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 150 and len(seen) > 1


# ------------------------------------------------------------------------------------ the games


class Spy:
    """A bot that checks it is only ever shown its own seat's view, and plays at random."""

    level = "spy"
    seen: ClassVar[list[int]] = []

    def __init__(self, seed: int | None = None, budget: int | None = None) -> None:
        self.bot = RandomBot(seed)
        self.seat: int | None = None

    def choose(self, view: View) -> Action:
        if self.seat is None:
            self.seat = view.seat
        assert view.seat == self.seat == view.current, "a bot saw another seat's view"
        assert len(view.hand) >= 1 and view.legal_actions
        Spy.seen.append(view.seat)
        return self.bot.choose(view)


class Stats:
    def __init__(self, iterations: int) -> None:
        self.iterations = iterations


class Thinker:
    """A stand-in for a searching bot: takes a budget, reports the iterations of its last decision
    in ``stats`` (as the expert bot does); a forced move searches nothing."""

    level = "thinker"
    budgets: ClassVar[list[int | None]] = []

    def __init__(self, seed: int | None = None, budget: int | None = None) -> None:
        self.bot = RandomBot(seed)
        self.budget = budget or 10
        self.stats = Stats(0)
        Thinker.budgets.append(budget)

    def choose(self, view: View) -> Action:
        self.stats = Stats(self.budget if len(view.legal_actions) > 1 else 0)
        return self.bot.choose(view)


class Broken:
    level = "broken"

    def __init__(self, seed: int | None = None, budget: int | None = None) -> None:
        pass

    def choose(self, view: View) -> Action:
        raise RuntimeError("no idea")


@pytest.fixture
def levels(monkeypatch):
    """The stand-ins as levels; their factories take (seed, budget) as the levels' do."""
    for name, factory in (("spy", Spy), ("thinker", Thinker), ("broken", Broken)):
        monkeypatch.setitem(LEVELS, name, factory)
    monkeypatch.setattr("loveletter.tournament.runner.SEARCHING", frozenset({"expert", "thinker"}))
    Spy.seen.clear()
    Thinker.budgets.clear()


def test_bots_see_their_own_seat_only(levels):
    results = run_tournament(Settings(lineup=("spy", "spy", "spy", "spy"), games=40, mode="matches"), jobs=1)
    assert len(results.games) == 40
    assert set(Spy.seen) == {0, 1, 2, 3}


class Sitter:
    """A random player that notes, per bot made, its level and the seats it was asked to play."""

    made: ClassVar[list[tuple[str, set[int]]]] = []

    def __init__(self, level: str, seed: int | None) -> None:
        self.bot = RandomBot(seed)
        self.seats: set[int] = set()
        self.level = level
        Sitter.made.append((level, self.seats))

    def choose(self, view: View) -> Action:
        self.seats.add(view.seat)
        return self.bot.choose(view)


def test_the_bots_sit_where_the_rotation_and_the_results_say(monkeypatch):
    for name in ("north", "east", "south"):
        monkeypatch.setitem(LEVELS, name, lambda seed, budget, name=name: Sitter(name, seed))
    Sitter.made.clear()
    s = Settings(lineup=("north", "east", "south"), games=18)
    results = run_tournament(s, jobs=1, records=True)
    assert len(Sitter.made) == 3 * 18  # one bot per seat and game, made in seat order
    for i, game in enumerate(results.games):
        assert game.seats == seating(s, i) and game.starter == starter(s, i)
        for seat, (level, seats) in enumerate(Sitter.made[3 * i:3 * i + 3]):
            assert level == game.seats[seat] and seats <= {seat}  # empty if knocked out before its turn
        record = results.records[i]
        assert record["players"] == [f"{level}-{seat}" for seat, level in enumerate(game.seats)]
        assert record["rounds"][0]["starter"] == game.starter
    assert {g.seats for g in results.games} == {seating(s, i) for i in range(6)}  # three rotations, each both ways round
    assert len({g.seats for g in results.games}) == 6
    assert sum(len(seats) for _, seats in Sitter.made) > 2 * 18


class Scorekeeper(RandomBot):
    """A random player that notes the token target and the tokens it is shown."""

    shown: ClassVar[list[tuple[int | None, tuple[int, ...]]]] = []

    def choose(self, view: View) -> Action:
        Scorekeeper.shown.append((view.target, view.tokens))
        return super().choose(view)


@pytest.mark.parametrize("mode", ["rounds", "matches"])
def test_single_rounds_are_shown_as_single_rounds(monkeypatch, mode):
    """In single rounds a bot is shown the round alone (no token target), so the expert plays for the
    round, which is what the tournament counts, not for a match's tokens or the Spy's bonus token
    (it did); in matches, the match."""
    monkeypatch.setitem(LEVELS, "keeper", lambda seed, budget: Scorekeeper(seed))
    Scorekeeper.shown.clear()
    run_tournament(Settings(lineup=("keeper", "keeper", "keeper"), edition="2019", games=6, mode=mode), jobs=1)
    targets = {target for target, _ in Scorekeeper.shown}
    if mode == "rounds":
        assert targets == {None} and {tokens for _, tokens in Scorekeeper.shown} == {(0, 0, 0)}
    else:
        assert targets == {5} and any(sum(tokens) for _, tokens in Scorekeeper.shown)


def test_budget_goes_to_make_bot_only_when_given(levels):
    run_tournament(Settings(lineup=("thinker", "random"), games=4), jobs=1)
    assert Thinker.budgets == [None] * 4  # no budget given: make_bot(level, seed)
    results = run_tournament(Settings(lineup=("thinker", "random"), games=40, budget=77), jobs=1, samples=True)
    assert Thinker.budgets[4:] == [77] * 40
    timing = results.timing["thinker"]
    assert len(timing.samples) == timing.moves >= timing.iteration_moves > 0 and timing.seconds >= 0
    assert timing.iterations == 77 * timing.iteration_moves == 77 * len(timing.search_samples)
    assert results.timing["random"].iterations == 0 and results.timing["random"].moves > 0
    # a budget where no level searches is a mistake, and said so
    with pytest.raises(TournamentError, match="no bot here thinks with a budget"):
        run_tournament(Settings(lineup=("beginner", "random"), games=30, budget=5), jobs=1)


def test_a_failing_bot_names_the_game(levels):
    with pytest.raises(GameFailed, match=r"game 0 \(broken, random\) failed: RuntimeError: no idea"):
        run_tournament(Settings(lineup=("broken", "random"), games=5), jobs=1)


def test_refused_settings():
    with pytest.raises(TournamentError, match="2-4 players, not 5"):
        run_tournament(Settings(lineup=("random",) * 5), jobs=1)
    with pytest.raises(TournamentError, match="at least 1"):
        run_tournament(Settings(lineup=("random",) * 2, games=0), jobs=1)
    with pytest.raises(TournamentError, match="--jobs"):
        run_tournament(Settings(lineup=("random",) * 2), jobs=0)


def test_records_replay_to_the_same_winners():
    s = Settings(lineup=("beginner", "random", "random"), edition="2019", mode="matches", games=6, seed=2)
    results = run_tournament(s, jobs=1, records=True)
    assert results.records is not None and len(results.records) == 6
    for game, doc in zip(results.games, results.records, strict=True):
        assert doc["players"] == [f"{level}-{seat}" for seat, level in enumerate(game.seats)]
        told = summary(replay(doc))
        assert told["finished"] and tuple(told["winners"]) == game.winners
        assert told["rounds"][0]["starter"] == game.starter
        assert len(told["rounds"]) == game.rounds


def test_a_match_is_won_by_the_matchs_winners_not_its_last_rounds():
    """In 2019 a match's last round may be shared, or its Spy's bonus token may take one player to the
    target: the game is credited to the match's winners (untested: the last round's passed)."""
    s = Settings(lineup=("random", "random", "random"), games=60, mode="matches", edition="2019")
    differed = 0
    for i in range(s.games):
        result, match = play_game(s, i)
        assert result.winners == tuple(sorted(match.winners))
        differed += set(match.round.winners) != set(match.winners)
    assert differed  # (game 4 with these settings, in a reviewer's count)


def test_classic_single_round_records_replay_as_whole_games_of_one_token():
    # a classic single round's record is a game to one token: its replay ends, rather than saying
    # that the match goes on, and the game's winners are the round's
    s = Settings(lineup=("beginner", "random", "random"), games=40, seed=3)
    results = run_tournament(s, jobs=1, records=True)
    assert results.records is not None
    for game, doc in zip(results.games, results.records, strict=True):
        assert doc["target"] == 1
        told = summary(replay(doc))
        assert told["finished"] and len(told["rounds"]) == 1
        assert tuple(told["rounds"][0]["winners"]) == tuple(told["winners"]) == game.winners
        assert told["rounds"][0]["starter"] == game.starter


def test_2019_single_round_records_name_no_winner_the_round_did_not_make():
    """A 2019 single round's record keeps the edition's target: to one token, the Spy's bonus token
    (R6.4) made its holder a winner of the replayed game beside the round's winner, which the
    tournament does not count (a third of six-player games)."""
    s = Settings(lineup=("beginner", "random") * 3, edition="2019", games=60, seed=3)
    results = run_tournament(s, jobs=1, records=True)
    assert results.records is not None
    bonus_elsewhere = 0
    for game, doc in zip(results.games, results.records, strict=True):
        assert doc["target"] == 3  # six players' target (R2.3)
        told = summary(replay(doc))
        assert not told["finished"] and len(told["rounds"]) == 1
        played = told["rounds"][0]
        assert tuple(played["winners"]) == game.winners and played["starter"] == game.starter
        spy = played.get("spy_bonus")
        bonus_elsewhere += spy is not None and spy not in game.winners
    assert bonus_elsewhere >= 3  # the games that told the two apart were played


# ------------------------------------------------------------------------------------ the figures


def _results(lineup, outcomes, starter=0):
    """Results made up of games with known winners (seats as given, no rotation)."""
    s = Settings(lineup=tuple(lineup), games=len(outcomes))
    games = [GameResult(i, tuple(lineup), starter, tuple(w), 1) for i, w in enumerate(outcomes)]
    return Results(s, games)


def test_summary_counts_wins_shared_wins_and_pairs():
    # 3 players: A, B, C. A wins 5, B wins 3, A and B share 2 (a tie), C wins 0.
    outcomes = [(0,)] * 5 + [(1,)] * 3 + [(0, 1)] * 2
    report = summarise(_results(["a-level", "b-level", "c-level"], outcomes))
    rows = {p["level"]: p for p in report["participants"]}
    assert rows["a-level"]["wins"] == 7 and rows["a-level"]["shared_wins"] == 2
    assert rows["b-level"]["wins"] == 5 and rows["c-level"]["wins"] == 0
    assert rows["a-level"]["games"] == 10 and rows["a-level"]["win_rate"] == 0.7
    assert rows["a-level"]["ci95"] == pytest.approx([0.396778, 0.892209], abs=1e-6)
    pairs = {(p["a"], p["b"]): p for p in report["pairwise"]}
    ab = pairs[("a-level", "b-level")]
    assert (ab["a_only"], ab["b_only"], ab["both"], ab["neither"], ab["games"]) == (5, 3, 2, 0, 10)
    ac = pairs[("a-level", "c-level")]
    assert (ac["a_only"], ac["b_only"], ac["both"], ac["neither"]) == (7, 0, 0, 3)
    # C never won: no finite ratings, and the report says so
    assert not report["ratings"]["finite"] and rows["c-level"]["rating"] is None


def test_a_level_in_several_seats_has_its_interval_by_game():
    """Two seats of one level are not two independent trials: in self-play one of the two wins every
    game, so its rate is a half, and more only by the rounds its two seats shared (the interval was
    47.8-52.2% over 1,000 games): from a half up to what a shared round unseen might add (Wilson's
    upper end for 0 of 1,000, halved); with two of 1,000 shared, Wilson's for 2 of 1,000 (the design
    effect said 49.8-50.4%, below the half that is sure)."""
    report = summarise(_results(["b", "b"], [(0,), (1,)] * 500))
    assert report["participants"][0]["win_rate"] == 0.5
    assert report["participants"][0]["ci95"] == pytest.approx([0.5, (1 + wilson(0, 1000)[1]) / 2])
    report = summarise(_results(["b", "b"], [(0,), (1,)] * 499 + [(0, 1)] * 2))
    low, high = wilson(2, 1000)
    assert report["participants"][0]["ci95"] == pytest.approx([(1 + low) / 2, (1 + high) / 2])
    # three seats of x against one of y: x's interval has the spread of its games' wins (0 or 1 of
    # its three seats, each game one trial), not of 1,200 independent seat-games
    rng = random.Random(3)
    outcomes = [(rng.choice([0, 1, 2, 3, 3]),) for _ in range(400)]  # y (seat 3) wins 2 in 5
    report = summarise(_results(["x", "x", "x", "y"], outcomes))
    rows = {p["level"]: p for p in report["participants"]}
    per_game = [sum(1 for seat in won if seat < 3) / 3 for won in outcomes]
    p = sum(per_game) / 400
    spread = math.sqrt(sum((w - p) ** 2 for w in per_game) / (400 * 399))
    low, high = rows["x"]["ci95"]
    assert rows["x"]["win_rate"] == pytest.approx(p)
    assert (high - low) / 2 == pytest.approx(Z95 * spread, rel=0.02)  # (Wilson's centre is near p here)
    assert (high - low) / 2 < Z95 * math.sqrt(p * (1 - p) / 1200)  # narrower than for 1,200 independent games
    assert rows["y"]["ci95"] == pytest.approx(list(wilson(rows["y"]["wins"], 400)))  # one seat: plain Wilson
    # games that happen to show no spread (the random seat never won) are no certainty (it said
    # exactly 50.0%): the trial is whether x won a game, and a won game gives it one seat of two
    # (each game one trial won by a share said 25.4-74.6%, beyond the 50% x cannot exceed)
    report = summarise(_results(["x", "x", "y"], [(0,), (1,)] * 6))
    rows = {p["level"]: p for p in report["participants"]}
    low, high = wilson(12, 12)
    assert rows["x"]["ci95"] == pytest.approx([low / 2, 0.5])
    assert rows["x"]["ci95"][0] == pytest.approx((1 - rows["y"]["ci95"][1]) / 2)  # as y's interval implies
    # self-play in one game: one of the two seats won it, so at least a half (it said 5.5-94.5%);
    # how often the two share a round one game tells little
    report = summarise(_results(["b", "b"], [(1,)]))
    assert report["participants"][0]["ci95"] == pytest.approx([0.5, (1 + wilson(0, 1)[1]) / 2])
    # and a game both seats won (a tie) is no certainty of 100%, nor a sign of less than a half
    report = summarise(_results(["b", "b"], [(0, 1)]))
    assert report["participants"][0]["ci95"] == pytest.approx([(1 + wilson(1, 1)[0]) / 2, 1.0])


def test_summary_ratings_match_the_two_level_closed_form():
    report = summarise(_results(["x", "y"], [(0,)] * 30 + [(1,)] * 10))
    rows = {p["level"]: p for p in report["participants"]}
    assert [p["level"] for p in report["participants"]] == ["x", "y"]  # ranked by rating
    assert rows["x"]["rating"] - rows["y"]["rating"] == pytest.approx(400 * 0.47712125472, abs=1e-6)
    assert rows["x"]["rating_se"] == pytest.approx(31.7164, abs=1e-3)  # 400/ln 10 · sqrt(1/30)
    assert report["positions"][0] == {"position": 0, "games": 40, "wins": 30, "win_rate": 0.75,
                                      "ci95": pytest.approx(report["participants"][0]["ci95"])}


def test_a_level_in_several_seats_is_aggregated():
    # beginner in seats 0 and 2, random in seat 1; seat 0 wins 4, seat 1 wins 2, seat 2 wins 4
    outcomes = [(0,)] * 4 + [(1,)] * 2 + [(2,)] * 4
    report = summarise(_results(["beginner", "random", "beginner"], outcomes))
    rows = {p["level"]: p for p in report["participants"]}
    assert rows["beginner"]["seats"] == 2 and rows["beginner"]["games"] == 20 and rows["beginner"]["wins"] == 8
    assert rows["random"]["games"] == 10 and rows["random"]["wins"] == 2
    (pair,) = report["pairwise"]
    assert (pair["a_only"], pair["b_only"], pair["both"], pair["neither"]) == (8, 2, 0, 0)
    # ratings: each beginner seat that won beat the random seat (8); random beat both beginners (2 x 2)
    decisive = {(d["winner"], d["loser"]): d["count"] for d in report["ratings"]["decisive"]}
    assert decisive == {("beginner", "random"): 8, ("random", "beginner"): 4}
    assert rows["beginner"]["rating"] - rows["random"]["rating"] == pytest.approx(400 * 0.30103, abs=1e-3)


def test_summary_rating_errors_count_one_game_once():
    # a in seat 0 against three b: a's 30 wins each beat three b at once, the b seats' 70 wins beat a
    outcomes = [(0,)] * 30 + [(1,)] * 30 + [(2,)] * 20 + [(3,)] * 20
    report = summarise(_results(["a", "b", "b", "b"], outcomes))
    rows = {p["level"]: p for p in report["participants"]}
    p = 90 / 160  # the fitted chance that a beats one b
    information = 160 * p * (1 - p)
    spread = 30 * (3 * (1 - p)) ** 2 + 70 * p**2
    assert rows["a"]["rating_se"] == pytest.approx(400 / math.log(10) * math.sqrt(spread) / information / 2)
    assert report["ratings"]["errors"] == "cluster-robust by game"


def test_records_can_be_handed_over_as_the_games_come_back():
    s = Settings(lineup=("beginner", "random", "random"), games=150)
    kept = run_tournament(s, jobs=2, records=True)
    handed: dict[int, dict] = {}

    def take(first: int, docs: list[dict]) -> None:
        assert first not in handed and docs
        handed.update(enumerate(docs, start=first))

    streamed = run_tournament(s, jobs=2, records=True, on_records=take)
    assert streamed.records is None and streamed.games == kept.games
    assert [handed[i] for i in range(len(handed))] == kept.records


def test_positions_and_starts_count_from_each_games_starter():
    # 3 seats: x, y, z; game i is started by seat i % 3, and the seat that starts always wins
    s = Settings(lineup=("x", "y", "z"), games=9)
    games = [GameResult(i, ("x", "y", "z"), i % 3, (i % 3,), 1) for i in range(9)]
    report = summarise(Results(s, games))
    first, second, third = report["positions"]
    assert (first["games"], first["wins"], first["win_rate"]) == (9, 9, 1.0)
    assert second["wins"] == third["wins"] == 0
    levels = report["seating"]["levels"]
    assert {level: levels[level]["starts"] for level in "xyz"} == {"x": 3, "y": 3, "z": 3}
    assert all(levels[level]["positions"] == [3, 3, 3] for level in "xyz")
    # the same games all started by seat 2: z starts them all, and sits first each time
    games = [GameResult(i, ("x", "y", "z"), 2, (2,), 1) for i in range(9)]
    levels = summarise(Results(s, games))["seating"]["levels"]
    assert levels["z"]["starts"] == 9 and levels["z"]["positions"] == [9, 0, 0]
    assert levels["x"]["positions"] == [0, 9, 0] and levels["y"]["positions"] == [0, 0, 9]
    assert not summarise(Results(s, games))["seating"]["balanced"]


# ------------------------------------------------------------------ what a mutation audit found unchecked


def test_pairs_follow_the_ranking_not_the_lineup():
    """The lower-ranked level listed first: the pair's counts must turn with it."""
    report = summarise(_results(["x", "y"], [(0,)] * 10 + [(1,)] * 30))
    (pair,) = report["pairwise"]
    assert (pair["a"], pair["b"], pair["a_only"], pair["b_only"], pair["games"]) == ("y", "x", 30, 10, 40)


def test_pairs_count_every_game_and_a_shared_win_for_each_winner():
    outcomes = [(0,)] * 5 + [(1,)] * 3 + [(0, 1)] * 2
    report = summarise(_results(["a-level", "b-level", "c-level"], outcomes))
    rows = {p["level"]: p for p in report["participants"]}
    assert rows["b-level"]["shared_wins"] == 2 and rows["c-level"]["shared_wins"] == 0
    pairs = {(p["a"], p["b"]): p for p in report["pairwise"]}
    assert pairs[("a-level", "c-level")]["games"] == 10  # neither won three times: still games
    assert all(d["count"] > 0 for d in report["ratings"]["decisive"])
    assert ("c-level", "a-level") not in {(d["winner"], d["loser"]) for d in report["ratings"]["decisive"]}


def test_the_table_and_the_csv_say_what_the_json_says(tmp_path):
    import csv

    from loveletter.i18n import Translator
    from loveletter.tournament.report import text, write_csv

    outcomes = [(0,)] * 5 + [(1,)] * 3 + [(0, 1)] * 2 + [(2,)] * 3 + [(1, 2)]
    report = summarise(_results(["a-level", "b-level", "c-level"], outcomes))
    assert report["ratings"]["finite"]
    path = tmp_path / "levels.csv"
    write_csv(report, path)
    with path.open(newline="", encoding="utf-8") as f:
        rows = {row["level"]: row for row in csv.DictReader(f)}
    for p in report["participants"]:
        row = rows[p["level"]]
        assert [int(row[k]) for k in ("seats", "games", "wins", "shared_wins")] == \
            [p["seats"], p["games"], p["wins"], p["shared_wins"]]
        assert [float(row[k]) for k in ("win_rate", "ci95_low", "ci95_high", "rating", "rating_se")] == pytest.approx(
            [p["win_rate"], *p["ci95"], p["rating"], p["rating_se"]], rel=1e-5)
    table = text(report, Translator("en"), width=200)
    top = report["participants"][0]
    assert f"{top['rating']:+.0f}" in table  # a rating shows its sign
    for pair in report["pairwise"]:  # each pair's row: games, a only, b only, both, neither, in order
        cells = [pair[k] for k in ("games", "a_only", "b_only", "both", "neither")]
        line = next(li for li in table.splitlines() if pair["a"] in li and pair["b"] in li and "│" in li)
        assert [int(c) for c in line.replace("│", " ").split()[2:7]] == cells


def test_matches_count_their_rounds():
    results = run_tournament(Settings(("beginner", "random"), mode="matches", games=4), jobs=1)
    assert summarise(results)["rounds_played"] == sum(g.rounds for g in results.games) > 4
    assert results.elapsed > 0


def test_timing_adds_up_over_every_chunk():
    from loveletter.tournament.runner import play_chunk

    settings = Settings(("expert", "random"), games=130, budget=5)
    assert len(chunks(130)) > 1
    whole = play_chunk(settings, 0, 130)
    results = run_tournament(settings, jobs=1)
    for level in ("expert", "random"):
        assert results.timing[level].moves == whole.timing[level].moves > 0
        assert results.timing[level].iterations == whole.timing[level].iterations
    assert 0 < results.timing["expert"].iteration_seconds <= results.timing["expert"].seconds


@pytest.mark.parametrize(("settings", "key"), [
    (Settings(("expert", "random"), budget=0), "budget"),
    (Settings(("expert", "random"), budget=MAX_BUDGET + 1), "budget"),  # (10**12 thought for ever)
    (Settings(("nobody", "random")), "unknown_level"),
    (Settings(("random", "random"), edition="1999"), "edition"),
    (Settings(("random", "random"), games=MAX_GAMES + 1), "too_many_games"),
    # a budget of 2.5 was played as 2.5 iterations, and 2.0 games as two
    (Settings(("expert", "random"), budget=2.5), "whole"),  # type: ignore[arg-type]
    (Settings(("expert", "random"), budget=True), "whole"),
    (Settings(("random", "random"), games=2.0), "whole"),  # type: ignore[arg-type]
    (Settings(("random", "random"), seed=1.5), "whole"),  # type: ignore[arg-type]
    (Settings(("random", "random"), seed=None), "whole"),  # type: ignore[arg-type]  # (played as a fixed seed)
    (Settings("beginner,random"), "lineup"),  # type: ignore[arg-type]  # (fifteen one-letter levels)
    (Settings(("random", 2)), "lineup"),  # type: ignore[arg-type]
    (Settings(None), "lineup"),  # type: ignore[arg-type]  # (a TypeError)
    (Settings(level for level in ("random", "random")), "lineup"),  # type: ignore[arg-type]
    (Settings(("random", "random"), edition=2019), "edition"),  # type: ignore[arg-type]
])
def test_check_refuses_settings_by_their_own_key(settings, key):
    with pytest.raises(TournamentError) as info:
        check(settings)
    assert info.value.key == key


@pytest.mark.parametrize(("settings", "says"), [
    (Settings("beginner,random"),  # type: ignore[arg-type]
     "the lineup is a bot level for each seat, such as ('expert', 'beginner'), not 'beginner,random'"),
    (Settings(("random", "random"), edition=2019),  # type: ignore[arg-type]
     "unknown edition 2019: choose classic or 2019"),  # (it said '2019 edition')
    (Settings(("random", "random"), edition="1999"), "unknown edition '1999': choose classic or 2019"),
    (Settings(("random", "random"), seed=None), "seed must be a whole number, not None"),  # type: ignore[arg-type]
])
def test_the_python_apis_mistakes_are_told_as_given(settings, says):
    with pytest.raises(TournamentError) as info:
        check(settings)
    assert str(info.value) == says


def test_check_takes_the_most_games():
    check(Settings(("random", "random"), games=MAX_GAMES))


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="passes stops on with pthread_kill (not on Windows)")
def test_a_stop_that_comes_as_the_handlers_are_set_back_leaves_none_of_them_behind(monkeypatch):
    """``signal.signal`` first runs the handlers of signals already caught: a SIGTERM caught just as
    the block ended raised its Ctrl-C out of the first handler's setting back, and the stop handlers
    stayed for good (a later block then thought an outer one held them, and heard nothing)."""
    import os

    from loveletter.tournament import runner

    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, *runner.STOPPING)}
    signal.signal(signal.SIGINT, signal.default_int_handler)  # (a pytest-xdist worker ignores Ctrl-C)
    setting = signal.signal
    sent = []

    def setting_with_a_stop_just_before(signum, handler):
        if not sent and not isinstance(handler, runner._PassedOnAsCtrlC):  # the first setting back
            sent.append(signum)
            os.kill(os.getpid(), signal.SIGTERM)
        return setting(signum, handler)

    try:
        with pytest.raises(KeyboardInterrupt), runner.stops_heard_as_ctrl_c() as heard:
            monkeypatch.setattr(runner.signal, "signal", setting_with_a_stop_just_before)
        monkeypatch.setattr(runner.signal, "signal", setting)
        assert sent and heard == [signal.SIGTERM]
        assert not [s for s in runner.STOPPING if isinstance(signal.getsignal(s), runner._PassedOnAsCtrlC)]
        with runner.stops_heard_as_ctrl_c() as later:  # its own handlers, its own list
            assert signal.getsignal(signal.SIGTERM).heard is later
    finally:
        for signum, handler in before.items():
            setting(signum, handler if handler is not None else signal.SIG_DFL)


def test_a_tournament_in_another_thread_where_ctrl_c_is_ignored_sets_no_handler():
    """Only the main thread can set signal handlers: a run from another thread of a program that
    ignores Ctrl-C (a script's ``&`` job) failed with "signal only works in main thread" as it began,
    where it ran, leaving stops to the main thread, as from a thread of any other program."""
    from loveletter.tournament import runner

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    outcome: list[object] = []

    def run() -> None:
        try:
            with runner.stops_heard_as_ctrl_c() as heard:
                outcome.append(heard)
        except BaseException as e:  # (told by the assertion)
            outcome.append(e)

    try:
        player = threading.Thread(target=run)
        player.start()
        player.join(10)
        assert outcome == [[]] and signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before if before is not None else signal.SIG_DFL)
