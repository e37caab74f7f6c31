"""``python -m loveletter`` runs the ``loveletter`` command."""

from loveletter.cli.start import run

if __name__ == "__main__":
    run()
