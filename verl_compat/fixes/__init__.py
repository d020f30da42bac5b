"""One package per fix, each fitting the contract of :class:`verl_compat.registry.Fix`
(``docs/fix_contract.md``) and named once in :data:`verl_compat.registry.FIX_MODULES`; the core
(:mod:`verl_compat.patching`) loads each under its own guard."""
