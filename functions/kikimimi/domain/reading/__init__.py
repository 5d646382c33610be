"""Reply structure (pure): which earlier message each message responds to."""

from kikimimi.domain.reading.reader import Link, LinkWeights, LinkWeightsInvalid, ReplyReader

__all__ = ["Link", "LinkWeights", "LinkWeightsInvalid", "ReplyReader"]
