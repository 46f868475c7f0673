"""CI tests the lowest versions pyproject.toml declares: it reads them, it misses none.

``.ci/run`` installs every direct dependency (the project's, every extra's and the
build system's) at its ``>=`` bound in a second venv and runs the suite there. These
tests check what it reads (``--print-commands``) against pyproject.toml, parsed here
independently with ``packaging``, and that a dependency without a lower bound stops it.
"""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def print_commands(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(root / ".ci" / "run"), "--print-commands"],
        cwd=root,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def declared_minimums(pyproject: dict[str, object]) -> dict[str, str]:
    """Every direct requirement's name and its ``>=`` version, as pip would read them."""
    project = pyproject["project"]
    assert isinstance(project, dict)
    extras = project.get("optional-dependencies", {})
    build = pyproject["build-system"]
    assert isinstance(build, dict)
    texts = [*project["dependencies"], *build["requires"]]
    texts += [text for group in extras.values() for text in group]
    minimums: dict[str, str] = {}
    for text in texts:
        requirement = Requirement(text)
        lower = [spec.version for spec in requirement.specifier if spec.operator == ">="]
        assert len(lower) == 1, f"{text!r}: one '>=' lower bound, so CI can test it"
        minimums[canonicalize_name(requirement.name)] = lower[0]
    return minimums


def test_ci_pins_every_direct_dependency_at_its_declared_minimum() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    result = print_commands(ROOT)
    assert result.returncode == 0, result.stderr
    found = dict(line.split(": ", 1) for line in result.stdout.splitlines())
    pins = dict(pin.split("==") for pin in found["lowest"].split())
    assert pins == declared_minimums(pyproject)
    extras = pyproject["project"]["optional-dependencies"]
    assert found["lowest extras"].split(",") == sorted(extras)  # the tests' extra among them
    assert "test" in extras


def test_a_dependency_without_a_lower_bound_stops_ci(tmp_path: Path) -> None:
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    bounded = next(line for line in text.splitlines() if '"textual>=' in line)
    (tmp_path / "pyproject.toml").write_text(
        text.replace(bounded, '    "textual",'), encoding="utf-8"
    )
    result = print_commands(tmp_path)
    assert result.returncode != 0
    assert "'textual' has no '>=' lower bound" in result.stderr
