"""The stack table: what each verl release (v0.4.0 to the 0.9.1 wheel) says about its dependencies.

Read from verl's own files at each tag (``git show vX.Y.Z:path``) and from the 0.9.1 wheel's
``METADATA`` (0.9.1 has no tag; its extras come from a static pyproject table). Per release:

- ``declared``: ``Requires-Dist`` of the wheel (``setup.py`` ``install_requires`` and
  ``extras_require`` up to 0.9.0; the wheels of 0.6.1-0.9.0 match their tag's ``setup.py``);
- ``stacks``: what verl's CI ran: the images its workflows use, from ``docker/Dockerfile.stable.*``
  at the tag, plus the workflow's own ``pip install`` steps. verl's CI installs verl with
  ``--no-deps``, so these run outside the declared ranges: vLLM 0.10.0 on 0.6.0 (cap 0.9.1), 0.17.0
  on 0.7.1 and 0.20.2 on 0.8.0 (cap 0.12.0), sglang 0.5.12 on 0.8.0/0.9.0 (pin 0.5.8), transformers
  5.3.0 on 0.9.0 (floor 5.5.3);
- ``floors``: version checks verl's own code makes that raise;
- ``needs``: modules verl imports unconditionally on a path (a missing one fails the run).

Rows are data, one entry a line, each with its source; ``tests/doctor/test_stack.py`` keeps them
consistent (every CI stack passes its own release) and docs/stack.md lists the reported breakages
they name or miss. :data:`KNOWN_BAD` is the short hand-kept list of pairs no range expresses.
"""

from __future__ import annotations

from .model import Declared, Floor, KnownBad, Needs, Release, Stack, Tested

VLLM, SGLANG, TRTLLM, MEGATRON, FSDP, V1 = "vllm", "sglang", "trtllm", "megatron", "fsdp", "v1"


def _core_needs(tag: str, numpy_line: int, hydra_line: int) -> tuple[Needs, ...]:
    """``verl/protocol.py`` (imported by every trainer and worker) and ``main_ppo.py``'s imports."""
    protocol = f"{tag} verl/protocol.py"
    return (
        Needs("numpy", "numpy", f"{protocol}:{numpy_line}", "ImportError at import of verl.protocol"),
        Needs("ray", "ray", f"{protocol}:29", "ImportError at import of verl.protocol"),
        Needs("tensordict", "tensordict", f"{protocol}:30", "ImportError at import of verl.protocol"),
        Needs("torch", "torch", f"{protocol}:31", "ImportError at import of verl.protocol"),
        Needs("hydra", "hydra-core", f"{tag} verl/trainer/main_ppo.py:{hydra_line}", "ImportError at launch"),
    )


def _vllm_needs(tag: str) -> Needs:
    return Needs(
        "vllm",
        "vllm",
        f"{tag} verl/workers/rollout/vllm_rollout/__init__.py:30",
        "PackageNotFoundError('To use vllm rollout, please ensure the vllm package is properly installed') "
        "in the rollout worker",
        (VLLM,),
    )


def _sglang_needs(tag: str, path: str, line: int) -> Needs:
    return Needs("sglang", "sglang", f"{tag} {path}:{line}", "ImportError in the SGLang rollout worker", (SGLANG,))


def _mcore_needs(tag: str, path: str, line: int) -> Needs:
    return Needs(
        "megatron.core", "megatron-core", f"{tag} {path}:{line}", "ImportError in the Megatron workers", (MEGATRON,)
    )


def _trtllm_needs(tag: str, line: int) -> Needs:
    return Needs(
        "tensorrt_llm",
        "tensorrt-llm",
        f"{tag} verl/workers/rollout/trtllm_rollout/trtllm_async_server.py:{line}",
        "ImportError when the TensorRT-LLM rollout server starts",
        (TRTLLM,),
    )


def _vllm_gate(tag: str, line: int, minimum: str) -> Floor:
    return Floor(
        "vllm",
        minimum,
        f"{tag} verl/third_party/vllm/__init__.py:{line}",
        f"ValueError 'vllm version … not supported' (below {minimum}) when the vLLM rollout is imported in the worker",
        (VLLM,),
        unless="sglang",
    )


def _tensordict_floor(tag: str, line: int) -> Floor:
    return Floor(
        "tensordict",
        "0.10",
        f"{tag} verl/protocol.py:{line}",
        "AssertionError 'Convert DataProto to TensorDict at least requires tensordict version 0.10' in the trainer "
        "(DataProto.to_tensordict, every step)",
    )


_PKG_RESOURCES = (
    "pkg_resources",
    "setuptools",
    "ModuleNotFoundError at `import verl` (setuptools 82 removed pkg_resources)",
)


def _setup(tag: str, line: int) -> str:
    return f"{tag} setup.py:{line}"


def _common_declared(tag: str, tensordict: str, numpy: str = "") -> tuple[Declared, ...]:
    return (
        Declared("ray", ">=2.41.0", _setup(tag, 38)),
        Declared("tensordict", tensordict, _setup(tag, 40)),
        Declared("transformers", "", _setup(tag, 41)),
        Declared("numpy", numpy, _setup(tag, 32)),
    )


_TD_06 = ">=0.8.0,<=0.10.0,!=0.9.0"

RELEASES: tuple[Release, ...] = (
    Release(
        "0.4.0",
        "v0.4.0",
        declared=(
            *_common_declared("v0.4.0", "<=0.6.2"),
            Declared("vllm", "<=0.8.5", _setup("v0.4.0", 51) + " extras vllm", (VLLM,)),
            Declared("sglang", "==0.4.6.post5", _setup("v0.4.0", 54) + " extras sglang", (SGLANG,)),
            Declared("torch", "==2.6.0", _setup("v0.4.0", 56) + " extras sglang", (SGLANG,)),
            Declared("flash-attn", "", _setup("v0.4.0", 49) + " extras gpu"),
        ),
        stacks=(
            Stack(
                "whatcanyousee/verl:ngc-cu124-vllm0.8.5-sglang0.4.6.post5-mcore0.12.0-te2.3",
                "v0.4.0 .github/workflows (image tag) + scripts/install_vllm_sglang_mcore.sh:12",
                VLLM,
                {
                    "torch": "2.6.0",
                    "vllm": "0.8.5.post1",
                    "sglang": "0.4.6.post5",
                    "megatron-core": "0.12.0",
                    "flash-attn": "2.7.4.post1",
                    "tensordict": "0.6.2",
                },
            ),
        ),
        needs=(
            *_core_needs("v0.4.0", 27, 18),
            Needs(*_PKG_RESOURCES[:2], "v0.4.0 verl/__init__.py:18", _PKG_RESOURCES[2], provided="<82"),
            _vllm_needs("v0.4.0"),
            _sglang_needs("v0.4.0", "verl/workers/rollout/sglang_rollout/sglang_rollout.py", 30),
            _mcore_needs("v0.4.0", "verl/workers/megatron_workers.py", 27),
        ),
    ),
    Release(
        "0.4.1",
        "v0.4.1",
        declared=(
            *_common_declared("v0.4.1", "<=0.6.2"),
            Declared("vllm", "<=0.8.5", _setup("v0.4.1", 51) + " extras vllm", (VLLM,)),
            Declared("sglang", "==0.4.6.post5", _setup("v0.4.1", 54) + " extras sglang", (SGLANG,)),
            Declared("torch", "==2.6.0", _setup("v0.4.1", 56) + " extras sglang", (SGLANG,)),
            Declared("flash-attn", "", _setup("v0.4.1", 49) + " extras gpu"),
        ),
        stacks=(
            Stack(
                "whatcanyousee/verl:ngc-cu124-vllm0.8.5-sglang0.4.6.post5-mcore0.12.0-te2.3",
                "v0.4.1 .github/workflows (image tag) + scripts/install_vllm_sglang_mcore.sh:12",
                VLLM,
                {
                    "torch": "2.6.0",
                    "vllm": "0.8.5.post1",
                    "sglang": "0.4.6.post5",
                    "megatron-core": "0.12.0",
                    "flash-attn": "2.7.4.post1",
                    "tensordict": "0.6.2",
                },
            ),
        ),
        needs=(
            *_core_needs("v0.4.1", 27, 21),
            Needs(*_PKG_RESOURCES[:2], "v0.4.1 verl/__init__.py:18", _PKG_RESOURCES[2], provided="<82"),
            _vllm_needs("v0.4.1"),
            _sglang_needs("v0.4.1", "verl/workers/rollout/sglang_rollout/sglang_rollout.py", 29),
            _mcore_needs("v0.4.1", "verl/workers/megatron_workers.py", 28),
        ),
    ),
    Release(
        "0.5.0",
        "v0.5.0",
        declared=(
            *_common_declared("v0.5.0", ">=0.8.0,<=0.9.1,!=0.9.0", "<2.0.0"),
            Declared("vllm", ">=0.7.3,<=0.8.5", _setup("v0.5.0", 51) + " extras vllm", (VLLM,)),
            Declared("sglang", "==0.4.6.post5", _setup("v0.5.0", 54) + " extras sglang", (SGLANG,)),
            Declared("torch", "==2.6.0", _setup("v0.5.0", 56) + " extras sglang", (SGLANG,)),
            Declared("mbridge", "", _setup("v0.5.0", 59) + " extras mcore", (MEGATRON,)),
            Declared("flash-attn", "", _setup("v0.5.0", 49) + " extras gpu"),
        ),
        stacks=(
            Stack(
                "verlai/verl:app-verl0.4-vllm0.8.5-mcore0.12.2-te2.2",
                "v0.5.0 docker/verl0.4-cu124-torch2.6-fa2.7.4/Dockerfile.app.vllm.mcore0.12",
                VLLM,
                {
                    "torch": "2.6.0",
                    "vllm": "0.8.5.post1",
                    "megatron-core": "0.12.2",
                    "flash-attn": "2.7.4.post1",
                    "tensordict": "0.6.2",
                },
            ),
            Stack(
                "verlai/verl:app-verl0.4-sglang0.4.6.post5-vllm0.8.5-mcore0.12.2-te2.2",
                "v0.5.0 docker/verl0.4-cu124-torch2.6-fa2.7.4/Dockerfile.app.sglang.vllm.mcore0.12",
                SGLANG,
                {
                    "torch": "2.6.0",
                    "vllm": "0.8.5.post1",
                    "sglang": "0.4.6.post5",
                    "megatron-core": "0.12.2",
                    "flash-attn": "2.7.4.post1",
                    "tensordict": "0.6.2",
                },
            ),
        ),
        tested=(
            Tested(
                "transformers",
                ("<4.52.0",),
                "v0.5.0 docker/verl0.4-cu124-torch2.6-fa2.7.4/Dockerfile.app.vllm.mcore0.12 (transformers<4.52.0)",
            ),
        ),
        needs=(
            *_core_needs("v0.5.0", 27, 21),
            _vllm_needs("v0.5.0"),
            _sglang_needs("v0.5.0", "verl/workers/rollout/sglang_rollout/sglang_rollout.py", 29),
            _mcore_needs("v0.5.0", "verl/workers/megatron_workers.py", 28),
        ),
        floors=(_vllm_gate("v0.5.0", 39, "0.7.0"),),
    ),
    Release(
        "0.6.0",
        "v0.6.0",
        declared=(
            *_common_declared("v0.6.0", _TD_06, "<2.0.0"),
            Declared("vllm", ">=0.7.3,<=0.9.1", _setup("v0.6.0", 52) + " extras vllm", (VLLM,)),
            Declared("sglang", "==0.5.2", _setup("v0.6.0", 55) + " extras sglang", (SGLANG,)),
            Declared("torch", "==2.8.0", _setup("v0.6.0", 56) + " extras sglang", (SGLANG,)),
            Declared("mbridge", "", _setup("v0.6.0", 59) + " extras mcore", (MEGATRON,)),
            Declared("flash-attn", "", _setup("v0.6.0", 50) + " extras gpu"),
        ),
        stacks=(
            Stack(
                "verlai/verl:app-verl0.5-transformers4.55.4-vllm0.10.0-mcore0.13.0-te2.2",
                "v0.6.0 .github/workflows (image tag)",
                VLLM,
                {
                    "torch": "2.7.1",
                    "vllm": "0.10.0",
                    "transformers": "4.55.4",
                    "megatron-core": "0.13.0",
                    "flash-attn": "2.7.4.post1",
                    "tensordict": "0.6.2",
                },
            ),
            Stack(
                "verlai/verl:app-verl0.6-transformers4.56.1-sglang0.5.2-mcore0.13.0-te2.2",
                "v0.6.0 .github/workflows (image tag)",
                SGLANG,
                {
                    "torch": "2.8.0",
                    "sglang": "0.5.2",
                    "transformers": "4.56.1",
                    "megatron-core": "0.13.0",
                    "flash-attn": "2.7.4.post1",
                },
            ),
        ),
        tested=(
            Tested("transformers", ("4.52.0", "4.53.2", "4.54.1", "4.56.2"), "v0.6.0 .github/workflows/model.yml"),
        ),
        needs=(
            *_core_needs("v0.6.0", 28, 21),
            _vllm_needs("v0.6.0"),
            _sglang_needs("v0.6.0", "verl/workers/rollout/sglang_rollout/async_sglang_server.py", 21),
            _mcore_needs("v0.6.0", "verl/workers/engine/megatron/transformer_impl.py", 22),
        ),
        floors=(_vllm_gate("v0.6.0", 46, "0.7.0"),),
    ),
    Release(
        "0.6.1",
        "v0.6.1",
        declared=(
            *_common_declared("v0.6.1", _TD_06, "<2.0.0"),
            Declared("vllm", ">=0.8.5,<=0.11.0", _setup("v0.6.1", 52) + " extras vllm", (VLLM,)),
            Declared("sglang", "==0.5.5", _setup("v0.6.1", 55) + " extras sglang", (SGLANG,)),
            Declared("torch", "==2.8.0", _setup("v0.6.1", 56) + " extras sglang", (SGLANG,)),
            Declared("mbridge", "", _setup("v0.6.1", 59) + " extras mcore", (MEGATRON,)),
            Declared("flash-attn", "", _setup("v0.6.1", 50) + " extras gpu"),
        ),
        stacks=(
            Stack(
                "verlai/verl:vllm011.dev7",
                "v0.6.1 docker/Dockerfile.stable.vllm (FROM vllm/vllm-openai:v0.11.0)",
                VLLM,
                {"torch": "2.8.0", "vllm": "0.11.0", "flash-attn": "2.8.1", "megatron-core": "0.14.0rc7"},
            ),
            Stack(
                "verlai/verl:sgl055.dev2",
                "v0.6.1 docker/Dockerfile.stable.sglang (FROM lmsysorg/sglang:v0.5.5)",
                SGLANG,
                {"torch": "2.8.0", "sglang": "0.5.5", "flash-attn": "2.8.1", "megatron-core": "0.14.0rc7"},
            ),
        ),
        tested=(
            Tested("transformers", ("4.52.0", "4.53.2", "4.54.1", "4.56.2"), "v0.6.1 .github/workflows/model.yml"),
        ),
        needs=(
            *_core_needs("v0.6.1", 28, 21),
            _vllm_needs("v0.6.1"),
            _sglang_needs("v0.6.1", "verl/workers/rollout/sglang_rollout/async_sglang_server.py", 22),
            _mcore_needs("v0.6.1", "verl/workers/engine/megatron/transformer_impl.py", 22),
        ),
        floors=(_vllm_gate("v0.6.1", 46, "0.7.0"),),
    ),
    Release(
        "0.7.0",
        "v0.7.0",
        declared=(
            *_common_declared("v0.7.0", _TD_06, "<2.0.0"),
            Declared("vllm", ">=0.8.5,<=0.12.0", _setup("v0.7.0", 52) + " extras vllm", (VLLM,)),
            Declared("sglang", "==0.5.6", _setup("v0.7.0", 55) + " extras sglang", (SGLANG,)),
            Declared("torch", "==2.9.1", _setup("v0.7.0", 56) + " extras sglang", (SGLANG,)),
            Declared("mbridge", "", _setup("v0.7.0", 59) + " extras mcore", (MEGATRON,)),
            Declared("flash-attn", "", _setup("v0.7.0", 50) + " extras gpu"),
        ),
        stacks=(
            Stack(
                "verlai/verl:vllm012.latest",
                "v0.7.0 docker/Dockerfile.stable.vllm",
                VLLM,
                {"torch": "2.9.0", "vllm": "0.12.0", "flash-attn": "2.8.1", "megatron-core": "0.15.0"},
            ),
            Stack(
                "verlai/verl:sgl056.latest",
                "v0.7.0 docker/Dockerfile.stable.sglang (FROM lmsysorg/sglang:v0.5.6.post2)",
                SGLANG,
                {"torch": "2.9.1", "sglang": "0.5.6.post2", "flash-attn": "2.8.1", "megatron-core": "0.15.0"},
            ),
        ),
        tested=(Tested("transformers", ("4.54.1", "4.56.2", "4.57.1"), "v0.7.0 .github/workflows/model.yml"),),
        needs=(
            *_core_needs("v0.7.0", 28, 21),
            _vllm_needs("v0.7.0"),
            _sglang_needs("v0.7.0", "verl/workers/rollout/sglang_rollout/async_sglang_server.py", 23),
            _mcore_needs("v0.7.0", "verl/workers/engine/megatron/transformer_impl.py", 22),
        ),
        floors=(_vllm_gate("v0.7.0", 46, "0.7.0"),),
    ),
    Release(
        "0.7.1",
        "v0.7.1",
        declared=(
            *_common_declared("v0.7.1", _TD_06, "<2.0.0"),
            Declared("vllm", ">=0.8.5,<=0.12.0", _setup("v0.7.1", 52) + " extras vllm", (VLLM,)),
            Declared("tensorrt-llm", ">=1.2.0rc6", _setup("v0.7.1", 53) + " extras trtllm", (TRTLLM,)),
            Declared("sglang", "==0.5.6", _setup("v0.7.1", 56) + " extras sglang", (SGLANG,)),
            Declared("torch", "==2.9.1", _setup("v0.7.1", 57) + " extras sglang", (SGLANG,)),
            Declared("mbridge", "", _setup("v0.7.1", 60) + " extras mcore", (MEGATRON,)),
            Declared("flash-attn", "", _setup("v0.7.1", 50) + " extras gpu"),
        ),
        stacks=(
            Stack(
                "verlai/verl:vllm017.dev2",
                "v0.7.1 docker/Dockerfile.stable.vllm:33,35,58,99",
                VLLM,
                {"torch": "2.10.0", "vllm": "0.17.0", "flash-attn": "2.8.3", "megatron-core": "0.16.0"},
            ),
            Stack(
                "verlai/verl:sgl059.dev2",
                "v0.7.1 docker/Dockerfile.stable.sglang:3,19,39 (FROM lmsysorg/sglang:v0.5.9)",
                SGLANG,
                {"torch": "2.9.1", "sglang": "0.5.9", "flash-attn": "2.8.3", "megatron-core": "0.16.0"},
            ),
            Stack(
                "verlai/verl:trtllm1.3.0rc4",
                "v0.7.1 docker/Dockerfile.stable.trtllm:4,36",
                TRTLLM,
                {"tensorrt-llm": "1.3.0rc4", "megatron-core": "0.15.0"},
            ),
        ),
        tested=(Tested("transformers", ("4.54.1", "4.57.1"), "v0.7.1 .github/workflows/model.yml"),),
        needs=(
            *_core_needs("v0.7.1", 28, 21),
            _vllm_needs("v0.7.1"),
            _sglang_needs("v0.7.1", "verl/workers/rollout/sglang_rollout/async_sglang_server.py", 23),
            _mcore_needs("v0.7.1", "verl/workers/engine/megatron/transformer_impl.py", 21),
            _trtllm_needs("v0.7.1", 118),
        ),
        floors=(_vllm_gate("v0.7.1", 46, "0.7.0"),),
    ),
    Release(
        "0.8.0",
        "v0.8.0",
        declared=(
            *_common_declared("v0.8.0", _TD_06, "<2.0.0"),
            Declared("vllm", ">=0.8.5,<=0.12.0", _setup("v0.8.0", 52) + " extras vllm", (VLLM,)),
            Declared("tensorrt-llm", ">=1.2.0rc6", _setup("v0.8.0", 53) + " extras trtllm", (TRTLLM,)),
            Declared("sglang", "==0.5.8", _setup("v0.8.0", 56) + " extras sglang", (SGLANG,)),
            Declared("torch", "==2.9.1", _setup("v0.8.0", 57) + " extras sglang", (SGLANG,)),
            Declared("mbridge", "", _setup("v0.8.0", 60) + " extras mcore", (MEGATRON,)),
            Declared("flash-attn", "", _setup("v0.8.0", 50) + " extras gpu"),
        ),
        stacks=(
            Stack(
                "verlai/verl:vllm020.dev1",
                "v0.8.0 docker/Dockerfile.stable.vllm:8,11,12,15,17",
                VLLM,
                {
                    "torch": "2.11.0",
                    "transformers": "5.3.0",
                    "vllm": "0.20.2",
                    "flash-attn": "2.8.3",
                    "megatron-core": "0.16.1",
                },
            ),
            Stack(
                "verlai/verl:sgl0512.dev1",
                "v0.8.0 docker/Dockerfile.stable.sglang:3,10,42,69 (FROM lmsysorg/sglang:v0.5.12)",
                SGLANG,
                {
                    "torch": "2.11.0",
                    "sglang": "0.5.12",
                    "transformers": "5.3.0",
                    "flash-attn": "2.8.3",
                    "megatron-core": "0.16.1",
                },
            ),
            Stack(
                "verlai/verl:trtllm1.3.0rc14",
                "v0.8.0 docker/Dockerfile.stable.trtllm:4,40,53",
                TRTLLM,
                {"tensorrt-llm": "1.3.0rc14", "megatron-core": "0.16.0", "ray": "2.54.1"},
            ),
        ),
        tested=(Tested("transformers", ("4.54.1",), "v0.8.0 .github/workflows/model.yml"),),
        needs=(
            *_core_needs("v0.8.0", 28, 21),
            _vllm_needs("v0.8.0"),
            _sglang_needs("v0.8.0", "verl/workers/rollout/sglang_rollout/async_sglang_server.py", 25),
            _mcore_needs("v0.8.0", "verl/workers/engine/megatron/transformer_impl.py", 23),
            _trtllm_needs("v0.8.0", 185),
        ),
        floors=(_vllm_gate("v0.8.0", 46, "0.7.0"), _tensordict_floor("v0.8.0", 1109)),
    ),
    Release(
        "0.9.0",
        "v0.9.0",
        declared=(
            Declared("ray", ">=2.41.0", _setup("v0.9.0", 38)),
            Declared("tensordict", _TD_06, _setup("v0.9.0", 40)),
            Declared("transformers", ">=5.5.3,!=5.6.0,<5.11", _setup("v0.9.0", 43)),
            Declared("numpy", ">=2.0.0", _setup("v0.9.0", 32)),
            Declared("vllm", ">=0.18.0", _setup("v0.9.0", 55) + " extras vllm", (VLLM,)),
            Declared("tensorrt-llm", ">=1.2.0rc6", _setup("v0.9.0", 56) + " extras trtllm", (TRTLLM,)),
            Declared("sglang", "==0.5.8", _setup("v0.9.0", 59) + " extras sglang", (SGLANG,)),
            Declared("torch", "==2.9.1", _setup("v0.9.0", 60) + " extras sglang", (SGLANG,)),
            Declared("megatron-bridge", "", _setup("v0.9.0", 64) + " extras mcore", (MEGATRON,)),
            Declared("mbridge", "", _setup("v0.9.0", 64) + " extras mcore", (MEGATRON,)),
            Declared("flash-attn", "", _setup("v0.9.0", 53) + " extras gpu"),
        ),
        stacks=(
            Stack(
                "verlai/verl:vllm024.dev2",
                "v0.9.0 docker/Dockerfile.stable.vllm:9,12,13,17,19-21 + .github/workflows/vllm.yml:115",
                VLLM,
                {
                    "torch": "2.11.0",
                    "transformers": "5.5.3",
                    "vllm": "0.24.0",
                    "flash-attn": "2.8.3",
                    "megatron-core": "0.18.0",
                    "megatron-bridge": "0.5.0",
                    "TransferQueue": "0.1.8",
                },
            ),
            Stack(
                "verlai/verl:sgl0512.dev4",
                "v0.9.0 docker/Dockerfile.stable.sglang:4,10-12,50 + .github/workflows/sgl.yml:118",
                SGLANG,
                {
                    "torch": "2.11.0",
                    "sglang": "0.5.12",
                    "transformers": "5.3.0",
                    "flash-attn": "2.8.3",
                    "megatron-core": "0.18.0",
                    "megatron-bridge": "0.5.0",
                    "TransferQueue": "0.1.8",
                },
            ),
            Stack(
                "verlai/verl:trtllm-1.3.0rc15",
                "v0.9.0 docker/Dockerfile.stable.trtllm:4,37,41,42 + "
                ".github/workflows/e2e_ppo_grpo_trainer_trtllm.yml:137-138",
                TRTLLM,
                {
                    "tensorrt-llm": "1.3.0rc15",
                    "transformers": "5.3.0",
                    "megatron-core": "0.18.0",
                    "megatron-bridge": "0.5.0",
                    "TransferQueue": "0.1.8",
                    "ray": "2.54.1",
                },
            ),
        ),
        tested=(
            Tested("transformers", ("5.3.0",), "v0.9.0 docker/Dockerfile.stable.vllm:12 ARG TRANSFORMERS_VERSION"),
        ),
        needs=(
            *_core_needs("v0.9.0", 28, 18),
            Needs(
                "transfer_queue",
                "TransferQueue",
                "v0.9.0 verl/trainer/main_ppo.py:138 (requirements.txt:28 TransferQueue==0.1.8; "
                "not in install_requires)",
                "ModuleNotFoundError: No module named 'transfer_queue' in the TaskRunner (trainer.use_v1=True, "
                "the default)",
                (V1,),
            ),
            _vllm_needs("v0.9.0"),
            _sglang_needs("v0.9.0", "verl/workers/rollout/sglang_rollout/async_sglang_server.py", 25),
            _mcore_needs("v0.9.0", "verl/workers/engine/megatron/transformer_impl.py", 23),
            _trtllm_needs("v0.9.0", 186),
        ),
        floors=(_vllm_gate("v0.9.0", 46, "0.18.0"), _tensordict_floor("v0.9.0", 1109)),
    ),
    Release(
        "0.9.1",
        "verl 0.9.1 wheel",
        declared=(
            Declared("numpy", ">=2.0.0", "verl 0.9.1 METADATA:17"),
            Declared("ray", ">=2.41.0", "verl 0.9.1 METADATA:23"),
            Declared("tensordict", _TD_06, "verl 0.9.1 METADATA:25"),
            Declared("transformers", ">=5.5.3,!=5.6.0,<5.11", "verl 0.9.1 METADATA:26"),
            Declared("TransferQueue", ">=0.1.10", "verl 0.9.1 METADATA:41 extras verl-core"),
            Declared("flash-attn", "==2.8.3", "verl 0.9.1 METADATA:73 extras fsdp, megatron", (FSDP,)),
            Declared("torch", "==2.11.0", "verl 0.9.1 METADATA:78 extras vllm", (VLLM,)),
            Declared("vllm", "==0.24.0", "verl 0.9.1 METADATA:81 extras vllm", (VLLM,)),
            Declared("transformers", "==5.9.0", "verl 0.9.1 METADATA:83 extras vllm", (VLLM,)),
            Declared("torch", "==2.11.0", "verl 0.9.1 METADATA:86 extras sglang", (SGLANG,)),
            Declared("sglang", "==0.5.12", "verl 0.9.1 METADATA:89 extras sglang", (SGLANG,)),
            Declared("transformers", "==5.9.0", "verl 0.9.1 METADATA:92 extras sglang", (SGLANG,)),
            Declared("mbridge", "", "verl 0.9.1 METADATA:117 extras megatron", (MEGATRON,)),
            Declared("megatron-bridge", "==0.5.2", "verl 0.9.1 METADATA:118 extras megatron", (MEGATRON,)),
            Declared("megatron-core", "", "verl 0.9.1 METADATA:119 extras megatron", (MEGATRON,)),
        ),
        stacks=(
            Stack(
                "pip install 'verl[vllm,fsdp]==0.9.1'",
                "verl 0.9.1 METADATA:73,78,81,83 (0.9.1 has no tag: its CI is not readable, its pins are)",
                VLLM,
                {"torch": "2.11.0", "vllm": "0.24.0", "transformers": "5.9.0", "flash-attn": "2.8.3"},
            ),
            Stack(
                "pip install 'verl[sglang,megatron]==0.9.1'",
                "verl 0.9.1 METADATA:86,89,92,118",
                SGLANG,
                {"torch": "2.11.0", "sglang": "0.5.12", "transformers": "5.9.0", "megatron-bridge": "0.5.2"},
            ),
        ),
        needs=(
            *_core_needs("verl 0.9.1", 28, 18),
            Needs(
                "transfer_queue",
                "TransferQueue",
                "verl 0.9.1 verl/trainer/main_ppo.py:137 (METADATA:41: only in the verl-core extra)",
                "ModuleNotFoundError: No module named 'transfer_queue' in the TaskRunner (trainer.use_v1=True, "
                "the default)",
                (V1,),
            ),
            _vllm_needs("verl 0.9.1"),
            _sglang_needs("verl 0.9.1", "verl/workers/rollout/sglang_rollout/async_sglang_server.py", 25),
            _mcore_needs("verl 0.9.1", "verl/workers/engine/megatron/transformer_impl.py", 23),
            _trtllm_needs("verl 0.9.1", 183),
        ),
        floors=(_vllm_gate("verl 0.9.1", 46, "0.18.0"), _tensordict_floor("verl 0.9.1", 1105)),
    ),
)

# Pairs reported broken that no declared range of verl's says: each a warning naming its report.
KNOWN_BAD: tuple[KnownBad, ...] = (
    KnownBad(
        "vllm",
        "<0.10.0",
        ">=0.6.0,<0.7.0",
        "verl#3842, verl#4202",
        "verl 0.6's vLLM rollout imports vllm.v1.engine.utils and calls process_weights_after_loading, which "
        "vLLM 0.8.4-0.9.1 lack (reported); verl's own gate asks only for 0.7.0 and its image ran 0.10.0/0.11.0",
        (VLLM,),
    ),
    KnownBad(
        "mbridge",
        "<=0.15.1",
        ">=0.9.0",
        "verl#6936",
        "mbridge 0.15.1 from PyPI breaks with megatron-core 0.18; verl's images install mbridge from git",
        (MEGATRON,),
        other="megatron-core",
        other_spec=">=0.18.0",
    ),
)
