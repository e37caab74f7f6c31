"""The terminal game: you against bots, line by line, so it also runs from a script on stdin.

Every turn of yours shows the table (discards in order, who is out or protected, deck size, tokens),
your hand with values and effects, what you privately know, the card tracker and your numbered moves.
The bots' moves are narrated. The match record is saved after every round and when you quit
(``q``, Ctrl-C or the end of the input), and also when the terminal is closed (SIGHUP) or the game
is told to end (SIGTERM).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import functools
import random
import re
import secrets
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment, Segments
from rich.table import Table
from rich.text import Text

from loveletter import plain
from loveletter.bots import LEVELS, Bot, ExpertBot, choose_in_sight, make_bot
from loveletter.bots.expert import Estimate
from loveletter.engine import (
    TARGETED,
    Action,
    Card,
    Edition,
    IllegalActionError,
    Match,
    NotationError,
    Phase,
    View,
    view,
)
from loveletter.folders import NoHomeFolder, data_folder, through_link
from loveletter.i18n import LANGUAGES, Translator, grouped
from loveletter.narrate import (
    looks_like_any,
    narrate,
    not_text,
    one_line,
    round_end_parts,
    scores,
    visible,
    without_invisible,
)
from loveletter.percentages import best_moves, hint_text, shown_percentages, spoken_percentage
from loveletter.record import save, temporary, to_record
from loveletter.signals import STOPPING, handled

HUMAN = 0
SECRET_SEED_BITS = 64  # a match's seed unless given
BOT_NAMES = ["Bram", "Cas", "Dewi", "Eva", "Fenna", "Gijs"]
MAX_LINE = 1_000  # characters in a line of input: far more than any move
MAX_SKIPPED = 1_000_000  # characters read past in search of a line's end before taking it as the input's end


@dataclass
class GameSettings:
    edition: Edition
    players: int
    bots: list[str]
    language: str
    seed: int | None = None
    target: int | None = None
    name: str | None = None
    records: Path | None = None
    delay: float = 0.0  # seconds from the move before to each bot move (its thinking included), to follow
    starter: int | None = None  # who starts the first round; None: drawn from the seed
    budget: int | None = None  # the searching bots' thinking budget (iterations); None: their default
    hints: bool = False  # show the expert's estimates for the human's moves and its belief
    # laid out for a screen reader: headings without rules, a line per player, no spinner (each of
    # its frames is new text to a screen reader)
    screen_reader: bool = False


class Quit(Exception):
    """The player asked to stop (q, Ctrl-C or the end of the input)."""


class Interrupted(Quit):
    """The player stopped with Ctrl-C: saved as a quit is, with the exit status of an interrupt."""


class LineTooLong(Exception):
    """A line of input longer than any move (:data:`MAX_LINE`): read past, not kept."""


class Stopped(Exception):
    """The terminal was closed (SIGHUP) or the game told to end (SIGTERM): saved as a quit is."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: What writing to a terminal that was closed raises: an OSError, or (rich, when its output is a closed
#: pipe) SystemExit. Such a terminal takes no more lines, and the game goes on to save its record.
TERMINAL_GONE = (OSError, SystemExit)

def stops_caught() -> contextlib.AbstractContextManager[None]:
    """Meanwhile, SIGHUP and SIGTERM raise :class:`Stopped`: the game then saves its record rather
    than dying with it unwritten."""

    def stop(signum: int, _frame: object) -> None:
        raise Stopped(signum)

    return handled(STOPPING, stop)


def _signals_ignored() -> contextlib.AbstractContextManager[None]:
    """On the way out: a second Ctrl-C, hang-up or stop must not cut the record's saving short."""
    return handled((signal.SIGINT, *STOPPING), signal.SIG_IGN)


def default_records_folder() -> Path:
    """Where records go by default: ``$XDG_DATA_HOME/loveletter/records`` (``~/.local/share/...``)."""
    return data_folder() / "records"


class TerminalGame:
    def __init__(self, settings: GameSettings, read_line: Callable[[], str], console: Console,
                 record_path: Path | None = None) -> None:
        self.settings = settings
        self.t = Translator(settings.language)
        self.console = console
        self.read_line = read_line
        human = one_line(settings.name or "")  # one line: a newline would split the table
        if not visible(human):  # blank, or only invisible characters
            human = self.t("player")
        # Names must be distinct (docs/record.md): bots skip a name that looks like the human's ("BRAM",
        # or "Bram" with a zero-width space), or like a bot's label ("Bram (expert bot)").
        self.names = [human] + [n for n in BOT_NAMES if not _looks_like_bot(human, n)][: settings.players - 1]
        # Unless given, the seed is secret: it fixes every deal, so a guessable one (the clock, or
        # one of 31 bits, all tried against the cards a player sees in hours) would let a player
        # work out the hidden cards.
        seed = settings.seed if settings.seed is not None else secrets.randbits(SECRET_SEED_BITS)
        self.seed = seed
        # R3.5: the players choose who starts; by default, as in casual play, it is drawn at
        # random (from the seed, so the same seed gives the same game). Not from the stream that
        # shuffles the deck: its first number also placed the deck's first card (a Guard; a Spy in
        # 2019), so the starter told where that card was likely to be, the set-aside card too.
        starter = settings.starter if settings.starter is not None else starter_of(seed, settings.players)
        self.match = Match(settings.edition, settings.players, target=settings.target, seed=seed, starter=starter)
        self.bots: dict[int, Bot] = {
            seat: make_bot(level, seed * 31 + seat, settings.budget)
            for seat, level in enumerate(settings.bots, start=1)
        }
        # The adviser sees exactly what the human sees: the human's own view.
        # It reads each bot by its level, which the table shows (a random bot's plays say little).
        levels = dict(enumerate(settings.bots, start=1))
        self.adviser = ExpertBot(seed * 31, settings.budget, levels=levels) if settings.hints else None
        self._legend_said = False  # (for a screen reader, the hints' legend once a match: see _show_table)
        self.record_path = record_path or _new_record_path(settings.records or default_records_folder())
        self.saved = False
        self._unsaved: str | None = None  # the last failure to save the record told, if any
        self.told = 0  # events of the current round already narrated

    # ----------------------------------------------------------------------------- the loop

    def run(self) -> int:
        """Play the match; the exit status (128 + the signal's number if a signal stopped it)."""
        stop: BaseException | None = None
        try:
            self._play_match()
        except (Quit, KeyboardInterrupt, Stopped) as why:  # Ctrl-C while a bot thinks quits the same way
            stop = why
        except TERMINAL_GONE as gone:
            # the terminal closed while the hints' spinner turned: its last write, on the way out of
            # the hang-up, failed, and hid it (status 1, "could not write the output", to no one;
            # rich raises SystemExit while handling the broken pipe: the hang-up is further back)
            hidden = gone.__context__
            while hidden is not None and not isinstance(hidden, Stopped):
                hidden = hidden.__context__
            if hidden is None:
                raise
            stop = hidden
        finally:
            while True:  # a hang-up pending as the game ended comes before the signals are ignored
                try:
                    with _signals_ignored():
                        self._save()  # first: telling a closed terminal may end the process (_tell_quit)
                        if stop is not None:
                            self._tell_quit()
                    break
                except Stopped as late:
                    stop = late
        if isinstance(stop, Stopped):
            return 128 + stop.signum
        if isinstance(stop, (KeyboardInterrupt, Interrupted)):
            return 128 + signal.SIGINT  # 130, as a shell tells a program stopped by Ctrl-C
        return 0 if self.saved else 1

    def _tell_quit(self) -> None:
        with contextlib.suppress(*TERMINAL_GONE):
            self.console.print()
            self._say(self.t("quit"))
            if self.match.round.phase is Phase.CHANCELLOR:  # a record holds whole turns only (docs/record.md)
                self._say(self.t("quit_chancellor_unsaved"))

    def _play_match(self) -> None:
        match = self.match
        self._introduce_players()
        while True:
            self.told = 0
            while not match.round.over:
                self._tell_news()
                seat = match.current
                me = view(match, seat)
                if seat == HUMAN:
                    match.apply(self._ask_human(me))
                else:
                    match.apply(self._bot_move(seat, me))
            self._tell_news()
            self._round_result()
            self._save()
            if match.over:
                break
            match.next_round()
        winners = [self.names[s] for s in match.winners]
        key = "match_won_one" if len(winners) == 1 else "match_won"
        self._say(Text(self.t(key, name=winners[0], names=self.t.join_names(winners)), style="bold magenta"))

    def _bot_move(self, seat: int, seen: View) -> Action:
        """The bot's move, shown ``delay`` after the last one, its thinking included (it came on top),
        and an expert thinks even with one legal move (:func:`choose_in_sight`): R7, an expert that
        answered at once told that its other card was the same, or beside a Countess a King or Prince."""
        started = time.monotonic()
        action = choose_in_sight(self.bots[seat], seen)
        if self.settings.delay:
            time.sleep(max(0.0, self.settings.delay - (time.monotonic() - started)))
        return action

    def _introduce_players(self) -> None:
        """Who sits where, and which bot plays at which level."""
        t = self.t
        players = [f"{name} ({t('you')})" if seat == HUMAN
                   else t("bot_level", name=name, level=t(f"level_{self.settings.bots[seat - 1]}"))
                   for seat, name in enumerate(self.names)]
        key = "players_at_table_one" if self.match.target == 1 else "players_at_table"
        self._say(t(key, players=", ".join(players), target=self.match.target))

    def _tell_news(self) -> None:
        """Narrate the events since last time, as the human seat sees them."""
        log = self.match.round.log or []
        number = len(self.match.rounds)
        for event in log[self.told:]:
            line = narrate(event.seen_by(HUMAN), self.names, self.t, number)
            if line and event.kind != "round_end":
                style = "bold" if event.kind == "setup" else ""
                self._say(Text(line, style=style))
        self.told = len(log)

    def _round_result(self) -> None:
        rnd, t = self.match.round, self.t
        ended = next(e for e in reversed(rnd.log or ()) if e.kind == "round_end")
        deck, tie, won, spy = round_end_parts(ended, self.names, t)
        for said in (deck, tie):
            if said is not None:
                self._say(said)
        self._say(Text(won, style="bold green"))
        if spy is not None:
            self._say(spy)
        self._say(t("score_target", scores=scores(self.names, self.match.tokens), target=self.match.target))
        self.console.print()

    def _save(self) -> None:
        try:
            save(to_record(self.match, self.names), self.record_path)
        except OSError as err:  # the folder was checked at the start, but disks fill and folders go
            self.saved = False
            told = f"loveletter play: {self.t('record_not_saved', path=self.record_path, reason=self._why_not(err))}"
            if told != self._unsaved:  # (told once, not again at each later round and at the end)
                print(told, file=sys.stderr)
                self._unsaved = told
        else:
            self.saved, self._unsaved = True, None

    def _why_not(self, err: OSError) -> str:
        """Why the record could not be written, naming what failed where it is not the record itself
        (its folder, replaced by a file during the game: "it already exists" said nothing)."""
        where = Path(err.filename) if err.filename else self.record_path
        if where == temporary(self.record_path):  # written first, then renamed
            where = self.record_path
        if isinstance(err, (FileExistsError, NotADirectoryError)) and where.exists() and not where.is_dir():
            reason = self.t("records_not_folder")
        else:
            reason = self.t.os_reason(err)
        return reason if where == self.record_path else f"{where}: {reason}"

    # ----------------------------------------------------------------------------- the human

    def _ask_human(self, me: View) -> Action:
        self._show_table(me)
        _forget_typed_ahead()
        legal = me.legal_actions
        while True:
            text = self._prompt()
            if text is None:  # (said why: not "nothing typed" as well)
                continue
            if text in ("q", "quit", "exit", "stop"):
                raise Quit
            if text in ("?", "h", "help", "hulp"):
                self._say(self.t("help" if me.edition.has(Card.CHANCELLOR) else "help_classic"))
                if self.adviser is not None and self.settings.screen_reader:  # (its legend is said once a match)
                    self._say(self.t("sr_hint_legend"))
                continue
            if not text:  # (Enter alone, or spaces: said, as every other line is answered)
                self._say(Text(self.t(_by_moves("nothing_typed", len(legal)), max=len(legal)), style="red"))
                continue
            if not_text(text):
                encoding = _input_encoding()
                self._say(Text(self.t("not_text", encoding={"utf-8": "UTF-8", "ascii": "ASCII"}.get(encoding, encoding)),
                               style="red"))
                continue
            if re.fullmatch(r"[+-]?[0-9]+\.?", text):  # a number, even signed, or as the list shows it ("1.")
                text = text.removesuffix(".")
                digits = text.lstrip("+-").lstrip("0")
                n = int(text) if len(digits) <= 9 else 10**9  # Python refuses to read thousands of digits
                if 1 <= n <= len(legal):
                    return legal[n - 1]
                self._no_such_number(text, len(legal))
                continue
            if re.fullmatch(r"[+-]?[0-9]*[.,]?[0-9]+(?:[eE][+-]?[0-9]+)?", text):  # 1.5, 1,5, 1e3: no move's number
                self._no_such_number(text, len(legal))
                continue
            if re.fullmatch(r"[+-]?\d+\.?", text):  # other digits (full-width, Arabic-Indic): not an unknown card
                self._say(Text(self.t("ascii_digits", n=text[:20]), style="red"))
                continue
            typed = text
            if me.edition.has(Card.CHANCELLOR) and self.t.card_word(text.split()[0]) == "keep":
                # as the choice's prompt reads ("Keep one card; …"); typed before the Chancellor is
                # played, the refusal then says when the choice comes (R5.9), not "unknown card 'keep'"
                text = "chancellor " + text
            try:
                action = self.t.parse_action(text)
            except NotationError as err:
                if text is not typed and "text" in err.params:  # quote what was typed, not the card put before it
                    err = NotationError(err.key, **{**err.params, "text": typed})
                reason = self.t.notation_error(err, me.edition.cards)  # suggest only this edition's cards
                self._say(Text(self.t("not_a_move", reason=reason), style="red"))
                continue
            try:
                probe = self.match.round.clone()
                probe.apply(action)
            except IllegalActionError as err:
                self._say(Text(self.t("illegal", reason=self.t.error(err, yours=True)), style="red"))
                continue
            return action

    def _no_such_number(self, text: str, moves: int) -> None:
        key = _by_moves("no_such_number", moves)
        shown = text if len(text) <= 20 else text[:20] + "…"
        self._say(Text(self.t(key, n=shown, max=moves), style="red"))

    def _say(self, text: str | Text) -> None:
        """One message, wrapped by words to the terminal's width without spaces left at the ends
        of the lines (:func:`_print_trimmed`)."""
        _print_trimmed(self.console, text if isinstance(text, Text) else Text(text))

    def _prompt(self) -> str | None:
        """The line typed, trimmed and in lower case; None for one too long, said so (and skipped)."""
        self.console.print(Text(self.t("prompt") + ": ", style="bold"), end="")
        try:
            line = self.read_line()
        except LineTooLong:
            self.console.print()
            self._say(Text(self.t("line_too_long", max=grouped(MAX_LINE)), style="red"))
            return None
        except (EOFError, KeyboardInterrupt, OSError) as why:  # OSError: a terminal that was closed (EIO)
            with contextlib.suppress(*TERMINAL_GONE):  # (which takes no more lines either)
                self.console.print()
            raise (Interrupted if isinstance(why, KeyboardInterrupt) else Quit) from None
        if not sys.stdin.isatty():
            # echo scripted input so the transcript reads well (its control codes, a terminal's
            # escapes among them, as spaces: the refusal that follows quotes them escaped)
            self.console.print(one_line(line))
        return without_invisible(line.removeprefix(_misread_bom(_input_encoding()))).strip().lower()

    # ----------------------------------------------------------------------------- showing

    def _show_table(self, me: View) -> None:
        t, c = self.t, self.console
        # a table where its columns fit side by side (their cells wrapped beside each other at 40 columns)
        table = None if self.settings.screen_reader or not self._table_fits() else self._players_table(me)
        if self.settings.screen_reader:
            self._say(Text(t("sr_round_title", round=me.round_number, turn=me.turn), style="bold"))
        else:
            c.rule(t("round_title", round=me.round_number, turn=me.turn))
        if table is None:
            self._say_players(me)
        else:
            _print_trimmed(c, table)
        deck = t("deck_size_one") if me.deck_size == 1 else t("deck_size", n=me.deck_size)
        if me.set_aside_taken:
            deck += f" ({t('set_aside_taken')})"
        if table is None:  # (each player's line says their tokens)
            deck += "; " + (t("sr_to_win_one") if me.target == 1 else t("sr_to_win", target=me.target))
        else:
            deck += f" · {t('tokens_column', target=me.target)}"  # (the ♥ column holds them)
        self._say(deck)
        if me.face_up:
            self._say(t("face_up", cards=t.cards(me.face_up)))
        self._show_knowledge(me)
        self._show_tracker(me)
        odds = self._show_hints(me)
        self._say(Text(t("your_hand"), style="bold"))
        if self.settings.screen_reader:  # a line of words a card ("[5]" read out as brackets)
            for card in me.hand:
                self._say(t("sr_hand_card", card=t.card(card), value=me.edition.value(card), effect=t.effect(card)))
        else:
            # grids: a long line wraps within its column, so what wraps stays indented under its own kind
            hand = _grid(3)
            for card in me.hand:
                hand.add_row(f"  [{me.edition.value(card)}]", f"{t.card(card)}:", t.effect(card))
            _print_trimmed(c, hand)
        if me.phase is Phase.CHANCELLOR:
            # (one card goes under where the Chancellor drew the deck's last: "the others go" was wrong)
            self._say(t("chancellor_prompt_one" if len(me.hand) == 2 else "chancellor_prompt"))
        self._say(Text(t("moves"), style="bold"))
        if odds and not (self.settings.screen_reader and self._legend_said):
            # read out, three lines at every turn buried its news: said at the first hints alone
            self._say(Text(t("sr_hint_legend" if self.settings.screen_reader else "hint_legend"), "dim"))
            self._legend_said = True
        if self.settings.screen_reader:
            self._say_moves(me, odds)
        else:
            self._show_moves(me, odds)

    def _say_moves(self, me: View, odds: dict[Action, Estimate]) -> None:
        """The numbered moves for a screen reader: a line of words each, its chance after it, without
        the notation (the same move read out twice, its columns' padding between) or an arrow."""
        t = self.t
        best = best_moves(odds)
        for i, action in enumerate(me.legal_actions, start=1):
            line = f"{i}. {self.describe(action, me)}"
            if action not in odds:
                self._say(line)
                continue
            chance = hint_text(odds[action], t, spoken=True) + (f", {t('hint_best')}" if action in best else "")
            if cell_len(f"{line}: {chance}") <= self.console.width:
                self._say(f"{line}: {chance}")
            else:  # the chance on a line of its own, indented (broken, "5" or "best" was read out alone)
                indent = len(f"{i}. ")
                _print_hanging(self.console, f"{line}:", indent)
                _print_hanging(self.console, " " * indent + chance, indent)

    @property
    def _between(self) -> str:
        """What stands between the parts of a line of figures: a middle dot, or for a screen reader
        a comma (which it pauses at, where it may read the dot out as a word)."""
        return ", " if self.settings.screen_reader else " · "

    def _seat_label(self, seat: int) -> str:
        return f"{seat} {self._name(seat)}"

    def _name(self, seat: int) -> str:
        """A seat's player by name, "(you)" after yours."""
        return self.names[seat] + (f" ({self.t('you')})" if seat == HUMAN else "")

    def _seat_words(self, seat: int) -> str:
        """A seat as a line of words names it, the name first ("Anna (you), seat 0"): read out, "0
        Anna" was a bare number before the name."""
        return self.t("seat_named", name=self._name(seat), seat=seat)

    def _seat_status(self, me: View, seat: int) -> list[str]:
        """What is true of a seat now: out or protected; to play."""
        t = self.t
        status = []
        if not me.alive[seat]:
            status.append(t("status_out"))
        elif me.protected[seat]:
            status.append(t("status_protected"))
        if seat == me.current and not me.over:
            status.append(t("status_turn"))
        return status

    def _say_players(self, me: View) -> None:
        """The table in words, for a screen reader or a terminal too narrow for its columns: a line
        per player, what a table's columns and its header say apart (a header read once, then rows
        of bare figures, or a heart for a word)."""
        t = self.t
        for seat in range(len(self.names)):
            label, status = self._seat_words(seat), self._seat_status(me, seat)
            tokens = t("sr_tokens_one") if me.tokens[seat] == 1 else t("sr_tokens", n=me.tokens[seat])
            discards = t.cards(me.discards[seat])
            line = (t("sr_player", player=label, tokens=tokens, discards=discards) if discards
                    else t("sr_player_no_discards", player=label, tokens=tokens))
            _print_hanging(self.console, "; ".join([line, *status]))

    def _table_fits(self) -> bool:
        """Whether the players' table (:attr:`_table_width`) fits the terminal, as wide as it is now."""
        return self._table_width <= self.console.width

    @functools.cached_property
    def _table_width(self) -> int:
        """The players' table's width: the names, the tokens, :data:`DISCARDS_ROOM` for the discards
        (more wrap within their column) and the longest status side by side. The same all game long:
        measured as shown each turn, it was a table one turn and lines of words the next, as discards
        grew past the width or a status came and went."""
        t = self.t
        labels = [plain.plainly(self._seat_label(seat), self.console.encoding) for seat in range(len(self.names))]
        widths = [max(map(cell_len, [t("player"), *labels])), 2, max(DISCARDS_ROOM, cell_len(t("discards"))),
                  max(cell_len(t("status")), cell_len(f"{t('status_protected')}, {t('status_turn')}"))]
        return sum(widths) + 2 * (len(widths) - 1)

    def _players_table(self, me: View) -> Table:
        t = self.t
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        # a name shown whole (folded within its column where the terminal is too narrow): rich cut a
        # name of 24 Chinese characters short ("你好…你好你") at 80 columns, to give the discards room
        table.add_column(t("player"), overflow="fold")
        table.add_column(plain.plainly("♥", self.console.encoding), justify="right")  # (measured as it will show)
        table.add_column(t("discards"))
        table.add_column(t("status"))
        for seat in range(len(self.names)):
            label, status = self._seat_label(seat), self._seat_status(me, seat)
            # Text, not a string: a name is shown as written, never read as rich markup ("[red]", "[/]");
            # as it will show, where the output's encoding lacks a letter ("山田" as "??"): measured as
            # written, its row stood out of line
            table.add_row(Text(plain.plainly(label, self.console.encoding)), str(me.tokens[seat]),
                          t.cards(me.discards[seat]) or "—", ", ".join(status))
        return table

    def _show_moves(self, me: View, odds: dict[Action, Estimate]) -> None:
        """The numbered moves: each in words, its notation and, with --hints, its chance. A move takes
        one line where every move's words fit beside the rest; else (a narrow terminal, or a
        Chancellor's long choices) two: the words, then the notation and the chance, the chance on a
        third line where it does not fit beside the notation whole. (Words wrapped within their
        column broke a Chancellor's choice mid-phrase at 80 columns.)"""
        t, encoding = self.t, self.console.encoding
        best = best_moves(odds)  # (none where every move shows alike)
        rows = []
        for i, action in enumerate(me.legal_actions, start=1):
            hint = Text()
            if action in odds:
                hint.append(plain.plainly(hint_text(odds[action], t), encoding), "cyan")
                if action in best:
                    hint.append(plain.plainly(f" · {t('hint_best')}", encoding), "bold cyan")
            # measured as they will show: written plainly, "→" takes two columns ("->")
            words = plain.plainly(self.describe(action, me), encoding)
            rows.append((f"  {i:>2}.", words, Text(t.notation(action), "dim"), hint))
        # each column is as wide as its widest entry, one space between columns (no hint column
        # without hints: an empty one would still take its space)
        hinted = any(hint for *_, hint in rows)
        # beside the words, the notation and the chance two spaces from what comes before them: one ran
        # them together where their styles are lost ("Gravin gravin", piped or without colours)
        beside = (max(cell_len(number) for number, *_ in rows) + 2 + max(row[2].cell_len for row in rows)
                  + (2 + max(hint.cell_len for *_, hint in rows) if hinted else 0))
        widest = max(cell_len(row[1]) for row in rows)
        if self.console.width - beside - 1 >= widest:
            moves = _grid(4 if hinted else 3, last_whole=2 if hinted else 1)
            for number, words, notation, hint in rows:
                moves.add_row(number, words, Text.assemble(" ", notation), *([Text.assemble(" ", hint)] if hinted else []))
        else:
            moves = _grid(2)
            room = self.console.width - max(cell_len(number) for number, *_ in rows) - 1
            for number, words, notation, hint in rows:
                # the chance stays whole: beside the notation where it fits, else on a line of its own
                between = "" if not hint else "  " if notation.cell_len + 2 + hint.cell_len <= room else "\n"
                moves.add_row(number, Text.assemble(words, "\n", notation, between, hint))
        _print_trimmed(self.console, moves)

    def _show_hints(self, me: View) -> dict[Action, Estimate]:
        """With --hints: what the expert believes each opponent holds, and its estimate of the
        chance of winning the round after each move (returned)."""
        if self.adviser is None:
            return {}
        t = self.t
        belief = self.adviser.belief(me)
        self._say(Text(t("belief_title"), style="bold"))
        spoken = self.settings.screen_reader
        for seat, odds in belief.all_odds().items():
            shown = shown_percentages(odds)
            label = f"  {self.names[seat]}: "
            # (">99%": a screen reader leaves the sign out, and "Baron 99 percent" is not what is meant)
            _print_parts(self.console, label, [
                f"{t.card(card)} {spoken_percentage(figure, t) if spoken else figure}"
                for card, figure in shown if figure != "<1%"], self._between)
            # the cards still possible but under 1% (in 2019 with many players, most of them): one
            # line of names beneath, rather than a "<1%" after each; read out, whose they are
            unlikely = [t.card(card) for card, figure in shown if figure == "<1%"]
            if unlikely:
                indent = " " * (cell_len(label) if cell_len(label) <= self.console.width // 2 else 4)
                under = (f"  {self.names[seat]}, {t('belief_unlikely')}: " if spoken
                         else f"{indent}{t('belief_unlikely')}: ")
                _print_parts(self.console, under, unlikely, ", ")
        # every move, a forced one too: its chance still tells the player how the round stands
        if self.settings.screen_reader:  # said once, not as a spinner's frames
            self._say(t("hint_thinking"))
            return self.adviser.move_odds(me)
        with self.console.status(t("hint_thinking"), spinner=spinner_for(self.console.encoding)):  # (on a terminal only)
            return self.adviser.move_odds(me)

    def _show_knowledge(self, me: View) -> None:
        t = self.t
        lines = [t("known_hand", name=self.names[s], card=t.the(card)) for s, card in sorted(me.known.items())]
        private = me.private_events()
        # the cards drawn matter while choosing, those of this Chancellor alone (an earlier one's are
        # played or under the deck by now); then the hand and the tracker say it
        choosing = next((e for e in reversed(private) if e.kind == "chancellor"), None) \
            if me.phase is Phase.CHANCELLOR else None
        for event in private:
            if event.kind in ("priest", "king", "baron"):
                continue  # summarised by what is known now
            if event.kind == "bottom" or (event.kind == "chancellor" and event is not choosing):
                continue
            if event.kind == "chancellor" and event.seat == me.seat and event.cards is not None:
                lines.append(t("known_your_draw", cards=t.the_cards(event.cards)))  # (not "Player draws")
                continue
            line = narrate(event, self.names, t, me.round_number)
            if line:
                lines.append(line.removesuffix("."))  # a sentence's full stop would clash with "; "
        _print_parts(self.console, f"{t('known')}: ", lines or [t("nothing_known")], "; ")

    def _show_tracker(self, me: View) -> None:
        unseen = me.tracker_shown()
        parts = [f"{self.t.card(card)} {unseen.get(card, 0)}" for card in me.edition.cards]
        _print_parts(self.console, f"{self.t('tracker')}: ", parts, self._between)
        mine = [card for card in me.under_deck() if card is not None]
        if mine and not me.over:  # top first: the order they will be drawn in
            _print_parts(self.console, f"{self.t('under_deck')}: ", [self.t.card(card) for card in mine], ", ")

    def describe(self, action: Action, me: View) -> str:
        """A move in words: ``Guard → 1 Bram, name Priest``."""
        t = self.t
        if action.keep is not None:
            return t("move_fmt_keep", keep=t.card(action.keep), bottom=t.cards(action.bottom or ()) or "—")
        card = t.card(action.card)
        if action.target is None:
            if action.card in TARGETED:
                return t("move_fmt_no_target", card=card)
            if action.card is Card.CHANCELLOR and not me.deck_size:
                return t("move_fmt_empty_deck", card=card)
            return t("move_fmt_none", card=card)
        said = "sr_" if self.settings.screen_reader else ""  # (an arrow read out as "right arrow")
        if not said:
            target = f"{action.target} {self.names[action.target]}"
        elif action.target == HUMAN:  # ("Prince on 0 Player" was read out for yourself)
            target = t("seat_yourself", seat=action.target)
        else:
            target = self._seat_words(action.target)
        if action.card is Card.GUARD and action.guess is not None:
            return t(f"{said}move_fmt_guard", target=target, guess=t.card(action.guess))
        return t(f"{said}move_fmt_target", card=card, target=target)


def spinner_for(encoding: str) -> str:
    """rich's spinner that an output in ``encoding`` can write: its dots (braille) were each a "?" in a
    Windows code page, a question at every frame; else a line turning."""
    return "dots" if plain.plainly("⠋", encoding) == "⠋" else "line"


def _by_moves(key: str, moves: int) -> str:
    """``key``'s text for a choice of ``moves`` moves: "1 to 3", but "1 or 2", and "only move 1"."""
    return {1: f"{key}_one", 2: f"{key}_two"}.get(moves, key)


def _grid(columns: int, last_whole: int = 0) -> Table:
    """Columns side by side, one space apart, without lines; the first and the ``last_whole`` last
    never wrap (a number, a figure), the others wrap within themselves."""
    grid = Table.grid(padding=(0, 1))
    for i in range(columns):
        whole = i == 0 or i >= columns - last_whole
        grid.add_column(no_wrap=whole)
    return grid


def _print_parts(console: Console, label: str, parts: list[str], between: str = " · ") -> None:
    """``label`` and the ``parts`` on one line, or on as many as the terminal needs, each wrapped
    line indented under the first part: a line breaks only between parts ("Prince 3%" stays whole)."""
    label_width = cell_len(label)
    indent = " " * (label_width if label_width <= console.width // 2 else 4)
    first_under = len(indent) < label_width  # (the first part under the label gains room only then)
    closing = between.rstrip()  # ends a line broken between two parts: "Priest," / "Baron 2 ·"
    line = label
    for i, part in enumerate(parts):
        # a part not the last must fit with the closing after it, or that would be wrapped alone; the
        # first part goes under the label only where the indent is narrower (a label wider than half
        # the line), and a closing that would not fit is left out, never wrapped alone
        joined = line + (between if i else "") + part
        if (i or first_under) and cell_len(joined + (closing if i < len(parts) - 1 else "")) > console.width:
            ended = line + closing if i else line
            _print_trimmed(console, Text(ended if cell_len(ended) <= console.width else line))
            line = indent + part
        else:
            line = joined
    _print_trimmed(console, Text(line))


@functools.cache
def _misread_bom(encoding: str) -> str:
    """A UTF-8 byte-order mark (a script saved by Notepad) as standard input in ``encoding`` reads it
    (in UTF-8 it is invisible, and undone as such: :func:`~loveletter.narrate.without_invisible`):
    in cp1252 "ï»¿1" was an unknown card, in ASCII bytes "not UTF-8"."""
    try:
        return codecs.BOM_UTF8.decode(encoding, "surrogateescape")
    except (LookupError, UnicodeDecodeError):  # (an encoding that cannot read such bytes at all)
        return ""


def _input_encoding() -> str:
    """Standard input's encoding, as Python names it ("utf-8", "cp1252", "ascii"), or "utf-8"."""
    try:
        return codecs.lookup(getattr(sys.stdin, "encoding", None) or "utf-8").name
    except LookupError:
        return "utf-8"


#: The columns the players' table keeps for each player's discards (where all fits beside them): a
#: longer list wraps within its column.
DISCARDS_ROOM = 24


def _print_hanging(console: Console, text: str, indent: int = 2) -> None:
    """``text`` wrapped by words, its wrapped lines indented under its first (so that where each
    of a list of such lines begins stays plain)."""
    first, *rest = Text(plain.plainly(text, console.encoding)).wrap(console, max(console.width - indent, 1))
    _print_trimmed(console, first)
    for line in rest:
        _print_trimmed(console, Text(" " * indent) + line)


def _print_trimmed(console: Console, shown: Table | Text) -> None:
    """``shown`` without the spaces that pad a table's cells, or end a wrapped line, at the ends of
    lines (they would stay in a transcript, and follow the text a screen reader reads out); a text
    of one style wrapped as it will show where the output lacks a character (a "±" written "+/-"
    pushed a line wrapped before it past the width)."""
    if isinstance(shown, Text) and not shown.spans:  # (one style for the whole: its length may change)
        shown = Text(plain.plainly(shown.plain, console.encoding), style=shown.style)
    for line in console.render_lines(shown, pad=False):
        while line and not line[-1].text.strip():
            line.pop()
        if line:
            line[-1] = Segment(line[-1].text.rstrip(), line[-1].style)
        console.print(Segments([*line, Segment.line()]), end="")


def run_game(settings: GameSettings) -> int:
    """Play a match on this terminal (or a script on stdin); the exit status."""
    # names and typed lines are text: no markup, no ":smile:" codes
    console = plain.console(highlight=False, markup=False, emoji=False)
    t = Translator(settings.language)
    try:
        folder = settings.records or default_records_folder()
    except NoHomeFolder:
        reason = t("no_home", option=f"--records {t('meta_folder')}")
        print(f"loveletter play: {t('play_err_no_home', reason=reason)}", file=sys.stderr)
        return 1
    try:  # before the game: a record that cannot be saved is found out now, not after the match
        path = _new_record_path(folder)
    except OSError as err:
        reason = t("records_not_folder") if isinstance(err, NotADirectoryError) and folder.exists() else t.os_reason(err)
        print(f"loveletter play: {t('play_err_records', folder=folder, reason=reason)}", file=sys.stderr)
        return 2 if settings.records else 1  # (--records is an option that cannot be used, as the tournament says)
    game = TerminalGame(settings, _read_line, console, path)
    try:
        with stops_caught():
            status = game.run()
    except Stopped as late:  # after the game had saved its record, before the handlers were put back
        status = 128 + late.signum
    if game.saved:
        with contextlib.suppress(*TERMINAL_GONE):  # (the terminal may have been closed)
            # one line, however long: a path broken over lines cannot be copied whole
            console.print(Text(game.t("record_saved", path=str(game.record_path))), soft_wrap=True)
    return status


def starter_of(seed: int, players: int) -> int:
    """Who starts the first round of the match of ``seed``, drawn apart from its shuffles."""
    return random.Random(f"starter {seed}").randrange(players)


def _looks_like_bot(human: str, bot: str) -> bool:
    """Whether the human's name looks like the bot's name, or like how the table shows that bot at
    any level in any language: a human called "Bram (expert bot)" beside the expert bot Bram."""
    labels = {Translator(lang)("bot_level", name=bot, level=Translator(lang)(f"level_{level}"))
              for lang in LANGUAGES for level in LEVELS}
    return looks_like_any(human, {bot, *labels})


def _new_record_path(folder: Path) -> Path:
    """A file name no other record in ``folder`` has (two games in one second get -2, -3 …). It is
    claimed as the game starts, so it must not name the seed: that would give away every deal."""
    stem = f"loveletter-{time.strftime('%Y%m%d-%H%M%S')}"
    folder = through_link(folder)  # (a link to nothing yet, say a drive not mounted, was "it already exists")
    path, n = folder / f"{stem}.json", 1
    if folder.exists() and not folder.is_dir():  # (mkdir would say only that it exists)
        raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(folder))
    folder.mkdir(parents=True, exist_ok=True)
    while True:
        try:
            path.open("x").close()  # claim the name, even against a game started at the same time
            return path
        except FileExistsError:
            n += 1
            path = folder / f"{stem}-{n}.json"


def _forget_typed_ahead() -> None:
    """On a terminal, throw away what was typed before the table was shown: a key pressed while the
    bots moved (or a number pressed twice) was read at once as the next move, chosen blind (a
    Princess played). Input piped in is a script of moves, read as it comes."""
    if not sys.stdin.isatty():
        return
    try:
        import termios
    except ImportError:  # (not on Windows: there the game reads as before)
        return
    with contextlib.suppress(termios.error, OSError, ValueError):
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


def _read_line() -> str:
    """One line of the player's input. A longer line than any move (:data:`MAX_LINE`) is read past
    in pieces, never held whole (a file with no line ends, piped in, filled the memory): it is
    :class:`LineTooLong`, or the input's end if no line end comes within :data:`MAX_SKIPPED`."""
    line = sys.stdin.readline(MAX_LINE + 1)
    if not line:
        raise EOFError
    if len(line) <= MAX_LINE or line.endswith("\n"):
        return line
    skipped = len(line)
    while not line.endswith("\n"):
        line = sys.stdin.readline(MAX_LINE)
        skipped += len(line)
        if not line or skipped > MAX_SKIPPED:
            raise EOFError
    raise LineTooLong
