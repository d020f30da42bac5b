"""One atomic writer (``verl_compat.files.write_atomically``) for what the tools write: a migrated
launch script keeps its mode and its symbolic link, a new ``view`` page gets the mode ``open()``
gives, and a write that fails leaves the old file as it was, with no temporary file behind."""

import os
import stat

import pytest

from verl_compat import files

pytestmark = pytest.mark.once


def test_an_existing_file_keeps_its_mode_and_a_link_stays_a_link(tmp_path):
    script = tmp_path / "run.sh"
    script.write_text("old\n")
    script.chmod(0o750)
    link = tmp_path / "link.sh"
    link.symlink_to(script)

    files.write_atomically(link, "new \udcff\n")  # a stray byte read with surrogateescape goes back as it was

    assert link.is_symlink() and script.read_bytes() == b"new \xff\n"
    assert stat.S_IMODE(script.stat().st_mode) == 0o750
    assert sorted(path.name for path in tmp_path.iterdir()) == ["link.sh", "run.sh"]


def test_a_new_file_gets_the_mode_open_gives_and_its_folders(tmp_path):
    umask = os.umask(0o022)
    try:
        page = tmp_path / "out" / "page.html"
        files.write_atomically(page, "<html>")
    finally:
        os.umask(umask)
    assert page.read_text() == "<html>"
    assert stat.S_IMODE(page.stat().st_mode) == 0o644


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    script = tmp_path / "run.sh"
    script.write_text("old\n")
    with pytest.raises(UnicodeEncodeError):
        files.write_atomically(script, "\ud800")  # a lone surrogate no encoding writes
    assert script.read_text() == "old\n"
    assert [path.name for path in tmp_path.iterdir()] == ["run.sh"]
