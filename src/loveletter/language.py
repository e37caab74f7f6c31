"""Which of our languages the user reads: ``--lang`` on the command line, else the locale's.

dev.py asks it before anything is installed, under whatever Python runs it, to say even "needs
Python 3.11" in the user's language: so this module needs the standard library alone, and reads
under Python 3.6 (no ``from __future__ import annotations``: its annotations are quoted).
"""

import locale
import os

LANGUAGES = ("en", "nl")


def default_language() -> str:
    """The language of the user's locale where it is one of ours (``"nl"`` when it is Dutch), else
    ``"en"`` (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
    LANGUAGE is a list in order of preference, as gettext reads it: its first language we have
    (``fy:nl``, Frisian and then Dutch: Dutch), English where it names none of ours before ``C`` or
    ``POSIX`` (the untranslated messages)."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            for entry in value.lower().split(":") if var == "LANGUAGE" else [value.lower()]:
                if entry in ("c", "posix") or entry.startswith("c."):
                    return "en"
                found = _ours(entry)
                if found is not None:
                    return found
            return "en"
    return _ours((locale.getlocale()[0] or "").lower()) or "en"


def _ours(tag: str) -> "str | None":
    """The one of our languages that ``tag`` (small letters: ``nl_be.utf-8``) names, if any."""
    return next((code for code in LANGUAGES if tag.startswith(code)), None)


def language_named(args: "list[str]") -> "str | None":
    """The language given with ``--lang`` among the command line's ``args``, if it is one we have
    (the last one, as click takes the last of a repeated option)."""
    named = None
    for n, arg in enumerate(args):
        value = arg.partition("=")[2] if arg.startswith("--lang=") else (
            args[n + 1] if arg == "--lang" and n + 1 < len(args) else None)
        if value is not None and value.lower() in LANGUAGES:  # (click reads "NL" too)
            named = value.lower()
    return named
