"""One module per fix, each with the contract described in :mod:`verl_compat.patching`."""
