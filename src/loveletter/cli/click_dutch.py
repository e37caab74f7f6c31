"""Click's own words in Dutch: the help page's headings and the errors it finds in a command line.

Click asks :mod:`gettext` for every message it shows, through the names ``_`` and ``ngettext`` that
each of its modules imports. :func:`speak_dutch` points those names at the catalogue below, for this
process only (the command line is read once). Messages missing here stay in English; the catalogue
follows the pinned click version's messages (a test checks that each one still exists there).
"""

from __future__ import annotations

import importlib

CATALOGUE: dict[str, str] = {
    "Usage:": "Gebruik:",
    "Options": "Opties",
    "Commands": "Opdrachten",
    "Positional arguments": "Argumenten",
    "Show this message and exit.": "Toon deze hulp en stop.",
    "Show the version and exit.": "Toon de versie en stop.",
    "%(prog)s, version %(version)s": "%(prog)s, versie %(version)s",
    "default: {default}": "standaard: {default}",
    "env var: {var}": "omgevingsvariabele: {var}",
    "Aborted!": "Afgebroken.",
    "Missing command.": "Er ontbreekt een opdracht.",
    "Missing argument": "Er ontbreekt een argument",
    "Missing option": "Er ontbreekt een optie",
    "Missing parameter": "Er ontbreekt een parameter",
    "Missing parameter: {param_name}": "Er ontbreekt een parameter: {param_name}",
    "Missing {param_type}": "Er ontbreekt een {param_type}",
    "Invalid value for {param_hint}: {message}": "Ongeldige waarde voor {param_hint}: {message}",
    "Invalid value: {message}": "Ongeldige waarde: {message}",
    "No such option {name!r}.": "Optie {name!r} bestaat niet.",
    "No such command {name!r}.": "Opdracht {name!r} bestaat niet.",
    "Option {name!r} does not take a value.": "Optie {name!r} accepteert geen waarde.",
    "Argument {name!r} takes {nargs} values.": "Argument {name!r} heeft {nargs} waarden nodig.",
    "{value} is not in the range {range}.": "{value} ligt niet in het bereik {range}.",
    "{value!r} is not a valid {number_type}.": "{value!r} is geen geldig getal.",
    "{value!r} is not a valid boolean. Recognized values: {states}":
        "{value!r} is geen geldige ja/nee-waarde. Bekende waarden: {states}",
    "Choose from:\n\t{choices}": "Kies uit:\n\t{choices}",
    "file": "bestand",
    "directory": "map",
    "path": "pad",
    "{name} {filename!r} does not exist.": "{name} {filename!r} bestaat niet.",
    "{name} {filename!r} is a file.": "{name} {filename!r} is een bestand.",
    "{name} {filename!r} is a directory.": "{name} {filename!r} is een map.",
    "{name} {filename!r} is not readable.": "{name} {filename!r} is niet leesbaar.",
    "{name} {filename!r} is not writable.": "{name} {filename!r} is niet schrijfbaar.",
}

PLURALS: dict[tuple[str, str], tuple[str, str]] = {
    ("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."):
        ("Optie {name!r} heeft een waarde nodig.", "Optie {name!r} heeft {nargs} waarden nodig."),
    ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"):
        ("Bedoelde je {possibility}?", "(Bedoelde je een van: {possibilities}?)"),
}

#: The click modules that show messages to a user of this program.
MODULES = ("click.core", "click.decorators", "click.exceptions", "click.formatting", "click.parser",
           "click.types")


def gettext(message: str) -> str:
    return CATALOGUE.get(message, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    found = PLURALS.get((singular, plural))
    if found is None:
        return singular if n == 1 else plural
    return found[0] if n == 1 else found[1]


def speak_dutch() -> None:
    """From now on, click's messages in this process are Dutch."""
    for name in MODULES:
        module = importlib.import_module(name)
        if hasattr(module, "_"):
            module._ = gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext  # type: ignore[attr-defined]
