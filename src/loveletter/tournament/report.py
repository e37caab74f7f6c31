"""A tournament's figures (the ``--json`` object) and their forms: a table, CSV rows, a plot.

:func:`summarise` turns the games into one JSON-ready object; everything else only formats it.
Per level: a level that sits in several seats counts once per seat (``games`` are seat-games), a
shared win counts as a win for each winner, and the win rate has a 95% Wilson score interval (for a
level in several seats, with the games as the independent units: see
:func:`~loveletter.tournament.stats.clustered_wilson`).
Pairwise: for each two levels in the same game, how often one won and the other did not, both won
(a shared win) or neither did (a third level won). Ratings:
Bradley-Terry fitted to the pairs of seats of different levels in which one won and the other did not
(pairs where both or neither won are left out; with each level in one seat these are exactly the
pairwise counts), in Elo points with mean 0, with cluster-robust standard errors (the comparisons
from one game are not independent: see :func:`~loveletter.tournament.stats.bradley_terry`).
"""

from __future__ import annotations

import csv
import io
import logging
import textwrap
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any, TextIO

from rich import box
from rich.console import Console, JustifyMethod
from rich.table import Table

from loveletter.i18n import Translator, grouped
from loveletter.plain import plainly
from loveletter.tournament.games import reverses
from loveletter.tournament.runner import Results
from loveletter.tournament.stats import Z95, bradley_terry, clustered_wilson, wilson

FORMAT = "loveletter-tournament/1"
CSV_FIELDS = ("level", "seats", "games", "wins", "shared_wins", "win_rate", "ci95_low", "ci95_high",
              "rating", "rating_se")


def summarise(results: Results) -> dict[str, Any]:
    """The tournament's figures and settings as one JSON-ready object (schema: README, Tournaments)."""
    s = results.settings
    n = s.players
    levels = list(s.levels)
    games = Counter[str]()
    wins = Counter[str]()
    shared = Counter[str]()
    seat_counts = {level: [0] * n for level in levels}
    position_counts = {level: [0] * n for level in levels}
    starts = Counter[str]()
    position_games = [0] * n
    position_wins = [0] * n
    pair_counts: dict[tuple[str, str], list[int]] = {}  # (a, b) -> [a only, b only, both, neither]
    decisive = Counter[tuple[str, str]]()  # (a, b) -> seat pairs where a won and b did not
    # the same, game by game (for the errors): each distinct set of one game's pairs, and how often
    decisive_by_game = Counter[tuple[tuple[tuple[str, str], int], ...]]()
    rounds = 0
    by_game: dict[str, list[int]] = {level: [] for level in levels}  # each game's wins, for the intervals
    for game in results.games:
        rounds += game.rounds
        won = set(game.winners)
        for level in levels:
            by_game[level].append(sum(1 for seat in won if game.seats[seat] == level))
        for seat, level in enumerate(game.seats):
            position = (seat - game.starter) % n
            games[level] += 1
            seat_counts[level][seat] += 1
            position_counts[level][position] += 1
            position_games[position] += 1
            if seat in won:
                wins[level] += 1
                position_wins[position] += 1
                if len(won) > 1:
                    shared[level] += 1
        starts[game.seats[game.starter]] += 1
        present = set(game.seats)
        winning = {game.seats[seat] for seat in won}
        for a, b in combinations(levels, 2):
            if a in present and b in present:
                row = pair_counts.setdefault((a, b), [0, 0, 0, 0])
                row[_outcome(a in winning, b in winning)] += 1
        this_game = Counter[tuple[str, str]]()
        for seat in won:  # for the ratings: a seat that won beats each seat of another level that did not
            for other, level in enumerate(game.seats):
                if other not in won and level != game.seats[seat]:
                    this_game[(game.seats[seat], level)] += 1
        if this_game:
            decisive.update(this_game)
            decisive_by_game[tuple(sorted(this_game.items()))] += 1
    fit = bradley_terry(levels, decisive, games=[(dict(pairs), times) for pairs, times in decisive_by_game.items()])

    def rank(level: str) -> tuple[float, float, int]:
        rate = wins[level] / games[level] if games[level] else 0.0
        return (-fit.ratings[level] if fit.finite else 0.0, -rate, levels.index(level))

    ranked = sorted(levels, key=rank)
    participants = []
    for level in ranked:
        lo, hi = clustered_wilson(by_game[level], s.lineup.count(level), everyone=len(levels) == 1)
        participants.append({
            "level": level,
            "seats": s.lineup.count(level),
            "games": games[level],
            "wins": wins[level],
            "shared_wins": shared[level],
            "win_rate": wins[level] / games[level] if games[level] else None,
            "ci95": [lo, hi],
            "rating": fit.ratings[level] if fit.finite else None,
            "rating_se": fit.errors[level] if fit.finite else None,
        })
    pairwise = []
    for a, b in combinations(ranked, 2):
        if (a, b) in pair_counts:
            a_only, b_only, both, neither = pair_counts[(a, b)]
        elif (b, a) in pair_counts:
            b_only, a_only, both, neither = pair_counts[(b, a)]
        else:
            continue
        pairwise.append({"a": a, "b": b, "games": a_only + b_only + both + neither, "a_only": a_only,
                         "b_only": b_only, "both": both, "neither": neither})
    balanced = all(len(set(seat_counts[level])) == 1 and len(set(position_counts[level])) == 1
                   for level in levels)
    positions = []
    for position in range(n):
        lo, hi = wilson(position_wins[position], position_games[position])
        rate = position_wins[position] / position_games[position] if position_games[position] else None
        positions.append({"position": position, "games": position_games[position],
                          "wins": position_wins[position], "win_rate": rate, "ci95": [lo, hi]})
    return {
        "format": FORMAT,
        "settings": {
            "edition": s.edition, "players": n, "lineup": list(s.lineup), "mode": s.mode,
            "games": s.games, "seed": s.seed, "budget": s.budget,
            # not the jobs or the backend: the same seed gives the very same object whatever those
        },
        "rounds_played": rounds,
        "seating": {
            "rotation": "game i: seat s is played by lineup[(s + i) mod players], the lineup reversed "
                        "when (i div players) is odd if that is another table; seat b mod players starts, "
                        "b = i div players (div 2 again when reversed tables are played)",
            "balanced": balanced,
            "levels": {level: {"seats": seat_counts[level], "positions": position_counts[level],
                               "starts": starts[level]} for level in levels},
        },
        "participants": participants,
        "pairwise": pairwise,
        "ratings": {
            "model": "bradley-terry", "scale": "elo", "anchor": "mean 0",
            "errors": "cluster-robust by game", "ties": "left out", "finite": fit.finite,
            "covariance": fit.covariance,  # (Elo points squared: for the error of a difference)
            "decisive": [{"winner": a, "loser": b, "count": decisive[(a, b)]}
                         for a in ranked for b in ranked if decisive[(a, b)]],
        },
        "positions": positions,
    }


def _outcome(a_won: bool, b_won: bool) -> int:
    return 2 if a_won and b_won else 0 if a_won else 1 if b_won else 3


# ------------------------------------------------------------------------------------ numbers


def percent(x: float | None, t: Translator) -> str:
    return "—" if x is None else t.decimal(100 * x, 1) + "%"


def rating_error(x: float, t: Translator) -> str:
    """A rating's standard error in whole points, or with one decimal below one (200,000 rounds
    showed "±0", as if exact)."""
    return t.decimal(x, 0 if x >= 0.95 else 1)


def signed(x: float | None) -> str:
    return "—" if x is None else f"{x:+.0f}".replace("-", "−")


# ------------------------------------------------------------------------------------ the table


NARROW = 100  # columns: below this a table's column lines take too much room


def _table(title: str, narrow: bool) -> Table:
    """A table of figures; on a ``narrow`` terminal without the lines between columns, which would
    leave too little room for the figures and headers in 80 columns."""
    return Table(title=title, title_justify="left", title_style="bold",
                 box=box.SIMPLE_HEAD if narrow else box.HEAVY_HEAD, show_edge=not narrow, pad_edge=not narrow)


def _add_column(table: Table, header: str, justify: JustifyMethod = "left", widest: list[str] | None = None,
                stacked: bool = False) -> None:
    """A column that a narrow terminal may wrap at spaces, but never shortens: rich would cut a header
    to "Partij…" and a level's name (in ``widest``) to "beginn…". It keeps the width of the longest
    word of its header and names (folded only where even that does not fit). A column of figures
    (right-justified) is never wrapped: rich wraps at any space, the thin space in "12 000" too."""
    words = header.split() + [word for name in widest or () for word in name.split()]
    if stacked:  # a word per line: in 80 columns rich would rather crop the last column than wrap these
        header = "\n".join(header.split())
    table.add_column(header, justify=justify, overflow="fold", min_width=max(map(len, words), default=None),
                     no_wrap=justify == "right")


def _words(text: str) -> set[str]:
    """The words of ``text``, parted by plain spaces and line ends only (a number grouped by thin
    spaces is one word)."""
    return set(text.replace("\n", " ").split(" ")) - {""}


def say(console: Console, paragraph: str, style: str | None = None) -> None:
    """A paragraph, wrapped at the console's width at plain spaces only: rich wraps at any space, and
    put the two halves of "12 000" (grouped by a thin space) on two lines."""
    lines = textwrap.wrap(paragraph, console.width, break_long_words=False, break_on_hyphens=False)
    console.print("\n".join(lines), style=style, highlight=False, soft_wrap=True)


def _print_table(console: Console, table: Table, rows: list[list[str]], label_columns: int = 1) -> None:
    """The table with ``rows``; where the terminal is too narrow for it (rich would cut or drop its
    last columns), its title and a paragraph per row instead: the row's first cell (or first
    ``label_columns`` cells, each after its header), then each other header and cell ("Games 80 ·
    Wins 26 · …")."""
    # (each cell as the output will write it, measured so: "±42" as "+/-42" in ASCII)
    rows = [[plainly(cell, console.encoding) for cell in row] for row in rows]
    for column in table.columns:
        column.header = plainly(str(column.header), console.encoding)
    for row in rows:
        table.add_row(*row)
    # in too narrow a terminal rich narrows the last columns until it cuts their words ("Nei") or
    # drops them: the table is shown only if every word of its headers and cells comes out whole
    shown = set().union(*(_words("".join(segment.text for segment in line))
                          for line in console.render_lines(table, pad=False)))
    words = set().union(*(_words(cell) for cells in ([str(column.header) for column in table.columns], *rows)
                          for cell in cells))
    if words <= shown:
        console.print(table)
        return
    headers = [" ".join(str(column.header).split()) for column in table.columns]
    if table.title:
        say(console, str(table.title), style="bold")
    for row in rows:
        label = row[0] if label_columns == 1 else ", ".join(  # "Level A expert, Level B beginner"
            f"{header} {cell}" for header, cell in zip(headers[:label_columns], row[:label_columns], strict=True))
        figures = " · ".join(f"{header} {cell}" for header, cell in zip(headers[label_columns:], row[label_columns:],
                                                                         strict=True))
        say(console, f"{label}: {figures}")


def _lineup_line(s: dict[str, Any], t: Translator) -> str:
    """The lineup, and how the games seat it (:mod:`~loveletter.tournament.games`): the seats rotate
    every game; the table is played both ways round once a reversed block has been played (games n
    to 2n - 1, and so on); the starting seat moves on once a block (of both ways round, where it is
    played so) is over, which a short run never reaches."""
    games, players, lineup = s["games"], s["players"], t.levels(s["lineup"])
    if games == 1:
        return t("tour_lineup_one", lineup=lineup)
    reversing = reverses(tuple(s["lineup"]))
    every = players * (2 if reversing else 1)  # games one seat starts in a row (games.starter)
    key = "tour_lineup_reversed" if reversing and games > players else "tour_lineup"
    return t(key if games > every else f"{key}_short", lineup=lineup, every=every)


def render(report: dict[str, Any], t: Translator, console: Console) -> None:
    """Print the report as tables, in the translator's language."""
    s = report["settings"]
    mode = _mode(s, t)
    say(console, t("tour_header", mode=mode, edition=t.edition(s["edition"]), players=s["players"],
                    seed=s["seed"]), style="bold")
    say(console, _lineup_line(s, t))
    if s["budget"] is not None:
        say(console, t("tour_budget_one") if s["budget"] == 1 else t("tour_budget", budget=grouped(s["budget"])))
    seating = report["seating"]
    if seating["balanced"]:
        say(console, t("tour_balanced"))
    else:
        # who started, beside where each sat: going first is the edge that counts, and the seats alone
        # could point the other way ("beginner 2/1" where random started two games of three)
        counts, starts = zip(*((f"{t.level(level)} {'/'.join(map(grouped, row['seats']))}",
                                f"{t.level(level)} {grouped(row['starts'])}")
                               for level, row in seating["levels"].items()), strict=True)
        say(console, t("tour_unbalanced", games=grouped(s["games"]), players=s["players"], counts="; ".join(counts),
                       starts="; ".join(starts)))
    console.print()

    narrow = console.width < NARROW
    table = _table(t("tour_table_title"), narrow)
    names = [_level_name(p, t) for p in report["participants"]]
    _add_column(table, t("tour_col_level"), widest=names)
    for key in ("tour_col_games", "tour_col_wins", "tour_col_shared", "tour_col_rate"):
        _add_column(table, t(key), justify="right", stacked=narrow)
    _add_column(table, t("tour_col_ci"), justify="center", stacked=narrow)
    _add_column(table, t("tour_col_rating"), justify="right", stacked=narrow)
    _add_column(table, t("tour_col_se"), justify="right", stacked=narrow)
    rows = []
    for name, p in zip(names, report["participants"], strict=True):
        lo, hi = p["ci95"]
        rows.append([
            name, grouped(p["games"]), grouped(p["wins"]),
            grouped(p["shared_wins"]), percent(p["win_rate"], t), f"{percent(lo, t)} – {percent(hi, t)}",
            signed(p["rating"]), "—" if p["rating_se"] is None else "±" + rating_error(p["rating_se"], t),
        ])
    _print_table(console, table, rows)

    if report["pairwise"]:
        console.print()
        pairs = _table(t("tour_pairs_title"), narrow)
        levels = [t.level(row[side]) for row in report["pairwise"] for side in ("a", "b")]
        for key in ("tour_col_a", "tour_col_b"):
            _add_column(pairs, t(key), widest=levels)
        for key in ("tour_col_games", "tour_col_a_only", "tour_col_b_only", "tour_col_both",
                    "tour_col_neither"):
            _add_column(pairs, t(key), justify="right")
        _print_table(console, pairs, [
            [t.level(row["a"]), t.level(row["b"]), *(grouped(row[key]) for key in ("games", "a_only", "b_only",
                                                                                  "both", "neither"))]
            for row in report["pairwise"]], label_columns=2)

    # (a semicolon between places: "0: 0,0%, 1: 100,0%" ran into the decimal commas of the Dutch)
    positions = "; ".join(f"{p['position']}: {percent(p['win_rate'], t)}" for p in report["positions"])
    say(console, t("tour_positions", positions=positions))
    if s["mode"] == "matches":
        say(console, t("tour_rounds_played", rounds=grouped(report["rounds_played"])))
    console.print()
    if len(report["participants"]) < 2 or not report["ratings"]["finite"]:
        say(console, _no_ratings(report, t))
    else:
        say(console, t("tour_ratings_note"))
    say(console, t("tour_rates_note"))


def _no_ratings(report: dict[str, Any], t: Translator) -> str:
    """Why there are no ratings: one level only (whose win rate is then not its strength), or one that
    won (or lost) every decisive game."""
    if len(report["participants"]) < 2:
        return t("tour_ratings_one", players=report["settings"]["players"])
    return t("tour_ratings_infinite")


def text(report: dict[str, Any], t: Translator, width: int = 110) -> str:
    """The table as plain text (no colours)."""
    out = io.StringIO()
    render(report, t, Console(file=out, width=width, color_system=None, highlight=False))
    return out.getvalue()


# ------------------------------------------------------------------------------------ files


def write_csv(report: dict[str, Any], path: Path | TextIO) -> None:
    """One row per level (columns :data:`CSV_FIELDS`; rates as fractions, ratings in Elo points), to
    the file at ``path`` or to an open text stream."""
    if not isinstance(path, Path):
        _write_csv_rows(report, path)
        return
    with path.open("w", newline="", encoding="utf-8") as f:
        _write_csv_rows(report, f)


def _write_csv_rows(report: dict[str, Any], f: TextIO) -> None:
    writer = csv.writer(f)
    writer.writerow(CSV_FIELDS)
    for p in report["participants"]:
        writer.writerow([
            p["level"], p["seats"], p["games"], p["wins"], p["shared_wins"], _num(p["win_rate"]),
            _num(p["ci95"][0]), _num(p["ci95"][1]), _num(p["rating"]), _num(p["rating_se"]),
        ])


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:.6g}"


def plot(report: dict[str, Any], path: Path, t: Translator) -> None:
    """A PNG: win rates with their 95% intervals, and ratings with error bars of 1.96 standard errors."""
    # matplotlib warns on standard error, as it loads, where it cannot write its settings folder (a
    # HOME not writable, as in a container) and uses a temporary one: nothing a player can act on,
    # and it broke --quiet (the level is put back after: a program's own use of it is its own)
    logger = logging.getLogger("matplotlib")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure
    finally:
        logger.setLevel(level)

    participants = report["participants"][::-1]  # the best at the top
    names = [_level_name(p, t) for p in participants]
    finite = report["ratings"]["finite"] and len(participants) > 1
    figure = Figure(figsize=(10 if finite else 6, 1.8 + 0.45 * len(names)), layout="constrained")
    axes = figure.subplots(1, 2 if finite else 1, squeeze=False)[0]
    rates = [100 * (p["win_rate"] or 0.0) for p in participants]
    low = [r - 100 * p["ci95"][0] for r, p in zip(rates, participants, strict=True)]
    high = [100 * p["ci95"][1] - r for r, p in zip(rates, participants, strict=True)]
    axes[0].errorbar(rates, names, xerr=[low, high], fmt="o", capsize=4)
    axes[0].axvline(100 / report["settings"]["players"], color="grey", linestyle=":", linewidth=1)
    axes[0].set_xlabel(textwrap.fill(t("tour_plot_rate"), 45))  # two lines if long: no overlap
    axes[0].set_xlim(0, 100)
    for ax in axes:
        ax.margins(y=0.4)
    if finite:
        ratings = [p["rating"] for p in participants]
        errors = [Z95 * p["rating_se"] for p in participants]
        axes[1].errorbar(ratings, names, xerr=errors, fmt="s", color="tab:red", capsize=4)
        axes[1].axvline(0, color="grey", linestyle=":", linewidth=1)
        axes[1].set_xlabel(textwrap.fill(t("tour_plot_rating"), 45))
        axes[1].tick_params(labelleft=False)
    else:  # say why the ratings' panel is missing, as the table does
        figure.supxlabel(textwrap.fill(_no_ratings(report, t), 80), fontsize="small")
    s = report["settings"]
    mode = _mode(s, t)
    figure.suptitle(t("tour_header", mode=mode, edition=t.edition(s["edition"]), players=s["players"],
                      seed=s["seed"]))
    figure.savefig(path, format="png", dpi=100)


def _level_name(participant: dict[str, Any], t: Translator) -> str:
    """A level in words, with the number of seats it holds where more than one ("expert" and a
    multiplication sign, then 2), in the table and the plot alike."""
    seats = participant["seats"]
    return t.level(participant["level"]) + (f" ×{seats}" if seats > 1 else "")


def _mode(s: dict[str, Any], t: Translator) -> str:
    """``1000 single rounds``, ``1 match``: what was played, in words."""
    one = s["games"] == 1
    if s["mode"] == "rounds":
        return t("tour_mode_round" if one else "tour_mode_rounds", games=grouped(s["games"]))
    return t("tour_mode_match" if one else "tour_mode_matches", games=grouped(s["games"]))
