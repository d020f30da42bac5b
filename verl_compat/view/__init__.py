"""``verl-compat view``: a run's memory snapshots on one offline page, or in a terminal.

Reads files only: it imports neither verl, torch nor wrapt. ``snapshot_files`` finds the
snapshots, ``read`` loads one with a restricted unpickler, ``summary`` reduces it, ``parallel``
reads a run's snapshots on every core, ``run`` holds the table and its flags, ``html`` (with its
package data ``page.css`` and ``page.js``) and ``text`` render, ``cli`` is the subcommand.
"""
