"""The JSON bodies of the lobby's requests, read strictly: a new table's settings, a name to join
with, a seat's credential for a rematch."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from loveletter.web.table import Refused


class Body(BaseModel):
    """A request body: a field it does not know is refused, not passed over (a ``"budget"`` would
    look taken)."""

    model_config = ConfigDict(extra="forbid")


class NewTable(Body):
    """A new table's settings. Types are strict (``true`` is no number, ``"5"`` no whole number);
    the ranges are checked by :func:`~loveletter.web.table.new_settings`, which says what they are.
    The bots' seats are JSON keys, so text: read by :func:`seat_numbers`."""

    name: StrictStr  # its length: clean_name's to refuse, in its words (the body's size: BodyLimit)
    edition: StrictStr = Field(default="classic", max_length=20)
    players: StrictInt = 2
    target: StrictInt | None = None
    bots: dict[StrictStr, StrictStr] = Field(default_factory=dict, max_length=6)  # (a seat for each; the seat checks say what is wrong)
    private: StrictBool = False
    bot_timeout: StrictFloat | None = None  # (a whole number is taken too)
    # the level that plays for someone away, after the timeout or when a player asks (none: the default level)
    stand_in: StrictStr | None = Field(default=None, max_length=20)


def seat_numbers(bots: dict[str, str]) -> dict[int, str]:
    """The bots by seat number: ``"1"``, not ``"01"``, ``"1.0"`` or ``" 1"`` (read as 1 too, two
    of them would name one seat, and one bot would be lost without a word)."""
    seats = {}
    for key, level in bots.items():
        if not re.fullmatch(r"0|[1-9][0-9]{0,5}", key):
            raise Refused("web_err_bot_seat_number", seat=key[:20])
        seats[int(key)] = level
    return seats


class Joining(Body):
    name: StrictStr


class Rematch(Body):
    secret: StrictStr = Field(max_length=200)
