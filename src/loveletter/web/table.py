"""One table of the web app: its settings, its seats and the match, changed only by the engine.

A :class:`GameTable` checks every move (whose seat, whose turn, how stale, what the engine says),
stores it, and only then applies it, so nothing acknowledged is ever lost. Bots and the refusals
are the table's business too; who is connected is not (see :class:`loveletter.web.lobby.Room`).
"""

from __future__ import annotations

import hmac
import random
import re
import secrets
import threading
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from loveletter.bots import LEVELS, Bot, choose_in_sight, keeps_a_reading, make_bot
from loveletter.engine import (
    EDITIONS,
    Action,
    IllegalActionError,
    Match,
    NotationError,
    View,
    edition_named,
    view,
)
from loveletter.i18n import LANGUAGES, Translator, grouped
from loveletter.narrate import (
    MAX_NAME,
    first_look_alike,
    look,
    looks_like_any,
    name_too_long,
    one_line,
    visible,
)
from loveletter.web import apart
from loveletter.web.store import DamagedRow, Store, StoredTable, hash_secret

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 6
#: The level of the bot that moves for a person away (after the table's bot timeout), unless the
#: table's creator chose another.
STAND_IN = "beginner"
#: Seconds a person at the table (connected) may take over a move before the stand-in plays it, where
#: the table's timeout is shorter: that timeout is for someone gone, and a person thinking over a move
#: may take longer than a page takes to come back. Without it, a tab left open held the table for good.
IDLE_AT_LEAST = 60
#: Seconds a person must have been away, at their turn, before another player may ask a bot to play
#: that move for them (at a table with no timeout, someone gone held it for good): a page reloading,
#: a phone switching networks, comes back within it.
ASK_AFTER = 30
#: The longest time a table may set before its stand-in plays (seconds): an hour.
MOST_BOT_TIMEOUT = 3600
#: Reads a move sent in notation, its card words in any of our languages (as the terminal does).
_ANY_LANGUAGE = Translator("en")


class Refused(Exception):
    """A request the table will not carry out: a message key (see :mod:`loveletter.i18n`) and its
    parameters, or an engine refusal."""

    def __init__(self, key: str, engine_error: IllegalActionError | NotationError | None = None,
                 **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.engine_error = engine_error
        self.params = params


@dataclass(frozen=True)
class SeatPlan:
    """Who sits in a seat: a person (``level`` None) or a bot of that level."""

    level: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.level is not None


@dataclass
class Settings:
    edition: str
    players: int
    target: int
    seed: int
    seats: list[SeatPlan]
    private: bool = False
    bot_timeout: float | None = None  # seconds before a bot moves for an absent person (None: never)
    stand_in: str = STAND_IN  # the level of the bot that moves for an absent person

    @property
    def idle_timeout(self) -> float | None:
        """Seconds before a bot moves for a person here who does not move (None: never)."""
        return None if self.bot_timeout is None else max(self.bot_timeout, IDLE_AT_LEAST)

    @property
    def ask_idle_after(self) -> float:
        """Seconds a person here must have taken over their move before another player may ask a bot
        to play it: the table's own time for that, or :data:`IDLE_AT_LEAST` at a table with none (a
        table made to give an hour a move is not cut short by asking)."""
        return self.idle_timeout or IDLE_AT_LEAST

    def as_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition, "players": self.players, "target": self.target, "seed": self.seed,
            "seats": [plan.level for plan in self.seats], "bot_timeout": self.bot_timeout,
            "stand_in": self.stand_in,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], private: bool) -> Settings:
        """Settings as :meth:`as_json` stored them, checked as :func:`new_settings` checks new ones:
        a row changed outside the app is refused (:class:`Refused`, or
        :class:`~loveletter.web.store.DamagedRow` for a field missing or of the wrong kind)."""
        # (tables stored before the stand-in's level could be chosen had a beginner)
        data = {"bot_timeout": None, "stand_in": STAND_IN, **data}
        for name, kinds in _STORED_KINDS.items():
            if name not in data:
                raise DamagedRow("serve_damage_missing", field=name)
            if not isinstance(data[name], kinds) or isinstance(data[name], bool):
                raise DamagedRow("serve_damage_kind", field=name)
        seats, players = data["seats"], data["players"]
        if not all(level is None or isinstance(level, str) for level in seats):
            raise DamagedRow("serve_damage_kind", field="seats")
        if len(seats) != players:  # (either may be the one changed: "the field 'seats'" blamed the seats)
            raise DamagedRow("serve_damage_seats", seats=len(seats), players=players)
        bots = {seat: level for seat, level in enumerate(seats) if level is not None}
        timeout, stand_in = data["bot_timeout"], data["stand_in"]
        edition, target, stand_in = _checked(data["edition"], players, data["target"], bots, timeout, stand_in)
        return cls(edition, players, target, data["seed"], [SeatPlan(level) for level in seats], private,
                   timeout, stand_in)


#: The stored settings' fields and the kinds of value each may hold.
_STORED_KINDS: dict[str, type | tuple[type, ...]] = {
    "edition": str, "players": int, "target": int, "seed": int, "seats": list,
    "bot_timeout": (int, float, type(None)), "stand_in": str,
}


def new_settings(edition: str, players: int, target: int | None, bots: dict[int, str], private: bool,
                 bot_timeout: float | None, rng: random.Random, stand_in: str | None = None) -> Settings:
    """Settings for a new table, checked: :class:`Refused` says what is wrong."""
    name, target, stand_in = _checked(edition, players, target, bots, bot_timeout, stand_in)
    plans = [SeatPlan(bots.get(seat)) for seat in range(players)]
    return Settings(name, players, target, rng.randrange(2**62), plans, private, bot_timeout, stand_in)


def _checked(edition: str, players: int, target: int | None, bots: dict[int, str], bot_timeout: float | None,
             stand_in: str | None) -> tuple[str, int, str]:
    """The checks of :func:`new_settings`; the edition's name, the target (its default for ``None``)
    and the stand-in's level (its default for ``None``)."""
    if edition not in EDITIONS:
        raise Refused("web_err_edition", edition=edition)
    rules = EDITIONS[edition]
    if not rules.min_players <= players <= rules.max_players:
        raise Refused("web_err_players", edition=edition, low=rules.min_players, high=rules.max_players,
                      players=players)
    if target is None:
        target = rules.default_target(players)
    if not 1 <= target <= 20:
        raise Refused("web_err_target", target=target)
    for seat, level in bots.items():
        if not 0 < seat < players:  # seat 0 is the person who creates the table
            raise Refused("web_err_bot_seat_two" if players == 2 else "web_err_bot_seat", seat=seat, last=players - 1)
        if level not in LEVELS:
            raise Refused("web_err_bot_level", level=level, levels=tuple(LEVELS))
    if bot_timeout is not None and not 1 <= bot_timeout <= MOST_BOT_TIMEOUT:
        raise Refused("web_err_bot_timeout", most=grouped(MOST_BOT_TIMEOUT))
    if stand_in is None:
        stand_in = STAND_IN
    elif stand_in not in LEVELS:  # (with no timeout too: a bot of that level plays when a player asks)
        raise Refused("web_err_stand_in", level=stand_in, levels=tuple(LEVELS))
    return rules.name, target, stand_in


def _bot_names(numbers: set[int]) -> set[str]:
    """How a bot is shown at any table, in every language, numbered by each of ``numbers``
    (:func:`_seat_numbers`: "Bot 9 (expert)" passes for a bot as well as "Bot 1 (expert)" does)."""
    return {Translator(language)(f"web_bot_{level}", n=n) for language in LANGUAGES for level in LEVELS for n in numbers}


def _free_seat_names(numbers: set[int]) -> set[str]:
    """How a free seat is shown at any table, in every language, numbered as :func:`_bot_names`
    numbers the bots (a person called "Free seat 1" showed as a seat nobody had taken)."""
    return {free_seat(Translator(language), n) for language in LANGUAGES for n in numbers}


def free_seat(t: Translator, seat: int) -> str:
    """How a table shows a seat nobody has taken ("Free seat 2")."""
    return f"{t('web_free_seat')} {seat}"


#: Every seat a table of any edition has.
_SEATS = frozenset(range(max(edition.max_players for edition in EDITIONS.values())))


def _seat_numbers(name: str) -> set[int]:
    """Every seat a table has, and each number in ``name``."""
    return {int(digits) for digits in re.findall(r"\d{1,6}", look(name), flags=re.ASCII)} | _SEATS


def clean_name(name: str) -> str:
    """A display name: printable, trimmed, at most :data:`MAX_NAME` characters, never empty nor
    invisible (a zero-width space alone showed a player with no name)."""
    shown = one_line(name)
    if not visible(shown):
        raise Refused("web_name_empty")
    broken = name_too_long(shown)
    if broken == "long":
        raise Refused("web_name_long", max=MAX_NAME)
    if broken == "marks":
        raise Refused("web_name_marks")
    return shown


@dataclass(frozen=True)
class Seating:
    """A seat about to be taken by a person called ``name`` (as the table shows it), with the secret
    credential ``secret``: found and checked first (:meth:`GameTable.seating`), then stored (the
    server does that in a worker thread, holding the table's lock, or for a new table's creator the
    lock on making tables: a slow or locked database holds up that table, not every table), then
    taken (:meth:`GameTable.take`)."""

    seat: int
    name: str
    secret: str
    went_on_from: tuple[str, int] | None = None  # see GameTable.seating


@dataclass
class GameTable:
    code: str
    settings: Settings
    store: Store
    names: dict[int, str] = field(default_factory=dict)
    secret_hashes: dict[int, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    budget: int | None = None  # the searching bots' thinking budget (iterations); None: their default
    by_bot: set[int] = field(default_factory=set)  # the numbers of the moves (of ``moves``) a bot played

    def __post_init__(self) -> None:
        s = self.settings
        self.match = self._new_match()
        bot_rng = random.Random(s.seed ^ 0x5EED)
        # Seeds as wide as the match's: a bot's random choices, with what it played, tell its hand to
        # whoever knows its seed, and 31 bits could be found by trying them all against its moves.
        self._bot_seeds = {seat: bot_rng.randrange(2**62) for seat, plan in enumerate(s.seats) if plan.is_bot}
        #: The bots, by seat, and by -1 - seat the one standing in for a person away (made when first needed).
        self.bots: dict[int, Bot] = {seat: self._new_bot(seat) for seat in self._bot_seeds}
        # a lock per seat for every seat (made here, not in the worker threads): see bot_choice
        self._thinking = {seat: threading.Lock() for seat in range(s.players)}
        # per bot (keyed as in self.bots): the numbers of the moves it played (a stand-in's: the log
        # says so), and of those the bot object now serving looked at (see bot_choice)
        self._played: dict[int, list[int]] = {}
        self._looked: dict[int, list[int]] = {}
        self.round_starts = [0]  # the number of each round's first move
        self._applied = 0  # moves applied to the match
        for number, text in enumerate(list(self.moves)):  # a table loaded from the database: replay its moves
            self._apply(Action.parse(text), number in self.by_bot)

    @classmethod
    def load(cls, stored: StoredTable, store: Store, budget: int | None = None) -> GameTable:
        return cls(stored.code, Settings.from_json(stored.settings, stored.private), store,
                   dict(stored.names), dict(stored.secret_hashes), list(stored.moves), budget, set(stored.by_bot))

    # ----------------------------------------------------------------------------- seats

    def human_seats(self) -> list[int]:
        return [seat for seat, plan in enumerate(self.settings.seats) if not plan.is_bot]

    def free_seats(self) -> list[int]:
        return [seat for seat in self.human_seats() if seat not in self.names]

    def seating(self, name: str, among: Sequence[int] | None = None,
                went_on_from: tuple[str, int] | None = None, kept_names: Collection[str] = ()) -> Seating:
        """The first free seat (of those ``among``, if given, in that order of preference) for a
        person called ``name``, with a new secret credential; :class:`Refused` for a name or a table
        with no seat for them, before anything is stored. ``went_on_from``: the finished table and
        seat of a player coming on to this rematch (see :meth:`Store.take_seat`), who keeps their
        name. Otherwise a name must not look like another name the table shows (two "Ann"s: "Ann
        plays the Guard on Ann"; see :meth:`shown_names`) nor like the ``kept_names``: at a rematch
        table, those of the last match's players who have not come on yet."""
        shown = clean_name(name) if went_on_from is not None else self.newcomer_name(name, kept_names)
        open_now = self.free_seats()
        free = open_now if among is None else [seat for seat in among if seat in open_now]
        if not free:
            if went_on_from is not None:  # a player coming on finds their own seat taken while they were away
                # (told "this table has no free seat" where the rematch was full: the finished one, they read)
                raise Refused("web_seat_taken_away" if open_now else "web_seat_taken_full")
            # seats are kept for others
            raise Refused("web_table_full" if among is None or not open_now else "web_seat_kept")
        return Seating(free[0], shown, secrets.token_urlsafe(32), went_on_from)

    def store_seat(self, seating: Seating) -> None:
        """Store ``seating`` (the table is stored already)."""
        self.store.take_seat(self.code, seating.seat, seating.name, seating.secret, seating.went_on_from)

    def store_new(self, creator: Seating | None = None, rematch_of: str | None = None) -> None:
        """Store this new table: with its ``creator``'s seat, in one go (a table stored before its
        creator's seat stayed in the lobby, empty, when that seat could not be), or as the rematch of
        the finished table ``rematch_of``."""
        self.store.create(self.code, self.settings.as_json(), self.settings.private, rematch_of=rematch_of,
                          creator=None if creator is None else (creator.name, creator.secret))

    def take(self, seating: Seating) -> None:
        """Seat ``seating``'s person, once it is stored."""
        self.names[seating.seat] = seating.name
        self.secret_hashes[seating.seat] = hash_secret(seating.secret)

    def newcomer_name(self, name: str, kept_names: Collection[str] = ()) -> str:
        """``name`` as the table would show a newcomer so called; :class:`Refused` if it is no name
        (:func:`clean_name`), or looks like one the table shows or keeps (see :meth:`seating`)."""
        shown = clean_name(name)
        # a bot's or a free seat's name first, at this table or any ("Free seat 1" beside that free
        # seat was told "someone at this table is already called Free seat 1")
        numbers = _seat_numbers(shown)
        if looks_like_any(shown, _bot_names(numbers)):
            raise Refused("web_name_bot", name=shown)
        if looks_like_any(shown, _free_seat_names(numbers)):
            raise Refused("web_name_free_seat", name=shown)
        # the name it reads like, as the table shows it or keeps it (a newcomer "joann" beside "Jo Ann")
        taken = first_look_alike(shown, sorted(self.shown_names()))
        if taken is not None:
            raise Refused("web_name_taken", name=taken)
        kept = first_look_alike(shown, kept_names)
        if kept is not None:
            raise Refused("web_name_kept", name=kept)
        return shown

    def shown_names(self) -> set[str]:
        """Every name the table shows, in every language: its people's, and its bots' and free seats'
        (a person called "Bot 1 (random)" beside that bot could pass for it)."""
        return {name for language in LANGUAGES for name in self.display_names(Translator(language))}

    def seat_of(self, secret: str) -> int:
        """The seat whose credential is ``secret``."""
        digest = hash_secret(secret)
        for seat, stored in self.secret_hashes.items():
            if hmac.compare_digest(stored, digest):
                return seat
        raise Refused("web_bad_secret")

    def holds(self, secret: str) -> bool:
        """Whether ``secret`` is a seat's credential at this table."""
        try:
            self.seat_of(secret)
        except Refused:
            return False
        return True

    def display_names(self, t: Translator) -> list[str]:
        """Each seat's name as the table shows it in ``t``'s language: a person's own, a bot with its
        level ("Bot 1 (expert)": the hints read the bots by level, so the players must see them),
        or a free seat."""
        return [t(f"web_bot_{plan.level}", n=seat) if plan.level is not None
                else self.names.get(seat, free_seat(t, seat))
                for seat, plan in enumerate(self.settings.seats)]

    @property
    def started(self) -> bool:
        return not self.free_seats()

    # ----------------------------------------------------------------------------- play

    def view_for(self, seat: int | None) -> View:
        return view(self.match, seat)

    def play(self, seat: int | None, text: str, at: int) -> Action:
        """Check, store and apply ``text`` for ``seat`` (see :meth:`check`), in one go."""
        action = self.check(seat, text, at)
        self.store_move(action, by_bot=False)
        self.apply(action)
        return action

    def check_at(self, at: int) -> None:
        """Refuse (:class:`Refused`) a request for the move awaited, made where the client saw ``at``
        moves played, if no move is awaited (the match over, or not begun) or the table has moved on."""
        if self.match.over:
            raise Refused("web_match_over")
        if not self.started:
            raise Refused("web_not_started")
        if at != len(self.moves):
            raise Refused("web_stale")

    def check(self, seat: int | None, text: str, at: int) -> Action:
        """The move ``text`` (notation) of ``seat``, where the client saw ``at`` moves played, if
        the table and the engine allow it; :class:`Refused` if not. Changes nothing."""
        if seat is None:
            raise Refused("web_spectator")
        self.check_at(at)
        if seat != self.match.current:
            raise Refused("web_not_your_turn")
        try:
            # the card words of either language, as the terminal takes them (the refusal lists
            # the words of the player's language: each must be one it would take)
            action = _ANY_LANGUAGE.parse_action(text)
        except NotationError as err:
            raise Refused("web_bad_move", err) from None
        probe = self.match.round.clone()
        try:
            probe.apply(action)  # the engine's verdict, on a copy
        except IllegalActionError as err:
            raise Refused("web_illegal", err) from None
        return action

    def bot_seat_to_move(self) -> int | None:
        """The bot seat whose turn it is, if any (and the match goes on)."""
        if self.match.over or not self.started:
            return None
        current = self.match.current
        return current if current in self.bots else None

    def bot_choice(self, seat: int, seen: View, at: int) -> Action:
        """The bot's choice for ``seat`` from its view ``seen``, taken on the event loop when ``at``
        moves were played (this may take a while: run it off the loop). A seat without a bot (an
        absent person, after the timeout) gets a bot of the table's stand-in level. One search per
        bot at a time: a search given up (its task cancelled) runs on in its thread.

        A bot that keeps what it read from one decision to the next (an expert) has read exactly
        the decisions it played, as the stored moves tell them: a bot made anew (the table read back
        after a restart, or put away) first reads them all (:meth:`~loveletter.bots.ExpertBot.catch_up`:
        so it goes on with its reading of how the others play), and a stand-in that looked at a turn
        the person then came back to play is made anew the same way, as a read-back would have it."""
        key = self._bot_key(seat)
        with self._thinking[seat]:
            bot = self.bots.get(key)
            if bot is None:  # the first time someone in this seat is away
                bot = self.bots[key] = self._new_bot(key)
            if keeps_a_reading(bot):
                played, looked = list(self._played.get(key, ())), self._looked.get(key, [])
                if looked != played[: len(looked)] and looked != [*played, at]:  # it looked at one it did not play
                    fresh = self._new_bot(key)
                    assert keeps_a_reading(fresh)  # (of the same level)
                    bot = self.bots[key] = fresh
                    looked = []
                # searched in a process of its own: in a thread, it held up every table (apart); the
                # table's bot goes on as the search left it (the same bot: only what it holds changes)
                action, searched = apart.choose(bot, self._views_at(seat, played[len(looked):]), seen)
                bot.go_on_as(searched)
                self._looked[key] = [*played, at]
                return action
            return choose_in_sight(bot, seen)

    def _new_match(self) -> Match:
        """The table's match as dealt, before any move (its seed makes every deal)."""
        s = self.settings
        return Match(edition_named(s.edition), s.players, target=s.target, seed=s.seed)

    def _bot_key(self, seat: int) -> int:
        """Whose bot plays for ``seat``: the seat's own (a bot's seat) or its person's stand-in's
        (-1 - seat), the keys of :attr:`bots` and of what each has played and read."""
        return seat if self.settings.seats[seat].is_bot else -1 - seat

    def _new_bot(self, key: int) -> Bot:
        """The bot for ``key`` (a bot's seat, or -1 - seat for a person's stand-in) as first made."""
        if key >= 0:
            level = self.settings.seats[key].level
            assert level is not None
            return make_bot(level, self._bot_seeds[key], self.budget)
        # seeded from the match's secret seed: seeded by its seat, a random stand-in's choices could
        # be worked out, and with what it played they told its hand
        seed = random.Random(f"stand-in {-1 - key} {self.settings.seed}").randrange(2**62)
        return make_bot(self.settings.stand_in, seed, self.budget)

    def _views_at(self, seat: int, numbers: list[int]) -> Iterator[View]:
        """The views of ``seat`` when the moves with these ``numbers`` (in order) were to be played,
        worked out again from the stored moves, one at a time as they are read."""
        if not numbers:
            return
        match = self._new_match()
        wanted, last = set(numbers), numbers[-1]
        for number, text in enumerate(self.moves[:last]):
            if number in wanted:
                yield view(match, seat)
            _play(match, Action.parse(text))
        yield view(match, seat)  # (at the last)

    def still_for_bot(self, seat: int, at: int) -> bool:
        """Whether a bot that looked when ``at`` moves were played may still move for ``seat``."""
        return at == len(self.moves) and not self.match.over and self.match.current == seat

    def store_move(self, action: Action, by_bot: bool) -> None:
        """Store ``action`` as the next move (before :meth:`apply`: nothing acknowledged is lost)."""
        self.store.add_move(self.code, len(self.moves), action.notation(), by_bot)

    def apply(self, action: Action, by_bot: bool = False) -> None:
        """Apply a checked and stored move (``by_bot``: a bot's, as stored)."""
        self.moves.append(action.notation())
        if by_bot:
            self.by_bot.add(len(self.moves) - 1)
        self._apply(action, by_bot)

    def _apply(self, action: Action, by_bot: bool) -> None:
        seat = self.match.current
        next_round = _play(self.match, action)
        if by_bot:
            self._played.setdefault(self._bot_key(seat), []).append(self._applied)
        self._applied += 1
        if next_round:
            self.round_starts.append(self._applied)

    def stand_ins(self, round_number: int) -> set[int]:
        """The moves of round ``round_number`` (counted from 1) that a bot played for an absent
        person, counted from the round's first move (0)."""
        start = self.round_starts[round_number - 1]
        end = self.round_starts[round_number] if round_number < len(self.round_starts) else None
        return {n - start for key, numbers in self._played.items() if key < 0  # (the stand-ins')
                for n in numbers if n >= start and (end is None or n < end)}


def _play(match: Match, action: Action) -> bool:
    """Apply ``action`` to ``match``, and deal the next round if it ended one (and the match goes
    on): whether it did."""
    match.apply(action)
    if match.round.over and not match.over:
        match.next_round()
        return True
    return False


def is_code(text: str) -> bool:
    """Whether ``text`` could be a table's code (as :func:`new_code` makes them)."""
    return len(text) == CODE_LENGTH and set(text) <= set(CODE_ALPHABET)


def new_code(taken: set[str] | dict[str, Any], rng: random.SystemRandom | None = None) -> str:
    """A short table code nobody uses yet (not a secret: the seat credentials are)."""
    rng = rng or random.SystemRandom()
    while True:
        code = "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code
