"""verl-compat: keeps legacy verl configs working, translated into what verl does today.

Importing this package activates it (unless ``VERL_COMPAT_DISABLE=1``). Public API::

    activate()      patch verl now and on later imports (idempotent)
    deactivate()    remove every patch; the original functions come back by identity
    status()        what is patched, skipped, failed, and the detected cases
    VerlCompatDeprecationWarning
    __version__
"""

import logging

from ._version import __version__
from .deprecation import VerlCompatDeprecationWarning
from .patching import activate, deactivate, status

__all__ = ["VerlCompatDeprecationWarning", "__version__", "activate", "deactivate", "status"]

try:
    activate()
except Exception:
    # This import often runs inside verl's own (auto-load, verl.plugins, VERL_USE_EXTERNAL_MODULES,
    # which verl imports fail-closed): an error here must not break `import verl`.
    logging.getLogger("verl_compat").exception("verl-compat: activation failed; verl runs without the shim")
