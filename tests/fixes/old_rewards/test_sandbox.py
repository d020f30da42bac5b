"""A code data source scored by the old manager the trainer's whole-batch pass builds, with the
launch's ``sandbox_fusion.url``: the model's code goes to the sandbox, as verl 0.6.1's
``load_reward_manager`` sent it, never run in the trainer's process. The sandbox is a stub on
127.0.0.1 answering sandbox fusion's ``run_code`` API (bounded: it stops itself)."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest
import torch
from verl import DataProto
from verl_config import verl_compose

from verl_compat.fixes.old_rewards import contract, driver

pytestmark = pytest.mark.once

STUB_LIFETIME_S = 120  # the stub shuts itself down after this, whatever the test does
SANDBOX_STDOUT = "42\n"  # what the stub says the code printed: the expected output
LOCAL_CODE = "print(41)"  # what the code prints when run here instead: a wrong answer
VOCAB = ("<pad>", "<unk>", "<s>", "</s>", "write", "code", "```python", LOCAL_CODE, "```")


@pytest.fixture
def sandbox():
    """``(url, requests)``: the stub's ``run_code`` address and the JSON bodies it received."""
    received = []

    class RunCode(BaseHTTPRequestHandler):
        def do_POST(self):
            received.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            body = json.dumps(
                {
                    "status": "Success",
                    "compile_result": None,
                    "run_result": {"status": "Finished", "stdout": SANDBOX_STDOUT, "stderr": "", "return_code": 0},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), RunCode)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    timer = threading.Timer(STUB_LIFETIME_S, server.shutdown)
    timer.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/run_code", received
    finally:
        timer.cancel()
        server.shutdown()
        server.server_close()


def code_tokenizer():
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.WordLevel(vocab={word: i for i, word in enumerate(VOCAB)}, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(
        tokenizer_object=backend, unk_token="<unk>", pad_token="<pad>", bos_token="<s>", eos_token="</s>"
    )


def code_batch(tokenizer):
    """One ``codecontests`` sample whose response is a code block, with one test case (no input,
    expected output 42)."""
    prompt = tokenizer.encode("write code", add_special_tokens=False)
    response = [*tokenizer.encode(f"```python {LOCAL_CODE} ```", add_special_tokens=False), tokenizer.eos_token_id]
    prompts, responses = torch.tensor([prompt]), torch.tensor([response])
    tests = json.dumps({"inputs": [""], "outputs": ["42"]})
    return DataProto.from_dict(
        tensors={
            "prompts": prompts,
            "responses": responses,
            "input_ids": torch.cat([prompts, responses], dim=1),
            "attention_mask": torch.ones((1, prompts.shape[1] + responses.shape[1]), dtype=torch.long),
        },
        non_tensors={
            "data_source": np.array(["codecontests"], dtype=object),
            "reward_model": np.array([{"ground_truth": tests, "style": "rule"}], dtype=object),
            "extra_info": np.array([{"index": 0}], dtype=object),
            "uid": np.array(["u0"], dtype=object),
        },
    )


def old_scorer(url):
    """The whole-batch pass's scorer for an old launch naming verl's old naive manager and a sandbox
    (the legacy keys, translated by config_keys)."""
    from verl.workers.reward_manager import NaiveRewardManager

    config = verl_compose([f"reward_model.sandbox_fusion.url={url}", "reward_model.sandbox_fusion.max_concurrent=4"])
    return driver.Scorer(config, code_tokenizer(), old_class=NaiveRewardManager)


def test_the_driver_built_old_manager_scores_code_in_the_sandbox(shim, sandbox):
    url, received = sandbox
    scorer = old_scorer(url)
    reward_tensor, _ = driver.score(scorer, code_batch(scorer.tokenizer), validate=False)
    assert [request["code"].strip() for request in received] == [LOCAL_CODE]
    assert received[0]["language"] == "python" and received[0]["memory_limit_MB"] == 1024
    assert reward_tensor.sum().item() == 1.0  # the sandbox's verdict (run here, the code prints 41)


def test_baseline_default_compute_score_alone_never_calls_the_sandbox(shim, sandbox):
    """What the driver-built manager got before: ``default_compute_score`` unbound, which runs the
    model's code in this process (``prime_code``) and never asks the configured sandbox."""
    from verl.utils.reward_score import default_compute_score

    url, received = sandbox
    scorer = old_scorer(url)
    manager = scorer.old_class(
        tokenizer=scorer.tokenizer, num_examine=0, compute_score=default_compute_score, reward_fn_key="data_source"
    )
    reward_tensor = manager(code_batch(scorer.tokenizer))
    assert received == []
    assert reward_tensor.sum().item() == 0.0  # run here: prints 41
    assert contract.compute_score(scorer.config).keywords["sandbox_fusion_url"] == url
