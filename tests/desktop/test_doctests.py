"""The examples in the desktop helpers' docstrings still run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["desktop.widgets", "desktop.how_to_play"]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
