"""The package reads right on PyPI and installs as a user gets it: sdist and wheel built from the
checkout pass ``twine check``, carry the licence, the metadata and a README whose links work off
GitHub; the wheel alone, in a fresh environment without verl, gives ``verl-compat --version`` and
the doctor output docs/doctor.md shows.

None of this depends on verl: it runs in one environment of a run (``once``).
"""

import email.parser
import importlib.metadata
import re
import tarfile
import zipfile
from pathlib import Path

import pytest
from doc_blocks import comparable, documented, update_docs
from paths import REPO
from pyrun import run, run_argv

pytestmark = pytest.mark.once
PROJECT = "https://github.com/verl-compat/verl-compat"
LINK = re.compile(r"\]\(([^)\s]+)\)")
TIMEOUT_S = 300


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    """The sdist, and the wheel uv builds from it (as a PyPI upload is made)."""
    built = update_docs.build(tmp_path_factory.mktemp("dist"))
    sdist = next(path for path in built if path.name.endswith(".tar.gz"))
    wheel = next(path for path in built if path.suffix == ".whl")
    return sdist, wheel


def _metadata(wheel: Path):
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return email.parser.Parser().parsestr(archive.read(name).decode())


def test_twine_check_passes(dists):
    proc = run_argv(["-m", "twine", "check", "--strict", *dists], timeout=TIMEOUT_S)
    assert proc.stdout.count("PASSED") == 2, proc.stdout


def test_licence_ships_in_sdist_and_wheel(dists):
    sdist, wheel = dists
    licence = (REPO / "LICENSE").read_text()
    assert "Apache License\n                           Version 2.0, January 2004" in licence
    assert "END OF TERMS AND CONDITIONS" in licence
    with tarfile.open(sdist) as archive:
        assert archive.extractfile(f"{sdist.name.removesuffix('.tar.gz')}/LICENSE").read().decode() == licence
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert archive.read(name).decode() == licence


def test_metadata_for_pypi(dists):
    metadata = _metadata(dists[1])
    assert metadata["License-Expression"] == "Apache-2.0"
    classifiers = metadata.get_all("Classifier")
    for prefix in ("Development Status :: ", "Programming Language :: Python :: 3.", "Topic :: "):
        assert any(c.startswith(prefix) for c in classifiers), prefix
    urls = dict(entry.split(", ", 1) for entry in metadata.get_all("Project-URL"))
    assert {"Source", "Issues", "Changelog", "Documentation"} <= set(urls)
    assert all(url.startswith(PROJECT) for url in urls.values()), urls
    assert "verl" in metadata["Keywords"].split(",")
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload().strip() == (REPO / "README.md").read_text().strip()


def test_readme_links_work_off_github():
    """PyPI shows the README without the repository around it: every link is absolute, and those
    into this repository name files it has."""
    readme = (REPO / "README.md").read_text()
    links = LINK.findall(readme)
    assert links
    relative = [link for link in links if not link.startswith("https://")]
    assert not relative, relative
    for link in links:
        if link.startswith((f"{PROJECT}/blob/main/", f"{PROJECT}/tree/main/")):
            path = link.split("/main/", 1)[1].split("#", 1)[0]
            assert (REPO / path).exists(), link
    install = readme.index("pip install verl-compat")
    assert install < readme.index("scripts/demo.sh") < readme.index("## Use"), "the pip quickstart comes first"
    assert "scripts/test.sh" in readme[: readme.index("## Use")]


@pytest.fixture(scope="module")
def without_verl(dists, tmp_path_factory):
    """A fresh environment holding the wheel and its dependency, and no verl."""
    return update_docs.python_without_verl(tmp_path_factory.mktemp("env"), dists[1])


def test_wheel_alone_gives_version_and_the_documented_doctor(without_verl):
    bin_dir = Path(without_verl).parent
    version = run([bin_dir / "verl-compat", "--version"], timeout=TIMEOUT_S)
    assert version.stdout.strip() == f"verl-compat {importlib.metadata.version('verl-compat')}"
    produced = update_docs.fence([update_docs.produce("doctor-no-verl", without_verl, {})])
    assert comparable(produced) == comparable(documented("doctor-no-verl")), "run scripts/update_docs.py doctor-no-verl"
    assert produced.rstrip("`\n").endswith("$ echo $?\n3")


@pytest.mark.parametrize("argv", [["--help"], ["doctor", "--help"], ["view", "--help"]])
def test_help_is_plain_text_with_exit_codes_and_an_example(argv):
    proc = run_argv(["-m", "verl_compat", *argv], timeout=TIMEOUT_S)
    assert "exit status" in proc.stdout and "examples:\n  verl-compat " in proc.stdout
    assert not re.search(r"``|:(func|class|mod|meth):|`", proc.stdout), proc.stdout
