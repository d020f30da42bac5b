#!/usr/bin/env bash
# A job script fed to sbatch by a tab-stripping here-document.
sbatch <<-EOF
	#!/bin/bash
	python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=2
	EOF
# expected: 5: in a here-document
