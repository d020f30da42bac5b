"""old_math's tests: launches as users write them, declared or not (tests/conftest.py declares every
other test's launches as written for the release under test)."""

import pytest


@pytest.fixture(autouse=True)
def undeclared_launches(monkeypatch):
    monkeypatch.delenv("VERL_COMPAT_LAUNCH_RELEASE", raising=False)
