"""Every package the code imports is declared in pyproject.toml, every declared one is used, and the lock
files pin exactly what pyproject.toml names (regenerate them as the README's "Dependencies" says)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# fray_generated is the client tests/api/test_openapi_client.py generates from /openapi.json at run time.
OURS = {"app", "tests", "bench", "migrations", "fray_generated"}


def _name(requirement: str) -> str:
    """`uvicorn[standard]==0.54.0` -> `uvicorn`, normalised as in PEP 503."""
    return _normal(re.split(r"[\[=<>!~; ]", requirement, maxsplit=1)[0])


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


RUNTIME = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
DEV = {_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["dev"]}


def _imported(*folders: str) -> dict[str, set[str]]:
    """Top-level third-party modules imported under the folders -> the distributions that provide them."""
    found: dict[str, set[str]] = {}
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                else:
                    continue
                for module in modules:
                    top = module.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in OURS and top != "__future__":
                        found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def _distributions(modules: dict[str, set[str]]) -> dict[str, str]:
    provided = packages_distributions()
    dists = {}
    for module in modules:
        assert module in provided, f"{module} (imported in {sorted(modules[module])}) is not installed"
        for dist in provided[module]:
            dists[_normal(dist)] = module
    return dists


def _sources(*folders: str) -> str:
    return "\n".join(p.read_text() for f in folders for p in (ROOT / f).rglob("*.py"))


def test_every_package_the_app_imports_is_a_runtime_dependency():
    dists = _distributions(_imported("app", "migrations"))
    missing = {dist: module for dist, module in dists.items() if dist not in RUNTIME}
    assert not missing, f"imported by app/ but not in [project] dependencies: {missing}"


def test_every_package_the_tests_and_benchmarks_import_is_declared():
    dists = _distributions(_imported("tests", "bench"))
    missing = {dist: module for dist, module in dists.items() if dist not in RUNTIME | DEV}
    assert not missing, f"imported by tests/ or bench/ but not declared: {missing}"


def test_every_runtime_dependency_is_used():
    imported = set(_distributions(_imported("app", "migrations")))
    # Used without an import of their own, each for the reason checked here.
    app_code = _sources("app")
    not_imported = {
        # SQLAlchemy loads it for postgresql+psycopg:// URLs.
        "psycopg": "postgresql+psycopg" in app_code,
        # FastAPI parses form posts with it.
        "python-multipart": re.search(r"\bForm\(", app_code) is not None,
        # The libvips that pyvips loads.
        "pyvips-binary": "import pyvips" in app_code,
    }
    unused = RUNTIME - imported - {name for name, used in not_imported.items() if used}
    assert not unused, f"declared in [project] dependencies but never used: {sorted(unused)}"


def test_every_dev_dependency_is_used():
    imported = set(_distributions(_imported("tests", "bench")))
    makefile = (ROOT / "Makefile").read_text()
    client_test = (ROOT / "tests" / "api" / "test_openapi_client.py").read_text()
    tools = {
        "ruff": "ruff check" in makefile,
        "pip-tools": "pip-compile" in makefile,
        "mypy": "mypy app" in makefile,
        # Run as a command that generates the client the test plays a fight through.
        "openapi-python-client": "openapi-python-client" in client_test,
    }
    unused = DEV - imported - RUNTIME - {name for name, used in tools.items() if used}
    assert not unused, f"declared in the dev extra but never used: {sorted(unused)}"


def _pins(lock: str) -> dict[str, str]:
    lines = [line for line in (ROOT / lock).read_text().splitlines() if re.match(r"[A-Za-z0-9]", line)]
    unhashed = [line for line in lines if not line.endswith(" \\")]
    assert not unhashed, f"{lock}: pinned without hashes: {unhashed}"
    pins = dict(re.match(r"([A-Za-z0-9._-]+)==(\S+) \\$", line).groups() for line in lines)
    return {_normal(name): version for name, version in pins.items()}


def _declared(requirements: list[str]) -> dict[str, str]:
    return {_name(r): r.split("==", 1)[1].split(";")[0].strip() for r in requirements}


def test_the_lock_files_pin_what_pyproject_names_with_hashes():
    runtime, dev = _pins("requirements.lock"), _pins("requirements-dev.lock")
    declared = _declared(PYPROJECT["project"]["dependencies"])
    declared_dev = _declared(PYPROJECT["project"]["optional-dependencies"]["dev"])
    assert {n: runtime.get(n) for n in declared} == declared, "requirements.lock is stale: regenerate it"
    assert {n: dev.get(n) for n in declared | declared_dev} == declared | declared_dev, (
        "requirements-dev.lock is stale: regenerate it"
    )
    # The development set-up runs exactly what the image and a wheel install run.
    assert {n: dev.get(n) for n in runtime} == runtime
