"""Where things are in the checkout, for the tests that read its files (docs, scripts, the package's
source) rather than the installed package."""

from pathlib import Path

SUPPORT = Path(__file__).resolve().parent
TESTS = SUPPORT.parent
REPO = TESTS.parent
DOCS = REPO / "docs"
PACKAGE_SOURCE = REPO / "verl_compat"
