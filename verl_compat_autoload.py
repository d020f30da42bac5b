"""verl-compat auto-load: the bootstrap that the wheel's ``verl_compat_autoload.pth`` runs at every
interpreter start of an environment where verl-compat is installed (docs/autoload.md).

It runs in *every* Python process there (every Ray worker, every tool), most of which never touch
verl, so it does almost nothing: it reads ``VERL_COMPAT_DISABLE`` and puts this module at the front
of ``sys.meta_path``. As a meta path finder (:func:`find_spec`) it finds nothing: the first lookup of
``verl`` imports ``verl_compat`` (which registers wrapt post-import hooks and never imports verl
itself), then the normal finders go on to load verl. If verl is already imported, activation
happens at once. The module itself is the finder, with no class and no instance: every object
created here is paid for by every interpreter start.

Standard library only, and nothing imported beyond what ``site`` already loaded (wrapt alone costs
~100 ms). Never raises: an exception in a ``.pth`` line is printed at every interpreter start, and
one raised from the finder would break the user's ``import verl``.

Ways in, all idempotent: the ``.pth`` line ``import verl_compat_autoload`` (importing installs);
``verl_compat_autoload:install`` from ``verl_compat_autoload.start`` (PEP 829, Python 3.15+, where it
replaces the ``.pth`` import line); the line ``import verl_compat_autoload`` in a ``sitecustomize.py``.
"""

import sys

# ``os`` is imported in :func:`disabled`, not here: what ``sys.meta_path`` holds outlives the garbage
# collection of interpreter shutdown, so a global ``os`` would keep ``os`` (and what it imported)
# alive, to be wiped entry by entry at the end of every process: +1.2 % instructions per ``python -c
# pass`` where nothing else keeps ``os`` alive (benchmarks/startup.py, ``bare``).

fired = False  # verl was looked up once: verl-compat is active (or failed to import, and said so)


def disabled():
    """True when ``VERL_COMPAT_DISABLE`` asks the shim to do nothing anywhere (read as
    ``verl_compat._toggles`` reads it; importing that would import wrapt)."""
    import os

    return os.environ.get("VERL_COMPAT_DISABLE", "").strip().lower() not in ("", "0", "false", "no", "off")


def find_spec(fullname, path=None, target=None):
    """The meta path finder protocol. Stays in ``sys.meta_path`` after it fired rather than
    removing itself: the import system is iterating that list while calling it, and removing an
    entry there would skip the next finder for this lookup (it may be the one that finds verl)."""
    global fired
    if fullname == "verl" and not fired:
        fired = True
        activate()


def activate():
    """Import ``verl_compat`` (importing activates it); log instead of raising if that fails."""
    try:
        import verl_compat  # noqa: F401
    except Exception:
        import logging

        logging.getLogger("verl_compat").warning(
            "verl-compat: auto-load could not import verl_compat; verl runs without the shim", exc_info=True
        )


def install():
    """Arrange activation for the first ``import verl`` (at once if verl is already imported)."""
    try:
        if disabled():
            return
        if "verl" in sys.modules:
            activate()
        elif sys.modules[__name__] not in sys.meta_path:
            sys.meta_path.insert(0, sys.modules[__name__])
    except Exception:
        pass


install()
