"""The ``loveletter`` command."""
