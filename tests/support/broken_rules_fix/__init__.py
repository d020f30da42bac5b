"""A fix whose migrate rules fail to load, for tests/unit/test_migrate.py."""
