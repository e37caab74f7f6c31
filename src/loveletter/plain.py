"""Text for an output whose encoding lacks some of the game's characters (a Windows code page,
``LANG=C``): a plain stand-in for each, where "?" would change the sense, and a terminal's size where
rich does not find it.

:func:`plainly` words a table's cells before rich lays them out (a wider stand-in written afterwards
pushed the columns after it out of line); the error handler :data:`PLAINLY` writes the rest as it
goes out (:func:`loveletter.cli.start.write_any_character`).
"""

from __future__ import annotations

import codecs
import os
import shutil
import unicodedata
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

#: What the output writes for a character its encoding lacks, where "?" would change the sense: a
#: rating's minus sign, a chance's "≈ 56% ± 5", the tokens' heart, a number's thin space ("3 600").
PLAIN = {"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u00b7": "-", "\u2022": "*", "\u2192": "->", "\u2190": "<-",
         "\u2248": "~", "\u00b1": "+/-", "\u2026": "...", "\u2265": ">=", "\u2264": "<=", "\u00d7": "x",
         "\u2665": "<3", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"',
         "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u2007": " "}
#: The error handler that writes :data:`PLAIN`'s stand-ins (see :func:`plain`).
PLAINLY = "loveletter-plain"


def plain(err: UnicodeError) -> tuple[str, int]:
    """A stand-in for each character of ``err`` the output's encoding lacks: :data:`PLAIN`'s, a box's
    line as "-", "|" or "+" (rich draws a table's lines so where the output is not UTF-8 itself), a
    letter without its accent ("é" as "e"; an accent written apart, nothing), else "?" (a card's heart
    had become "?", and a rating of minus 74, its sign U+2212, "?74")."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    shown = []
    for character in err.object[err.start:err.end]:
        if character in PLAIN:
            shown.append(PLAIN[character])
        elif "\u2500" <= character <= "\u257f":  # box drawing: a table's lines, a rule
            name = unicodedata.name(character, "")
            shown.append("-" if "HORIZONTAL" in name and "VERTICAL" not in name
                         else "|" if "VERTICAL" in name and "HORIZONTAL" not in name else "+")
        elif unicodedata.combining(character):
            continue
        else:
            bare = unicodedata.normalize("NFKD", character).encode("ascii", "ignore").decode()
            shown.append(bare or "?")
    return "".join(shown), err.end


codecs.register_error(PLAINLY, plain)


def plainly(text: str, encoding: str) -> str:
    """``text`` as an output in ``encoding`` writes it (:func:`plain`), for a table's cell to be
    measured as it will show."""
    try:
        return text.encode(encoding, PLAINLY).decode(encoding)
    except LookupError:  # (an encoding Python does not know: written as it is)
        return text


def console(**options: Any) -> Console:
    """A rich console with ``options``, as wide as ``COLUMNS`` or the terminal says on a "dumb" one
    (``TERM=dumb``: Emacs' shell, where a blind player's screen reader may read the game), which rich
    takes for 80 columns whatever they say: at 40 the terminal broke every line again mid-word."""
    from rich.console import Console

    if os.environ.get("TERM", "").lower() in ("dumb", "unknown") and "width" not in options:
        columns, lines = shutil.get_terminal_size()
        options = {**options, "width": columns, "height": lines}
    return Console(**options)
