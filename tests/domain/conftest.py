"""Hypothesis profiles: random exploration on a developer's machine; in CI (CI=true) the same
derandomized examples every run, so that a submission lands or fails on its own merits (a new
counter-example found while exploring locally becomes an example test)."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))
