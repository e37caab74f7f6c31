"""The server's own lines in its log, in its operator's language (``loveletter serve --lang nl``):
the lines the server prints as it starts and stops were Dutch, and those it logged while it served
English. (uvicorn's lines, and a database's or the system's own words quoted in ours, stay theirs.)"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from loveletter.i18n import Translator

_language = Translator("en")


@contextlib.contextmanager
def written_in(t: Translator) -> Iterator[None]:
    """Write the log in ``t``'s language meanwhile (the server's, chosen as it starts)."""
    global _language
    before, _language = _language, t
    try:
        yield
    finally:
        _language = before


def said(key: str, **params: Any) -> str:
    """The log's line ``key`` in the operator's language."""
    return _language(key, **params)
