"""Ships templates/, static/ (with static/vendor/ as `make install` fills it), migrations/ and alembic.ini
inside the wheel, as app/_data/: they stay at the repository's top level, and app/resources.py finds them
in either place. Everything else about the package is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
DATA = ("templates", "static", "migrations", "alembic.ini")
# The front-end files come from npm (package-lock.json): a wheel without them serves pages that do nothing.
VENDOR = ("static/vendor/htmx.min.js", "static/vendor/idiomorph.min.js")
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".installed")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads the repository's own folders
            return
        missing = [name for name in VENDOR if not (HERE / name).is_file()]
        if missing:
            raise SystemExit(f"missing {', '.join(missing)}: run `make install` (npm ci) before building")
        target = Path(self.build_lib) / "app" / "_data"
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        for name in DATA:
            source = HERE / name
            if source.is_dir():
                shutil.copytree(source, target / name, ignore=SKIP)
            else:
                shutil.copy2(source, target / name)


setup(cmdclass={"build_py": BuildWithData})
