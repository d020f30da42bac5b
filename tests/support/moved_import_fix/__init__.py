"""A fix that exists only in the test suite, with nothing but an import rule in its migrate rules: it
shows that a fix adds Python import rewrites as a module of its own folder, without touching migrate
(tests/migrate/test_python_imports.py), and gives migrate's Python engine a made-up package to work on
without any verl."""
