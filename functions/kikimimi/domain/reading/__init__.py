"""Reply structure (pure): which earlier message each message responds to; which questions are answered."""

from kikimimi.domain.reading.answers import Answer, answers
from kikimimi.domain.reading.reader import Link, LinkWeights, LinkWeightsInvalid, ReplyReader

__all__ = ["Answer", "Link", "LinkWeights", "LinkWeightsInvalid", "ReplyReader", "answers"]
