"""The docs say what the code does: every example output in README.md and docs/ is what the tool
prints today, and no doc points at a document the repository does not have.

The blocks are written by ``scripts/update_docs.py``; each test here produces a block again, with
that script's own functions, in the release environment the block names (the others skip, naming
it), and compares. The demo runs two real fits, so it is checked in one release only: the one
whose demo output also shows the README's quickstart warning (verl 0.9.1).
"""

import importlib.metadata
import re
import sys

import pytest
from doc_blocks import comparable, documented, update_docs
from paths import REPO

RELEASE = importlib.metadata.version("verl")


def in_release(names) -> list:
    """``names`` as parameters, skipped (with the release named) outside their release."""
    return [
        pytest.param(
            name,
            marks=pytest.mark.skipif(
                RELEASE not in update_docs.BLOCKS[name].releases,
                reason=f"block {name} is produced by verl {update_docs.BLOCKS[name].releases}",
            ),
        )
        for name in names
    ]


def test_every_block_is_known_filled_and_unique():
    seen = []
    for file in update_docs.FILES:
        text = (REPO / file).read_text(encoding="utf-8")
        assert text.count("<!-- generated: ") == text.count("<!-- end -->"), file
        for name, body in update_docs.blocks_in(text).items():
            assert name in update_docs.BLOCKS, f"{file}: unknown block {name}"
            assert body.startswith("```\n") and body.endswith("```\n") and len(body) > 8, f"{file}: {name} is empty"
            seen.append(name)
    assert sorted(seen) == sorted(update_docs.BLOCKS)


DOCTOR_BLOCKS = [
    name for name, block in update_docs.BLOCKS.items() if block.doctor is not None and None not in block.releases
]


@pytest.mark.parametrize("name", in_release(DOCTOR_BLOCKS))
def test_doctor_example_is_what_doctor_prints(name):
    produced = update_docs.fence([update_docs.produce(name, sys.executable, {})])
    assert comparable(produced) == comparable(documented(name)), (
        f"{name} differs from `{update_docs.BLOCKS[name].command}`: run scripts/update_docs.py {name}"
    )


def _demo_section(body: str, release: str) -> str:
    sections = re.split(r"(?m)^(?====== verl )", body.removeprefix("```\n").removesuffix("```\n").rstrip("\n"))
    (section,) = [s for s in sections if s.startswith(f"===== verl {release}:")]
    return section.rstrip("\n")


@pytest.mark.parametrize("name", in_release(["legacy-warning"]))
def test_demo_prints_what_the_readme_shows(name):
    """The README's demo block (this release's part) and quickstart warning are what
    examples/legacy_config_demo.py prints, stdout and stderr together: the warning once, under
    "with verl-compat", and none of verl's or Ray's own output."""
    demos = {}
    output = update_docs.produce("demo", sys.executable, demos)
    assert output == _demo_section(documented("demo"), RELEASE), "run scripts/update_docs.py demo"
    assert output.count("VerlCompatDeprecationWarning") == 1
    assert "global_profiler.save_path=/tmp/verl-compat-demo-…/with/prof" in output  # normalised, not eaten
    assert output.index("--- with verl-compat") < output.index("VerlCompatDeprecationWarning")
    assert update_docs.fence([update_docs.produce(name, sys.executable, demos)]) == documented(name)


@pytest.mark.parametrize("name", in_release(["old-setup-demo"]))
def test_old_setup_demo_prints_what_the_readme_shows(name):
    """verl's own v0.7.1 launch stops at Hydra without verl-compat and composes with it, an old import
    resolves or is explained, and the memory page is written where the demo says."""
    output = update_docs.produce(name, sys.executable, {})
    assert update_docs.fence([output]) == documented(name), "run scripts/update_docs.py old-setup-demo"
    assert "exit 1: Could not override" in output and "exit 0: the config composes" in output
    assert "wrote page /tmp/verl-compat-demo-…/memory.html" in output


MISSING_DOCUMENTS = re.compile(r"product\.md|verl-matrix|feasibility|§")
SCANNED = ("README.md", "CHANGELOG.md", "docs", "verl_compat", "tests", "benchmarks", "scripts", "examples")


def test_no_reference_to_documents_outside_the_repository():
    """Docs and comments state the fact, or cite verl's source by release and path."""
    offending = []
    for entry in SCANNED:
        for path in [REPO / entry] if (REPO / entry).is_file() else sorted((REPO / entry).rglob("*")):
            relative = path.relative_to(REPO).as_posix()
            if path.suffix not in {".md", ".py", ".sh", ".txt", ".yaml"}:
                continue
            if relative == "tests/docs/test_docs.py":
                continue  # the pattern itself
            # "replace": test data may hold bytes that are not UTF-8 on purpose (migrate keeps them).
            for number, line in enumerate(path.read_bytes().decode("utf-8", "replace").splitlines(), 1):
                if MISSING_DOCUMENTS.search(line):
                    offending.append(f"{relative}:{number}: {line.strip()}")
    assert not offending, "\n".join(offending)
