"""``verl-compat view``: a run's memory snapshots on one offline page, or in a terminal.

Reads files only: it imports neither verl, torch nor wrapt. ``snapshot_files`` finds the
snapshots, ``read`` loads one with a restricted unpickler, ``summary`` reduces it, ``run`` holds
the table and its flags, ``html`` and ``text`` render, ``command`` is the subcommand.
"""
