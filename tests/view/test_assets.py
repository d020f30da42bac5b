"""The page's CSS and script are package data (``verl_compat/view/page.css``, ``page.js``): they
ship with the installed package (the suite runs against a built wheel) and are inlined verbatim, so
the page still fetches nothing."""

from importlib import resources

import pytest
from synthetic_snapshots import write_run

from verl_compat.view import html
from verl_compat.view import run as run_model

pytestmark = pytest.mark.once


@pytest.mark.parametrize("name, tag", [("page.css", "style"), ("page.js", "script")])
def test_each_asset_ships_and_is_inlined(tmp_path, name, tag):
    asset = resources.files("verl_compat.view").joinpath(name)
    assert asset.is_file(), f"{name} is not in the installed package"
    content = asset.read_text(encoding="utf-8")
    assert content.strip()
    write_run(tmp_path, ranks=1, steps=2, oom_rank=None, imbalanced_rank=None)
    page = html.render(run_model.collect(tmp_path))
    assert f"<{tag}>\n{content}</{tag}>" in page
