"""The ``ddzspec`` command line: the group and its registry in :mod:`.group`, one module per
help topic, the shared options and helpers in :mod:`.common`. Importing this package loads
nothing (the entry point imports :mod:`.exits` before the rest)."""
