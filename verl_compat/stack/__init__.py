"""The stack a verl release runs on: vLLM, SGLang, TensorRT-LLM, transformers, torch, tensordict,
Megatron and friends, as data per release (:mod:`.table`), read from the environment's distribution
metadata (:mod:`.installed`), judged for the path a config takes (:mod:`.path`, :mod:`.findings`) with
the version semantics verl meant (:mod:`.versions`), and said once at launch where the run will
certainly fail (:mod:`.launch`).

Core data: standard library and ``packaging`` (verl's own dependency) only, imported by doctor (the
``stack`` section) and by the ``propagation`` fix (the launch line). docs/stack.md.
"""

from __future__ import annotations

from .findings import ERROR, INFO, LEVELS, OK, WARNING, Finding, Verdict, judge, row_for
from .launch import ENV, check, enabled, reset, verdict
from .path import RunPath, of_config
from .table import KNOWN_BAD, RELEASES

__all__ = [
    "ENV",
    "ERROR",
    "INFO",
    "KNOWN_BAD",
    "LEVELS",
    "OK",
    "RELEASES",
    "WARNING",
    "Finding",
    "RunPath",
    "Verdict",
    "check",
    "enabled",
    "judge",
    "of_config",
    "reset",
    "row_for",
    "verdict",
]
