"""The ``verl-compat view`` page in a real browser: Debian's headless Chromium opens it from
``file://`` with the network cut off (every host name unresolvable, every request sent to a
closed proxy port), and the DOM after its script ran is checked: the table's values are the
allocator's, the OOM section and both charts are there, the snapshot panel the script fills shows
the leak's stack, and the console stayed silent (a page's errors, failed loads included, reach
Chromium's log as ``CONSOLE`` lines; a page that throws proves the check sees them).

A screenshot is kept in ``test-artefacts/view/`` at the repository root (git-ignored), for a
person to look at. ``scripts/test.sh`` installs Chromium where it is missing.
"""

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pyrun import run_argv
from synthetic_snapshots import ROOT, GiB, write_run

pytestmark = pytest.mark.once

ARTEFACTS = ROOT / "test-artefacts" / "view"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
OFFLINE = [
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
]
TIMEOUT_S = 120


def chromium(page: Path, profile: Path, *action: str) -> subprocess.CompletedProcess:
    assert CHROMIUM, "Chromium is not installed: apt-get install chromium (scripts/test.sh does it)"
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            *OFFLINE,
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
            *action,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=True,
    )


def console_lines(proc) -> list:
    return [line for line in proc.stderr.splitlines() if ":CONSOLE" in line]


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Dom(HTMLParser):
    """Elements by id and class, with their text, from a serialised DOM."""

    def __init__(self, text: str):
        super().__init__()
        self.stack, self.elements = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": [], "parents": list(self.stack)}
        self.elements.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for element in self.stack:
            element["text"].append(data)

    def find(self, tag=None, id=None, cls=None, within=None) -> list:
        return [
            e
            for e in self.elements
            if (tag is None or e["tag"] == tag)
            and (id is None or e["attrs"].get("id") == id)
            and (cls is None or cls in (e["attrs"].get("class") or "").split())
            and (within is None or within in e["parents"])
        ]

    @staticmethod
    def text(element) -> str:
        return " ".join(" ".join(element["text"]).split())


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    work = tmp_path_factory.mktemp("browser")
    written = write_run(work / "prof", ranks=4, steps=4)
    page = work / "report.html"
    run_argv(["-m", "verl_compat", "view", str(work / "prof"), "-o", str(page)])
    proc = chromium(page, work / "profile", "--dump-dom")
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    chromium(page, work / "profile", "--window-size=1280,2000", f"--screenshot={ARTEFACTS / 'view.png'}")
    return written, Dom(proc.stdout), proc


def test_the_script_ran_and_the_console_stayed_silent(rendered):
    _, dom, proc = rendered
    assert dom.find("body")[0]["attrs"].get("data-ready") == "1", "the page's script did not finish"
    assert console_lines(proc) == []


def test_a_page_that_throws_is_caught(tmp_path):
    page = tmp_path / "broken.html"
    page.write_text(
        '<!DOCTYPE html><html><body><img src="https://example.com/x.png"><script>null.x;</script></body></html>'
    )
    lines = console_lines(chromium(page, tmp_path / "profile", "--dump-dom"))
    assert any("Uncaught TypeError" in line for line in lines), lines


def test_the_table_shows_the_allocators_peaks(rendered):
    written, dom, _ = rendered
    table = dom.find(id="steps-table")[0]
    rows = {}
    for row in dom.find("tr", within=table)[1:]:
        (label,) = [dom.text(th) for th in dom.find("th", within=row)]
        rows[label] = [dom.text(span) for span in dom.find("span", cls="peak", within=row)]
    for truth in written:
        if truth["step"] is not None:
            assert rows[f"step {truth['step']}"][truth["rank"]] == f"{truth['peak'] / GiB:.2f}", truth
    grown = dom.find("span", cls="grow", within=table)
    assert len(grown) == 4 * 3 and all(dom.text(span) == "▲ +48.00 MiB" for span in grown)
    imbalanced = dom.find("td", cls="imbalanced", within=table)
    assert imbalanced and {td["attrs"]["data-id"] for td in imbalanced} <= {str(4 * i + 3) for i in range(4)}


def test_the_oom_comes_first(rendered):
    _, dom, _ = rendered
    (oom,) = dom.find("section", id="oom")
    sections = [s["attrs"].get("id") for s in dom.find("section")]
    assert sections[0] == "oom", sections
    (card,) = dom.find("div", cls="oom-card", within=oom)
    text = dom.text(card)
    assert "Rank 1 ran out of memory" in text and "asked for 24.00 GiB with 1.25 GiB free on the device" in text
    assert "8 × 256.00 MiB torch/optim/adamw.py:170 _init_group" in text


def test_both_charts_are_drawn(rendered):
    _, dom, _ = rendered
    (timeline,) = dom.find("svg", id="timeline")
    assert len(dom.find("path", cls="series", within=timeline)) == 4
    assert dom.find("line", cls="oom-mark", within=timeline)
    (peaks,) = dom.find("svg", id="peaks")
    series = dom.find("g", cls="series", within=peaks)
    assert [len(dom.find("circle", within=g)) for g in series] == [4, 4, 4, 4]


def test_the_snapshot_panel_shows_the_leak(rendered):
    _, dom, _ = rendered
    assert dom.text(dom.find(id="detail-title")[0]) == "step 4, rank 0"
    (top,) = dom.find("table", id="top-table")
    assert any("keep_logits" in dom.text(row) for row in dom.find("tr", within=top))
    (diff,) = dom.find("table", id="diff-table")
    first = dom.find("tr", within=diff)[1]
    assert dom.text(first).startswith("+48.00 MiB") and "my_recipe/metrics.py:37 keep_logits" in dom.text(first)


def test_a_screenshot_is_kept(rendered):
    shot = ARTEFACTS / "view.png"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 50_000, shot
