"""The strings a person reads, in English and Dutch: the translation layer. (The others: click's own
words in Dutch in ``cli/click_dutch.py``; dev.py's, which it says before anything is installed, in
its own table; and the two the page says before it has the server's words, in ``index.html``.
docs/languages.md says where a new language goes.)

>>> t = Translator("nl")
>>> t.the(Card.HANDMAID), t.card(Card.GUARD)
('het Kamermeisje', 'Wachter')
>>> Translator("en")("deck_size", n=3)
'Deck: 3 cards'
"""

from __future__ import annotations

import errno
import os
import re
import socket
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from loveletter.engine import Action, Card, IllegalActionError, NotationError
from loveletter.engine.actions import NOTATION_TOKEN
from loveletter.engine.errors import MESSAGES as ENGINE_MESSAGES
from loveletter.engine.errors import NOTATION_MESSAGES, either, quoted, shown_params
from loveletter.language import LANGUAGES as LANGUAGES  # (the game's modules take it from here)

if TYPE_CHECKING:
    from loveletter.record import RecordError

#: The fields left out of a record that its note names (:meth:`Translator.ignored_fields`); the rest are counted.
IGNORED_NAMED = 5

CARD_NAMES: dict[str, dict[Card, str]] = {
    "en": {c: c.name.title() for c in Card},
    "nl": {
        Card.SPY: "Spion", Card.GUARD: "Wachter", Card.PRIEST: "Priester", Card.BARON: "Baron",
        Card.HANDMAID: "Kamermeisje", Card.PRINCE: "Prins", Card.CHANCELLOR: "Kanselier",
        Card.KING: "Koning", Card.COUNTESS: "Gravin", Card.PRINCESS: "Prinses",
    },
}
#: Two of a card, with the article: "Anna draws the two Guards", not "the Guard and the Guard".
TWO_CARDS: dict[str, dict[Card, str]] = {
    "en": {Card.SPY: "the two Spies", Card.GUARD: "the two Guards", Card.PRIEST: "the two Priests",
           Card.BARON: "the two Barons", Card.HANDMAID: "the two Handmaids", Card.PRINCE: "the two Princes",
           Card.CHANCELLOR: "the two Chancellors", Card.KING: "the two Kings", Card.COUNTESS: "the two Countesses",
           Card.PRINCESS: "the two Princesses"},
    "nl": {Card.SPY: "de twee Spionnen", Card.GUARD: "de twee Wachters", Card.PRIEST: "de twee Priesters",
           Card.BARON: "de twee Baronnen", Card.HANDMAID: "de twee Kamermeisjes", Card.PRINCE: "de twee Prinsen",
           Card.CHANCELLOR: "de twee Kanseliers", Card.KING: "de twee Koningen", Card.COUNTESS: "de twee Gravinnen",
           Card.PRINCESS: "de twee Prinsessen"},
}
_CARD_WORDS = {c.word for c in Card}
# The notation's two keywords in each language (card names come from CARD_NAMES).
_KEYWORDS = {"en": {"keep": "keep", "bottom": "bottom"}, "nl": {"keep": "houd", "bottom": "onder"}}
_ARTICLE = {"en": {}, "nl": {Card.HANDMAID: "het"}}
_DEFAULT_ARTICLE = {"en": "the", "nl": "de"}
# What a record holds where something else belongs: "a record is a JSON object, not a list".
RECORD_KINDS: dict[str, dict[str, str]] = {
    "en": {"object": "an object", "list": "a list", "string": "a string", "bool": "true/false", "null": "null",
           "number": "a number", "fraction": "a number with a fraction"},
    "nl": {"object": "object", "list": "lijst", "string": "tekst", "bool": "true/false", "null": "null",
           "number": "getal", "fraction": "kommagetal"},
}

# What the operating system said, by error number (its own text is English only): a message key.
OS_REASONS: dict[int, str] = {
    errno.ENOENT: "os_no_such", errno.EACCES: "os_denied", errno.EPERM: "os_denied",
    errno.ENOSPC: "os_no_space", errno.EDQUOT: "os_no_space", errno.EISDIR: "os_is_folder",
    errno.ENOTDIR: "os_not_folder", errno.EROFS: "os_read_only", errno.EADDRINUSE: "os_address_in_use",
    errno.EADDRNOTAVAIL: "os_address_unavailable", errno.ENAMETOOLONG: "os_name_too_long",
    errno.EEXIST: "os_exists", errno.ELOOP: "os_link_loop", errno.ENXIO: "os_no_reader",
    errno.EIO: "os_io", errno.EINVAL: "os_invalid", errno.EFBIG: "os_too_large", errno.EMFILE: "os_too_many_open",
    errno.ENFILE: "os_too_many_open", errno.ENOMEM: "os_no_memory", errno.EBUSY: "os_busy", errno.ETXTBSY: "os_busy",
    errno.EPIPE: "os_reader_gone", errno.ENODEV: "os_no_device", errno.ECONNREFUSED: "os_refused",
    errno.ETIMEDOUT: "os_timed_out", errno.EAGAIN: "os_try_again",
}
# What Python's JSON reader said (English only), by how its message begins: a message key.
JSON_REASONS: dict[str, str] = {
    "Expecting value": "json_value", "Expecting property name": "json_field_name",
    "Expecting ',' delimiter": "json_comma", "Expecting ':' delimiter": "json_colon",
    "Unterminated string": "json_unclosed", "Invalid control character": "json_control",
    "Invalid \\escape": "json_escape", "Invalid \\uXXXX escape": "json_escape", "Extra data": "json_extra",
    "Illegal trailing comma": "json_trailing_comma", "Unexpected UTF-8 BOM": "json_bom",
}

CARD_EFFECTS: dict[str, dict[Card, str]] = {
    "en": {
        Card.SPY: "No effect. At the end of the round, if you are the only player still in it with a Spy"
                  " in your discards, you gain a token.",
        Card.GUARD: "Choose another player and name a card other than the Guard: if they hold it, they are out.",
        Card.PRIEST: "Look at another player's hand.",
        Card.BARON: "Compare hands with another player: the lower card is out (a tie: nothing happens).",
        Card.HANDMAID: "Until your next turn, other players' cards cannot choose you.",
        Card.PRINCE: "Choose any player (yourself too): they discard their hand and draw a new card.",
        Card.CHANCELLOR: "Draw 2 cards (fewer if the deck runs out), keep 1 of your cards, put the others at the"
                         " bottom of the deck in the order you choose.",
        Card.KING: "Trade hands with another player.",
        Card.COUNTESS: "No effect, but you must play her if your other card is the King or a Prince.",
        Card.PRINCESS: "If you play or discard her, you are out of the round.",
    },
    "nl": {
        Card.SPY: "Geen effect. Ben jij aan het eind van de ronde de enige overgebleven speler met een Spion"
                  " op je aflegstapel, dan krijg je een teken van liefde.",
        Card.GUARD: "Kies een andere speler en noem een andere kaart dan de Wachter: heeft die speler die"
                    " kaart, dan ligt hij uit de ronde.",
        Card.PRIEST: "Bekijk de hand van een andere speler.",
        Card.BARON: "Vergelijk je hand met die van een andere speler: wie de lagere kaart heeft, ligt uit de"
                    " ronde (bij gelijke kaarten gebeurt er niets).",
        Card.HANDMAID: "Tot je volgende beurt kunnen andere spelers jou niet kiezen met hun kaarten.",
        Card.PRINCE: "Kies een speler (jezelf mag ook): die legt zijn hand af en trekt een nieuwe kaart.",
        Card.CHANCELLOR: "Trek 2 kaarten (minder als de trekstapel opraakt), houd 1 van je kaarten en leg de"
                         " andere in een volgorde naar keuze onder de trekstapel.",
        Card.KING: "Ruil van hand met een andere speler.",
        Card.COUNTESS: "Geen effect, maar je moet haar spelen als je andere kaart de Koning of een Prins is.",
        Card.PRINCESS: "Speel je haar of leg je haar af, dan lig je uit de ronde.",
    },
}

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        # command-line help
        "cli_main": "Love Letter: play the card game in the terminal or the browser, replay game records, and"
                    " let bots play tournaments.",
        "cli_play": "Play a match against bots in the terminal (moves by number or notation; works on a pipe too).",
        "cli_replay": "Check a game record (FILE, or - for standard input) and tell the match it holds.",
        "cli_check": "Check game records: files, or folders of them (their .json files). Each refused record is"
                     " told on a line of its own, then how many were checked.",
        "opt_check_lang": "Language of the refusals (default: from your locale).",
        "meta_paths": "PATH...",
        "check_none": "no record files (.json) in {paths}",
        "check_all_sound": "{n} records checked: all sound.",
        "check_refused": "{n} records checked: {sound} sound, {refused} refused.",
        "check_one_all_sound": "1 record checked: sound.",
        "check_one_refused": "1 record checked: refused.",
        "cli_extra_argument": "unexpected argument {first}",
        "cli_extra_arguments": "{n} unexpected arguments, the first {first}",
        "cli_replay_one": "(replay tells one record: 'loveletter check' checks many)",
        "opt_edition": "classic: 16 cards, 2-4 players; 2019: 21 cards, 2-6 players.",
        "opt_players": "Number of players: you plus bots, 2-4 in the classic edition, 2-6 in 2019 (default: one more"
        " than the levels in --bots, at least 2).",
        "opt_bots": "Bot level for every bot, or one per bot separated by commas ({levels}).",
        "opt_lang": "Language (default: from your locale).",
        "opt_seed": "Seed for the shuffles and bots: the same seed, the same game.",
        "opt_target": "Tokens of affection needed to win (default: from the rules, R2.3).",
        "opt_name": "Your name at the table.",
        "opt_records": "Folder for the game record (default: your data folder; the path is printed at the end).",
        "opt_json": "Print the summary as JSON instead (the record format's summary).",
        "opt_delay": "Seconds from the move before to each bot move, its thinking included (default: 0.6 on a terminal, 0 on a pipe).",
        "opt_starter": "Who starts the first round: a seat number (you are 0), or random (drawn from the seed).",
        "opt_screen_reader": "Lay the game out for a screen reader: every line in words, headings without rules, one line per player instead of a table, no spinner.",
        "opt_hints": "Show, before each of your moves, your chance of winning the round after each move as the expert estimates it, and what it believes each opponent holds.",
        "opt_budget": "Thinking budget of the expert (bots and hints), in search iterations per move (default:"
        " {default}, a fraction of a second per move; the time grows in proportion); hints try every move"
        " at least {tries} times whatever the budget.",
        "hint_win": "win ≈ {p}%",
        "hint_win_margin": "win ≈ {p}% ± {m}",
        "hint_win_plain": "win {p}%",
        "hint_best": "best",
        "hint_legend": "win ≈: your chance of winning the round after the move, as the expert estimates it (± its margin of error);"
        " win 0% or 100%: certain; best: the highest",
        "sr_hint_win": "win about {p}%",
        "sr_hint_win_margin": "win about {p}%, give or take {m} points",
        "sr_hint_win_margin_one": "win about {p}%, give or take 1 point",
        "sr_chance_above": "more than {p}%",
        "sr_hint_win_plain": "win {p}%",
        "sr_hint_win_below": "win less than {p}%",
        "sr_hint_win_above": "win more than {p}%",
        "sr_hint_legend": "After each move, your chance of winning the round as the expert estimates it, give or take"
                          " its margin of error; 0% or 100%: certain; best: the highest.",
        "sr_hand_card": "{card}, value {value}: {effect}",
        "sr_move_fmt_guard": "Guard on {target}, name {guess}",
        "sr_move_fmt_target": "{card} on {target}",
        "hint_thinking": "The expert weighs your moves…",
        "belief_unlikely": "under 1%",
        "belief_title": "The expert's belief (chance of each card in hand)",
        "opt_replay_lang": "Language of the narrative (default: from your locale).",
        # the table
        "title": "Love Letter",
        "round_title": "Round {round} · turn {turn}",
        "deck_size": "Deck: {n} cards",
        "deck_size_one": "Deck: 1 card",
        "set_aside_taken": "the set-aside card has been taken",
        "face_up": "Face up (out of play): {cards}",
        "tokens": "Tokens (target {target})",
        "tokens_column": "♥ tokens: {target} to win",
        "player": "Player",
        "discards": "Discards",
        "status": "Status",
        "sr_round_title": "Round {round}, turn {turn}",
        "seat_named": "{name}, seat {seat}",
        "seat_yourself": "yourself, seat {seat}",
        "sr_player": "{player}: {tokens}; discards: {discards}",
        "sr_player_no_discards": "{player}: {tokens}; nothing discarded",
        "sr_tokens": "{n} tokens",
        "sr_tokens_one": "1 token",
        "sr_to_win": "{target} tokens to win",
        "sr_to_win_one": "the first token wins",
        "status_out": "out",
        "status_protected": "protected",
        "status_turn": "to play",
        "you": "you",
        "your_hand": "Your hand",
        "known": "What you know",
        "known_hand": "{name} holds {card}",
        "known_your_draw": "you drew {cards}",
        "nothing_known": "nothing private",
        "tracker": "Unseen cards",
        "under_deck": "Put under the deck by you (drawn once the rest is gone)",
        "moves": "Your moves",
        "prompt": "Your move (number or notation, ? for help, q to quit)",
        "chancellor_prompt": "Keep one card; the others go under the deck (the last listed at the very bottom)",
        "chancellor_prompt_one": "Keep one card; the other goes under the deck",
        "help": "Type the number of a move, or write it out, e.g. 'guard 1 priest', 'prince 0',"
                " 'handmaid', 'chancellor' (then 'keep baron bottom spy,priest'). Seats are numbered from 0."
                " 'q' quits and saves the record.",
        "help_classic": "Type the number of a move, or write it out, e.g. 'guard 1 priest', 'prince 0',"
                        " 'handmaid'. Seats are numbered from 0. 'q' quits and saves the record.",
        "not_a_move": "That is not a move: {reason}",
        "line_too_long": "That line is over {max} characters long, more than any move: it was passed over.",
        "illegal": "Not allowed: {reason}",
        "no_such_number": "There is no move number {n}: choose 1 to {max}.",
        "ascii_digits": "Type a move's number in the digits 0 to 9, not {n}.",
        "no_such_number_two": "There is no move number {n}: choose 1 or 2.",
        "no_such_number_one": "There is no move number {n}: there is only move 1.",
        "nothing_typed": "Nothing typed: choose a move, 1 to {max} (? for help).",
        "nothing_typed_two": "Nothing typed: choose a move, 1 or 2 (? for help).",
        "nothing_typed_one": "Nothing typed: there is only move 1 (? for help).",
        "match_won": "{names} win the match!",
        "match_won_one": "{name} wins the match!",
        "score": "Tokens: {scores}",
        "score_target": "Tokens: {scores} (target {target})",
        "players_at_table": "Players, in turn order: {players}; first to {target} tokens wins.",
        "players_at_table_one": "Players, in turn order: {players}; the first token wins.",
        "bot_level": "{name} ({level} bot)",
        "level_random": "random",
        "level_beginner": "beginner",
        "level_expert": "expert",
        "record_saved": "Record saved: {path}",
        "record_not_saved": "could not save the record {path}: {reason}",
        "play_err_records": "cannot save the game's record in {folder}: {reason}",
        "play_err_no_home": "no folder to save the game's record in: {reason}",
        # (why no folder is known: the option that names one given as {option})
        "no_home": "HOME is unset or not a full path, and your account has no home folder; set HOME or XDG_DATA_HOME,"
                   " or give {option}",
        "records_not_folder": "it is not a folder",
        "quit": "Game stopped.",
        "not_text": "That is not text: the terminal sent bytes that are not {encoding}. Type a move again.",
        "quit_chancellor_unsaved": "The Chancellor you were choosing for is not in the record: a record keeps whole turns, so it ends before that turn.",
        "move_fmt_guard": "Guard → {target}, name {guess}",
        "move_fmt_target": "{card} → {target}",
        "move_fmt_none": "{card}",
        "move_fmt_no_target": "{card} (no one can be chosen: no effect)",
        "move_fmt_empty_deck": "{card} (the deck is empty: no effect)",
        "move_fmt_keep": "Keep {keep}, under the deck: {bottom}",
        # narration (events)
        "ev_setup": "Round {round}: {name} starts.",
        "ev_setup_face_up": "Round {round}: {name} starts. Face up: {cards}.",
        "ev_deal": "{name} is dealt {card}.",
        "ev_draw": "{name} draws {card}.",
        "ev_draw_set_aside": "{name} takes the set-aside card (the deck is empty).",
        "ev_draw_set_aside_card": "{name} takes the set-aside card: {card}.",
        "ev_play": "{name} plays {card}.",
        "ev_play_none": "{name} plays {card}, but no one can be chosen: no effect.",
        "ev_play_empty_deck": "{name} plays {card}, but the deck is empty: no effect.",
        "ev_play_target": "{name} plays {card} on {target}.",
        "ev_play_self": "{name} plays {card} on themselves.",
        "ev_guard_hit": "{name} plays the Guard on {target} and names {guess}: right!",
        "ev_guard_miss": "{name} plays the Guard on {target} and names {guess}: wrong.",
        "ev_handmaid": "{name} plays {card} and is protected until their next turn.",
        "ev_priest": "{name} sees that {target} holds {card}.",
        "ev_baron": "{name} compares hands with {target}: {a} against {b}.",
        "ev_baron_shown_tie": "{name} compares hands with {target}: {a} against {b}, a tie, nothing happens.",
        "ev_baron_tie": "{name} and {target} compare hands: a tie, nothing happens.",
        "ev_discard": "{name} discards {card}.",
        "ev_king": "{name} and {target} trade hands: {name} now holds {a}, {target} holds {b}.",
        "ev_king_hidden": "{name} and {target} trade hands.",
        "ev_chancellor": "{name} draws {cards}.",
        "ev_chancellor_hidden": "{name} draws {n} cards.",
        "ev_chancellor_hidden_one": "{name} draws 1 card.",
        "ev_bottom": "{name} keeps {card} and puts {cards} under the deck.",
        "ev_bottom_hidden": "{name} puts {n} cards under the deck.",
        "ev_bottom_hidden_one": "{name} puts 1 card under the deck.",
        "ev_out": "{name} is out of the round and shows {cards}.",
        "ev_out_empty": "{name} is out of the round.",
        "ev_showdown": "The deck is empty: every player still in the round shows their hand, and the highest card"
                       " wins.",
        "ev_reveal": "{name} shows {card}.",
        "ev_reveal_set_aside": "The set-aside card was {card}.",
        "ev_deck_left": "Left in the deck, top first: {cards}.",
        "ev_discard_total": "More than one player holds the highest card: the highest total of discards wins.",
        "ev_discard_total_tie": "More than one player holds the highest card, with the same total of discards: they share the win.",
        "ev_tie": "More than one player holds the highest card: they share the win.",
        "ev_round_end": "{names} win the round.",
        "ev_round_end_one": "{name} wins the round.",
        "ev_spy_bonus": "{name} gains a token for the Spy.",
        "and": "and",
        "or": "or",
        # replay
        "replay_header": "{edition} · {players} · {target} tokens to win",
        "replay_header_one": "{edition} · {players} · the first token wins",
        "replay_round": "— Round {round} —",
        "replay_unfinished": "The round is not finished.",
        "replay_too_long": "this record's story would run past {most} million characters (its names are"
                           " long): nothing was written; --json gives its summary",
        "replay_match_over": "Match over: {names} win. Tokens: {scores}.",
        "replay_match_over_one": "Match over: {name} wins. Tokens: {scores}.",
        "replay_match_going": "The record ends before the match does: {scores}.",
        "edition_named_classic": "classic edition",
        "edition_named_2019": "2019 edition",
        # tournaments
        "cli_serve": "Start the browser game on this computer (tables with friends and bots) and print its address.",
        "opt_serve_host": "Address to listen on (0.0.0.0: every network interface).",
        "opt_serve_proxy": "The addresses (or networks, with commas between) of proxies in front of the server"
                           " that name their clients in X-Forwarded-For: each client then counts apart in the"
                           " limits per address. Without it the header is not believed (anyone could name"
                           " themselves anyone).",
        "opt_serve_port": "Port to listen on.",
        "opt_serve_bot_delay": "Seconds from the start of a bot's turn to its move, its thinking included, so people can follow.",
        "opt_serve_db": "Database: an SQLAlchemy URL (e.g. postgresql+psycopg://user@host/db) or an SQLite file path"
                        " (default: a file in your data folder).",
        "serve_open": "Love Letter is being served: open {url} in a browser (Ctrl+C stops it).",
        "serve_open_network": "Love Letter is being served: open {url} in a browser, on this machine or another on its"
                              " network; the links to invite others then work there too (Ctrl+C stops it).",
        "serve_db": "Database: {db}",
        "serve_err_db": "cannot open the database {db}: {reason}",
        "serve_err_port": "cannot listen on {host}:{port}: {reason}",
        "serve_err_host_empty": "the address is empty: give one, e.g. 127.0.0.1 or 0.0.0.0",
        "cli_addresses_empty": "no address: give one or more, e.g. 127.0.0.1 or 127.0.0.1,::1",
        "cli_not_an_address": "{value} is not an internet address or network (e.g. 127.0.0.1, ::1, 10.0.0.0/8)",
        "serve_err_db_empty": "it is empty: give a database URL or an SQLite file path (or leave --db out)",
        "serve_err_data_folder": "cannot make the data folder {folder}: {reason}",
        "serve_err_no_home": "no folder for the tables' database: {reason}",
        "serve_err_db_no_folder": "the folder {folder} does not exist",
        "serve_err_db_kind": "unknown kind of database {kind!r}",
        "serve_err_db_driver": "its driver ({module}) is not installed",
        "serve_err_db_url": "it is not a database URL (e.g. postgresql+psycopg://user@host/db or sqlite:///file.db)",
        "serve_err_db_not_sqlite": "the file is not an SQLite database",
        "serve_err_db_read_only": "it may only be read, not written to",
        "serve_err_db_folder_read_only": "the folder {folder} may not be written to (SQLite keeps files of its own"
                                         " beside the database)",
        "serve_hold_taken_again": "the connection that held the database for this server was lost (PostgreSQL"
                                  " restarted, or the connection cut): the database is held again",
        "serve_hold_lost": "another server took the database while the connection that held it for this one was"
                           " lost: this server stops, and the other goes on",
        "log_not_upgraded": "a table's connection came without its WebSocket upgrade: a proxy in front must pass"
                            " the Upgrade and Connection headers (see the README)",
        "log_foreign_origin": "a page at {origin} was refused a table, asked for as {host}: another site's page, or"
                              " one behind a proxy that does not pass X-Forwarded-Host (see the README)",
        "log_request_not_stored": "{method} {path} not stored: {reason}",
        "log_request_not_read": "{method} {path} not read: {reason}",
        "log_table_not_read": "table {code} not read: {reason}",
        "log_table_left_out": "table {code} left out: {reason}",
        "log_hints_failed": "the hints for seat {seat} of table {code} failed",
        "log_move_elsewhere": "table {code}: move {at} not stored: another server on this database stored one",
        "log_move_not_stored": "table {code}: move {at} not stored: {reason}",
        "log_move_stored_after": "table {code}: move {at} stored after {tries} tries",
        "log_replay_unread": "A replay's reader took nothing of it for {seconds} seconds: its connection is closed.",
        "log_out_of_sockets": "socket.accept() out of system resource: {reason}",
        "log_no_workers": "the expert's searches are made in the server's threads, which hold up every table"
                          " while they think: the system gives no processes for them ({reason})",
        "serve_db_replaced": "the database file {db} was replaced or removed while this server ran: it stops,"
                             " for the moves it stored now would be in a file no name leads to, lost when it"
                             " stopped",
        "serve_db_rescued": "what the database held until the server stopped is copied to {copy}",
        "serve_db_not_rescued": "what the database held until the server stopped could not be copied beside it:"
                                " {reason}",
        "serve_err_db_in_use": "another server is using the database {db}: only one server may use a database"
                               " (each keeps its tables in memory); stop that one first, or give this one"
                               " another --db",
        "serve_err_db_unreachable": "no connection (the driver says: {detail})",
        "serve_err_db_says": "the driver says: {detail}",
        "serve_err_db_foreign": "its table {table!r} is not this app's (columns missing: {columns}): choose another"
                                " database, or take that table away; nothing was changed",
        "serve_table_left_out": "table {code} is left out: its stored rows cannot be read back ({reason});"
                                " they stay in the database as they are",
        "serve_damage_not_object": "its settings are not a JSON object",
        "serve_damage_not_json_at": "its settings are not JSON (line {line}, column {column})",
        "serve_damage_not_json": "its settings are not JSON",
        "serve_damage_missing": "its settings lack the field {field!r}",
        "serve_damage_kind": "its settings' field {field!r} holds the wrong kind of value",
        "serve_damage_seats": "its settings name {seats} seats for {players} players",
        "cli_tournament": "Play many games between bots, seats rotating, and report win rates, pairwise results"
                          " and Bradley-Terry ratings.",
        "opt_tour_bots": "Bot levels in the lineup, separated by commas ({levels}); fewer than --players are"
                         " repeated in turn to fill the seats.",
        "opt_tour_players": "Number of players (default: the number of bots listed, at least 2).",
        "opt_tour_rounds": "Play N single rounds (the default: {default} rounds; at most {most}).",
        "opt_tour_matches": "Play N whole matches instead of single rounds (at most {most}).",
        "opt_tour_seed": "Seed, any whole number: the same seed gives the same games, whatever --jobs or --backend.",
        "opt_tour_jobs": "Processes to play in (default: every core this process may use; 1 plays in this process;"
        " at most 4 per core, but any number on a Ray cluster that RAY_ADDRESS names).",
        "opt_tour_backend": "local: a pool of processes on this machine; ray: Ray tasks (pip install -e '.[ray]' in"
        " the project's folder, or pip install 'WHEEL[ray]' with the wheel installed).",
        "opt_tour_budget": "Thinking budget in search iterations per move, for the levels that search (default:"
        " their own; the expert's is {default}).",
        "opt_tour_json": "Print one JSON object with the figures and the settings instead of the tables.",
        "opt_tour_csv": "Also write one row per level to this CSV file ('-': to standard output, instead of the tables).",
        "opt_tour_plot": "Also draw the win rates and ratings with their error bars in this PNG file.",
        "opt_tour_records": "Keep every game's record in this folder (game-000000.json, …).",
        "opt_tour_quiet": "No progress bar and no notes on standard error.",
        # placeholders in the help pages' option lists
        "meta_levels": "LEVEL[,LEVEL...]",
        "meta_options": "[OPTIONS]",
        "meta_command": "COMMAND [ARGS]...",
        "meta_tokens": "TOKENS",
        "meta_name": "NAME",
        "meta_folder": "DIR",
        "meta_seconds": "SECONDS",
        "meta_seat": "SEAT|random",
        "meta_file": "FILE",
        "meta_png": "FILE.png",
        "meta_address": "ADDRESS",
        "meta_addresses": "ADDRESSES",
        "meta_port": "PORT",
        "meta_database": "URL|FILE",
        "tour_playing": "Playing",
        "tour_eta": "time left",
        "tour_done": "Games played: {games}, in {seconds} s (processes: {jobs}, --backend {backend}).",
        "tour_written": "Written: {path}",
        "tour_mode_rounds": "{games} single rounds",
        "tour_mode_matches": "{games} matches",
        "tour_mode_round": "1 single round",
        "tour_mode_match": "1 match",
        "tour_header": "Tournament: {mode} · {edition} · {players} players · seed {seed}",
        "tour_lineup_one": "Lineup: {lineup} (one game, the seats as listed)",
        "tour_lineup": "Lineup: {lineup} (seats rotate every game, the starting seat every {every} games)",
        "tour_lineup_short": "Lineup: {lineup} (seats rotate every game; seat 0 starts every game)",
        "tour_lineup_reversed": "Lineup: {lineup} (seats rotate every game, both ways round; the starting seat every {every} games)",
        "tour_lineup_reversed_short": "Lineup: {lineup} (seats rotate every game, both ways round; seat 0 starts every game)",
        "tour_budget": "Thinking budget: {budget} iterations per move",
        "tour_budget_one": "Thinking budget: 1 iteration per move",
        "tour_balanced": "Balanced: every level played every seat, and every place in turn order counting"
                         " from the starting player, equally often.",
        "tour_unbalanced": "Not exactly balanced: the number of games, {games}, is not a multiple of the {players}"
                           " players."
                           " Games per seat: {counts}. Games started: {starts}",
        "tour_table_title": "Results per level",
        "tour_col_level": "Level",
        "tour_col_games": "Games",
        "tour_col_wins": "Wins",
        "tour_col_shared": "Shared",
        "tour_col_rate": "Win rate",
        "tour_col_ci": "95% interval",
        "tour_col_rating": "Rating (Elo)",
        "tour_col_se": "s.e.",
        "tour_pairs_title": "Head to head (games where both levels played)",
        "tour_col_a": "Level A",
        "tour_col_b": "Level B",
        "tour_col_a_only": "A won, B not",
        "tour_col_b_only": "B won, A not",
        "tour_col_both": "Both won",
        "tour_col_neither": "Neither",
        "tour_positions": "Win rate by place in turn order (0 = starting player): {positions}",
        "tour_rounds_played": "Rounds played in all: {rounds}",
        "tour_ratings_one": "Ratings: only one level played, so there is nothing to compare. It wins every game, so"
                            " its win rate is at least 1 in {players} (one seat a game), more by the games its seats"
                            " shared: its interval says how often those come.",
        "tour_ratings_infinite": "Ratings: none, because a level (or a group of levels) won, or lost, every"
                                 " game decided between it and the others; play more games.",
        "tour_ratings_note": "Ratings: Bradley-Terry, fitted to every two seats of different levels where one"
                             " won and the other did not, on the Elo scale with mean 0; ± is one standard error,"
                             " clustered by game (the comparisons within one game are not independent).",
        "tour_rates_note": "Win rates: a level in several seats counts once per seat; a shared win counts for"
                           " each winner; 95% Wilson score intervals (for a level in several seats, by game: its seats' results"
                           " in one game are linked).",
        "tour_plot_rate": "win rate, % (95% Wilson interval; dotted: an equal share)",
        "tour_plot_rating": "Bradley-Terry rating, Elo (± 1.96 standard errors)",
        "tour_err_no_bots": "--bots: list at least one bot level ({levels})",
        "tour_err_unknown_level": "--bots: unknown bot level {level!r}: choose from {levels}",
        "tour_err_too_many_bots": "--bots lists {count} levels, more than the {players} players",
        "tour_err_edition": "unknown edition {given}: choose classic or 2019",
        "tour_err_lineup": "the lineup is a bot level for each seat, such as ('expert', 'beginner'), not {lineup}",
        "tour_err_players": "--players: the {edition} is for {low}-{high} players, not {players} (R2.1)",
        "tour_err_bots_players": "--bots: {players} levels listed, but the {edition} is for {low}-{high} players"
                                 " (R2.1)",
        "play_err_bot_count": "--bots: give a single level for all the bots, or one level per bot ({need} with"
        " {players} players), not {count}",
        "play_err_bots_players": "--bots: {count} levels make a game of {players} players, but the {edition} is for {low}-{high} (R2.1)",
        "play_err_starter": "--starter: choose a seat from 0 to {last}, or random",
        "play_err_name_long": "--name: a name has at most {most} characters, not {length}",
        "play_err_name_marks": "--name: the name has too many accents or joiners on its characters",
        "play_err_name_empty": "--name: give a name that shows something, or leave --name out to be called {default}",
        "play_err_name_bytes": "--name: the name is not text (bytes that are not UTF-8)",
        "play_err_bots_empty": "--bots: empty level in {given!r}: separate the levels ({levels}) with single"
        " commas, none at either end",
        "play_err_budget_unused": "--budget: no bot here thinks with a budget (only {searching}) and --hints is off",
        "cli_see_help": "see '{command} --help'",
        "cli_empty_path": "the path is empty: give a file or folder name",
        "cli_empty_file": "the path is empty: give a file name",
        "cli_empty_folder": "the path is empty: give a folder name",
        "cli_file_ends_in_slash": "{path} ends in '/', as a folder's name: give a file name",
        "cli_interrupted": "interrupted.",
        "cli_err_output": "could not write the output: {reason}",
        "cli_stdout_closed": "standard output is closed",
        "play_err_stdin_closed": "standard input is closed: the game reads your moves from it",
        "opt_version": "Show the version and exit.",
        "cli_version": "%(prog)s, version %(version)s",
        "cli_not_whole": "{value!r} is not a whole number.",
        "cli_not_a_choice": "{value!r} is not a choice here: choose {choices}.",
        "cli_grouped_by_marks": "{value!r}: write the number without points or commas, as {plain} or {grouped}.",
        "cli_too_long": "{value!r} is too long a number (at most {most} digits).",
        "cli_not_number": "{value!r} is not a number.",
        "cli_out_of_range": "{value} is out of range: it must be {range}.",
        "cli_range_at_least": "at least {low}",
        "cli_range_between": "from {low} to {high}",
        "tour_err_mode": "unknown kind of game {mode!r}: rounds or matches",
        "tour_err_games": "play at least 1 game, not {games}",
        "tour_err_whole": "{name} must be a whole number, not {value}",
        "tour_err_budget": "--budget must be from 1 to {most}, not {budget}",
        "tour_err_budget_unused": "--budget: no bot here thinks with a budget (only {searching})",
        "tour_err_too_many_games": "play at most {most} games in one tournament, not {games}",
        "tour_err_records_used": "--records: {path} already holds game records; choose a new or empty folder",
        "tour_err_records_clash": "--records: {path} was written meanwhile by another run: its records and"
                                  " these would mix; stopped",
        "tour_err_records_gone": "--records: the folder {path} went away during the run; stopped",
        "tour_err_jobs": "--jobs must be at least 1, not {jobs}",
        "tour_err_backend": "unknown backend {backend!r}: local or ray",
        "tour_err_ray_missing": "--backend ray needs Ray, which is not installed: pip install -e '.[ray]' in the"
        " project's folder (or pip install 'WHEEL[ray]' with the wheel installed)",
        "tour_err_ray_unreachable": "--backend ray: no Ray cluster answers at RAY_ADDRESS={address!r} (is the"
        " address right, and the cluster running?)",
        "tour_err_ray_refused": "--backend ray: the Ray cluster at RAY_ADDRESS={address!r} would not let this tournament"
        " join: {reason} (Ray's words)",
        "tour_err_rounds_and_matches": "give --rounds or --matches, not both",
        "tour_err_too_many_jobs": "--jobs: at most {most} processes on this machine ({per} per core this process may use), not {jobs}:"
        " more only take memory",
        "tour_err_not_png": "--plot draws a PNG image: give a file name ending in .png, not {path}",
        "tour_err_is_folder": "{option}: {path} is a folder; give a file name",
        "tour_err_dash_plot": "--plot: '-' would be standard output, where no PNG image goes; give a file name ending in .png",
        "cli_err_dash_records": "--records: '-' would be standard output, which holds no records; give a folder name",
        "tour_err_dash_json": "--json and --csv {path} both print to standard output: choose one",
        "tour_err_no_folder": "{option}: the folder {path} does not exist",
        "tour_err_unwritable": "{option}: cannot write to {path}",
        "tour_err_unwritable_because": "{option}: cannot write to {path}: {reason}",
        "tour_err_same_path": "{option} and {other} both name {path}: give each its own",
        "tour_err_same_file": "{option} {first} and {other} {path} are one file (a link): give each its own",
        "tour_err_record_name": "{option} names {path}, where --records would keep a game's record: choose another name",
        "tour_err_worker_died": "a worker process stopped unexpectedly (out of memory?)",
        "tour_err_not_folder": "{option}: {path} is a file, not a folder",
        "tour_err_write": "{option}: could not write {path}: {reason}",
        "tour_err_game": "game {game} ({seats}) failed: {error}",
        # the browser game (loveletter.web)
        "web_title": "Love Letter",
        "web_create": "New table",
        "web_create_button": "Create the table",
        "web_your_name": "Your name",
        "web_edition": "Edition",
        "web_classic": "Classic (16 cards, 2–4 players)",
        "web_named_classic": "classic edition",
        "web_named_2019": "2019 edition",
        "web_2019": "2019 (21 cards, 2–6 players)",
        "web_players": "Players",
        "web_target": "Tokens to win",
        "web_seat": "Seat {n}",
        "web_person": "a person",
        "web_level_random": "bot: random",
        "web_level_beginner": "bot: beginner",
        "web_level_expert": "bot: expert",
        "web_bot_random": "Bot {n} (random)",
        "web_bot_beginner": "Bot {n} (beginner)",
        "web_bot_expert": "Bot {n} (expert)",
        "web_private": "Private (join by code or link only)",
        "web_bot_timeout": "After how many seconds a bot plays for someone away (for someone at the table who does"
                           " not move, 60 at least; empty: only when another player asks)",
        "web_stand_in": "The bot that plays for someone away",
        "web_stood_in": "(a bot played for {name})",
        "web_stand_in_rule": "A bot ({level}) plays for someone away after {away} s, and for someone here who does"
                             " not move within {idle} s, while another player is at the table.",
        "web_stand_in_asked_rule": "A bot ({level}) plays a move for someone away for {away} s, or here without"
                                   " moving for {idle} s, when another player asks it to.",
        "web_away": "away",
        "web_went_away": "{name} is away.",
        "web_came_back": "{name} is back.",
        "web_stand_in_ask": "Let a bot play this move for {name}",
        "web_spectator_stand_in": "Only the players may ask a bot to play for someone away or not moving.",
        "web_stand_in_yourself": "It is your own move: a bot may be asked to play only another's.",
        "web_stand_in_here": "{name} is a bot: a bot is asked to play only for a person away, or who does not move.",
        "web_stand_in_idle_soon": "{name} is at the table: a bot can be asked to play for someone here only after"
                                  " {after} s without a move; ask again in {seconds} s.",
        "web_stand_in_soon": "A bot can be asked to play only for someone who has been away for {after} s: ask again for {name} in {seconds} s.",
        "web_open_tables": "Open tables",
        "web_none_open": "No open tables. Create one!",
        "web_join": "Join",
        "web_seat_offered": "A seat is free at this table: take it here",
        "web_join_table": "Join table {code}",
        "web_join_code": "Join with a code",
        "web_code": "Table code",
        "web_link": "Invite others with this link or the code {code}",
        "web_waiting_players": "Waiting for players: {n} seats free",
        "web_waiting_player": "Waiting for players: 1 seat free",
        "web_your_turn": "Your turn",
        "web_turn_of": "{name} is to play",
        "web_deck": "Deck: {n}",
        "web_face_up": "Face up (out of this round)",
        "web_tokens": "Tokens: {n} of {target}",
        "web_hints": "Hints from the expert bot",
        "web_rematch": "Rematch",
        "web_rematch_join": "Join the rematch",
        "web_rematch_go": "Go to the rematch",
        "web_rematch_twice": "You have already joined the rematch.",
        "web_rematch_watch": "Watch the rematch",
        "web_rematch_ready": "The next match is ready: “{button}” takes you there.",
        "web_came_to_table": "{name} comes to the table.",
        "web_hint_title": "Your chance of winning the round after each move, as the expert estimates it",
        "web_belief": "What the expert thinks the others hold",
        "web_belief_unlikely": "under 1%",
        "web_protected": "protected",
        "web_out": "out",
        "web_hand": "Your hand",
        "web_hand_of": "{name}'s hand",
        "web_replay_hand": "Hand",
        "web_status": "The game now",
        "web_discards": "Discards",
        "web_log": "What happened",
        "web_tracker": "Unseen cards",  # (as the terminal game calls them)
        "web_tracker_watching": "Cards not shown yet",  # (a spectator has seen no hand)
        "web_under_deck": "Put under the deck by you, drawn once the rest is gone:",
        "web_known": "What you know",
        "web_nothing_known": "Nothing private yet.",
        "web_pick_card": "Pick a card to play.",
        "web_pick_player": "Choose a player for the {card}.",
        "web_pick_guess": "Name a card (not the Guard).",
        "web_pick_keep": "Chancellor: choose the card to keep; the others go under the deck in the order shown"
                         " after ↓ (the last one at the very bottom).",
        "web_pick_keep_one": "Chancellor: choose the card to keep; the other goes under the deck.",
        "web_yourself": "yourself",
        "web_keep_label": "Keep {keep}; under the deck, in this order: {bottom}",
        "web_keep_label_one": "Keep {keep}; {bottom} goes under the deck",
        "web_cancel": "Back",
        "web_round_won": "Round won by {names}",
        "web_match_won": "Match won by {names}!",
        "web_last_round": "The last round",
        "web_final_round": "The final round",
        "web_spectating": "You are watching: only public information is shown.",
        "web_reconnecting": "Connection lost: reconnecting…",
        "web_reconnected": "Connected again.",
        "web_unreachable_asking": "The server cannot be reached: asking it again…",
        "web_still_asking": "Still waiting for the server's answer…",
        "web_move_not_sent": "Your move was not sent: play it again once the connection is back.",
        "web_server_stopped": "The server has stopped: reconnecting once it is back…",
        "web_unreachable": "The server cannot be reached: try again in a moment.",
        "web_page_updated": "The game has been updated on the server: reload this page to go on with it.",
        "web_language": "Nederlands",
        "web_you": "you",
        "web_free_seat": "Free seat",
        "web_name_empty": "Please give a name.",
        "web_name_taken": "Someone at this table is already called {name}: please choose another name.",
        "web_name_bot": "{name} would pass for one of the bots: please choose another name.",
        "web_name_free_seat": "{name} would pass for a free seat: please choose another name.",
        "web_name_kept": "{name} played the last match: the name is kept for them (they come on with “Join the"
                         " rematch” at the finished table). Please choose another name.",
        "web_err_edition": "Unknown edition {edition!r}: choose classic or 2019.",
        "web_err_players": "The {edition} is for {low} to {high} players, not {players}.",
        "web_err_target": "The token target must be from 1 to 20, not {target}.",
        "web_err_bot_seat": "Seat {seat} cannot be a bot: bots sit in seats 1 to {last} (seat 0 is yours).",
        "web_err_bot_seat_two": "Seat {seat} cannot be a bot: with two players the bot sits in seat 1 (seat 0 is"
        " yours).",
        "web_err_bot_seat_number": "{seat!r} is not a seat: seats are whole numbers written plainly (\"1\", \"2\").",
        "web_err_bot_level": "Unknown bot level {level!r}: choose {levels}.",
        "web_err_stand_in": "Unknown level {level!r} for the bot that plays for someone away: choose {levels}.",
        "web_err_bot_timeout": "The time before a bot takes over must be from 1 to {most} seconds.",
        "web_err_request": "The request has a wrong or missing value for '{field}'.",
        "web_name_long": "A name has at most {max} characters.",
        "web_name_marks": "The name has too many accents or joiners on its characters.",
        "web_check_missing": "Please fill in this field.",
        "web_check_file": "Please choose a file.",
        "web_check_whole": "Please give a whole number.",
        "web_check_range": "Please give a number from {min} to {max}.",
        "web_table_full": "This table has no free seat; you can watch it.",
        "web_too_many_watchers": "This table already has {most} spectators, the most it takes: this page tries"
                                 " again every 30 seconds.",
        "web_too_many_misses": "Too many codes with no table from here: try again in {minutes} minutes.",
        "web_too_many_tabs": "This seat is already open in {most} places, the most it may be: close one.",
        "web_foreign_origin": "This game's tables can only be opened from its own pages.",
        "web_not_upgraded": "A table's connection is a WebSocket: a proxy in front must pass the Upgrade and Connection headers.",
        "web_bad_host": "This server answers only to this computer's own names (localhost): a proxy in front must pass Host: localhost.",
        "web_too_many_tables": "You have created {most} tables in the last {minutes} minutes, the most allowed;"
                               " join one, or wait a little.",
        "web_too_many_joins": "You have taken {most} seats in the last {minutes} minutes, the most allowed;"
                              " play at one of them, or wait a little.",
        "web_seat_kept": "The free seats are kept for the last match's players while they decide; you can watch.",
        "web_seat_taken_away": "Your seat was taken while you were away, and the free seats are kept for the last"
                               " match's other players while they decide; you can watch.",
        "web_seat_taken_full": "Your seat was taken while you were away, and the next match has no free seat;"
                               " you can watch it.",
        "web_bad_secret": "This seat credential is not valid for this table.",
        "web_bad_request_key": "The {header} header must be 16 to 64 letters, digits, '-' or '_'.",
        "web_move_not_received": "Your last move did not reach the table: play it again.",
        "web_spectator": "Spectators cannot play.",
        "web_store_failed": "The server could not store that just now (its database is busy or out of reach):"
                            " nothing was changed; try again.",
        "web_read_failed": "The server could not read this table just now (its database is busy or out of"
                           " reach): try again in a moment.",
        "web_store_elsewhere": "Another server using this database got there first, so this server's table is"
                               " out of date and nothing was changed: only one server may use a database.",
        "web_spectator_hints": "Hints are for the players; spectators get none.",
        "web_match_over": "The match is over.",
        "web_not_started": "The match starts when every seat is taken.",
        "web_stale": "The table has moved on since you chose; look again and choose anew.",
        "web_not_your_turn": "It is not your turn.",
        "web_bad_move": "That is not a move.",
        "web_illegal": "That move is not allowed.",
        "web_too_long": "Message too long (at most {max} characters).",
        "web_not_json": "A message must be a JSON object.",
        "web_body_unreadable": "The request could not be read as JSON (text that is not UTF-8, nesting too deep"
                               " or a number too long).",
        "web_bad_type": "Unknown message type.",
        "web_bad_field": "The field {field!r} is missing or has the wrong type.",
        "web_bad_language": "The language {lang!r} is not one of ours: choose {langs}.",
        "web_unknown_field": "Unknown field {field!r}.",
        "web_key_twice": "The request names the field {field!r} twice in one object.",
        "web_message_key_twice": "The message names the field {field!r} twice in one object.",
        "web_body_not_object": "The request's body must be a JSON object, sent as application/json.",
        "web_no_table": "There is no table with this code.",
        "web_table_unreadable": "This table cannot be read from the database just now (the server's log says"
                                " why).",
        "web_hello_twice": "You are already seated at this connection.",
        "web_hello_first": "Say hello first.",
        "web_not_finished": "The match is not over yet: its record and replay come when it is.",
        "web_rematch_not_finished": "The match is not over yet: a rematch can be asked for when it is.",
        "web_record_too_big": "That file is too large for a game record (at most {max} kB).",
        "web_replay_too_big": "This record's replay would be too large to show here (over {most} MB: a very long match, or"
                              " very long names); the command loveletter replay tells it.",
        "web_replays_busy": "Too many replays are being made just now: try again in a moment.",
        "web_request_too_big": "The request is too large (at most {max} kB).",
        "web_hello_late": "No hello came within {seconds} seconds: the connection is closed.",
        "web_not_found": "There is nothing at this address.",
        "web_wrong_method": "This address takes no {method} requests.",
        "web_unknown_language": "Unknown language '{lang}': choose {languages}.",
        "web_upload": "the file",
        "web_bad_record": "That is not a valid game record: {reason}",
        "web_replay": "Replay",
        "web_download": "Download the record",
        "web_view_record": "View a game record",
        "web_view_button": "Show",
        "web_choose_file": "Choose a file…",
        "web_no_file": "No file chosen",
        "web_step": "Step {n} of {total}: round {round}, turn {turn}",
        "web_step_deal": "Step {n} of {total}: round {round}, the deal",
        "web_previous": "Back",
        "web_next": "Next",
        # record errors (record.py): a place, then the reason
        "rec_where_round": "round {round}: ",
        "rec_where_turn": "round {round}, turn {turn}: ",
        "rec_no_file": "no such file: {path}",
        "rec_folder": "{path} is a folder, not a record file",
        "rec_not_a_file": "{path} is not a record file (a pipe, a device or a socket): not read",
        "rec_too_big": "{path} is too large for a game record (more than {most} MB)",
        "rec_key_twice": "{path} names the field {field!r} twice in one object",
        "rec_not_text": "{path} is not a text file (not UTF-8 at line {line}, column {column})",
        "rec_wide_text": "{path} is {encoding} text: a record is read as UTF-8 (save it as UTF-8)",
        "rec_cut_in_a_character": "{path} ends in the middle of a character (line {line}, column {column}):"
                                  " was it cut short?",
        "rec_unreadable": "cannot read {path}: {error}",
        "rec_stdin": "standard input",
        "rec_stdin_closed": "standard input is closed: give the record's file, or send it in (loveletter replay - < FILE)",
        "rec_not_json": "{path} is not valid JSON: {error} (line {line}, column {column})",
        "rec_empty": "{path} is empty: there is no record in it",
        "rec_too_deep": "{path} is nested too deeply to be a record",
        "rec_number_too_long": "{path} holds a number too long to read (line {line}, column {column})",
        "os_no_such": "no such file or folder",
        "os_denied": "permission denied",
        "os_no_space": "no space left on the device",
        "os_is_folder": "it is a folder",
        "os_not_folder": "a part of the path is not a folder",
        "os_read_only": "the file system is read-only",
        "os_address_in_use": "the address is already in use",
        "os_address_unavailable": "this machine has no such address",
        "os_unknown_host": "unknown host name",
        "os_name_too_long": "the name is too long",
        "os_link_loop": "too many symbolic links (a loop?)",
        "os_no_reader": "nothing reads from it (a named pipe without a reader?)",
        "os_exists": "it already exists",
        "os_io": "input/output error (the device failed, or this file cannot be used that way)",
        "os_invalid": "invalid argument (a special file?)",
        "os_too_large": "the file is too large",
        "os_too_many_open": "too many files are open",
        "os_no_memory": "not enough memory",
        "os_busy": "it is in use",
        "os_reader_gone": "the reader has gone (a broken pipe)",
        "os_no_device": "no such device",
        "os_refused": "the connection was refused",
        "os_timed_out": "it took too long (timed out)",
        "os_try_again": "not available now; try again",
        "os_other": "{reason}",
        "json_value": "a value was expected",
        "json_bom": "a byte-order mark (U+FEFF) stands where a value should start",
        "json_field_name": "a field name in double quotes was expected",
        "json_comma": "a comma was expected",
        "json_colon": "a colon was expected",
        "json_unclosed": "a string is not closed",
        "json_control": "a control character inside a string",
        "json_escape": "a wrong escape (\\…) in a string",
        "json_extra": "more follows the end of the JSON value",
        "json_trailing_comma": "a comma before a closing bracket",
        "rec_not_object": "a record is a JSON object, not {kind}",
        "rec_unknown_format": "unknown format {format}: expected \"{expected}\"",
        "rec_edition_type": "'edition' must be \"classic\" or \"2019\", not {kind}",
        "rec_unknown_edition": "unknown edition {name!r}: choose classic or 2019",
        "rec_players": "'players' must be a list of non-empty names",
        "rec_players_distinct": "the players' names must be distinct",
        "rec_player_count": "the {edition} is for {low}-{high} players, not {n} (R2.1)",
        "rec_target": "'target' must be a whole number of tokens, at least 1, not {value}",
        "rec_rounds": "'rounds' must be a list",
        "rec_no_rounds": "the record has no rounds",
        "rec_round_not_object": "a round is a JSON object, not {kind}",
        "rec_starter": "'starter' must be a seat from 0 to {last}, not {value}",
        "rec_round_unfinished": "the round has not ended, yet another round follows it",
        "rec_match_over": "the match ended after round {round}, so no round may follow",
        "rec_wrong_starter": "seat {seat} cannot start this round: seat {expected} does (R3.5)",
        "rec_turns": "'turns' must be a list",
        "rec_deck": "'deck' must be a list of cards",
        "rec_deck_cards": "the deck must hold the {size} cards of the {edition} once per copy;"
                          " it has {wrong} (R3.1)",
        "rec_deck_count": "{count} × {card} (needs {needs})",
        "rec_turn_not_object": "a turn is a JSON object, not {kind}",
        "rec_round_over": "the round is already over: no more turns",
        "rec_wrong_seat": "the turn says seat {seat}, but it is seat {current}'s turn",
        "rec_no_play": "the turn has no 'play'",
        "rec_target_type": "'target' must be a seat number, not {kind}",
        "rec_seat_type": "'seat' must be a seat number, not {kind}",
        "rec_choice_not_chancellor": "only a Chancellor turn has 'keep' and 'bottom' (R5.9)",
        "rec_chancellor_keep": "the Chancellor drew cards, so the turn must say which of {cards} to keep (R5.9)",
        "rec_bottom": "'bottom' must be a list of cards",
        "rec_chancellor_empty": "the Chancellor drew no card (the deck is empty), so it keeps nothing (R5.9)",
        "rec_card_type": "'{field}' must name a card, not {kind}",
        "rec_unknown_card": "unknown card {word!r} in '{field}'",
        "rec_card_not_english": "unknown card {word!r} in '{field}': a record names the cards in English ('{english}')",
        "rec_ignored": "Left out (not in loveletter-record/1): {fields}.",
        "rec_ignored_in_record": "{field!r} in the record",
        "rec_ignored_in_round": "{field!r} in round {round}",
        "rec_ignored_more": ", and {n} more",
        "rec_field_case": "{field!r} must be written {known!r}",
        "rec_unknown_field_turn": "unknown field {field!r} in a turn",
    },
    "nl": {
        "cli_main": "Love Letter: speel het kaartspel in de terminal of de browser, speel spelverslagen na en"
                    " laat bots toernooien spelen.",
        "cli_play": "Speel een spel tegen bots in de terminal (zetten per nummer of notatie; werkt ook via een pipe).",
        "cli_replay": "Controleer een spelverslag (BESTAND, of - voor standaardinvoer) en vertel het "
                      "verloop van het spel dat erin staat.",
        "cli_check": "Controleer spelverslagen: bestanden, of mappen ervan (hun .json-bestanden). Elk geweigerd"
                     " verslag krijgt een eigen regel, daarna hoeveel er gecontroleerd zijn.",
        "opt_check_lang": "Taal van de weigeringen (standaard: volgens de taalinstelling van je systeem).",
        "meta_paths": "PAD...",
        "check_none": "geen verslagbestanden (.json) in {paths}",
        "check_all_sound": "{n} verslagen gecontroleerd: alle in orde.",
        "check_refused": "{n} verslagen gecontroleerd: {sound} in orde, {refused} geweigerd.",
        "check_one_all_sound": "1 verslag gecontroleerd: in orde.",
        "check_one_refused": "1 verslag gecontroleerd: geweigerd.",
        "cli_extra_argument": "onverwacht argument {first}",
        "cli_extra_arguments": "{n} onverwachte argumenten, het eerste {first}",
        "cli_replay_one": "(replay vertelt één verslag: 'loveletter check' controleert er veel)",
        "opt_edition": "classic: 16 kaarten, 2-4 spelers; 2019: 21 kaarten, 2-6 spelers.",
        "opt_players": "Aantal spelers: jij plus bots, 2-4 in de klassieke editie, 2-6 in 2019 (standaard: één meer"
        " dan de niveaus in --bots, minstens 2).",
        "opt_bots": "Niveau voor alle bots, of één per bot gescheiden door komma's ({levels}).",
        "opt_lang": "Taal (standaard: volgens de taalinstelling van je systeem).",
        "opt_seed": "Startgetal (seed) voor het schudden en de bots: hetzelfde startgetal, hetzelfde spel.",
        "opt_target": "Aantal tekens van liefde om te winnen (standaard: volgens de regels, R2.3).",
        "opt_name": "Jouw naam aan tafel.",
        "opt_records": "Map voor het spelverslag (standaard: je gegevensmap; het pad komt aan het eind in beeld).",
        "opt_json": "Geef in plaats daarvan de samenvatting als JSON (de samenvatting uit het "
                    "verslagformaat).",
        "opt_delay": "Seconden tussen de vorige zet en elke zet van een bot, denktijd inbegrepen "
                     "(standaard: 0,6 in een terminal, 0 via een pipe).",
        "opt_starter": "Wie de eerste ronde begint: een stoelnummer (jij bent 0), of willekeurig (volgens het startgetal).",
        "opt_screen_reader": "Toon het spel voor een schermlezer: elke regel in woorden, koppen zonder lijnen, één regel per speler in plaats van een tabel, geen draaiend teken.",
        "opt_hints": "Toon vóór elke zet van jou je kans om na elke mogelijke zet de ronde te winnen, zoals de"
                     " expert die schat, en wat hij denkt dat elke tegenstander heeft.",
        "opt_budget": "Denkbudget van de expert (bots en hints), in zoekstappen per zet (standaard: "
                      "{default}, een fractie van een seconde per zet; de denktijd groeit evenredig mee); "
                      "hints proberen elke zet ongeacht het budget minstens {tries} keer.",
        "hint_win": "winkans ≈ {p}%",
        "hint_win_margin": "winkans ≈ {p}% ± {m}",
        "hint_win_plain": "winkans {p}%",
        "hint_best": "beste",
        "hint_legend": "winkans ≈: je kans om na de zet de ronde te winnen, zoals de expert die schat (± de foutmarge);"
        " winkans 0% of 100%: zeker; beste: de hoogste",
        "sr_hint_win": "winkans ongeveer {p}%",
        "sr_hint_win_margin": "winkans ongeveer {p}%, plus of min {m} procentpunten",
        "sr_hint_win_margin_one": "winkans ongeveer {p}%, plus of min 1 procentpunt",
        "sr_chance_above": "meer dan {p}%",
        "sr_hint_win_plain": "winkans {p}%",
        "sr_hint_win_below": "winkans minder dan {p}%",
        "sr_hint_win_above": "winkans meer dan {p}%",
        "sr_hint_legend": "Na elke zet je kans om de ronde te winnen, zoals de expert die schat, met de foutmarge"
                          " erbij; 0% of 100%: zeker; beste: de hoogste.",
        "sr_hand_card": "{card}, waarde {value}: {effect}",
        "sr_move_fmt_guard": "Wachter op {target}, noem {guess}",
        "sr_move_fmt_target": "{card} op {target}",
        "hint_thinking": "De expert weegt je zetten…",
        "belief_unlikely": "minder dan 1%",
        "belief_title": "Wat de expert denkt (kans op elke kaart in de hand)",
        "opt_replay_lang": "Taal van het verhaal (standaard: volgens de taalinstelling van je systeem).",
        "title": "Love Letter",
        "round_title": "Ronde {round} · beurt {turn}",
        "deck_size": "Trekstapel: {n} kaarten",
        "deck_size_one": "Trekstapel: 1 kaart",
        "set_aside_taken": "de weggelegde kaart is genomen",
        "face_up": "Open weggenomen (niet in deze ronde): {cards}",
        "tokens": "Tekens van liefde (doel {target})",
        "tokens_column": "♥ tekens van liefde: {target} om te winnen",
        "player": "Speler",
        "discards": "Aflegstapel",
        "status": "Status",
        "sr_round_title": "Ronde {round}, beurt {turn}",
        "seat_named": "{name}, stoel {seat}",
        "seat_yourself": "jezelf, stoel {seat}",
        "sr_player": "{player}: {tokens}; aflegstapel: {discards}",
        "sr_player_no_discards": "{player}: {tokens}; nog niets afgelegd",
        "sr_tokens": "{n} tekens van liefde",
        "sr_tokens_one": "1 teken van liefde",
        "sr_to_win": "{target} tekens van liefde om te winnen",
        "sr_to_win_one": "het eerste teken van liefde wint",
        "status_out": "uit de ronde",
        "status_protected": "beschermd",
        "status_turn": "aan de beurt",
        "you": "jij",
        "your_hand": "Jouw hand",
        "known": "Wat jij weet",
        "known_hand": "{name} heeft {card}",
        "known_your_draw": "jij trok {cards}",
        "nothing_known": "niets geheims",
        "tracker": "Nog niet geziene kaarten",
        "under_deck": "Door jou onder de trekstapel gelegd (getrokken als de rest op is)",
        "moves": "Jouw zetten",
        "prompt": "Jouw zet (nummer of notatie, ? voor hulp, q om te stoppen)",
        "chancellor_prompt": "Houd één kaart; de andere gaan onder de trekstapel (laatstgenoemde helemaal onderop)",
        "chancellor_prompt_one": "Houd één kaart; de andere gaat onder de trekstapel",
        "help": "Typ het nummer van een zet, of schrijf hem uit, bv. 'wachter 1 priester', 'prins 0',"
                " 'kamermeisje', 'kanselier' (dan 'houd baron onder spion,priester'). Stoelen tellen vanaf 0."
                " 'q' stopt en bewaart het verslag.",
        "help_classic": "Typ het nummer van een zet, of schrijf hem uit, bv. 'wachter 1 priester', 'prins 0',"
                        " 'kamermeisje'. Stoelen tellen vanaf 0. 'q' stopt en bewaart het verslag.",
        "not_a_move": "Dat is geen zet: {reason}",
        "line_too_long": "Die regel is langer dan {max} karakters, langer dan welke zet ook: hij is overgeslagen.",
        "illegal": "Niet toegestaan: {reason}",
        "no_such_number": "Er is geen zet met nummer {n}: kies 1 tot en met {max}.",
        "ascii_digits": "Typ het nummer van een zet met de cijfers 0 tot en met 9, niet {n}.",
        "no_such_number_two": "Er is geen zet met nummer {n}: kies 1 of 2.",
        "no_such_number_one": "Er is geen zet met nummer {n}: er is alleen zet 1.",
        "nothing_typed": "Niets getypt: kies een zet, 1 tot en met {max} (? voor hulp).",
        "nothing_typed_two": "Niets getypt: kies een zet, 1 of 2 (? voor hulp).",
        "nothing_typed_one": "Niets getypt: er is alleen zet 1 (? voor hulp).",
        "match_won": "{names} winnen het spel!",
        "match_won_one": "{name} wint het spel!",
        "score": "Tekens van liefde: {scores}",
        "score_target": "Tekens van liefde: {scores} (doel {target})",
        "players_at_table": "Spelers, in beurtvolgorde: {players}; wie het eerst {target} tekens van liefde heeft, "
                            "wint.",
        "players_at_table_one": "Spelers, in beurtvolgorde: {players}; wie het eerste teken van liefde heeft, wint.",
        "bot_level": "{name} (bot, {level})",
        "level_random": "willekeurig",
        "level_beginner": "beginner",
        "level_expert": "expert",
        "record_saved": "Verslag bewaard: {path}",
        "record_not_saved": "kon het verslag {path} niet bewaren: {reason}",
        "play_err_records": "kan het verslag van het spel niet bewaren in {folder}: {reason}",
        "play_err_no_home": "geen map om het verslag van het spel in te bewaren: {reason}",
        "no_home": "HOME is niet gezet of geen volledig pad, en je account heeft geen thuismap; stel HOME of"
                   " XDG_DATA_HOME in, of geef {option}",
        "records_not_folder": "het is geen map",
        "quit": "Spel gestopt.",
        "not_text": "Dat is geen tekst: de terminal stuurde bytes die geen {encoding} zijn. Typ je zet opnieuw.",
        "quit_chancellor_unsaved": "De Kanselier waarvoor je aan het kiezen was, staat niet in het verslag:"
                                   " een verslag bewaart alleen hele beurten, dus het eindigt vóór die "
                                   "beurt.",
        "move_fmt_guard": "Wachter → {target}, noem {guess}",
        "move_fmt_target": "{card} → {target}",
        "move_fmt_none": "{card}",
        "move_fmt_no_target": "{card} (niemand te kiezen: geen effect)",
        "move_fmt_empty_deck": "{card} (de trekstapel is leeg: geen effect)",
        "move_fmt_keep": "Houd {keep}, onder de trekstapel: {bottom}",
        "ev_setup": "Ronde {round}: {name} begint.",
        "ev_setup_face_up": "Ronde {round}: {name} begint. Open weggenomen: {cards}.",
        "ev_deal": "{name} krijgt {card}.",
        "ev_draw": "{name} trekt {card}.",
        "ev_draw_set_aside": "{name} neemt de weggelegde kaart (de trekstapel is leeg).",
        "ev_draw_set_aside_card": "{name} neemt de weggelegde kaart: {card}.",
        "ev_play": "{name} speelt {card}.",
        "ev_play_none": "{name} speelt {card}, maar niemand kan gekozen worden: geen effect.",
        "ev_play_empty_deck": "{name} speelt {card}, maar de trekstapel is leeg: geen effect.",
        "ev_play_target": "{name} speelt {card} op {target}.",
        "ev_play_self": "{name} speelt {card} op zichzelf.",
        "ev_guard_hit": "{name} speelt de Wachter op {target} en noemt {guess}: goed!",
        "ev_guard_miss": "{name} speelt de Wachter op {target} en noemt {guess}: fout.",
        "ev_handmaid": "{name} speelt {card} en is beschermd tot diens volgende beurt.",
        "ev_priest": "{name} ziet dat {target} {card} heeft.",
        "ev_baron": "{name} en {target} vergelijken hun handen: {a} tegen {b}.",
        "ev_baron_shown_tie": "{name} en {target} vergelijken hun handen: {a} tegen {b}, gelijk, er gebeurt niets.",
        "ev_baron_tie": "{name} en {target} vergelijken hun handen: gelijk, er gebeurt niets.",
        "ev_discard": "{name} legt {card} af.",
        "ev_king": "{name} en {target} ruilen van hand: {name} heeft nu {a}, {target} heeft {b}.",
        "ev_king_hidden": "{name} en {target} ruilen van hand.",
        "ev_chancellor": "{name} trekt {cards}.",
        "ev_chancellor_hidden": "{name} trekt {n} kaarten.",
        "ev_chancellor_hidden_one": "{name} trekt 1 kaart.",
        "ev_bottom": "{name} houdt {card} en legt {cards} onder de trekstapel.",
        "ev_bottom_hidden": "{name} legt {n} kaarten onder de trekstapel.",
        "ev_bottom_hidden_one": "{name} legt 1 kaart onder de trekstapel.",
        "ev_out": "{name} ligt uit de ronde en toont {cards}.",
        "ev_out_empty": "{name} ligt uit de ronde.",
        "ev_showdown": "De trekstapel is leeg: iedere speler die nog in de ronde is laat zijn hand zien, en de"
                       " hoogste kaart wint.",
        "ev_reveal": "{name} toont {card}.",
        "ev_reveal_set_aside": "De weggelegde kaart was {card}.",
        "ev_deck_left": "Nog in de trekstapel, de bovenste eerst: {cards}.",
        "ev_discard_total": "Meer dan één speler heeft de hoogste kaart: de hoogste som van de afgelegde kaarten wint.",
        "ev_discard_total_tie": "Meer dan één speler heeft de hoogste kaart, met dezelfde som van de afgelegde kaarten: ze delen de winst.",
        "ev_tie": "Meer dan één speler heeft de hoogste kaart: ze delen de winst.",
        "ev_round_end": "{names} winnen de ronde.",
        "ev_round_end_one": "{name} wint de ronde.",
        "ev_spy_bonus": "{name} krijgt een teken van liefde voor de Spion.",
        "and": "en",
        "or": "of",
        "replay_header": "{edition} · {players} · {target} tekens van liefde om te winnen",
        "replay_header_one": "{edition} · {players} · het eerste teken van liefde wint",
        "replay_round": "— Ronde {round} —",
        "replay_unfinished": "De ronde is niet af.",
        "replay_too_long": "het verhaal van dit spelverslag zou langer worden dan {most} miljoen karakters (de"
                           " namen zijn lang): er is niets geschreven; --json geeft de samenvatting",
        "replay_match_over": "Het spel is uit: {names} winnen. Tekens van liefde: {scores}.",
        "replay_match_over_one": "Het spel is uit: {name} wint. Tekens van liefde: {scores}.",
        "replay_match_going": "Het verslag stopt voordat het spel uit is: {scores}.",
        "edition_named_classic": "klassieke editie",
        "edition_named_2019": "2019-editie",
        # toernooien
        "cli_serve": "Start het spel in de browser op deze computer (tafels met vrienden en bots) en toon het adres.",
        "opt_serve_host": "Adres om op te luisteren (0.0.0.0: elke netwerkinterface).",
        "opt_serve_proxy": "De adressen (of netwerken, met komma's ertussen) van proxy's vóór de server die hun"
                           " cliënten noemen in X-Forwarded-For: elke cliënt telt dan apart in de grenzen per"
                           " adres. Zonder deze optie wordt die header niet geloofd (iedereen kan zich dan"
                           " ieder ander noemen).",
        "opt_serve_port": "Poort om op te luisteren.",
        "opt_serve_bot_delay": "Seconden van het begin van de beurt van een bot tot zijn zet, zijn denktijd meegerekend, zodat mensen het kunnen volgen.",
        "opt_serve_db": "Database: een SQLAlchemy-URL (bv. postgresql+psycopg://gebruiker@host/db) of het pad van een"
                        " SQLite-bestand (standaard: een bestand in je gegevensmap).",
        "serve_open": "Love Letter draait: open {url} in een browser (Ctrl+C stopt het).",
        "serve_open_network": "Love Letter draait: open {url} in een browser, op deze computer of een andere in het"
                              " netwerk; de links om anderen uit te nodigen werken dan ook daar (Ctrl+C stopt het).",
        "serve_db": "Database: {db}",
        "serve_err_db": "kan de database {db} niet openen: {reason}",
        "serve_err_port": "kan niet luisteren op {host}:{port}: {reason}",
        "serve_err_host_empty": "het adres is leeg: geef er een, bv. 127.0.0.1 of 0.0.0.0",
        "cli_addresses_empty": "geen adres: geef er een of meer, bv. 127.0.0.1 of 127.0.0.1,::1",
        "cli_not_an_address": "{value} is geen internetadres of netwerk (bv. 127.0.0.1, ::1, 10.0.0.0/8)",
        "serve_err_db_empty": "die is leeg: geef een database-URL of het pad van een SQLite-bestand (of laat --db weg)",
        "serve_err_data_folder": "kan de gegevensmap {folder} niet maken: {reason}",
        "serve_err_no_home": "geen map voor de database van de tafels: {reason}",
        "serve_err_db_no_folder": "de map {folder} bestaat niet",
        "serve_err_db_kind": "onbekend soort database {kind!r}",
        "serve_err_db_driver": "het stuurprogramma ervoor ({module}) is niet geïnstalleerd",
        "serve_err_db_url": "het is geen database-URL (bv. postgresql+psycopg://gebruiker@host/db of sqlite:///bestand.db)",
        "serve_err_db_not_sqlite": "het bestand is geen SQLite-database",
        "serve_err_db_read_only": "er mag alleen in gelezen worden, niet in geschreven",
        "serve_err_db_folder_read_only": "in de map {folder} mag niet geschreven worden (SQLite zet eigen"
                                         " bestanden naast de database)",
        "serve_hold_taken_again": "de verbinding die de database voor deze server vasthield, was verbroken (PostgreSQL"
                                  " opnieuw gestart, of de verbinding weggevallen): de database is weer vastgehouden",
        "serve_hold_lost": "een andere server nam de database over terwijl de verbinding die hem voor deze server"
                           " vasthield, verbroken was: deze server stopt, de andere gaat door",
        "log_not_upgraded": "de verbinding van een tafel kwam zonder de overgang naar een WebSocket: een proxy ervoor"
                            " moet de headers Upgrade en Connection doorgeven (zie de README)",
        "log_foreign_origin": "een pagina op {origin} kreeg geen tafel, gevraagd als {host}: de pagina van een andere"
                              " site, of een achter een proxy die X-Forwarded-Host niet doorgeeft (zie de README)",
        "log_request_not_stored": "{method} {path} niet opgeslagen: {reason}",
        "log_request_not_read": "{method} {path} niet gelezen: {reason}",
        "log_table_not_read": "tafel {code} niet gelezen: {reason}",
        "log_table_left_out": "tafel {code} weggelaten: {reason}",
        "log_hints_failed": "de hints voor stoel {seat} aan tafel {code} mislukten",
        "log_move_elsewhere": "tafel {code}: zet {at} niet opgeslagen: een andere server op deze database sloeg er"
                              " een op",
        "log_move_not_stored": "tafel {code}: zet {at} niet opgeslagen: {reason}",
        "log_move_stored_after": "tafel {code}: zet {at} opgeslagen na {tries} pogingen",
        "log_replay_unread": "De lezer van een herhaling nam er {seconds} seconden niets van af: de verbinding is"
                             " gesloten.",
        "log_out_of_sockets": "socket.accept() kan geen verbinding aannemen, te weinig systeembronnen: {reason}",
        "log_no_workers": "de zoektochten van de expert gebeuren in de threads van de server, die zolang elke"
                          " tafel ophouden: het systeem geeft er geen processen voor ({reason})",
        "serve_db_replaced": "het databasebestand {db} is vervangen of verwijderd terwijl deze server liep: hij"
                             " stopt, want de zetten die hij nu opsloeg, zouden terechtkomen in een bestand dat"
                             " geen naam meer heeft, en bij het stoppen verloren gaan",
        "serve_db_rescued": "wat de database bevatte tot de server stopte, is gekopieerd naar {copy}",
        "serve_db_not_rescued": "wat de database bevatte tot de server stopte, kon er niet naast gekopieerd worden:"
                                " {reason}",
        "serve_err_db_in_use": "een andere server gebruikt de database {db}: maar één server mag een database"
                               " gebruiken (elke server houdt zijn tafels in het geheugen); stop die eerst, of"
                               " geef deze een andere --db",
        "serve_err_db_unreachable": "geen verbinding (het stuurprogramma zegt: {detail})",
        "serve_err_db_says": "het stuurprogramma zegt: {detail}",
        "serve_err_db_foreign": "de tabel {table!r} erin is niet van deze app (ontbrekende kolommen: {columns}): kies een"
                                " andere database of haal die tabel weg; er is niets veranderd",
        "serve_table_left_out": "tafel {code} wordt overgeslagen: de opgeslagen rijen zijn niet terug te "
                                "lezen ({reason}); ze blijven ongewijzigd in de database",
        "serve_damage_not_object": "de instellingen zijn geen JSON-object",
        "serve_damage_not_json_at": "de instellingen zijn geen JSON (regel {line}, kolom {column})",
        "serve_damage_not_json": "de instellingen zijn geen JSON",
        "serve_damage_missing": "de instellingen missen het veld {field!r}",
        "serve_damage_kind": "het veld {field!r} van de instellingen heeft een verkeerd soort waarde",
        "serve_damage_seats": "de instellingen noemen {seats} stoelen voor {players} spelers",
        "cli_tournament": "Speel veel partijen tussen bots, met wisselende stoelen, en geef winstpercentages,"
                          " onderlinge resultaten en Bradley-Terry-ratings.",
        "opt_tour_bots": "Niveaus van de bots, gescheiden door komma's ({levels}); zijn het er minder dan "
                         "--players, dan worden ze om de beurt herhaald tot alle stoelen bezet zijn.",
        "opt_tour_players": "Aantal spelers (standaard: het aantal genoemde bots, minstens 2).",
        "opt_tour_rounds": "Speel N losse rondes (standaard: {default} rondes; hoogstens {most}).",
        "opt_tour_matches": "Speel N hele spellen in plaats van losse rondes (hoogstens {most}).",
        "opt_tour_seed": "Startgetal (seed), elk geheel getal: hetzelfde startgetal geeft dezelfde partijen, wat --jobs of"
                         " --backend ook is.",
        "opt_tour_jobs": "Aantal processen (standaard: alle kernen die dit proces mag gebruiken; 1 speelt in dit proces;"
        " hoogstens 4 per kern, maar elk aantal op een Ray-cluster dat RAY_ADDRESS noemt).",
        "opt_tour_backend": "local: processen op deze machine; ray: taken in Ray (pip install -e '.[ray]' in de map"
        " van het project, of pip install 'WHEEL[ray]' met het geïnstalleerde wheel).",
        "opt_tour_budget": "Denkbudget in zoekstappen per zet, voor de niveaus die zoeken (standaard: hun eigen; dat"
        " van de expert is {default}).",
        "opt_tour_json": "Geef in plaats van de tabellen één JSON-object met de cijfers en de instellingen.",
        "opt_tour_csv": "Schrijf ook per niveau één regel naar dit CSV-bestand ('-': naar de standaarduitvoer, in plaats van de tabellen).",
        "opt_tour_plot": "Teken ook de winstpercentages en ratings met hun foutmarges in dit PNG-bestand.",
        "opt_tour_records": "Bewaar het spelverslag van elke partij in deze map (game-000000.json, …).",
        "opt_tour_quiet": "Geen voortgangsbalk en geen meldingen op het foutkanaal (stderr).",
        "meta_levels": "NIVEAU[,NIVEAU...]",
        "meta_options": "[OPTIES]",
        "meta_command": "OPDRACHT [ARGUMENTEN]...",
        "meta_tokens": "TEKENS",
        "meta_name": "NAAM",
        "meta_folder": "MAP",
        "meta_seconds": "SECONDEN",
        "meta_seat": "STOEL|willekeurig",
        "meta_file": "BESTAND",
        "meta_png": "BESTAND.png",
        "meta_address": "ADRES",
        "meta_addresses": "ADRESSEN",
        "meta_port": "POORT",
        "meta_database": "URL|BESTAND",
        "tour_playing": "Bezig",
        "tour_eta": "nog",
        "tour_done": "Partijen gespeeld: {games}, in {seconds} s (processen: {jobs}, --backend {backend}).",
        "tour_written": "Geschreven: {path}",
        "tour_mode_rounds": "{games} losse rondes",
        "tour_mode_matches": "{games} spellen",
        "tour_mode_round": "1 losse ronde",
        "tour_mode_match": "1 spel",
        "tour_header": "Toernooi: {mode} · {edition} · {players} spelers · startgetal {seed}",
        "tour_lineup_one": "Opstelling: {lineup} (één partij, de stoelen zoals opgegeven)",
        "tour_lineup": "Opstelling: {lineup} (de stoelen wisselen elke partij, de startspeler elke {every} partijen)",
        "tour_lineup_short": "Opstelling: {lineup} (de stoelen wisselen elke partij; stoel 0 begint elke partij)",
        "tour_lineup_reversed": "Opstelling: {lineup} (de stoelen wisselen elke partij, in beide richtingen; de startspeler elke {every} partijen)",
        "tour_lineup_reversed_short": "Opstelling: {lineup} (de stoelen wisselen elke partij, in beide richtingen; stoel 0 begint elke partij)",
        "tour_budget": "Denkbudget: {budget} zoekstappen per zet",
        "tour_budget_one": "Denkbudget: 1 zoekstap per zet",
        "tour_balanced": "In evenwicht: elk niveau speelde even vaak op elke stoel, en op elke plaats in de"
                         " beurtvolgorde vanaf de startspeler.",
        "tour_unbalanced": "Niet precies in evenwicht: het aantal partijen, {games}, is geen veelvoud van het"
                           " aantal spelers, {players}."
                           " Partijen per stoel: {counts}. Partijen begonnen: {starts}",
        "tour_table_title": "Resultaten per niveau",
        "tour_col_level": "Niveau",
        "tour_col_games": "Partijen",
        "tour_col_wins": "Gewonnen",
        "tour_col_shared": "Gedeeld",
        "tour_col_rate": "Winst-%",
        "tour_col_ci": "Interval (95%)",
        "tour_col_rating": "Rating (Elo)",
        "tour_col_se": "st.fout",
        "tour_pairs_title": "Onderling (partijen waarin beide niveaus speelden)",
        "tour_col_a": "Niveau A",
        "tour_col_b": "Niveau B",
        "tour_col_a_only": "A won, B niet",
        "tour_col_b_only": "B won, A niet",
        "tour_col_both": "Beide wonnen",
        "tour_col_neither": "Geen van beide",
        "tour_positions": "Winstpercentage per plaats in de beurtvolgorde (0 = startspeler): {positions}",
        "tour_rounds_played": "Rondes gespeeld in totaal: {rounds}",
        "tour_ratings_one": "Ratings: er speelde maar één niveau, dus er valt niets te vergelijken. Het wint elke"
                            " partij, dus zijn winst-% is minstens 1 op {players} (één stoel per partij), en meer door"
                            " de partijen die zijn stoelen deelden: het interval zegt hoe vaak die voorkomen.",
        "tour_ratings_infinite": "Ratings: geen, want een niveau (of een groep niveaus) won, of verloor, elke"
                                 " partij die tussen dat niveau (of die groep) en de andere beslist werd; speel meer partijen.",
        "tour_ratings_note": "Ratings: Bradley-Terry, geschat op elk paar stoelen van verschillende niveaus"
                             " waarvan de ene won en de andere niet, op de Elo-schaal met gemiddelde 0; ± "
                             "is één standaardfout, geclusterd per partij (de vergelijkingen binnen één "
                             "partij zijn niet onafhankelijk).",
        "tour_rates_note": "Winstpercentages: een niveau op meerdere stoelen telt één keer per stoel; een "
                           "gedeelde winst telt voor elke winnaar; 95%-intervallen volgens Wilson (voor een"
                           " niveau op meerdere stoelen berekend per partij: de uitslagen van zijn stoelen "
                           "in één partij hangen samen).",
        "tour_plot_rate": "winstpercentage, % (95%-interval volgens Wilson; stippellijn: een gelijk deel)",
        "tour_plot_rating": "Bradley-Terry-rating, Elo-schaal (± 1,96 standaardfouten)",
        "tour_err_no_bots": "--bots: noem minstens één niveau ({levels})",
        "tour_err_unknown_level": "--bots: onbekend niveau {level!r}: kies uit {levels}",
        "tour_err_too_many_bots": "--bots noemt {count} niveaus, meer dan de {players} spelers",
        "tour_err_edition": "onbekende editie {given}: kies classic of 2019",
        "tour_err_lineup": "de opstelling is een botniveau per stoel, zoals ('expert', 'beginner'), niet {lineup}",
        "tour_err_players": "--players: de {edition} is voor {low}-{high} spelers, niet {players} (R2.1)",
        "tour_err_bots_players": "--bots: {players} niveaus genoemd, maar de {edition} is voor {low}-{high}"
                                 " spelers (R2.1)",
        "play_err_bot_count": "--bots: noem één niveau voor alle bots, of één per bot ({need} bij {players} spelers), niet {count}",
        "play_err_bots_players": "--bots: {count} niveaus geven een spel van {players} spelers, maar de {edition} is voor {low}-{high} (R2.1)",
        "play_err_starter": "--starter: kies een stoel van 0 tot en met {last}, of willekeurig",
        "play_err_name_long": "--name: een naam heeft hoogstens {most} karakters, niet {length}",
        "play_err_name_marks": "--name: de naam heeft te veel accenten of samenvoegtekens (joiners) op zijn"
                               " karakters",
        "play_err_name_empty": "--name: geef een naam die iets laat zien, of laat --name weg om {default} te heten",
        "play_err_name_bytes": "--name: de naam is geen tekst (bytes die geen UTF-8 zijn)",
        "play_err_bots_empty": "--bots: leeg niveau in {given!r}: zet één komma tussen de niveaus ({levels}),"
        " geen aan het begin of eind",
        "play_err_budget_unused": "--budget: geen van deze bots gebruikt een denkbudget (alleen {searching}) en --hints"
        " staat uit",
        "cli_see_help": "zie '{command} --help'",
        "cli_empty_path": "het pad is leeg: geef de naam van een bestand of map",
        "cli_empty_file": "het pad is leeg: geef de naam van een bestand",
        "cli_empty_folder": "het pad is leeg: geef de naam van een map",
        "cli_file_ends_in_slash": "{path} eindigt op '/', als de naam van een map: geef de naam van een bestand",
        "cli_interrupted": "onderbroken.",
        "cli_err_output": "kon de uitvoer niet schrijven: {reason}",
        "cli_stdout_closed": "standaarduitvoer is gesloten",
        "play_err_stdin_closed": "standaardinvoer is gesloten: het spel leest je zetten daaruit",
        "opt_version": "Toon de versie en stop.",
        "cli_version": "%(prog)s, versie %(version)s",
        "cli_not_whole": "{value!r} is geen geheel getal.",
        "cli_not_a_choice": "{value!r} is geen keuze: kies {choices}.",
        "cli_grouped_by_marks": "{value!r}: schrijf het getal zonder punten of komma's, als {plain} of {grouped}.",
        "cli_too_long": "{value!r} is een te lang getal (hoogstens {most} cijfers).",
        "cli_not_number": "{value!r} is geen getal.",
        "cli_out_of_range": "{value} valt buiten het bereik: het moet {range} zijn.",
        "cli_range_at_least": "minstens {low}",
        "cli_range_between": "van {low} tot en met {high}",
        "tour_err_mode": "onbekende soort partij {mode!r}: rounds of matches",
        "tour_err_games": "speel minstens 1 partij, niet {games}",
        "tour_err_whole": "{name} moet een geheel getal zijn, niet {value}",
        "tour_err_budget": "--budget moet van 1 tot en met {most} zijn, niet {budget}",
        "tour_err_budget_unused": "--budget: geen van deze bots gebruikt een denkbudget (alleen {searching})",
        "tour_err_too_many_games": "speel hoogstens {most} partijen in één toernooi, niet {games}",
        "tour_err_records_used": "--records: {path} bevat al spelverslagen; kies een nieuwe of lege map",
        "tour_err_records_clash": "--records: {path} is intussen door een andere run geschreven: de spelverslagen"
                                  " van beide zouden door elkaar raken; gestopt",
        "tour_err_records_gone": "--records: de map {path} is tijdens de run verdwenen; gestopt",
        "tour_err_jobs": "--jobs moet minstens 1 zijn, niet {jobs}",
        "tour_err_backend": "onbekende backend {backend!r}: local of ray",
        "tour_err_ray_missing": "--backend ray heeft Ray nodig, en dat is niet geïnstalleerd: pip install -e '.[ray]'"
        " in de map van het project (of pip install 'WHEEL[ray]' met het geïnstalleerde wheel)",
        "tour_err_ray_unreachable": "--backend ray: geen Ray-cluster antwoordt op RAY_ADDRESS={address!r} (klopt"
        " het adres, en draait het cluster?)",
        "tour_err_ray_refused": "--backend ray: het Ray-cluster op RAY_ADDRESS={address!r} liet dit toernooi niet toe:"
        " {reason} (de woorden van Ray)",
        "tour_err_rounds_and_matches": "geef --rounds of --matches, niet allebei",
        "tour_err_too_many_jobs": "--jobs: hoogstens {most} processen op deze machine ({per} per kern die dit proces mag gebruiken),"
        " niet {jobs}: meer kost alleen geheugen",
        "tour_err_not_png": "--plot tekent een PNG-afbeelding: geef een bestandsnaam die eindigt op .png, niet {path}",
        "tour_err_is_folder": "{option}: {path} is een map; geef een bestandsnaam",
        "tour_err_dash_plot": "--plot: '-' zou de standaarduitvoer zijn, waar geen PNG-afbeelding heen gaat; geef een bestandsnaam die eindigt op .png",
        "cli_err_dash_records": "--records: '-' zou de standaarduitvoer zijn, die geen spelverslagen bewaart; geef de naam van een map",
        "tour_err_dash_json": "--json en --csv {path} schrijven allebei naar de standaarduitvoer: kies er één",
        "tour_err_no_folder": "{option}: de map {path} bestaat niet",
        "tour_err_unwritable": "{option}: kan niet schrijven naar {path}",
        "tour_err_unwritable_because": "{option}: kan niet schrijven naar {path}: {reason}",
        "tour_err_same_path": "{option} en {other} noemen allebei {path}: geef elk een eigen naam",
        "tour_err_same_file": "{option} {first} en {other} {path} zijn één bestand (een link): geef elk een eigen naam",
        "tour_err_record_name": "{option} noemt {path}, waar --records het verslag van een partij zou bewaren: kies een andere naam",
        "tour_err_worker_died": "een van de processen stopte onverwacht (geheugen vol?)",
        "tour_err_not_folder": "{option}: {path} is een bestand, geen map",
        "tour_err_write": "{option}: kon {path} niet schrijven: {reason}",
        "tour_err_game": "partij {game} ({seats}) mislukt: {error}",
        # the browser game (loveletter.web)
        "web_title": "Love Letter",
        "web_create": "Nieuwe tafel",
        "web_create_button": "Tafel maken",
        "web_your_name": "Jouw naam",
        "web_edition": "Editie",
        "web_classic": "Klassiek (16 kaarten, 2–4 spelers)",
        "web_named_classic": "klassieke editie",
        "web_named_2019": "2019-editie",
        "web_2019": "2019 (21 kaarten, 2–6 spelers)",
        "web_players": "Spelers",
        "web_target": "Tekens van liefde om te winnen",
        "web_seat": "Stoel {n}",
        "web_person": "mens",
        "web_level_random": "bot: willekeurig",
        "web_level_beginner": "bot: beginner",
        "web_level_expert": "bot: expert",
        "web_bot_random": "Bot {n} (willekeurig)",
        "web_bot_beginner": "Bot {n} (beginner)",
        "web_bot_expert": "Bot {n} (expert)",
        "web_private": "Besloten (alleen met code of link)",
        "web_bot_timeout": "Na hoeveel seconden een bot speelt voor wie weg is (voor wie aan tafel zit maar geen zet"
                           " doet, minstens 60; leeg: alleen als een andere speler erom vraagt)",
        "web_stand_in": "De bot die speelt voor wie weg is",
        "web_stood_in": "(een bot speelde voor {name})",
        "web_stand_in_rule": "Een bot ({level}) speelt voor wie weg is na {away} s, en voor wie er wel is maar"
                             " binnen {idle} s geen zet doet, zolang er een andere speler aan tafel is.",
        "web_stand_in_asked_rule": "Een bot ({level}) doet een zet voor wie {away} s weg is, of wie er wel is maar al"
                                   " {idle} s geen zet doet, als een andere speler erom vraagt.",
        "web_away": "weg",
        "web_went_away": "{name} is weg.",
        "web_came_back": "{name} is terug.",
        "web_stand_in_ask": "Laat een bot deze zet doen voor {name}",
        "web_spectator_stand_in": "Alleen de spelers kunnen een bot laten spelen voor wie weg is of geen zet doet.",
        "web_stand_in_yourself": "Het is je eigen zet: een bot kan alleen voor een ander gevraagd worden.",
        "web_stand_in_here": "{name} is een bot: een bot wordt alleen gevraagd te spelen voor een mens die weg is of geen zet doet.",
        "web_stand_in_idle_soon": "{name} is aan tafel: een bot kan voor wie er is pas gevraagd worden na {after} s"
                                  " zonder zet; vraag het over {seconds} s opnieuw.",
        "web_stand_in_soon": "Een bot kan alleen gevraagd worden te spelen voor wie al {after} s weg is: vraag het voor {name} over {seconds} s opnieuw.",
        "web_open_tables": "Open tafels",
        "web_none_open": "Geen open tafels. Maak er een!",
        "web_join": "Aanschuiven",
        "web_seat_offered": "Er is een stoel vrij aan deze tafel: neem hem hier",
        "web_join_table": "Aanschuiven aan tafel {code}",
        "web_join_code": "Aanschuiven met een code",
        "web_code": "Tafelcode",
        "web_link": "Nodig anderen uit met deze link of de code {code}",
        "web_waiting_players": "Wachten op spelers: {n} stoelen vrij",
        "web_waiting_player": "Wachten op spelers: 1 stoel vrij",
        "web_your_turn": "Jouw beurt",
        "web_turn_of": "{name} is aan de beurt",
        "web_deck": "Trekstapel: {n}",
        "web_face_up": "Open weggenomen (niet in deze ronde)",
        "web_tokens": "Tekens van liefde: {n} van {target}",
        "web_hints": "Hints van de expert-bot",
        "web_rematch": "Nog een spel",
        "web_rematch_join": "Doe mee met het volgende spel",
        "web_rematch_go": "Naar het volgende spel",
        "web_rematch_twice": "Je doet al mee met het volgende spel.",
        "web_rematch_watch": "Kijk mee met het volgende spel",
        "web_rematch_ready": "Het volgende spel staat klaar: „{button}” brengt je erheen.",
        "web_came_to_table": "{name} komt aan tafel.",
        "web_hint_title": "Je kans om de ronde te winnen na elke zet, zoals de expert die schat",
        "web_belief": "Wat de expert denkt dat de anderen hebben",
        "web_belief_unlikely": "minder dan 1%",
        "web_protected": "beschermd",
        "web_out": "uit de ronde",
        "web_hand": "Jouw hand",
        "web_hand_of": "Hand van {name}",
        "web_replay_hand": "Hand",
        "web_status": "Het spel nu",
        "web_discards": "Aflegstapel",
        "web_log": "Wat er gebeurde",
        "web_tracker": "Nog niet geziene kaarten",
        "web_tracker_watching": "Nog niet getoonde kaarten",
        "web_under_deck": "Door jou onder de trekstapel gelegd, getrokken als de rest op is:",
        "web_known": "Wat jij weet",
        "web_nothing_known": "Nog niets geheims.",
        "web_pick_card": "Kies een kaart om te spelen.",
        "web_pick_player": "Kies een speler voor de {card}.",
        "web_pick_guess": "Noem een kaart (niet de Wachter).",
        "web_pick_keep": "Kanselier: kies de kaart die je houdt; de andere gaan onder de trekstapel in de volgorde"
                         " na ↓ (de laatste helemaal onderop).",
        "web_pick_keep_one": "Kanselier: kies de kaart die je houdt; de andere gaat onder de trekstapel.",
        "web_yourself": "jezelf",
        "web_keep_label": "Houd {keep}; onder de trekstapel, in deze volgorde: {bottom}",
        "web_keep_label_one": "Houd {keep}; {bottom} gaat onder de trekstapel",
        "web_cancel": "Terug",
        "web_round_won": "Ronde gewonnen door {names}",
        "web_match_won": "Spel gewonnen door {names}!",
        "web_last_round": "De vorige ronde",
        "web_final_round": "De laatste ronde",
        "web_spectating": "Je kijkt mee: alleen openbare informatie is te zien.",
        "web_reconnecting": "Verbinding verbroken: opnieuw verbinden…",
        "web_reconnected": "Weer verbonden.",
        "web_unreachable_asking": "De server is niet bereikbaar: het verzoek wordt opnieuw verstuurd…",
        "web_still_asking": "Nog aan het wachten op het antwoord van de server…",
        "web_move_not_sent": "Je zet is niet verstuurd: speel hem opnieuw zodra de verbinding terug is.",
        "web_server_stopped": "De server is gestopt: opnieuw verbinden zodra hij terug is…",
        "web_unreachable": "De server is niet bereikbaar: probeer het zo opnieuw.",
        "web_page_updated": "Het spel is op de server bijgewerkt: laad deze pagina opnieuw om verder te spelen.",
        "web_language": "English",
        "web_you": "jij",
        "web_free_seat": "Vrije stoel",
        "web_name_empty": "Geef een naam op.",
        "web_name_taken": "Iemand aan deze tafel heet al {name}: kies een andere naam.",
        "web_name_bot": "{name} zou voor een van de bots doorgaan: kies een andere naam.",
        "web_name_free_seat": "{name} zou voor een vrije stoel doorgaan: kies een andere naam.",
        "web_name_kept": "{name} speelde het vorige spel: die naam blijft voor die speler gereserveerd (die"
                         " doet weer mee via „Doe mee met het volgende spel” aan de tafel van het vorige spel). Kies "
                         "een andere naam.",
        "web_err_edition": "Onbekende editie {edition!r}: kies classic (de klassieke editie) of 2019.",
        "web_err_players": "De {edition} is voor {low} tot en met {high} spelers, niet {players}.",
        "web_err_target": "Het doel in tekens van liefde moet van 1 tot en met 20 zijn, niet {target}.",
        "web_err_bot_seat": "Stoel {seat} kan geen bot zijn: bots zitten op stoel 1 tot en met {last} (stoel 0 is"
        " van jou).",
        "web_err_bot_seat_two": "Stoel {seat} kan geen bot zijn: met twee spelers zit de bot op stoel 1 (stoel 0 is"
        " van jou).",
        "web_err_bot_seat_number": "{seat!r} is geen stoel: stoelen zijn gehele getallen in gewone cijfers "
                                   "(\"1\", \"2\").",
        "web_err_bot_level": "Onbekend botniveau {level!r}: kies {levels}.",
        "web_err_stand_in": "Onbekend niveau {level!r} voor de bot die speelt voor wie weg is: kies {levels}.",
        "web_err_bot_timeout": "De tijd voordat een bot het overneemt, moet van 1 tot en met {most} seconden "
                               "zijn.",
        "web_err_request": "Het verzoek heeft een verkeerde of ontbrekende waarde voor '{field}'.",
        "web_name_long": "Een naam heeft hoogstens {max} karakters.",
        "web_name_marks": "De naam heeft te veel accenten of samenvoegtekens (joiners) op zijn karakters.",
        "web_check_missing": "Vul dit veld in.",
        "web_check_file": "Kies een bestand.",
        "web_check_whole": "Geef een geheel getal.",
        "web_check_range": "Geef een getal van {min} tot en met {max}.",
        "web_table_full": "Deze tafel heeft geen vrije stoel; je kunt wel kijken.",
        "web_too_many_watchers": "Deze tafel heeft al {most} kijkers, het maximum: deze pagina probeert het"
                                 " elke 30 seconden opnieuw.",
        "web_too_many_misses": "Vanaf dit adres zijn te veel codes geprobeerd waar geen tafel bij hoort: "
                               "probeer het over {minutes} minuten opnieuw.",
        "web_too_many_tabs": "Deze stoel is al op {most} plaatsen geopend, het maximum: sluit er een.",
        "web_foreign_origin": "De tafels van dit spel gaan alleen open vanaf zijn eigen pagina's.",
        "web_not_upgraded": "De verbinding met een tafel is een WebSocket: een proxy ervoor moet de headers Upgrade en Connection doorgeven.",
        "web_bad_host": "Deze server luistert alleen naar de eigen namen van deze computer (localhost): een proxy ervoor moet Host: localhost doorgeven.",
        "web_too_many_tables": "Je hebt in de afgelopen {minutes} minuten {most} tafels gemaakt, het "
                               "maximum; schuif aan bij een tafel, of wacht even.",
        "web_too_many_joins": "Je hebt in de afgelopen {minutes} minuten aan {most} tafels plaatsgenomen, het "
                              "maximum; speel aan een ervan, of wacht even.",
        "web_seat_kept": "De vrije stoelen worden vrijgehouden voor de spelers van het vorige spel zolang ze nog kiezen; je kunt wel kijken.",
        "web_seat_taken_away": "Je stoel is ingenomen terwijl je weg was, en de vrije stoelen worden vrijgehouden"
                               " voor de andere spelers van het vorige spel zolang ze nog kiezen; je kunt wel kijken.",
        "web_seat_taken_full": "Je stoel is ingenomen terwijl je weg was, en het volgende spel heeft geen vrije"
                               " stoel meer; je kunt wel kijken.",
        "web_bad_secret": "Deze stoelsleutel hoort niet bij deze tafel.",
        "web_bad_request_key": "De header {header} moet 16 tot 64 letters, cijfers, '-' of '_' zijn.",
        "web_move_not_received": "Je laatste zet is niet bij de tafel aangekomen: speel hem opnieuw.",
        "web_spectator": "Kijkers kunnen niet spelen.",
        "web_store_failed": "De server kon dat nu niet opslaan (de database is bezet of onbereikbaar): er is"
                            " niets veranderd; probeer het opnieuw.",
        "web_read_failed": "De server kon deze tafel nu niet lezen (de database is bezet of onbereikbaar):"
                           " probeer het zo opnieuw.",
        "web_store_elsewhere": "Een andere server die deze database gebruikt, was eerder, dus de tafel van "
                               "deze server is verouderd en er is niets veranderd: er mag maar één server "
                               "een database gebruiken.",
        "web_spectator_hints": "Hints zijn voor de spelers; kijkers krijgen ze niet.",
        "web_match_over": "Het spel is voorbij.",
        "web_not_started": "Het spel begint als elke stoel bezet is.",
        "web_stale": "De tafel is verder gegaan sinds je koos; kijk opnieuw en maak een nieuwe keuze.",
        "web_not_your_turn": "Je bent niet aan de beurt.",
        "web_bad_move": "Dat is geen zet.",
        "web_illegal": "Die zet mag niet.",
        "web_too_long": "Bericht te lang (hoogstens {max} karakters).",
        "web_not_json": "Een bericht moet een JSON-object zijn.",
        "web_body_unreadable": "Het verzoek kon niet als JSON gelezen worden (tekst die geen UTF-8 is, te diep"
                               " genest of een te lang getal).",
        "web_bad_type": "Onbekend soort bericht.",
        "web_bad_field": "Het veld {field!r} ontbreekt of heeft het verkeerde type.",
        "web_bad_language": "De taal {lang!r} hebben we niet: kies {langs}.",
        "web_unknown_field": "Onbekend veld {field!r}.",
        "web_key_twice": "Het verzoek noemt het veld {field!r} twee keer in één object.",
        "web_message_key_twice": "Het bericht noemt het veld {field!r} twee keer in één object.",
        "web_body_not_object": "De inhoud van het verzoek moet een JSON-object zijn, verstuurd als application/json.",
        "web_no_table": "Er is geen tafel met deze code.",
        "web_table_unreadable": "Deze tafel kan nu niet uit de database gelezen worden (het logboek van de"
                                " server zegt waarom).",
        "web_hello_twice": "Je zit al aan tafel met deze verbinding.",
        "web_hello_first": "Zeg eerst hallo.",
        "web_not_finished": "Het spel is nog niet voorbij: het verslag en de herhaling komen daarna.",
        "web_rematch_not_finished": "Het spel is nog niet voorbij: daarna kun je om nog een spel vragen.",
        "web_record_too_big": "Dat bestand is te groot voor een spelverslag (hoogstens {max} kB).",
        "web_replay_too_big": "De herhaling van dit spelverslag zou te groot worden om hier te tonen (meer dan {most} MB: een"
                              " heel lang spel, of heel lange namen); de opdracht loveletter replay vertelt het wel.",
        "web_replays_busy": "Er worden nu te veel herhalingen gemaakt: probeer het zo opnieuw.",
        "web_request_too_big": "Het verzoek is te groot (hoogstens {max} kB).",
        "web_hello_late": "Binnen {seconds} seconden kwam er geen hallo: de verbinding is gesloten.",
        "web_not_found": "Op dit adres is niets te vinden.",
        "web_wrong_method": "Dit adres neemt geen {method}-verzoeken aan.",
        "web_unknown_language": "Onbekende taal '{lang}': kies {languages}.",
        "web_upload": "het bestand",
        "web_bad_record": "Dat is geen geldig spelverslag: {reason}",
        "web_replay": "Herhaling",
        "web_download": "Verslag downloaden",
        "web_view_record": "Een spelverslag bekijken",
        "web_view_button": "Tonen",
        "web_choose_file": "Kies een bestand…",
        "web_no_file": "Geen bestand gekozen",
        "web_step": "Stap {n} van {total}: ronde {round}, beurt {turn}",
        "web_step_deal": "Stap {n} van {total}: ronde {round}, het delen",
        "web_previous": "Terug",
        "web_next": "Verder",
        # fouten in spelverslagen (record.py): een plaats, dan de reden
        "rec_where_round": "ronde {round}: ",
        "rec_where_turn": "ronde {round}, beurt {turn}: ",
        "rec_no_file": "bestand niet gevonden: {path}",
        "rec_folder": "{path} is een map, geen verslagbestand",
        "rec_not_a_file": "{path} is geen verslagbestand (een pijp, een apparaat of een socket): niet gelezen",
        "rec_too_big": "{path} is te groot voor een spelverslag (meer dan {most} MB)",
        "rec_key_twice": "{path} noemt het veld {field!r} twee keer in één object",
        "rec_not_text": "{path} is geen tekstbestand (geen UTF-8 op regel {line}, kolom {column})",
        "rec_wide_text": "{path} is tekst in {encoding}: een spelverslag wordt als UTF-8 gelezen (sla het op als UTF-8)",
        "rec_cut_in_a_character": "{path} houdt midden in een karakter op (regel {line}, kolom {column}):"
                                  " is het afgebroken?",
        "rec_unreadable": "kan {path} niet lezen: {error}",
        "rec_stdin": "standaardinvoer",
        "rec_stdin_closed": "standaardinvoer is gesloten: geef het bestand van het verslag op, of stuur het"
                            " via de standaardinvoer (loveletter replay - < BESTAND)",
        "rec_not_json": "{path} is geen geldige JSON: {error} (regel {line}, kolom {column})",
        "rec_empty": "{path} is leeg: er staat geen spelverslag in",
        "rec_too_deep": "{path} is te diep genest voor een spelverslag",
        "rec_number_too_long": "{path} bevat een getal dat te lang is om te lezen (regel {line}, kolom {column})",
        "os_no_such": "bestand of map bestaat niet",
        "os_denied": "geen toegang",
        "os_no_space": "geen ruimte meer op het apparaat",
        "os_is_folder": "het is een map",
        "os_not_folder": "een deel van het pad is geen map",
        "os_read_only": "het bestandssysteem is alleen-lezen",
        "os_address_in_use": "het adres is al in gebruik",
        "os_address_unavailable": "deze computer heeft dat adres niet",
        "os_unknown_host": "onbekende hostnaam",
        "os_name_too_long": "de naam is te lang",
        "os_link_loop": "te veel symbolische links (een lus?)",
        "os_no_reader": "niets leest ervan (een named pipe zonder lezer?)",
        "os_exists": "het bestaat al",
        "os_io": "invoer-/uitvoerfout (het apparaat faalde, of dit bestand is zo niet te gebruiken)",
        "os_invalid": "ongeldig argument (een speciaal bestand?)",
        "os_too_large": "het bestand is te groot",
        "os_too_many_open": "er zijn te veel bestanden open",
        "os_no_memory": "te weinig geheugen",
        "os_busy": "het is in gebruik",
        "os_reader_gone": "de lezer is weg (een gebroken pipe)",
        "os_no_device": "dat apparaat bestaat niet",
        "os_refused": "de verbinding werd geweigerd",
        "os_timed_out": "het duurde te lang",
        "os_try_again": "nu niet beschikbaar; probeer het later opnieuw",
        "os_other": "fout van het besturingssysteem: {reason}",
        "json_value": "hier werd een waarde verwacht",
        "json_bom": "een bytevolgordeteken (U+FEFF) staat waar een waarde moet beginnen",
        "json_field_name": "hier werd een veldnaam tussen dubbele aanhalingstekens verwacht",
        "json_comma": "hier werd een komma verwacht",
        "json_colon": "hier werd een dubbele punt verwacht",
        "json_unclosed": "een tekst is niet afgesloten",
        "json_control": "een stuurteken in een tekst",
        "json_escape": "een verkeerde escape (\\…) in een tekst",
        "json_extra": "er volgt nog iets na het einde van de JSON-waarde",
        "json_trailing_comma": "een komma vóór een sluithaakje",
        "rec_not_object": "een spelverslag is een JSON-object, geen {kind}",
        "rec_unknown_format": "onbekend formaat {format}: verwacht \"{expected}\"",
        "rec_edition_type": "'edition' moet \"classic\" of \"2019\" zijn, geen {kind}",
        "rec_unknown_edition": "onbekende editie {name!r}: kies classic of 2019",
        "rec_players": "'players' moet een lijst van niet-lege namen zijn",
        "rec_players_distinct": "de namen van de spelers moeten verschillend zijn",
        "rec_player_count": "de {edition} is voor {low}-{high} spelers, niet {n} (R2.1)",
        "rec_target": "'target' moet een geheel aantal tekens van liefde zijn, minstens 1, niet {value}",
        "rec_rounds": "'rounds' moet een lijst zijn",
        "rec_no_rounds": "het spelverslag heeft geen rondes",
        "rec_round_not_object": "een ronde is een JSON-object, geen {kind}",
        "rec_starter": "'starter' moet een stoel van 0 tot en met {last} zijn, niet {value}",
        "rec_round_unfinished": "de ronde is niet afgelopen, maar er volgt nog een ronde",
        "rec_match_over": "het spel was uit na ronde {round}, dus er mag geen ronde meer volgen",
        "rec_wrong_starter": "stoel {seat} kan deze ronde niet beginnen: stoel {expected} begint (R3.5)",
        "rec_turns": "'turns' moet een lijst zijn",
        "rec_deck": "'deck' moet een lijst van kaarten zijn",
        "rec_deck_cards": "de trekstapel moet de {size} kaarten van de {edition} precies één keer per"
                          " exemplaar bevatten; hij heeft {wrong} (R3.1)",
        "rec_deck_count": "{count} × {card} (nodig: {needs})",
        "rec_turn_not_object": "een beurt is een JSON-object, geen {kind}",
        "rec_round_over": "de ronde is al voorbij: er zijn geen beurten meer",
        "rec_wrong_seat": "de beurt noemt stoel {seat}, maar stoel {current} is aan de beurt",
        "rec_no_play": "de beurt heeft geen 'play'",
        "rec_target_type": "'target' moet een stoelnummer zijn, geen {kind}",
        "rec_seat_type": "'seat' moet een stoelnummer zijn, geen {kind}",
        "rec_choice_not_chancellor": "alleen een beurt met de Kanselier heeft 'keep' en 'bottom' (R5.9)",
        "rec_chancellor_keep": "de Kanselier trok kaarten, dus de beurt moet zeggen welke van {cards} hij houdt"
                               " (R5.9)",
        "rec_bottom": "'bottom' moet een lijst van kaarten zijn",
        "rec_chancellor_empty": "de Kanselier trok geen kaart (de trekstapel is leeg), dus hij houdt niets (R5.9)",
        "rec_card_type": "'{field}' moet een kaart noemen, geen {kind}",
        "rec_unknown_card": "onbekende kaart {word!r} in '{field}'",
        "rec_card_not_english": "onbekende kaart {word!r} in '{field}': een verslag noemt de kaarten in het Engels ('{english}')",
        "rec_ignored": "Weggelaten (niet in loveletter-record/1): {fields}.",
        "rec_ignored_in_record": "{field!r} in het spelverslag",
        "rec_ignored_in_round": "{field!r} in ronde {round}",
        "rec_ignored_more": " en nog {n}",
        "rec_field_case": "{field!r} moet {known!r} geschreven worden",
        "rec_unknown_field_turn": "onbekend veld {field!r} in een beurt",
    },
}

# Dutch wording of the engine's refusals (English lives with the engine: errors.MESSAGES).
ERRORS_NL: dict[str, str] = {
    "round_over": "de ronde is voorbij: er zijn geen zetten meer",
    "not_an_action": "{value} is geen zet: een zet is een Action, zoals Action.parse('guard 1 priest') er een leest",
    "not_a_card": "{value} is geen kaart (R1)",
    "not_a_seat": "{value} is geen stoelnummer (R2.1)",
    "not_cards": "de kaarten onder de trekstapel zijn een lijst van kaarten, niet {value} (R5.9)",
    "not_edition": "{card} is geen kaart van de {edition} (R1)",
    "not_in_hand": "stoel {seat} heeft {card} niet (R4.3)",
    "countess": "stoel {seat} moet de Gravin spelen met {card} in de hand (R4.4)",
    "needs_target": "{card} moet een speler kiezen: stoel {options} (R4.5)",
    "no_target": "{card} kan niemand kiezen en wordt dus zonder doel gespeeld (R4.6)",
    "untargeted": "{card} kiest geen speler (R4.5)",
    "no_such_seat": "er is geen stoel {target} (R2.1)",
    "target_self": "{card} moet een andere speler kiezen, niet stoel {seat} zelf (R4.5)",
    "target_out": "stoel {target} ligt uit de ronde en kan niet gekozen worden (R4.5)",
    "target_protected": "stoel {target} is beschermd door het Kamermeisje en kan niet gekozen worden (R4.5)",
    "prince_self": "alle andere spelers zijn beschermd of uit de ronde, dus de Prins moet stoel {seat} kiezen (R4.6)",
    "needs_guess": "de Wachter moet een kaart noemen (R5.1)",
    "guess_guard": "de Wachter mag de Wachter niet noemen (R5.1)",
    "guess_untargeted": "een Wachter zonder speler om te kiezen noemt geen kaart (R4.6)",
    "not_guard": "alleen de Wachter noemt een kaart (R5.1)",
    "not_chancellor": "alleen de Kanselier houdt een kaart en legt kaarten onder de trekstapel (R5.9)",
    "keep_after_drawing": "welke kaart je houdt, kies je pas als de Kanselier gespeeld is en zijn kaarten "
                          "getrokken heeft: speel eerst de Kanselier (R5.9)",
    "chancellor_pending": "stoel {seat} speelde de Kanselier en moet nu één van deze kaarten houden: {options} (R5.9)",
    "chancellor_choice_only": "stoel {seat} houdt nu alleen een kaart en legt de andere onder de trekstapel:"
    " geen speler, geen gok (R5.9)",
    "chancellor_keep": "stoel {seat} moet één van deze kaarten houden: {options} (R5.9)",
    "chancellor_pending_one": "stoel {seat} speelde de Kanselier en moet nu {card} houden (R5.9)",
    "chancellor_keep_one": "stoel {seat} moet {card} houden (R5.9)",
    "chancellor_bottom": "de kaarten onder de trekstapel moeten precies de andere zijn: {cards} (R5.9)",
}

# The refusals of a player's own move as told to that player ("you", not "seat 0"), where they differ.
YOUR_ERRORS: dict[str, dict[str, str]] = {
    "en": {
        "not_in_hand": "you do not hold the {card} (R4.3)",
        "countess": "you must play the Countess while holding the {card} (R4.4)",
        "target_self": "the {card} must choose another player, not you (R4.5)",
        "prince_self": "every other player is protected or out, so the Prince must choose you (R4.6)",
        "chancellor_pending": "you played the Chancellor and must now keep one of these cards: {options} (R5.9)",
        "chancellor_choice_only": "you now only keep a card and put the others under the deck:"
        " no player, no guess (R5.9)",
        "chancellor_keep": "you must keep one of these cards: {options} (R5.9)",
        "chancellor_pending_one": "you played the Chancellor and must now keep the {card} (R5.9)",
        "chancellor_keep_one": "you must keep the {card} (R5.9)",
    },
    "nl": {
        "not_in_hand": "je hebt {card} niet (R4.3)",
        "countess": "je moet de Gravin spelen met {card} in de hand (R4.4)",
        "target_self": "{card} moet een andere speler kiezen, niet jezelf (R4.5)",
        "prince_self": "alle andere spelers zijn beschermd of uit de ronde, dus de Prins moet jou kiezen (R4.6)",
        "chancellor_pending": "je speelde de Kanselier en moet nu één van deze kaarten houden: {options} (R5.9)",
        "chancellor_choice_only": "je houdt nu alleen een kaart en legt de andere onder de trekstapel:"
        " geen speler, geen gok (R5.9)",
        "chancellor_keep": "je moet één van deze kaarten houden: {options} (R5.9)",
        "chancellor_pending_one": "je speelde de Kanselier en moet nu {card} houden (R5.9)",
        "chancellor_keep_one": "je moet {card} houden (R5.9)",
    },
}

#: The parts of a notation error that quote what was typed (see :meth:`Translator.parse_action`).
QUOTED = ("text", "rest", "word")

NOTATION_NL: dict[str, str] = {
    "empty": "lege zet: schrijf een kaart, bv. 'wachter 1 priester' of 'kamermeisje'",
    "number_first": "een zet begint met een kaart, niet met een getal ({text!r}): typ alleen een nummer om "
                    "uit de lijst te kiezen",
    "negative_seat": "stoelnummers beginnen bij 0, niet bij {seat}",
    "long_seat": "{seat} is aan geen enkele tafel een stoelnummer",
    "seat_word": "op de plaats van het stoelnummer staat {word!r}: een stoel is een getal, bv. 'wachter 1 priester'",
    "trailing": "onverwacht {rest!r} na {text!r}",
    "comma": "een komma scheidt alleen de kaarten die een Kanselier onder de trekstapel legt ({text!r}): zet spaties"
             " tussen de woorden van een zet",
    "seat_last": "het stoelnummer komt vóór de genoemde kaart, bv. 'wachter 1 priester' (je schreef {text!r})",
    "keep_card": "na 'houd' (of 'keep') noem je de kaart die je houdt, bv. 'kanselier houd baron onder priester,wachter'"
                 " (je schreef {text!r})",
    "bottom_cards": "na de gehouden kaart hoort 'onder KAART,KAART' in {text!r}",
    "unknown_card": "onbekende kaart {word!r}: de kaarten zijn {known}",
}

assert set(ERRORS_NL) == set(ENGINE_MESSAGES), "every engine refusal needs a Dutch wording"
assert set(NOTATION_NL) == set(NOTATION_MESSAGES), "every notation error needs a Dutch wording"
#: The engine's refusals in each language but English (whose are the engine's own), the notation's
#: errors in each language, and the mark before a number's decimals.
ENGINE_ERRORS: dict[str, dict[str, str]] = {"nl": ERRORS_NL}
NOTATION_ERRORS: dict[str, dict[str, str]] = {"en": NOTATION_MESSAGES, "nl": NOTATION_NL}
DECIMAL_MARK = {"en": ".", "nl": ","}


def grouped(number: int) -> str:
    """A large whole number in groups of three digits, as read in English and Dutch: ``10 000 000``."""
    return f"{number:,}".replace(",", "\u2009")


#: Message parameters that list bot levels: given as a tuple of level codes, they are named in the
#: message's language (``("random", "expert")``: "willekeurig, expert" in Dutch).
LEVEL_LISTS = ("levels", "searching")


def on_one_line(value: Any) -> Any:
    r"""A file name (or other text from the system) as a message shows it, on one line: bytes that
    are not UTF-8, which Python keeps as lone surrogates, written as ``\xff`` (on standard error they
    showed as ``\udcff``, on standard output as "?"), and control codes and line or paragraph
    separators as Python writes them in a string (``\n``, ``\x1b``, ``\u2028``): a file name with a
    newline in it made a one-line error two lines. So are bidirectional controls (``\u202e``).

    >>> print(on_one_line(os.fsdecode(b"game\xff.json")))
    game\xff.json
    >>> print(on_one_line("no\nsuch.json"), on_one_line("rec\u202egnp.json"))
    no\nsuch.json rec\u202egnp.json
    >>> print(repr(on_one_line("no\nsuch.json")))  # quoted ({name!r}): the newline escaped once
    'no\nsuch.json'

    A path whose name begins with a dash is shown as the command line takes it, "./-" (a file called
    "-": alone, "-" means standard input or output) and "./-x" (not an option):

    >>> from pathlib import Path
    >>> print(on_one_line(Path("./-")), on_one_line(Path("-x/records")), on_one_line(Path("/tmp/-")))
    ./- ./-x/records /tmp/-
    """
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
        if isinstance(value, str) and value.startswith("-"):
            value = f"./{value}"
    if not isinstance(value, str) or value.isprintable():
        return value
    return _OnOneLine(value)


class _OnOneLine(str):
    """Text on one line (:func:`on_one_line`) that a message quoting it (``{word!r}``) shows as Python
    quotes the text itself, each control code escaped once (``'pri\\nest'``, not ``'pri\\\\nest'``), and a
    byte that was not UTF-8 as ``\\xff``."""

    text: str

    def __new__(cls, text: str) -> _OnOneLine:
        shown = super().__new__(cls, "".join(_one_line_char(ch) for ch in text))
        shown.text = text
        return shown

    def __repr__(self) -> str:
        return _SURROGATE.sub(lambda m: f"\\x{int(m[1], 16) - 0xDC00:02x}", repr(self.text))


#: A byte that was not UTF-8 as repr() writes it (``\udcff``), unless its backslash is escaped.
_SURROGATE = re.compile(r"(?<!\\)\\u(dc[89a-f][0-9a-f])")


#: What breaks a line or controls a terminal: control codes, line and paragraph separators.
_LINE_BREAKING = frozenset(("Cc", "Zl", "Zp"))

#: Characters that reorder the text around them (bidirectional embeddings, overrides, isolates): a
#: file name with U+202E in it showed the rest of its message backwards.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _one_line_char(ch: str) -> str:
    """``ch`` as :func:`on_one_line` writes it."""
    if "\udc80" <= ch <= "\udcff":  # a byte that was not UTF-8
        return f"\\x{ord(ch) - 0xDC00:02x}"
    if unicodedata.category(ch) in _LINE_BREAKING or ch in BIDI_CONTROLS:
        return repr(ch)[1:-1]
    return ch


class Translator:
    """Strings in one language: ``t("deck_size", n=3)``, ``t.card(c)``, ``t.the(c)``, ``t.error(err)``."""

    def __init__(self, language: str = "en") -> None:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}: choose {' or '.join(LANGUAGES)}")
        self.language = language
        self._messages = MESSAGES[language]

    def __call__(self, key: str, **params: Any) -> str:
        for listed in LEVEL_LISTS:  # bot levels given by their codes: named in this language
            if isinstance(params.get(listed), tuple):
                params = {**params, listed: self.levels(params[listed])}
        return self._messages[key].format(**{name: on_one_line(value) for name, value in params.items()})

    def decimal(self, x: float, digits: int | None = None) -> str:
        """``x`` with ``digits`` decimals (None: as many as it needs), a decimal comma in Dutch, and
        its whole part in groups of three digits as :func:`grouped` writes them.

        >>> Translator("nl").decimal(2.5), Translator("en").decimal(2.5), Translator("nl").decimal(0.25, 1)
        ('2,5', '2.5', '0,2')
        >>> Translator("nl").decimal(3600), Translator("en").decimal(1234.5, 1)
        ('3\u2009600', '1\u2009234.5')
        """
        text = (f"{x:,g}" if digits is None else f"{x:,.{digits}f}").replace(",", "\u2009")
        return text.replace(".", DECIMAL_MARK[self.language])

    def card(self, card: Card) -> str:
        """The card's name: ``Guard`` / ``Wachter``."""
        return CARD_NAMES[self.language][card]

    def the(self, card: Card) -> str:
        """The card's name with its article: ``the Guard`` / ``de Wachter``."""
        article = _ARTICLE[self.language].get(card, _DEFAULT_ARTICLE[self.language])
        return f"{article} {self.card(card)}"

    def cards(self, cards: Any) -> str:
        """A list of cards: ``Guard, Priest`` / ``Wachter, Priester``."""
        return ", ".join(self.card(c) for c in cards)

    def the_cards(self, cards: Any) -> str:
        """Cards with their articles, joined: ``the Guard and the Baron`` / ``de Wachter en de Baron``;
        two of one card as ``the two Guards``."""
        cards = list(cards)
        if len(cards) == 2 and cards[0] == cards[1]:
            return TWO_CARDS[self.language][cards[0]]
        return self.join_names([self.the(c) for c in cards])

    def effect(self, card: Card) -> str:
        return CARD_EFFECTS[self.language][card]

    def join_names(self, names: list[str]) -> str:
        return either(names, self("and"))

    def join_choices(self, choices: Sequence[object]) -> str:
        """Choices as a sentence says them: ``random, beginner or expert`` / ``en of nl``."""
        return either(choices, self("or"))

    def error(self, err: IllegalActionError, yours: bool = False) -> str:
        """A refusal of the engine in this language; ``yours``: told to the player whose move it
        refuses ("you do not hold the Princess", not "seat 0 does not hold ...")."""
        yours_wording = YOUR_ERRORS[self.language] if yours else {}
        if self.language == "en":
            return err.english(yours_wording) if yours else str(err)
        params = dict(err.params)
        for key, value in params.items():
            if isinstance(value, Card):
                params[key] = self.the(value) if key == "card" else self.card(value)
            elif isinstance(value, (list, tuple)) and value and isinstance(value[0], Card):
                params[key] = [self.card(c) for c in value] if key == "options" else self.cards(value)
            else:
                params[key] = quoted(value)  # a seat number thousands of digits long, cut short
        if isinstance(params.get("options"), (list, tuple)):
            params["options"] = self.join_choices(params["options"])
        if err.key == "not_edition":
            params["edition"] = self.edition(str(params["edition"]))  # "klassieke editie"
        return yours_wording.get(err.key, ENGINE_ERRORS[self.language][err.key]).format(**params)

    def notation_error(self, err: NotationError, cards: tuple[Card, ...] | None = None) -> str:
        """A notation error in this language (card names listed in this language too). ``cards``:
        the cards of the game's edition, the only ones worth suggesting (default: every card)."""
        params = dict(err.params)
        if "known" in params:
            known = cards if cards is not None else tuple(Card)
            params["known"] = ", ".join(self.card(c).lower() for c in known)
        return NOTATION_ERRORS[self.language][err.key].format(**shown_params(params))

    def ignored_fields(self, ignored: Sequence[tuple[str, int | None]]) -> str | None:
        """The fields a record held that were left out (:attr:`loveletter.record.Replayed.ignored`),
        in one line: the first :data:`IGNORED_NAMED`, then how many more; ``None`` where none was."""
        if not ignored:
            return None
        named = [self("rec_ignored_in_record", field=quoted(name)) if round_number is None
                 else self("rec_ignored_in_round", field=quoted(name), round=round_number)
                 for name, round_number in ignored[:IGNORED_NAMED]]
        more = self("rec_ignored_more", n=grouped(len(ignored) - IGNORED_NAMED)) if len(ignored) > IGNORED_NAMED else ""
        return self("rec_ignored", fields=", ".join(named) + more)

    def record_error(self, err: RecordError) -> str:
        """A refused record in this language, with its place: ``ronde 2, beurt 3: ...``."""
        where = ""
        if err.round_number is not None and err.turn is not None:
            where = self("rec_where_turn", round=err.round_number, turn=err.turn)
        elif err.round_number is not None:
            where = self("rec_where_round", round=err.round_number)
        return where + self.record_reason(err)

    def edition(self, name: str) -> str:
        """An edition named in words: ``classic edition`` / ``klassieke editie`` (a name that is no
        edition stays as given)."""
        key = f"edition_named_{name}"
        return self(key) if key in self._messages else name

    def tournament_error(self, key: str, params: dict[str, Any]) -> str:
        """A tournament's refusal (the message ``tour_err_<key>``), its edition named in words."""
        if "edition" in params:
            params = {**params, "edition": self.edition(params["edition"])}
        return self(f"tour_err_{key}", **params)

    def level(self, code: str) -> str:
        """A bot level's name in this language (``random`` is ``willekeurig`` in Dutch)."""
        return self(f"level_{code}") if f"level_{code}" in MESSAGES[self.language] else code

    def levels(self, codes: Iterable[str]) -> str:
        """Bot levels named in this language, separated by commas."""
        return ", ".join(map(self.level, codes))

    def os_reason(self, err: OSError) -> str:
        """What went wrong with a file or a socket, in this language (the system's own words, which
        are English, only for a rare error, and in Dutch said to be the system's)."""
        if isinstance(err, socket.gaierror) or (err.errno or 0) < 0:  # a name lookup's (EAI_*) codes
            return self("os_unknown_host")
        key = OS_REASONS.get(err.errno or 0)
        return self(key) if key else self("os_other", reason=err.strerror or str(err))

    def json_reason(self, message: str) -> str:
        """Python's JSON reader's complaint (English), in this language."""
        for start, key in JSON_REASONS.items():
            if message.startswith(start):
                return self(key)
        return message

    def record_reason(self, err: RecordError) -> str:
        """Why a record is refused, in this language, without its place."""
        if err.cause is not None:
            return self.error(err.cause)
        params = dict(err.params)
        if err.key == "rec_unknown_card":  # a card named in Dutch ("koning"), as a Dutch player would
            english = self.card_word(str(params["word"]).strip())
            if english in _CARD_WORDS and english != str(params["word"]).strip().lower():  # ("houd" is a keyword)
                return self("rec_card_not_english", **params, english=english)
        if err.key == "rec_not_json":
            params["error"] = self.json_reason(params["error"])
        if isinstance(params.get("error"), OSError):
            params["error"] = self.os_reason(params["error"])
        if "kind" in params:
            params["kind"] = RECORD_KINDS[self.language].get(params["kind"], params["kind"])
        if "edition" in params:
            params["edition"] = self.edition(params["edition"])
        if "cards" in params:  # the words to write in the record, which are its own (English) in every language
            params["cards"] = ", ".join(f"'{c.word}'" for c in params["cards"])
        if "wrong" in params:
            params["wrong"] = ", ".join(
                # (a count by the name, not before it as a noun: "4 guard", "2 prinses" read wrong)
                self("rec_deck_count", count=count, card=self.card(card), needs=needs)
                for count, card, needs in params["wrong"]
            )
        return self(err.key, **params)

    def notation(self, action: Any) -> str:
        """An action's notation with the card names of this language: ``wachter 2 priester``."""
        text = str(action)
        if self.language == "en":
            return text
        names, keywords = CARD_NAMES[self.language], _KEYWORDS[self.language]

        def local(word: re.Match[str]) -> str:
            return names[Card.from_word(word[0])].lower() if word[0] in _CARD_WORDS else keywords.get(word[0], word[0])

        return NOTATION_TOKEN.sub(local, text)

    def parse_action(self, text: str) -> Action:
        """Read a move typed in notation, with the card names and keywords of any of our languages
        (``wachter 1 priester`` and ``guard 1 priest`` alike, whatever the language shown).

        :class:`NotationError` if it cannot be read.
        """
        back: dict[str, str] = {}  # each word read, to the word typed

        def read(word: re.Match[str]) -> str:
            notation = self.card_word(word[0]) or word[0]
            back[notation] = word[0]
            return notation

        # word by word, spaces and commas (which part a Chancellor's cards) left as they were typed
        try:
            return Action.parse(NOTATION_TOKEN.sub(read, text))
        except NotationError as err:  # told in the words typed, not the notation they were read as

            def as_typed(notation: str) -> str:
                return NOTATION_TOKEN.sub(lambda word: back.get(word[0], word[0]), notation)

            params = {name: as_typed(value) if name in QUOTED and isinstance(value, str) else value
                      for name, value in err.params.items()}
            raise NotationError(err.key, **params) from None

    def level_word(self, word: str) -> str:
        """The bot level (``random``, ``beginner``, ``expert``) that ``word`` names in this language or
        another of ours (``willekeurig``: random, as the Dutch table shows it); else ``word`` itself."""
        typed = word.lower()
        for language in (self.language, *(other for other in LANGUAGES if other != self.language)):
            for key, name in MESSAGES[language].items():
                if key.startswith("level_") and name.lower() == typed:
                    return key.removeprefix("level_")
        return word

    def card_word(self, word: str) -> str | None:
        """The English notation word for a card name or keyword typed in this language or any other
        of ours (this language first)."""
        word = word.lower()
        for language in (self.language, *(other for other in LANGUAGES if other != self.language)):
            for card, name in CARD_NAMES[language].items():
                if name.lower() == word:
                    return card.word
            for english, local in _KEYWORDS[language].items():
                if local == word:
                    return english
        return None
