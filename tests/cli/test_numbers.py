"""Number options in words (cli/numbers.py): what is refused and how it is worded, in both languages,
and the ranges on the help pages."""

from __future__ import annotations

import click
import pytest

from loveletter.cli import numbers
from loveletter.cli.numbers import Amount, Whole

from .test_click_dutch import run


@pytest.fixture
def dutch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(numbers, "language", "nl")


def refusal(kind: click.ParamType, value: str) -> str:
    with pytest.raises(click.BadParameter) as err:
        kind.convert(value, None, None)
    return err.value.message


@pytest.mark.parametrize(("kind", "value", "message"), [
    (Whole(1), "abc", "'abc' is not a whole number."),
    (Whole(1), "1.5", "'1.5' is not a whole number."),
    (Whole(1), "0", "0 is out of range: it must be at least 1."),
    (Whole(2, 6), "7", "7 is out of range: it must be from 2 to 6."),
    (Whole(1, 10**7), "10000001", "10000001 is out of range: it must be from 1 to 10\u2009000\u2009000."),
    (Amount(0, 10), "x", "'x' is not a number."),
    (Amount(0, 10), "nan", "'nan' is not a number."),
    (Amount(0, 10), "-0.5", "-0.5 is out of range: it must be from 0 to 10."),
    (Amount(0, 10), "1e400", "1e400 is out of range: it must be from 0 to 10."),
    # more digits than Python reads: "not a whole number", and all 5,000 of them echoed
    (Whole(), "9" * 5000, f"'{'9' * 40}…' is too long a number (at most 4\u2009300 digits)."),
    (Whole(1), "x" * 500, f"'{'x' * 40}…' is not a whole number."),
    (Whole(1), "--5", "'--5' is not a whole number."),  # not "too long a number", nor these
    (Whole(1), "²", "'²' is not a whole number."),
    (Whole(1), "3_0", "'3_0' is not a whole number."),  # (Python's int() read 30, float() 30.0)
    (Whole(1), "\u0663", "'\u0663' is not a whole number."),  # an Arabic-Indic 3, as a move number is refused
    (Amount(0, 10), "1_0", "'1_0' is not a number."),
    (Amount(0, 10), "\uff15", "'\uff15' is not a number."),  # a full-width 5
    (Whole(1), "-" + "9" * 4301, f"'-{'9' * 39}…' is too long a number (at most 4\u2009300 digits)."),
])
def test_refusals_in_english(kind, value, message):
    assert refusal(kind, value) == message


@pytest.mark.parametrize(("kind", "value", "message"), [
    (Whole(1), "abc", "'abc' is geen geheel getal."),
    (Whole(1), "0", "0 valt buiten het bereik: het moet minstens 1 zijn."),
    (Whole(2, 6), "1", "1 valt buiten het bereik: het moet van 2 tot en met 6 zijn."),
    (Amount(0, 10), "x", "'x' is geen getal."),
    (Whole(), "9" * 5000, f"'{'9' * 40}…' is een te lang getal (hoogstens 4\u2009300 cijfers)."),
])
def test_refusals_in_dutch(dutch, kind, value, message):
    assert refusal(kind, value) == message


@pytest.mark.parametrize(("language", "value", "message"), [
    ("nl", "1.200", "'1.200': schrijf het getal zonder punten of komma's, als 1200 of 1\u2009200."),
    ("en", "1,200", "'1,200': write the number without points or commas, as 1200 or 1\u2009200."),
    ("en", "10.000.000", "'10.000.000': write the number without points or commas, as 10000000 or 10\u2009000\u2009000."),
])
def test_a_whole_number_grouped_by_points_or_commas_is_told_how_to_write_it(monkeypatch, language, value, message):
    """"1.200" is a whole number to a Dutch reader (and "1,200" to an English one), but 1.2 to the
    other: told "not a whole number", a Dutch reader was told something untrue."""
    monkeypatch.setattr(numbers, "language", language)
    assert refusal(Whole(1), value) == message


@pytest.mark.parametrize("value", ["0.500", "0,005", "-0.000"])
def test_a_fraction_written_with_three_decimals_is_no_whole_number(value):
    """"0.500" was told to be written "as 500 or 500": a first group of 0 is a fraction, however written."""
    assert refusal(Whole(1), value) == f"{value!r} is not a whole number."


def test_accepted_values():
    assert Whole(2, 6).convert("6", None, None) == 6 and Whole(1).convert(10**9, None, None) == 10**9
    assert Amount(0, 10).convert("0,5", None, None) == 0.5  # a Dutch decimal comma
    assert Amount(0, 10).convert("10", None, None) == 10.0 and Amount(0, 10).convert(0.8, None, None) == 0.8


def test_a_whole_number_in_groups_of_three_as_the_help_pages_write_it():
    """The help pages write a default as "1 200" (a thin space between the groups); typed so, it was
    "not a whole number"."""
    for typed in ("1\u2009200", "1 200", "1\u00a0200", "10 000 000", "-1 000"):
        assert Whole().convert(typed, None, None) == int(typed.replace("\u2009", "").replace("\u00a0", "").replace(" ", ""))
    for wrong in ("12 00", "1 2000", "1  200", " 1,20", "1 200.5"):
        assert refusal(Whole(), wrong) == f"{wrong!r} is not a whole number."
    assert refusal(Amount(0, 10), "1 2") == "'1 2' is not a number."


def test_help_pages_give_the_ranges_in_words():
    english = " ".join(run("play", "--help").stdout.split())
    assert "[from 2 to 6]" in english and "[from 1 to 10 000 000]" in english  # (split() takes the thin spaces too)
    assert "x>=" not in english and "<=x" not in english
    dutch = " ".join(run("tournament", "--lang", "nl", "--help").stdout.split())
    assert "[minstens 1]" in dutch and "x>=" not in dutch


def test_a_refused_number_on_the_command_line():
    proc = run("play", "--delay", "soon")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == ("loveletter play: Invalid value for '--delay': 'soon' is not a number."
                                   " (see 'loveletter play --help')")


def test_addresses_are_read_as_networks_every_reader_takes():
    """``172.17.0.1/16`` was passed on as typed, and uvicorn, reading it strictly, took it for no
    address at all: the proxy there was never believed."""
    from loveletter.cli.numbers import Addresses

    assert Addresses().convert(" 172.17.0.1/16, ::1,10.0.0.7", None, None) == "172.17.0.0/16,::1/128,10.0.0.7/32"
    with pytest.raises(click.BadParameter, match=r"1\.2\.3\.x is not an internet address"):
        Addresses().convert("127.0.0.1,1.2.3.x", None, None)
    # a comma too many is no address ("Invalid value for '--proxy':  is not an internet address")
    assert Addresses().convert("127.0.0.1, ,::1,", None, None) == "127.0.0.1/32,::1/128"
    with pytest.raises(click.BadParameter, match="no address: give one or more"):
        Addresses().convert(" , ,", None, None)
