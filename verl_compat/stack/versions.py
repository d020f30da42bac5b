"""Version reading with PEP 440 and with what verl meant by its specifiers.

verl's own install script installs ``vllm==0.8.5.post1`` under ``vllm<=0.8.5`` (verl 0.4.0
``scripts/install_vllm_sglang_mcore.sh``, ``setup.py``), and verl 0.7.0's image runs
``sglang 0.5.6.post2`` under ``sglang==0.5.6``: PEP 440 rejects both. A post-release is a rebuild
of the release it follows, so a declared range accepts it where it accepts that release. Local
labels (``+cu124``, ``+rocm``, ``+empty``) are builds, not versions: they are dropped before
comparing. Pre- and dev-releases are compared as they sort (``0.19.0rc1`` is below ``0.19.0``),
with ``prereleases=True`` passed explicitly: ``packaging`` 25 and 26 disagree on the default.
Nothing here compares version text as strings (verl's own checks do, three times).

``packaging`` is imported lazily: verl depends on it (``setup.py`` ``packaging>=20.0``, every
release), verl-compat itself does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from packaging.version import Version


def parse(text: str | Version | None) -> Version | None:
    """The version without its local label; None where ``text`` is missing or not PEP 440."""
    if not text:
        return None
    from packaging.version import InvalidVersion, Version

    try:
        return Version(Version(str(text).strip()).public)
    except InvalidVersion:
        return None


def _without_post(version: Version) -> Version:
    from packaging.version import Version

    text = ".".join(map(str, version.release))
    if version.epoch:
        text = f"{version.epoch}!{text}"
    if version.pre:
        text += f"{version.pre[0]}{version.pre[1]}"
    if version.dev is not None:
        text += f".dev{version.dev}"
    return Version(text)


def allows(spec: str, version: str | Version) -> bool:
    """Whether ``spec`` (``">=0.8.5,<=0.11.0"``; empty: anything) accepts ``version`` as verl meant
    it: PEP 440 with pre-releases allowed, local labels dropped, and ``X.postN`` accepted where
    ``X`` is. An unreadable version is not accepted."""
    from packaging.specifiers import SpecifierSet

    parsed = parse(version)
    if parsed is None:
        return False
    specifiers = SpecifierSet(spec)
    if specifiers.contains(parsed, prereleases=True):
        return True
    return parsed.post is not None and specifiers.contains(_without_post(parsed), prereleases=True)


def at_least(version: str, minimum: str) -> bool:
    """``version >= minimum`` as verl's own floors compare (``packaging.version.parse`` on both;
    a local label sorts above its public version, so ``0.18.0+cu130`` passes ``0.18.0``)."""
    from packaging.version import InvalidVersion, Version

    try:
        return Version(version) >= Version(minimum)
    except InvalidVersion:
        return False


def same_build(version: str, tested: str) -> bool:
    """Whether ``version`` is the release verl's CI ran (``tested``): equal release numbers (``2.6``
    is ``2.6.0``), pre- and dev-parts; a post-release or a local label is the same build."""
    ours, theirs = parse(version), parse(tested)
    if ours is None or theirs is None:
        return False
    return _without_post(ours) == _without_post(theirs)


def before(release: str, version: Version) -> bool:
    """Whether the table's ``release`` sorts before ``version`` (local labels dropped)."""
    parsed = parse(release)
    return parsed is not None and parsed < version


def is_specifier(text: str) -> bool:
    """A tested entry that is a range (``"<4.52.0"``) rather than one version."""
    return text[:1] in "<>=!~"
