"""A fix whose migrate rules fail to load, for tests/migrate/test_rules_from_fixes.py."""
