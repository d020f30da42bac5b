"""A made-up renamed key: ``trainer.old_total_steps`` is now ``trainer.total_training_steps``, and
``trainer.obsolete_flag`` is gone."""

import re

from verl_compat.migrate_contract import Delete, Refusal, Rename, Rule

OLD, NEW, GONE = "trainer.old_total_steps", "trainer.total_training_steps", "trainer.obsolete_flag"


class RenamedTotalSteps(Rule):
    """trainer.old_total_steps is trainer.total_training_steps; trainer.obsolete_flag is gone."""

    name = "renamed_key"
    keys = (OLD, NEW, GONE)
    mentions = ("old_total_steps",)
    yaml_setting = re.compile(r"\bold_total_steps[ \t]*:")
    text_setting = re.compile(r"trainer\.old_total_steps\s*=")

    def concerns(self, settings):
        return OLD in settings

    def edits(self, settings, options):
        if not settings[OLD].known:
            raise Refusal(settings[OLD].lines, f"{OLD} comes from the shell: migrate it by hand")
        if NEW in settings and settings[NEW].value != settings[OLD].value:
            raise Refusal(settings[OLD].lines + settings[NEW].lines, f"{OLD} and {NEW} differ: keep one")
        edits = [Rename(OLD, NEW) if NEW not in settings else Delete(OLD)]
        return edits + [Delete(GONE)] * (GONE in settings)


RULES = (RenamedTotalSteps(),)
