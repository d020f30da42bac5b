"""verl-compat: keeps legacy verl configs working, translated into what verl does today.

Importing this package activates it (unless ``VERL_COMPAT_DISABLE=1``). Public API::

    activate()      patch verl now and on later imports (idempotent)
    deactivate()    remove every patch; the original functions come back by identity
    status()        what is patched, skipped, failed, and the detected cases
    VerlCompatDeprecationWarning
    __version__
"""

from ._version import __version__
from .deprecation import VerlCompatDeprecationWarning
from .patching import activate, deactivate, status

__all__ = ["VerlCompatDeprecationWarning", "__version__", "activate", "deactivate", "status"]

activate()
