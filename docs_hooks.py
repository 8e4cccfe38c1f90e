"""MkDocs hook (``mkdocs.yml``: ``hooks``): the README is the site's home page, ``index.md``.

The README links to the pages as ``docs/NAME.md``, which is right on a repository browser; on
the site the pages sit beside the home page, so those links become ``NAME.md``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files


def readme_as_home_page(text: str) -> str:
    """The README's text with its links into ``docs/`` made relative to the site's root.

    >>> readme_as_home_page("[cli](docs/cli.md) and `docs/` stay")
    '[cli](cli.md) and `docs/` stay'
    """
    return re.sub(r"\]\(docs/", "](", text)


def on_files(files: Files, config: Any) -> Files:
    """Add the README, as rewritten by :func:`readme_as_home_page`, as ``index.md``."""
    readme = Path(config["config_file_path"]).parent / "README.md"
    text = readme_as_home_page(readme.read_text(encoding="utf-8"))
    files.append(File.generated(config, "index.md", content=text))
    return files
