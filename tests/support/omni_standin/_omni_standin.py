"""Stand-ins that let ``import verl_omni`` (0.2.0) succeed on a CPU machine with verl 0.9.1.

The omni test environment puts this folder on its path and imports this module at interpreter
start (a .pth file written by scripts/_envs.sh), so every process of that environment, Ray workers
included, has them. Two things are missing there, and nothing more is supplied:

- ``vllm_omni``: verl-omni's package ``__init__`` imports its pipelines, and they import names from
  vllm-omni at module level. vllm-omni 0.24.0 itself installs, but importing it imports vllm, and
  vllm 0.24.0 requires torch==2.11.0 (CUDA), not this machine's CPU torch 2.13.0. Each name below
  is one verl-omni binds at import time; using one (calling it, building a subclass instance)
  raises, as nothing here can do what vllm-omni does. ``vllm`` is not stood in for: verl probes
  for it and would take a stand-in for the real engine.
- ``verl.utils.chat_template``: verl-omni 0.2.0 imports it from the verl commit it pins; verl 0.9.1
  has the same module at ``verl.utils.tokenizer.chat_template``.

Stdlib only: this runs at every interpreter start of the environment.
"""

import importlib
import importlib.abc
import importlib.machinery
import sys
import types

# module -> the names verl-omni 0.2.0 imports from it when `import verl_omni` runs.
VLLM_OMNI = {
    "vllm_omni": (),
    "vllm_omni.config": (),
    "vllm_omni.config.pipeline_registry": ("register_pipeline",),
    "vllm_omni.diffusion": (),
    "vllm_omni.diffusion.data": ("DiffusionOutput", "OmniDiffusionConfig"),
    "vllm_omni.diffusion.distributed": (),
    "vllm_omni.diffusion.distributed.utils": ("get_local_device",),
    "vllm_omni.diffusion.forward_context": ("set_forward_context_denoise_step_idx",),
    "vllm_omni.diffusion.models": (),
    "vllm_omni.diffusion.models.bagel": (),
    "vllm_omni.diffusion.models.bagel.pipeline_bagel": ("BagelPipeline",),
    "vllm_omni.diffusion.models.ltx2": (),
    "vllm_omni.diffusion.models.ltx2.pipeline_ltx2_3": (
        "LTX23Pipeline",
        "_LTX23DenoiseContext",
        "_LTX23ForwardContext",
        "_LTX23PromptContext",
    ),
    "vllm_omni.diffusion.models.qwen_image": ("QwenImagePipeline",),
    "vllm_omni.diffusion.models.qwen_image.pipeline_qwen_image_edit_plus": (
        "QwenImageEditPlusPipeline",
        "VAE_IMAGE_SIZE",
        "calculate_dimensions",
    ),
    "vllm_omni.diffusion.models.qwen_image.rope_utils": ("txt_seq_lens_from_embeds",),
    "vllm_omni.diffusion.models.sd3": (),
    "vllm_omni.diffusion.models.sd3.pipeline_sd3": ("StableDiffusion3Pipeline", "get_sd3_image_post_process_func"),
    "vllm_omni.diffusion.models.wan2_2": (),
    "vllm_omni.diffusion.models.wan2_2.pipeline_wan2_2": ("Wan22Pipeline", "retrieve_latents"),
    "vllm_omni.diffusion.request": ("DUMMY_DIFFUSION_REQUEST_ID", "OmniDiffusionRequest"),
    "vllm_omni.diffusion.utils": (),
    "vllm_omni.diffusion.utils.size_utils": ("normalize_min_aligned_size",),
    "vllm_omni.diffusion.worker": (),
    "vllm_omni.diffusion.worker.request_batch": ("DiffusionRequestBatch",),
    "vllm_omni.diffusion.worker.utils": ("DiffusionRequestState",),
    "vllm_omni.model_executor": (),
    "vllm_omni.model_executor.models": (),
    "vllm_omni.model_executor.models.qwen3_omni": (),
    "vllm_omni.model_executor.models.qwen3_omni.pipeline": (
        "QWEN3_OMNI_PIPELINE",
        "QWEN3_OMNI_THINKER_ONLY_PIPELINE",
    ),
}
ALIASES = {"verl.utils.chat_template": "verl.utils.tokenizer.chat_template"}


class StandIn:
    """A name vllm-omni defines: it can be bound and subclassed, never used."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError(f"{type(self).__qualname__} is a test stand-in: vllm-omni is not installed here")


def _stand_in(module: str, name: str) -> type:
    return type(name, (StandIn,), {"__module__": module})


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname in VLLM_OMNI or fullname in ALIASES:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=fullname in VLLM_OMNI)
        return None

    def create_module(self, spec):
        if spec.name in ALIASES:
            return importlib.import_module(ALIASES[spec.name])
        module = types.ModuleType(spec.name, "Test stand-in for vllm-omni (tests/support/omni_standin).")
        module.__path__ = []
        for name in VLLM_OMNI[spec.name]:
            setattr(module, name, _stand_in(spec.name, name))
        return module

    def exec_module(self, module):
        pass


if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
    sys.meta_path.append(_Finder())
