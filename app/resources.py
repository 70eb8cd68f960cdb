"""Where templates/, static/, migrations/ and alembic.ini are.

They live at the repository's top level. A wheel carries copies of them in app/_data/ (setup.py puts them
there at build time), so an installed Fray runs without the repository; a checkout or an editable install
has no app/_data/ and reads the repository's own.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
BUNDLED = PACKAGE / "_data"


def resource_root() -> Path:
    """The directory holding templates/, static/, migrations/ and alembic.ini."""
    return BUNDLED if (BUNDLED / "alembic.ini").is_file() else PACKAGE.parent


ROOT = resource_root()
