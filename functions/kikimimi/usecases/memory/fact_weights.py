"""The fact-ranking weights from the settings (shared by reflect, which keeps facts, and recall)."""

from __future__ import annotations

from kikimimi.domain.memory import ranking as fr
from kikimimi.usecases.deps import Deps


def weights(deps: Deps) -> fr.Weights:
    """Keyword against vector weight, half-life, speaker boost and floor, as configured."""
    s = deps.settings
    return fr.Weights(s.fact_alpha, s.fact_half_life_days, s.fact_speaker_boost, s.fact_min_score)
