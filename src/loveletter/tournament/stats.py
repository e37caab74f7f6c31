"""The statistics of a tournament: Wilson score intervals (clustered by game for a level in several
seats), and Bradley-Terry ratings on the Elo scale.

Pure Python (the numbers are small: one row per level).

>>> lo, hi = wilson(7, 10)
>>> round(lo, 4), round(hi, 4)
(0.3968, 0.8922)
>>> fit = bradley_terry(["a", "b"], {("a", "b"): 30, ("b", "a"): 10})
>>> round(fit.ratings["a"] - fit.ratings["b"], 2)  # 400 * log10(30 / 10)
190.85
>>> round(expected_score(400), 4)
0.9091
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

Z95 = 1.959963984540054  # the two-sided 95% quantile of the standard normal
ELO_PER_NATURAL_UNIT = 400 / math.log(10)  # Elo points per unit of log-strength


def wilson(wins: float, games: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate of ``wins`` out of ``games`` (``(0, 1)`` for none);
    a shared win may count its share."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    # exactly 0 and 1 at the ends (where rounding would leave 1e-17 or 1.0000000000000002)
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return low, high


def clustered_wilson(wins_by_game: Sequence[float], seats: int, z: float = Z95, *,
                     everyone: bool = False) -> tuple[float, float]:
    """The Wilson interval for the win rate of a level that sits in ``seats`` seats of every game,
    ``wins_by_game`` its seats' wins in each game (``everyone``: it sits in every seat). Its seats'
    results in one game are not independent (at most one of two seats wins a two-player round): the
    interval is a Wilson interval on the games. For one seat it is :func:`wilson` itself. In
    self-play the rate is ``1 / seats`` and the extra winners of the games its seats shared: the
    interval is Wilson's for how often a game is shared (below), from ``1 / seats``. Where no game was won by two
    of its seats (no shared win among them), the trial is whether the level won a game: the interval
    is Wilson's for that, times ``1 / seats`` (so it never passes ``1 / seats``, and with two levels
    and no shared win it mirrors the other level's; it takes a shared win among its seats, never
    seen, for impossible, so where such wins are possible but rare its upper end is a little low).
    Otherwise it is Wilson's for the effective number
    of games that gives the win rate the variance its games show (the design effect), or, where the
    games show no spread at all, Wilson's for the games won, times the share of its seats that a game
    gives. (Like any interval from the spread seen, that last is too narrow where the spread comes
    from a rare event seen once or twice.)

    >>> [round(x, 3) for x in clustered_wilson([1] * 100, 2, everyone=True)]  # self-play, no round shared
    [0.5, 0.518]
    >>> [round(x, 3) for x in clustered_wilson([1] * 30, 2)]
    [0.443, 0.5]
    """
    games = len(wins_by_game)
    total = sum(wins_by_game)
    if seats == 1:
        return wilson(total, games, z)
    if everyone and games:
        # self-play: every game is won by one of its seats or more, so the rate is 1 / seats and the
        # extra winners of the games shared: Wilson's interval for how often a game is shared, each
        # counted at the extra winners a shared game had (one, where none was: a shared win is
        # possible in both editions). The design effect took a rare shared game's spread for the
        # rate's: at 0.22% shared (2019, two players) its interval held the true rate in half the
        # runs of 300 rounds and went below 1 / 2; so did "exact" where none was shared.
        shared = [w - 1 for w in wins_by_game if w > 1]
        low, high = wilson(len(shared), games, z)
        extra = sum(shared) / len(shared) if shared else 1
        return (1 + low * extra) / seats, (1 + high * extra) / seats
    if all(w <= 1 for w in wins_by_game):
        # (the design effect's effective games differ with the rate: two levels of one game, the one's
        # wins the other's losses, got intervals that contradicted each other, and one past 1 / seats)
        low, high = wilson(total, games, z)
        return low / seats, high / seats
    p = total / (games * seats)  # (no games: answered above, as none was won twice)
    variance = sum((w / seats - p) ** 2 for w in wins_by_game) / (games * (games - 1)) if games > 1 else 0.0
    if variance <= 0:  # in every game, the same number of its seats won: more than one
        low, high = wilson(games, games, z)
        share = wins_by_game[0] / seats
        return low * share, high * share
    effective = p * (1 - p) / variance
    return wilson(p * effective, effective, z)


def _logistic(x: float) -> float:
    """1 / (1 + e^-x), without overflow for any x (a Newton step may try huge strengths)."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def _softplus(x: float) -> float:
    """log(1 + e^x), without overflow for any x."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def elo(log_strength: float) -> float:
    """A Bradley-Terry log-strength difference in Elo points: ``400 / ln 10`` per unit."""
    return log_strength * ELO_PER_NATURAL_UNIT


def expected_score(elo_difference: float) -> float:
    """The chance to win (ties aside) of a player rated ``elo_difference`` points higher."""
    return 1 / (1 + 10 ** (-elo_difference / 400))


@dataclass(frozen=True)
class Fit:
    """Bradley-Terry ratings in Elo points (mean 0) and their standard errors.

    ``covariance`` holds the ratings' covariances (Elo points squared; ``errors`` are the square roots
    of its diagonal): with three levels or more, the error of a difference between two ratings,
    ``sqrt(var a + var b - 2 cov(a, b))``, cannot be worked out from the errors alone.

    ``finite`` is false when the maximum-likelihood ratings do not exist: some group of levels won
    (or lost) every decisive game against the rest; then ``ratings``, ``errors`` and ``covariance``
    are empty.
    """

    ratings: dict[str, float]
    errors: dict[str, float]
    finite: bool
    iterations: int
    covariance: dict[str, dict[str, float]] = field(default_factory=dict)


def bradley_terry(levels: Sequence[str], wins: Mapping[tuple[str, str], float], *,
                  games: Iterable[tuple[Mapping[tuple[str, str], float], int]] | None = None,
                  tolerance: float = 1e-10, max_iterations: int = 200) -> Fit:
    """Fit P(i beats j) = 1 / (1 + exp(-(θi - θj))) by maximum likelihood to ``wins[(i, j)]`` (games
    where i won and j did not), by Newton's method with step halving on the log-likelihood (concave);
    the θ sum to zero. Ratings are the θ in Elo points.

    Standard errors: without ``games``, every comparison is taken as independent, and they come from
    the observed Fisher information (for this model it equals the expected one), inverted under the
    same constraint. With ``games`` (the comparisons of ``wins`` split by the game they came from: each
    distinct set of a game's comparisons, and how many games had it), comparisons from one game are
    not taken as independent (one winner beats three losers at once in a four-player round): the
    errors are cluster-robust, the sandwich ``I⁺ B I⁺`` with ``B`` the sum over games of each game's
    score vector times itself. When every game is one comparison between the same two levels (two
    players, two levels), both give the same errors.
    """
    k = len(levels)
    index = {level: n for n, level in enumerate(levels)}
    w = [[0.0] * k for _ in range(k)]
    for (a, b), count in wins.items():
        if a != b and count:
            w[index[a]][index[b]] += count
    if k < 2 or not _strongly_connected(w):
        return Fit({}, {}, False, 0)

    def loglik(theta: list[float]) -> float:
        total = 0.0
        for i in range(k):
            for j in range(k):
                if w[i][j]:
                    total -= w[i][j] * _softplus(theta[j] - theta[i])
        return total

    theta = [0.0] * k
    current = loglik(theta)
    iterations = 0
    for iterations in range(1, max_iterations + 1):  # noqa: B007 - reported in the fit
        gradient, information = _derivatives(w, theta)
        step = _solve_centred(information, gradient)
        scale = 1.0
        while True:
            candidate = [t + scale * s for t, s in zip(theta, step, strict=True)]
            mean = sum(candidate) / k
            candidate = [t - mean for t in candidate]
            value = loglik(candidate)
            if value >= current - 1e-12 or scale < 1e-9:
                break
            scale /= 2
        moved = max(abs(a - b) for a, b in zip(candidate, theta, strict=True))
        theta, current = candidate, value
        if moved < tolerance:
            break
    _, information = _derivatives(w, theta)
    covariance = _centred_inverse(information)
    if games is not None:
        covariance = _sandwich(covariance, _score_spread(games, index, theta))
    ratings = {level: elo(theta[index[level]]) for level in levels}
    errors = {level: elo(math.sqrt(max(0.0, covariance[index[level]][index[level]]))) for level in levels}
    squared = ELO_PER_NATURAL_UNIT**2
    covariances = {a: {b: covariance[index[a]][index[b]] * squared for b in levels} for a in levels}
    return Fit(ratings, errors, True, iterations, covariances)


def _derivatives(w: list[list[float]], theta: list[float]) -> tuple[list[float], list[list[float]]]:
    """The gradient of the log-likelihood and the Fisher information (minus its Hessian)."""
    k = len(theta)
    gradient = [0.0] * k
    information = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            n = w[i][j] + w[j][i]
            if not n:
                continue
            p = _logistic(theta[i] - theta[j])  # P(i beats j)
            gradient[i] += w[i][j] - n * p
            gradient[j] -= w[i][j] - n * p
            v = n * p * (1 - p)
            information[i][i] += v
            information[j][j] += v
            information[i][j] -= v
            information[j][i] -= v
    return gradient, information


def _score_spread(games: Iterable[tuple[Mapping[tuple[str, str], float], int]], index: Mapping[str, int],
                  theta: list[float]) -> list[list[float]]:
    """The sum over games of the outer product of each game's score (its gradient of the
    log-likelihood) with itself."""
    k = len(theta)
    spread = [[0.0] * k for _ in range(k)]
    for game, times in games:
        score = [0.0] * k
        for (a, b), count in game.items():
            i, j = index[a], index[b]
            if i == j or not count:
                continue
            surprise = count * _logistic(theta[j] - theta[i])  # count times P(j beats i)
            score[i] += surprise
            score[j] -= surprise
        for i in range(k):
            if score[i]:
                for j in range(k):
                    spread[i][j] += times * score[i] * score[j]
    return spread


def _sandwich(inverse: list[list[float]], middle: list[list[float]]) -> list[list[float]]:
    k = len(inverse)
    left = [[sum(inverse[i][m] * middle[m][j] for m in range(k)) for j in range(k)] for i in range(k)]
    return [[sum(left[i][m] * inverse[m][j] for m in range(k)) for j in range(k)] for i in range(k)]


def _centred_inverse(information: list[list[float]]) -> list[list[float]]:
    """The Moore-Penrose inverse of an information matrix whose null space is the constant vector
    (a connected comparison graph): (I + J/k)^-1 - J/k. It is the covariance of the θ under the
    constraint that they sum to zero."""
    k = len(information)
    shifted = [[information[i][j] + 1 / k for j in range(k)] for i in range(k)]
    inverse = _inverse(shifted)
    return [[inverse[i][j] - 1 / k for j in range(k)] for i in range(k)]


def _solve_centred(information: list[list[float]], gradient: list[float]) -> list[float]:
    inverse = _centred_inverse(information)
    return [sum(inverse[i][j] * gradient[j] for j in range(len(gradient))) for i in range(len(gradient))]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inversion with partial pivoting."""
    k = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(k)] for i, row in enumerate(matrix)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ZeroDivisionError("singular matrix")
        a[col], a[pivot] = a[pivot], a[col]
        factor = a[col][col]
        a[col] = [x / factor for x in a[col]]
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[k:] for row in a]


def _strongly_connected(w: list[list[float]]) -> bool:
    """Whether every level can be reached from every other along 'won against' edges: the condition
    for finite maximum-likelihood ratings (Zermelo; Hunter 2004, assumption 1)."""
    k = len(w)

    def reach(edge: list[list[bool]]) -> set[int]:
        seen, todo = {0}, [0]
        while todo:
            i = todo.pop()
            for j in range(k):
                if edge[i][j] and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return seen

    forward = [[w[i][j] > 0 for j in range(k)] for i in range(k)]
    backward = [[w[j][i] > 0 for j in range(k)] for i in range(k)]
    return len(reach(forward)) == k and len(reach(backward)) == k
