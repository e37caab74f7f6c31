"""The ``loveletter`` command: ``play``, ``replay``.

Errors a user can make (a wrong flag, a missing or malformed file) end in one line on standard
error and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from loveletter import __version__
from loveletter.bots import LEVELS
from loveletter.engine import EDITIONS
from loveletter.i18n import LANGUAGES, Translator, default_language
from loveletter.record import RecordError, load, replay, summary


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="loveletter")
def cli() -> None:
    """Love Letter: play the card game in the terminal, and replay game records."""


@cli.command()
@click.option("--edition", type=click.Choice(sorted(EDITIONS)), default="classic", show_default=True,
              help="classic: 16 cards, 2-4 players; 2019: 21 cards, 2-6 players.")
@click.option("--players", type=click.IntRange(2, 6), default=2, show_default=True,
              help="Number of players: you plus bots.")
@click.option("--bots", default="beginner", show_default=True,
              help=f"Bot level for every bot, or one per bot separated by commas ({', '.join(LEVELS)}).")
@click.option("--lang", type=click.Choice(LANGUAGES), default=None,
              help="Language (default: from your locale).")
@click.option("--seed", type=int, default=None, help="Seed for the shuffles and bots: the same seed, the same game.")
@click.option("--target", type=click.IntRange(1, 99), default=None,
              help="Tokens of affection needed to win (default: from the rules, R2.3).")
@click.option("--name", default=None, help="Your name at the table.")
@click.option("--records", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the game record (default: your data folder, printed at the end).")
def play(edition: str, players: int, bots: str, lang: str | None, seed: int | None, target: int | None,
         name: str | None, records: Path | None) -> None:
    """Play a match against bots in the terminal (moves by number or notation; works on a pipe too)."""
    from loveletter.tui.game import GameSettings, run_game

    levels = [b.strip() for b in bots.split(",") if b.strip()]
    unknown = [b for b in levels if b not in LEVELS]
    if unknown or not levels:
        raise click.BadParameter(f"unknown bot level {unknown[0] if unknown else bots!r}: choose from"
                                 f" {', '.join(LEVELS)}", param_hint="--bots")
    if len(levels) == 1:
        levels *= players - 1
    if len(levels) != players - 1:
        raise click.BadParameter(f"{players} players need {players - 1} bot level(s), not {len(levels)}",
                                 param_hint="--bots")
    ed = EDITIONS[edition]
    if not ed.min_players <= players <= ed.max_players:
        raise click.BadParameter(f"the {edition} edition is for {ed.min_players}-{ed.max_players} players",
                                 param_hint="--players")
    settings = GameSettings(edition=ed, players=players, bots=levels, language=lang or default_language(),
                            seed=seed, target=target, name=name, records=records)
    sys.exit(run_game(settings))


@cli.command("replay")
@click.argument("file", type=click.Path(dir_okay=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON (RECORD.md) instead.")
@click.option("--lang", type=click.Choice(LANGUAGES), default=None, help="Language of the narrative.")
def replay_command(file: Path, as_json: bool, lang: str | None) -> None:
    """Check a game record (RECORD.md) and tell the match it holds."""
    try:
        replayed = replay(load(file))
    except RecordError as err:
        click.echo(str(err), err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(summary(replayed)))
        return
    from loveletter.tui.replay import tell

    for line in tell(replayed, Translator(lang or default_language())):
        click.echo(line)


def run() -> None:
    """Entry point: click without its multi-line usage errors."""
    try:
        cli.main(standalone_mode=False, prog_name="loveletter")
    except click.exceptions.NoArgsIsHelpError as err:
        click.echo(err.ctx.get_help() if err.ctx else str(err))
        sys.exit(0)
    except click.UsageError as err:
        command = err.ctx.command_path if err.ctx else "loveletter"
        click.echo(f"{command}: {err.format_message()} (see '{command} --help')", err=True)
        sys.exit(2)
    except click.Abort:
        click.echo("", err=True)
        sys.exit(130)
    except click.ClickException as err:
        click.echo(f"loveletter: {err.format_message()}", err=True)
        sys.exit(err.exit_code)
    except BrokenPipeError:
        sys.exit(0)
