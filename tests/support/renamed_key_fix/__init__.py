"""A fix that exists only in the test suite, with nothing but migrate rules: it shows that a fix
adds its rules as a module of its own folder, without touching migrate (tests/migrate/test_rules_from_fixes.py)."""
