"""A game record told as a story (``loveletter replay FILE``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rich.cells import cell_len

from loveletter.i18n import Translator
from loveletter.narrate import bots_named_in, event_lines, match_result, names_apart, scores
from loveletter.record import Replayed

#: The most characters a replay may tell. A record's names are in nearly every line, so a record of
#: 62 MB with two names 31 million letters long told 56 GB (and held gigabytes in memory); a match to
#: 99 tokens, the most a record allows, with six players named 24 letters each, tells about a million.
MAX_STORY = 64_000_000


def tell(replayed: Replayed, t: Translator) -> Iterator[str]:
    """Every round's events, everything shown (a record holds the whole game), and the result: line
    by line, as they are told (the whole story may be long: :data:`MAX_STORY`)."""
    match = replayed.match
    names = names_apart(bots_named_in(replayed.names, t))  # (a browser table's bots in this language)
    yield t("replay_header_one" if match.target == 1 else "replay_header", edition=t.edition(match.edition.name),
            players=t.join_names(names), target=match.target)
    tokens = [0] * match.players
    for number, rnd in enumerate(match.rounds, start=1):
        yield ""
        yield t("replay_round", round=number)
        for event in rnd.log or ():
            yield from event_lines(event, names, t, number)
        if not rnd.over:
            yield t("replay_unfinished")
            continue
        for s in rnd.winners:
            tokens[s] += 1
        if rnd.spy_bonus is not None:
            tokens[rnd.spy_bonus] += 1
        yield t("score", scores=scores(names, tokens))
    yield ""
    yield match_result(match, names, t)


def wrapped(lines: Iterable[str], width: int) -> Iterator[str]:
    """``lines`` as a terminal ``width`` wide shows them: a long one broken between words, its
    following lines indented (a terminal breaks it anywhere, mid-word). Words are never split.
    Widths are the terminal's cells: a Chinese character or an emoji takes two."""
    for line in lines:
        if cell_len(line) <= width:
            yield line
            continue
        row = ""
        for word in line.split():
            joined = f"{row} {word}" if row.strip() else row + word
            if row.strip() and cell_len(joined) > width:
                yield row
                row = "  " + word
            else:
                row = joined
        yield row
