"""Environment toggles, read with the standard library only.

The bootstrap runs in every interpreter of an environment, so reading these must cost nothing
and import nothing outside the standard library.
"""

import os

DISABLE = "VERL_COMPAT_DISABLE"
DISABLED_FIXES = "VERL_COMPAT_DISABLED_FIXES"
_FALSE = ("", "0", "false", "no", "off")


def disabled() -> bool:
    """True when ``VERL_COMPAT_DISABLE`` asks the shim to do nothing anywhere."""
    return os.environ.get(DISABLE, "").strip().lower() not in _FALSE


def disabled_fixes() -> frozenset[str]:
    """Names listed in ``VERL_COMPAT_DISABLED_FIXES`` (comma separated)."""
    raw = os.environ.get(DISABLED_FIXES, "")
    return frozenset(name.strip() for name in raw.split(",") if name.strip())
