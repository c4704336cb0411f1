"""Shared settings of the robustness suite: seeded hypothesis, short in CI, long with GUMSHOE_LONG=1.

Every test here feeds bad input or faults to one entry point and asserts what a family would
notice: a clear error of the project's own type (never a traceback or a foreign exception),
nothing written, nothing learned that should not be.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

LONG = os.environ.get("GUMSHOE_LONG") == "1"

settings.register_profile(
    "robustness", derandomize=True, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                           HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


def examples(normal: int, long: int | None = None) -> settings:
    """Seeded settings: ``normal`` examples in CI, ``long`` (default 20x) with GUMSHOE_LONG=1."""
    return settings(settings.get_profile("robustness"),
                    max_examples=(long or normal * 20) if LONG else normal)
