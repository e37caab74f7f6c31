"""The statistics (tournament/stats.py) on cases worked out by hand or by an independent method:
Wilson score intervals, the Elo scale, and Bradley-Terry maximum likelihood with its standard errors."""

from __future__ import annotations

import math
import random

import pytest

from loveletter.tournament.stats import Z95, bradley_terry, clustered_wilson, elo, expected_score, wilson

# ------------------------------------------------------------------------------------ Wilson


@pytest.mark.parametrize(("wins", "games", "low", "high"), [
    # the roots p of (p̂ - p)² = z² p (1 - p) / n, worked out separately to 40 digits (Decimal),
    # z = 1.959964; 7/10 is the textbook example (0.3968, 0.8922)
    (7, 10, 0.396778, 0.892209),
    (0, 10, 0.0, 0.277533),
    (10, 10, 0.722467, 1.0),
    (50, 100, 0.403832, 0.596168),
    (1, 2, 0.094531, 0.905469),
    (737, 1000, 0.708843, 0.763343),
])
def test_wilson_against_hand_computed_values(wins, games, low, high):
    lo, hi = wilson(wins, games)
    assert lo == pytest.approx(low, abs=1e-6)
    assert hi == pytest.approx(high, abs=1e-6)


def test_clustered_wilson_on_a_few_games_worked_by_hand():
    """Two seats of one level in five games, winning 0, 1, 1, 0 and 2 of them: a rate of 0.4, its
    games' shares 0, .5, .5, 0 and 1 spread by 0.70 in squares about it, so the rate's variance is
    0.70 / (5 * 4) = 0.035 (the sample's, n - 1 below: n alone made it too narrow for few games),
    and Wilson's interval is for 0.24 / 0.035 = 6.86 effective games."""
    effective = 0.4 * 0.6 / (0.70 / 20)
    assert clustered_wilson([0, 1, 1, 0, 2], 2) == pytest.approx(wilson(0.4 * effective, effective))


def test_a_level_whose_seats_win_alike_in_every_game_gets_wilsons_interval_times_that_share():
    """Two seats of three, both winning every one of 20 games (a shared win each time, as in 2019): the
    rate is 2 / 3, with no spread to measure; its interval is Wilson's for 20 games won of 20, times
    2 / 3 (it holds the rate seen, where one times 1 / 3 did not)."""
    lo, hi = clustered_wilson([2] * 20, 3)
    assert (lo, hi) == pytest.approx(tuple(x * 2 / 3 for x in wilson(20, 20)))
    assert lo < 2 / 3 <= hi


def test_two_levels_of_two_seats_get_intervals_that_mirror_each_other():
    """Two levels in two seats each of twelve games, one winner a game: the one's wins are the
    other's losses, so its interval is the other's mirrored about a half, and neither passes the half
    a level in two of four seats can win at most (the design effect gave 25.9-50.7% and 4.5-30.3%)."""
    beginner = [1] * 9 + [0] * 3
    random_ = [1 - w for w in beginner]
    lo, hi = clustered_wilson(beginner, 2)
    assert (lo, hi) == pytest.approx(tuple(x / 2 for x in wilson(9, 12)))
    assert (lo, hi) == pytest.approx((0.5 - clustered_wilson(random_, 2)[1], 0.5 - clustered_wilson(random_, 2)[0]))
    assert hi <= 0.5


def test_wilson_formula_and_edges():
    n, w = 40, 13
    p, z = w / n, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert wilson(w, n) == pytest.approx((centre - half, centre + half))
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(30, 60)
    assert lo + hi == pytest.approx(1.0)  # symmetric about 1/2
    assert pytest.approx(1.959964, abs=1e-6) == Z95


# ------------------------------------------------------------------------------------ Elo scale


def test_elo_scale():
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)  # 400 points: odds of 10 to 1
    assert expected_score(-400) == pytest.approx(1 / 11)
    assert elo(math.log(10)) == pytest.approx(400)  # odds of 10 in log-strength is 400 Elo
    assert elo(math.log(3)) == pytest.approx(190.849, abs=1e-3)
    # the two agree: a log-strength difference d gives P = 1/(1+e^-d) = expected_score(elo(d))
    for d in (-2.0, -0.3, 0.0, 0.7, 3.1):
        assert expected_score(elo(d)) == pytest.approx(1 / (1 + math.exp(-d)))


# ------------------------------------------------------------------------------------ Bradley-Terry


def test_two_levels_closed_form():
    """A beat B 30 times, B beat A 10 times: the odds are 3, so A - B = 400 log10 3 Elo; with mean 0
    each is half of it. Fisher information of the difference: n p (1-p) = 40 · 3/4 · 1/4 = 7.5, so
    θA = (θA - θB)/2 has variance 1/(4 · 7.5) = 1/30."""
    fit = bradley_terry(["a", "b"], {("a", "b"): 30, ("b", "a"): 10})
    assert fit.finite
    assert fit.ratings["a"] == pytest.approx(200 * math.log10(3), abs=1e-8)
    assert fit.ratings["b"] == pytest.approx(-200 * math.log10(3), abs=1e-8)
    assert fit.errors["a"] == pytest.approx(400 / math.log(10) * math.sqrt(1 / 30), abs=1e-8)
    assert fit.errors["a"] == pytest.approx(31.7164, abs=1e-4)
    assert fit.errors["b"] == pytest.approx(fit.errors["a"])


def test_three_levels_exactly_proportional_table():
    """Strengths 4 : 2 : 1 and win counts exactly as expected (A-B 20:10, A-C 20:5, B-C 20:10):
    the likelihood equations hold at those strengths, so they are the fit."""
    wins = {("a", "b"): 20, ("b", "a"): 10, ("a", "c"): 20, ("c", "a"): 5, ("b", "c"): 20, ("c", "b"): 10}
    fit = bradley_terry(["a", "b", "c"], wins)
    logs = [math.log10(4), math.log10(2), math.log10(1)]
    mean = sum(logs) / 3
    for level, value in zip("abc", logs, strict=True):
        assert fit.ratings[level] == pytest.approx(400 * (value - mean), abs=1e-7)
    assert sum(fit.ratings.values()) == pytest.approx(0, abs=1e-9)


def mm_fit(levels, wins, iterations=20000):
    """Hunter's (2004) minorisation-maximisation for Bradley-Terry, written independently."""
    p = {x: 1.0 for x in levels}
    for _ in range(iterations):
        new = {}
        for i in levels:
            won = sum(wins.get((i, j), 0) for j in levels if j != i)
            denominator = sum((wins.get((i, j), 0) + wins.get((j, i), 0)) / (p[i] + p[j])
                              for j in levels if j != i)
            new[i] = won / denominator
        g = math.exp(sum(math.log(v) for v in new.values()) / len(levels))
        p = {x: v / g for x, v in new.items()}
    return {x: 400 * math.log10(v) for x, v in p.items()}


def numeric_errors(levels, wins, theta):
    """Standard errors from a finite-difference Hessian of the log-likelihood in k-1 free
    coordinates (the last θ is minus the sum of the others), mapped back: an independent route to
    the constrained covariance."""
    k = len(levels)

    def loglik(free):
        full = list(free) + [-sum(free)]
        return sum(wins.get((levels[i], levels[j]), 0) * -math.log1p(math.exp(full[j] - full[i]))
                   for i in range(k) for j in range(k) if i != j)

    x0 = theta[:-1]
    h = 1e-4
    m = k - 1
    hess = [[0.0] * m for _ in range(m)]
    for a in range(m):
        for b in range(m):
            def at(da, db, a=a, b=b):
                x = list(x0)
                x[a] += da
                x[b] += db
                return loglik(x)
            hess[a][b] = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
    # invert -hess (small matrix, Gauss-Jordan)
    info = [[-v for v in row] for row in hess]
    aug = [row[:] + [1.0 if i == j else 0.0 for j in range(m)] for i, row in enumerate(info)]
    for c in range(m):
        piv = max(range(c, m), key=lambda r: abs(aug[r][c]))
        aug[c], aug[piv] = aug[piv], aug[c]
        f = aug[c][c]
        aug[c] = [v / f for v in aug[c]]
        for r in range(m):
            if r != c:
                g = aug[r][c]
                aug[r] = [v - g * w for v, w in zip(aug[r], aug[c], strict=True)]
    cov = [row[m:] for row in aug]
    variances = [cov[i][i] for i in range(m)]
    variances.append(sum(cov[i][j] for i in range(m) for j in range(m)))  # var(-Σ free)
    return [400 / math.log(10) * math.sqrt(v) for v in variances]


@pytest.mark.parametrize("seed", range(4))
def test_agrees_with_an_independent_fit(seed):
    rng = random.Random(seed)
    levels = ["a", "b", "c", "d"][: rng.randint(2, 4)]
    wins = {}
    for i in levels:
        for j in levels:
            if i != j:
                wins[(i, j)] = rng.randint(1, 60)
    fit = bradley_terry(levels, wins)
    reference = mm_fit(levels, wins)
    shift = sum(reference.values()) / len(levels)
    for level in levels:
        assert fit.ratings[level] == pytest.approx(reference[level] - shift, abs=1e-6)
    theta = [fit.ratings[x] * math.log(10) / 400 for x in levels]
    for level, se in zip(levels, numeric_errors(levels, wins, theta), strict=True):
        assert fit.errors[level] == pytest.approx(se, rel=1e-4)


def test_no_finite_ratings_when_a_level_never_loses():
    fit = bradley_terry(["a", "b", "c"], {("a", "b"): 5, ("a", "c"): 3, ("b", "c"): 4, ("c", "b"): 2})
    assert not fit.finite and fit.ratings == {}
    assert not bradley_terry(["a"], {}).finite
    # two groups that never met
    assert not bradley_terry(["a", "b", "c", "d"], {("a", "b"): 1, ("b", "a"): 1,
                                                     ("c", "d"): 1, ("d", "c"): 1}).finite


def test_extreme_but_finite_table_converges():
    fit = bradley_terry(["a", "b"], {("a", "b"): 9999, ("b", "a"): 1})
    assert fit.ratings["a"] - fit.ratings["b"] == pytest.approx(400 * math.log10(9999), abs=1e-6)


# ------------------------------------------------------------------------ errors by game


def test_errors_by_game_equal_the_fisher_errors_when_each_game_is_one_comparison():
    wins = {("a", "b"): 30, ("b", "a"): 10}
    games = [({("a", "b"): 1}, 30), ({("b", "a"): 1}, 10)]
    plain = bradley_terry(["a", "b"], wins)
    by_game = bradley_terry(["a", "b"], wins, games=games)
    assert by_game.ratings == pytest.approx(plain.ratings)
    assert by_game.errors == pytest.approx(plain.errors, rel=1e-9)


def test_errors_by_game_when_one_winner_beats_three_at_once():
    # four seats, a in one and b in three: a's win is three comparisons from one game, b's win one
    a_wins, b_wins = 30, 70
    wins = {("a", "b"): 3 * a_wins, ("b", "a"): b_wins}
    games = [({("a", "b"): 3}, a_wins), ({("b", "a"): 1}, b_wins)]
    fit = bradley_terry(["a", "b"], wins, games=games)
    # closed form for the difference d = θa - θb: p = P(a beats b) = 90 / 160 at the maximum;
    # information N p (1 - p), score per game 3 (1 - p) or -p, so Var d = Σ score² / information²
    p = 3 * a_wins / (3 * a_wins + b_wins)
    information = (3 * a_wins + b_wins) * p * (1 - p)
    spread = a_wins * (3 * (1 - p)) ** 2 + b_wins * p**2
    assert fit.ratings["a"] - fit.ratings["b"] == pytest.approx(elo(math.log(p / (1 - p))), abs=1e-6)
    assert fit.errors["a"] == pytest.approx(elo(math.sqrt(spread) / information) / 2, rel=1e-6)
    # larger than if the three comparisons of a game were independent
    assert fit.errors["a"] > bradley_terry(["a", "b"], wins).errors["a"] * 1.2


def test_errors_by_game_match_the_spread_of_ratings_between_tournaments():
    # equal levels, a in one of four seats: the ratings vary from tournament to tournament about as
    # much as the errors say (treating the comparisons as independent says about 30% too little)
    rng = random.Random(7)
    ratings, errors = [], []
    for _ in range(300):
        a_wins = sum(rng.randrange(4) == 0 for _ in range(200))  # a is one of four equal seats
        wins = {("a", "b"): 3 * a_wins, ("b", "a"): 200 - a_wins}
        fit = bradley_terry(["a", "b"], wins, games=[({("a", "b"): 3}, a_wins), ({("b", "a"): 1}, 200 - a_wins)])
        ratings.append(fit.ratings["a"])
        errors.append(fit.errors["a"])
    mean = sum(ratings) / len(ratings)
    spread = math.sqrt(sum((r - mean) ** 2 for r in ratings) / (len(ratings) - 1))
    assert sum(errors) / len(errors) == pytest.approx(spread, rel=0.15)


def test_the_covariance_gives_the_error_of_a_difference_between_two_ratings():
    """Three levels at one table, the winner beating the other two in one game: the errors alone
    cannot give the error of a - b (the ratings are linked, anchored at mean 0, and through the games
    they share); the covariance does, as the spread of a - b between tournaments shows."""
    rng = random.Random(11)
    chances = {"a": 0.45, "b": 0.35, "c": 0.20}
    differences, predicted = [], []
    for _ in range(300):
        won = rng.choices(list(chances), weights=list(chances.values()), k=200)
        counts = {level: won.count(level) for level in chances}
        games = [({(w, other): 1 for other in chances if other != w}, counts[w]) for w in chances]
        wins = {(w, other): counts[w] for w in chances for other in chances if other != w}
        fit = bradley_terry(list(chances), wins, games=games)
        cov = fit.covariance
        assert cov["a"]["b"] == pytest.approx(cov["b"]["a"])  # symmetric
        assert [cov[level][level] for level in chances] == pytest.approx([fit.errors[x] ** 2 for x in chances])
        assert sum(cov["a"].values()) == pytest.approx(0, abs=1e-6)  # the ratings sum to 0, always
        differences.append(fit.ratings["a"] - fit.ratings["b"])
        predicted.append(math.sqrt(cov["a"]["a"] + cov["b"]["b"] - 2 * cov["a"]["b"]))
    mean = sum(differences) / len(differences)
    spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (len(differences) - 1))
    assert sum(predicted) / len(predicted) == pytest.approx(spread, rel=0.15)
    # (the errors alone, taken as independent, say otherwise)
    assert math.hypot(fit.errors["a"], fit.errors["b"]) != pytest.approx(predicted[-1], rel=0.1)
    assert bradley_terry(["a", "b"], {("a", "b"): 3}).covariance == {}  # no finite ratings: none


def test_wilson_bounds_stay_within_zero_and_one():
    for games in range(1, 200):
        low, high = wilson(0, games)
        assert low == 0.0 and 0 < high <= 1
        low, high = wilson(games, games)
        assert 0 <= low < 1 and high == 1.0


def test_extreme_tables_do_not_overflow():
    """A lopsided, strongly connected table whose first Newton step tried strengths of e^1000 (the
    log-likelihood raised OverflowError)."""
    wins = {("a", "c"): 7, ("a", "d"): 589085, ("b", "e"): 28191, ("c", "a"): 397297, ("c", "b"): 466,
            ("c", "e"): 217815, ("d", "a"): 5, ("d", "b"): 5, ("d", "e"): 2, ("e", "b"): 25077, ("e", "d"): 1}
    fit = bradley_terry(list("abcde"), wins)
    assert fit.finite and max(fit.ratings, key=fit.ratings.__getitem__) == "c"
    assert all(math.isfinite(v) for v in (*fit.ratings.values(), *fit.errors.values()))
