"""``python -m ddzspec`` runs the CLI."""
from .cli import main

main()
