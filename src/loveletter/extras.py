"""The optional extras (pyproject.toml's ``[project.optional-dependencies]``), named where one is
missing: importing an adapter without its library ended in that library's bare
``ModuleNotFoundError`` ("No module named 'pyspiel'", whose package is ``open_spiel``), which named
no extra to install."""

from __future__ import annotations


def missing_extra(extra: str, missing: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error to raise where ``missing`` (an import of the library of ``extra``) failed: what to
    install, from the package index or in a checkout of the project."""
    return ModuleNotFoundError(f"{missing.name or 'a library'} is not installed: it comes with loveletter's {extra}"
                               f" extra: pip install 'loveletter[{extra}]' (in the project's folder:"
                               f" pip install -e '.[{extra}]')", name=missing.name)
