"""Number, path and text options in words: ``--rounds abc`` is "not a whole number", ``--players 9`` "must be from 2
to 6", and help pages say ``[at least 1]`` rather than click's ``[x>=1]``, in the user's language.
A decimal comma is read as a point (``--delay 0,5``).
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import click

from loveletter.cli.click_dutch import gettext
from loveletter.engine.errors import shown
from loveletter.i18n import Translator, grouped

#: The language of the messages: set once the command line's ``--lang`` is known.
language = "en"


def _number(value: float) -> str:
    return grouped(value) if isinstance(value, int) else f"{value:g}"


class _InWords:
    """What both kinds of range share: the range and the errors worded by :class:`Translator`."""

    min: Any
    max: Any
    _whole: bool
    _checked = True  # whether the range is checked here (else only shown in the help page)

    def _describe_range(self) -> str:  # click shows this in the help page: [at least 1]
        t = Translator(language)
        if self.min is None:  # any number (Whole() for a seed): nothing to show
            return ""
        if self.max is None:
            return t("cli_range_at_least", low=_number(self.min))
        return t("cli_range_between", low=_number(self.min), high=_number(self.max))

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        t = Translator(language)
        if self._whole and isinstance(value, str) and _GROUPED.fullmatch(value.strip()):
            value = _GROUP_SPACE.sub("", value)  # "1 200", as the help pages write the defaults
        if self._whole and isinstance(value, str) and _GROUPED_BY_MARKS.fullmatch(value.strip()):
            # "1.200" is 1200 to a Dutch reader, "1,200" to an English one, and 1.2 the other way
            # round: told how to write it, not that it is "not a whole number"
            whole = int(re.sub("[.,]", "", value))
            self.fail(t("cli_grouped_by_marks", value=shown(value), plain=str(whole), grouped=grouped(whole)),  # type: ignore[attr-defined]
                      param, ctx)
        try:
            if isinstance(value, str) and (not value.isascii() or "_" in value):
                # Python reads "3_0" as 30 and other scripts' digits ("٣") too: not as they are typed
                # elsewhere (a seat number, a move number), where they are refused
                raise ValueError(value)
            # a decimal comma, as Dutch writes it, is a decimal point
            number = int(value) if self._whole else float(str(value).replace(",", "."))
        except (TypeError, ValueError):
            number = math.nan
        if number != number and self._whole and _too_many_digits(str(value)):
            # a whole number, but longer than Python reads (5,000 digits were "not a whole number")
            self.fail(t("cli_too_long", value=shown(str(value)), most=grouped(sys.get_int_max_str_digits())),  # type: ignore[attr-defined]
                      param, ctx)
        if number != number:  # not a number at all (or "nan", which no range holds)
            self.fail(t("cli_not_whole" if self._whole else "cli_not_number", value=shown(str(value))), param, ctx)  # type: ignore[attr-defined]
        if self._checked and (
                (self.min is not None and number < self.min) or (self.max is not None and number > self.max)):
            self.fail(t("cli_out_of_range", value=shown(value) if isinstance(value, str) else _number(number), range=self._describe_range()), param, ctx)  # type: ignore[attr-defined]
        return number


#: A whole number in groups of three digits, split by a space as :func:`~loveletter.i18n.grouped`
#: writes them in the help pages (a thin space), or a plain or no-break one: ``1 200``, ``10 000 000``.
_GROUP_SPACE = re.compile("[ \u00a0\u2009\u202f]")
_GROUPED = re.compile(f"[+-]?[0-9]{{1,3}}(?:{_GROUP_SPACE.pattern}[0-9]{{3}})+")
#: A whole number in groups of three digits split by points or commas: ``1.200``, ``10,000`` (not
#: ``0.500``: a first group of 0 is a decimal fraction in every way of writing).
_GROUPED_BY_MARKS = re.compile("[+-]?[1-9][0-9]{0,2}(?:[.,][0-9]{3})+")


def _too_many_digits(text: str) -> bool:
    """Whether ``text`` is a whole number (a sign at most, then digits) longer than Python reads."""
    text = text.strip()
    digits = text[1:] if text.startswith(("+", "-")) else text
    return digits.isascii() and digits.isdecimal() and len(digits) > sys.get_int_max_str_digits() > 0


class Whole(_InWords, click.IntRange):
    """A whole number from ``low`` (to ``high``, if given; any whole number without either)."""

    _whole = True

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        super().__init__(low, high)


class Players(Whole):
    """A number of players: from 2 to 6 in the help page, where the edition may not be known yet, and
    checked by the command against the edition's own range (R2.1), which alone names the right one:
    "1 is out of range: from 2 to 6" led to "the classic edition is for 2-4 players, not 5"."""

    _checked = False

    def __init__(self) -> None:
        super().__init__(2, 6)


class Amount(_InWords, click.FloatRange):
    """A number, not necessarily whole, from ``low`` to ``high``."""

    _whole = False

    def __init__(self, low: float, high: float) -> None:
        super().__init__(low, high)


class OneOf(click.Choice[str]):
    """One of ``choices`` (in any case); another is refused with the choices as a sentence offers them
    ("choose '2019' or 'classic'"), in the user's language: click listed them with commas alone."""

    def __init__(self, choices: Sequence[str]) -> None:
        super().__init__(choices, case_sensitive=False)

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        t = Translator(language)
        return t("cli_not_a_choice", value=shown(str(value)), choices=t.join_choices([repr(c) for c in self.choices]))


class Filled(click.ParamType[str, Any]):
    """Text that is not empty nor only spaces: refused as other bad values are, ``empty`` (a message
    key) saying what to give instead."""

    name = "text"

    def __init__(self, empty: str) -> None:
        self._empty = empty

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        _refuse_empty(self, value, self._empty, param, ctx)
        return str(value)


class Addresses(click.ParamType[str, Any]):
    """Internet addresses or networks, with commas between them (``127.0.0.1,::1``, ``10.0.0.0/8``):
    given back as networks, written as every reader takes them (``172.17.0.1/16`` is
    ``172.17.0.0/16``: uvicorn, given the first, took it for no address at all)."""

    name = "addresses"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        networks = []
        # (a comma too many, "127.0.0.1,", is no address left out: it was "'' is not an internet address")
        for address in filter(None, (given.strip() for given in str(value).split(","))):
            try:
                networks.append(str(ipaddress.ip_network(address, strict=False)))
            except ValueError:
                self.fail(Translator(language)("cli_not_an_address", value=shown(address)), param, ctx)
        if not networks:  # (nothing given, or spaces and commas alone)
            self.fail(Translator(language)("cli_addresses_empty"), param, ctx)
        return ",".join(networks)


def _refuse_empty(kind: click.ParamType[Any, Any], value: Any, empty: str, param: click.Parameter | None,
                  ctx: click.Context | None) -> None:
    """Refuse ``value`` as ``kind`` refuses bad values if it is empty or only spaces, saying the
    message ``empty`` (what to give instead)."""
    if isinstance(value, str) and not value.strip():
        kind.fail(Translator(language)(empty), param, ctx)


#: The project's words for click's kinds of path, where they differ ("Folder '…' is a file").
_ENGLISH_NOUNS = {"directory": "folder"}


#: What a :class:`GivenPath` option with ``dash=True`` holds when given "-" (standard output): to be
#: compared by identity, since ``Path("./-") == Path("-")``, and "./-" names a file called "-".
DASH = Path("-")


class GivenPath(click.Path):
    """A path that is not the empty string (which would quietly mean the current folder).

    ``names="file"`` or ``"folder"`` says what the option takes, for that refusal's wording, where the
    command checks the kind itself (in its own words) and so leaves ``file_okay`` and ``dir_okay`` on.
    ``dash=True``: "-" is :data:`DASH`, for the command to take as standard output (or refuse).
    """

    def __init__(self, *, names: Literal["file", "folder"] | None = None, dash: bool = False,
                 **options: Any) -> None:
        super().__init__(**options)
        self._dash = dash
        self._file = names == "file" or not self.dir_okay
        self._noun = "file" if not self.dir_okay else "directory" if not self.file_okay else "path"
        self._empty = {"file": "cli_empty_file", "directory": "cli_empty_folder", "folder": "cli_empty_folder"
                       }.get(names or self._noun, "cli_empty_path")

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        _refuse_empty(self, value, self._empty, param, ctx)
        if self._dash and value == "-":
            return DASH
        if self._file and isinstance(value, str) and value.endswith(("/", os.sep)):
            # a file's name with a folder's ending: as a Path, "out.csv/" is "out.csv", which was
            # written over (and "out/" made a file named out)
            self.fail(Translator(language)("cli_file_ends_in_slash", path=value), param, ctx)
        # click names the kind of path in its errors ("Directory '…' is a file") from the moment the
        # option is declared, before --lang is known: name it in the user's language now
        self.name = gettext(self._noun) if language == "nl" else _ENGLISH_NOUNS.get(self._noun, self._noun)
        return super().convert(value, param, ctx)
