"""The examples in the engine's docstrings and in docs/engine.md still run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import engine

MODULES = sorted(m.name for m in pkgutil.walk_packages(engine.__path__, "engine.") if m.name != "engine.__main__")


@pytest.mark.parametrize("name", ["engine", *MODULES])
def test_module_examples(name, tmp_path, monkeypatch):
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for n, test in enumerate(doctest.DocTestFinder().find(module)):
        folder = tmp_path / str(n)          # each docstring gets its own folder for files it makes
        folder.mkdir()
        monkeypatch.chdir(folder)
        test.globs["tmp"] = folder
        runner.run(test)
    assert runner.failures == 0


def test_engine_doc_examples():
    doc = Path(__file__).resolve().parents[2] / "docs" / "engine.md"
    result = doctest.testfile(str(doc), module_relative=False)
    assert result.failed == 0 and result.attempted > 5
