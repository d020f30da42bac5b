"""Shared fixtures: the shim switched on or off around a test, and a run's working folder.

The suite runs once per verl release (``scripts/test.sh``), against the verl-compat installed in
that release's environment. Expectations that differ between releases are decided by probing the
installed verl (as the shim does), never by version strings.
"""

import warnings

import pytest

import verl_compat
from verl_compat import VerlCompatDeprecationWarning


@pytest.fixture
def no_shim():
    """verl exactly as released: nothing of verl-compat is patched in this process."""
    verl_compat.deactivate()
    assert verl_compat.status()["fixes"]["torch_memory"]["patched"] == []
    yield
    verl_compat.deactivate()


@pytest.fixture
def shim():
    """verl-compat freshly activated (its once-per-process warning not yet given)."""
    verl_compat.deactivate()
    assert verl_compat.activate()
    yield verl_compat
    verl_compat.deactivate()


@pytest.fixture
def shim_warnings():
    """Call it for the texts of every VerlCompatDeprecationWarning raised so far in the test."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield lambda: [str(w.message) for w in caught if issubclass(w.category, VerlCompatDeprecationWarning)]
