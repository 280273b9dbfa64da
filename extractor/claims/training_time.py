"""Whether a time is how long training took ("a lab can train its 20B assistant in 7 hours", "trainable within
1-3 days", "Training time: 4.5 h"): such a time takes the rules' `training_time_metric` (GOLD.md's `latency`; rules: `training_words` of
claims.yaml)."""
from __future__ import annotations

from extractor.claims.cues import NEAR, ClauseCues, Cue, gap, near

TRAINING_AFTER = 5  # characters from a time to a training word after it: "3 hours to train", "2 days of training"
TRAINING_VERB = 25  # characters from a training word to the generic time verb it is the subject of ("took")


def training_time(clauses: ClauseCues, cues: list[Cue], start: int, end: int, header_cues=()) -> bool:
    """A time whose clause says it is how long training took: a training word in the clause (or in the table's
    headers) with no other metric word nearer the figure, but one glued to it ("training time", "time to
    train", "training takes")."""
    if any(c.label == "training" for c in header_cues):
        return not any(c.label.startswith("metric:") and c.label != "metric:latency" for c in header_cues)
    training = clauses.clause_cue(cues, start, end, "training", NEAR)
    if training is None or (training.start >= end and training.start - end > TRAINING_AFTER):
        return False       # after the figure only right by it ("3 hours to train"), not "after distillation"
    reach = gap(training, start, end)
    return not any(c.label.startswith("metric:") and gap(c, start, end) < reach
                   and not (0 <= c.start - training.end <= 1 or 0 <= training.start - c.end <= 4
                            # the verb of training as the subject: "fine-tuning the adapter took 40 minutes"
                            or (c.label == "metric:latency" and 0 <= c.start - training.end <= TRAINING_VERB
                                and c.end <= start))
                   and clauses.same_clause(cues, *sorted((c.end, start))) for c in near(cues, start - reach, end + reach))
