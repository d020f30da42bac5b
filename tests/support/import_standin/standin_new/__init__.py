"""A package the import stand-in fix (tests/support/import_standin_fix.py) moves old names to: what
``standin_old`` (which does not exist) used to hold lives here now."""

VALUE = "the value standin_old.OLD_VALUE used to be"


def __getattr__(name):
    """The package's own PEP 562 ``__getattr__``: verl-compat's is chained after it, and put back."""
    if name == "OWN_LAZY":
        return "served by the package's own __getattr__"
    raise AttributeError(f"module 'standin_new' has no attribute {name!r}")
