"""A snapshot reader whose process is killed on one file, as the kernel's out-of-memory killer
would kill it, for ``tests/view/test_parallel.py``.

It lives here, not in the test file, because ``view``'s worker processes must import it by name to
unpickle it: a test module is imported under a name of pytest's (``tests.view.test_parallel``),
and in a verl 0.9.1 environment ``tests`` is verl's own top-level package.
"""

import os
import signal

from verl_compat import snapshot_files
from verl_compat.view import parallel

DIES_ON = (2, 1)  # (step, rank) whose reader kills itself


def dies_on_one_file(file: snapshot_files.SnapshotFile) -> parallel.Outcome:
    if (file.step, file.rank) == DIES_ON:
        os.kill(os.getpid(), signal.SIGKILL)
    return parallel.read_one(file)
