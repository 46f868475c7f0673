"""Every game ships a RULES.md beside its rules, and the tests it cites exist.

The games come from the registry (no list here), and each game's folder from its
module's ``__file__``, so a new game is held to this the day it is added.
A reference is written ``tests/<path>.py::test_<name>``; it must name a test
function defined in that file.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[2]

REFERENCE = re.compile(r"\b(tests/[\w./-]+\.py)::(test_\w+)")
"""A cited test: ``tests/engine/games/catchy/test_rules.py::test_joker_is_a_colourless_three``."""


def rules_doc(name: str) -> Path:
    """The RULES.md in the folder of the module that defines ``name``'s game."""
    game = registry.get(name)
    module = sys.modules[type(game).__module__]
    assert module.__file__ is not None, f"{name}: its module has no file"
    return Path(module.__file__).resolve().parent / "RULES.md"


def defines(path: Path, test: str) -> bool:
    """Whether ``path`` defines a function called ``test`` (at any indentation)."""
    pattern = re.compile(rf"^\s*(?:async\s+)?def\s+{re.escape(test)}\s*\(", re.MULTILINE)
    return pattern.search(path.read_text(encoding="utf-8")) is not None


@pytest.mark.parametrize("name", registry.names())
def test_every_game_has_a_rules_doc(name: str) -> None:
    doc = rules_doc(name)
    assert doc.is_file(), f"{name}: no {doc.relative_to(ROOT)}"
    assert doc.read_text(encoding="utf-8").strip(), f"{name}: {doc.relative_to(ROOT)} is empty"


@pytest.mark.parametrize("name", registry.names())
def test_every_test_a_rules_doc_cites_exists(name: str) -> None:
    doc = rules_doc(name)
    assert doc.is_file(), f"{name}: no {doc.relative_to(ROOT)}"
    text = doc.read_text(encoding="utf-8")
    missing = []
    for path, test in REFERENCE.findall(text):
        file = ROOT / path
        if not file.is_file():
            missing.append(f"{path}::{test} (no such file)")
        elif not defines(file, test):
            missing.append(f"{path}::{test} (no such test)")
    assert not missing, f"{doc.relative_to(ROOT)} cites tests that do not exist: {missing}"


def test_the_reference_pattern_reads_a_citation() -> None:
    text = "x (tests/engine/games/catchy/test_rules.py::test_joker_is_a_colourless_three,\n"
    assert REFERENCE.findall(text) == [
        ("tests/engine/games/catchy/test_rules.py", "test_joker_is_a_colourless_three")
    ]
