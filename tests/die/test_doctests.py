"""The examples in the die modules' docstrings still run as written."""

from __future__ import annotations

import doctest
import importlib
import os

import pytest

MODULES = ["desktop.die.protocol", "desktop.die.mapping", "desktop.die.link", "desktop.die.qt_adapter",
           "desktop.die.widgets"] + (["desktop.die_sim"] if os.name == "posix" else [])


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
