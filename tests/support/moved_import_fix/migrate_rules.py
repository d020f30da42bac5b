"""``legacy_lib``, a made-up package whose names moved: ``legacy_lib.old`` kept ``Kept``, and its
``Moved`` now lives in ``legacy_lib.new``, ``Renamed`` in ``legacy_lib.other`` as ``NewName``;
``legacy_lib.old_mod`` is ``legacy_lib.new_mod``; ``legacy_lib.old:Gone`` and ``legacy_lib.gone_mod``
were removed."""

from typing import ClassVar

from verl_compat.migrate_contract import ImportFate, ImportRule

MOVED_NAMES = {
    ("legacy_lib.old", "Moved"): ("legacy_lib.new", "Moved"),
    ("legacy_lib.old", "Renamed"): ("legacy_lib.other", "NewName"),
    ("legacy_lib", "old_mod"): ("legacy_lib", "new_mod"),
}
MOVED_MODULES = {"legacy_lib.old_mod": "legacy_lib.new_mod"}
REMOVED = {("legacy_lib.old", "Gone"), ("legacy_lib.gone_mod", None)}


class LegacyLibImports(ImportRule):
    """legacy_lib's moved names and modules, and its removed ones."""

    name = "legacy_lib"
    packages = ("legacy_lib",)
    asked: ClassVar[list] = []  # what fate was asked, for the tests

    def may_concern(self, module, names):
        if module == "legacy_lib":
            return "old_mod" in names
        return module in (*MOVED_MODULES, "legacy_lib.gone_mod", "legacy_lib.old")

    def fate(self, module, name):
        self.asked.append((module, name))
        if (module, name) in REMOVED or module == "legacy_lib.gone_mod":
            return ImportFate(
                "removed", f"legacy_lib: {module}{'.' + name if name else ''} was removed in 2.0: do without it"
            )
        if (module, name) in MOVED_NAMES:
            new_module, new_name = MOVED_NAMES[module, name]
            return ImportFate("moved", f"legacy_lib: {module}.{name} moved", new_module, new_name)
        if module in MOVED_MODULES:
            return ImportFate("moved", f"legacy_lib: {module} moved", MOVED_MODULES[module], name)
        return None


RULES = (LegacyLibImports(),)
