# Already in the new form, but the legacy key was left behind on the same line.
python3 -m verl.trainer.main_ppo global_profiler.tool=torch_memory global_profiler.steps=[2,4] actor_rollout_ref.actor.profiler.enable=True actor_rollout_ref.actor.profiler.ranks=[0,1] actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=4
