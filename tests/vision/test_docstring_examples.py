"""The short examples in the vision docstrings must stay true."""

import doctest
import importlib

import pytest

MODULES = ["decks", "registry", "payload", "tags", "sheets", "detector", "tracker", "preview", "sources", "synthetic",
           "apriltag_lib", "dice", "dice_colours", "dice_synthetic", "hints", "stillness"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    module = importlib.import_module(f"vision.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
