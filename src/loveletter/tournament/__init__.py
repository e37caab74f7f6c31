"""Tournaments between bots: many games with rotating seats, in parallel, with win rates, pairwise
results and Bradley-Terry ratings (``loveletter tournament``; the API below for scripts).

>>> from loveletter.tournament import Settings, run_tournament, summarise
>>> results = run_tournament(Settings(lineup=("beginner", "random"), games=20), jobs=1)
>>> report = summarise(results)
>>> [p["games"] for p in report["participants"]], report["seating"]["balanced"]
([20, 20], True)
"""

from loveletter.tournament.games import GameFailed, GameResult, Settings, Timing, play_game
from loveletter.tournament.report import plot, render, summarise, text, write_csv
from loveletter.tournament.runner import (
    BACKENDS,
    Results,
    TournamentError,
    WorkerDied,
    check,
    default_jobs,
    lineup_for,
    run_tournament,
)
from loveletter.tournament.stats import bradley_terry, elo, expected_score, wilson

__all__ = [
    "BACKENDS", "GameFailed", "GameResult", "Results", "Settings", "Timing", "TournamentError", "WorkerDied",
    "bradley_terry", "check", "default_jobs", "elo", "expected_score", "lineup_for", "play_game", "plot",
    "render", "run_tournament", "summarise", "text", "wilson", "write_csv",
]
