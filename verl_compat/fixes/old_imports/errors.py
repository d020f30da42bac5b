"""The errors an old import or call meets on a verl that removed what it asks for. Each message names
verl-compat, the old path, the verl release and change that removed it, and what to do instead."""

# Shown by the package that exports them (``verl_compat.fixes.old_imports.RemovedFromVerlError``).
_MODULE = "verl_compat.fixes.old_imports"


class RemovedFromVerlError(ImportError):
    """``from verl.x import Name``: verl removed the name, or replaced it by something with another
    contract. An ``ImportError``, so ``try: … except ImportError:`` guards of old code still work."""


class RemovedModuleError(ModuleNotFoundError, RemovedFromVerlError):
    """``import verl.x.y``: verl removed the module, or replaced it. A ``ModuleNotFoundError``, as
    Python's own error for a missing module is."""


class RemovedKeywordError(TypeError):
    """A keyword argument the installed verl no longer takes and cannot be translated: a
    ``TypeError``, raised before the call, as Python's own for an unexpected keyword is."""


for _error in (RemovedFromVerlError, RemovedModuleError, RemovedKeywordError):
    _error.__module__ = _MODULE
