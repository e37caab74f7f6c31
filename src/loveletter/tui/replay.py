"""A game record told as a story (``loveletter replay FILE``)."""

from __future__ import annotations

from rich.cells import cell_len

from loveletter.i18n import Translator
from loveletter.narrate import names_apart, narrate_all
from loveletter.record import Replayed


def tell(replayed: Replayed, t: Translator) -> list[str]:
    """Every round's events, everything shown (a record holds the whole game), and the result."""
    match = replayed.match
    names = names_apart(replayed.names)
    lines = [
        t("replay_header_one" if match.target == 1 else "replay_header", edition=t.edition(match.edition.name),
          players=t.join_names(names), target=match.target),
    ]
    tokens = [0] * match.players
    for number, rnd in enumerate(match.rounds, start=1):
        lines += ["", t("replay_round", round=number)]
        lines += narrate_all(rnd.log or (), names, t, number)
        if not rnd.over:
            lines.append(t("replay_unfinished"))
            continue
        for s in rnd.winners:
            tokens[s] += 1
        if rnd.spy_bonus is not None:
            tokens[rnd.spy_bonus] += 1
        lines.append(t("score", scores=_scores(names, tokens)))
    lines.append("")
    if match.over:
        winners = [names[s] for s in match.winners]
        key = "replay_match_over_one" if len(winners) == 1 else "replay_match_over"
        lines.append(t(key, name=winners[0], names=t.join_names(winners), scores=_scores(names, match.tokens)))
    else:
        lines.append(t("replay_match_going", scores=_scores(names, match.tokens)))
    return lines


def _scores(names: list[str], tokens: list[int]) -> str:
    return ", ".join(f"{n} {k}" for n, k in zip(names, tokens, strict=True))


def wrapped(lines: list[str], width: int) -> list[str]:
    """``lines`` as a terminal ``width`` wide shows them: a long one broken between words, its
    following lines indented (a terminal breaks it anywhere, mid-word). Words are never split.
    Widths are the terminal's cells: a Chinese character or an emoji takes two."""
    shown: list[str] = []
    for line in lines:
        if cell_len(line) <= width:
            shown.append(line)
            continue
        row = ""
        for word in line.split():
            joined = f"{row} {word}" if row.strip() else row + word
            if row.strip() and cell_len(joined) > width:
                shown.append(row)
                row = "  " + word
            else:
                row = joined
        shown.append(row)
    return shown
