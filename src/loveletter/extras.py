"""The optional extras (pyproject.toml's ``[project.optional-dependencies]``), named where one is
missing: importing an adapter without its library ended in that library's bare
``ModuleNotFoundError`` ("No module named 'pyspiel'", whose package is ``open_spiel``), which named
no extra to install."""

from __future__ import annotations


def missing_extra(extra: str, missing: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error to raise where ``missing`` (an import of the library of ``extra``) failed: how to
    install it, in the project's folder or with the wheel installed (the package index's "loveletter"
    is another project's)."""
    return ModuleNotFoundError(f"{missing.name or 'a library'} is not installed: it comes with loveletter's {extra}"
                               f" extra: pip install -e '.[{extra}]' in the project's folder (or pip install"
                               f" 'WHEEL[{extra}]' with the wheel installed)", name=missing.name)
