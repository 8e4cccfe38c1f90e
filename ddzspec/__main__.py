"""``python -m ddzspec`` runs the CLI (through :mod:`ddzspec._entry`: a Ctrl-C while it
starts is one line too)."""
from ._entry import main

main()
