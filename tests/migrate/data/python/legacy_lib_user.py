# Code written for legacy_lib 1.x (tests/support/moved_import_fix: what moved and what went).
import json  # not legacy_lib's
from legacy_lib.old import Kept, Moved, Renamed as R  # noqa: F401
from legacy_lib.old import (  # the names this file needs
    Kept,
    Renamed,  # a class of its own now
)
from legacy_lib.old import Gone
from legacy_lib import old_mod
from legacy_lib.old_mod import *
import legacy_lib.old_mod as mod
import legacy_lib.old_mod
from . import sibling  # relative: the user's own

try:
    import legacy_lib.gone_mod
except ImportError:  # old code that falls back: left as it is, and not named
    legacy_lib = None


def helper():
    if json: from legacy_lib.old import Moved, Kept
    return Moved, Kept, mod, legacy_lib.old_mod.VALUE
