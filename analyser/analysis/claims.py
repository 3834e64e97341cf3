"""A claim of published advice and its verdict: what the advice checks of both questions share.

The bidding claims (``bidding.advice``) and the play tips (``play.play_advice``) are each measured
with a 95% CI and judged the same way: supported when the CI lies wholly on the advice's side,
contradicted when it lies wholly on the other, inconclusive otherwise.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from .defaults import ADVICE_METHODS

SUPPORTED, CONTRADICTED, INCONCLUSIVE = "supported", "contradicted", "inconclusive"
BEST_RESPONSE = ADVICE_METHODS[0]


# ---- verdicts -----------------------------------------------------------------------------------


def verdict_within(ci: tuple[float, float], lo: float, hi: float) -> str:
    """Supported if the CI lies inside [lo, hi], contradicted if wholly outside it, else inconclusive.

    >>> verdict_within((0.72, 0.78), 0.7, 0.8), verdict_within((0.85, 0.9), 0.7, 0.8), verdict_within((0.6, 0.75), 0.7, 0.8)
    ('supported', 'contradicted', 'inconclusive')
    """
    a, b = ci
    if not (math.isfinite(a) and math.isfinite(b)):
        return INCONCLUSIVE
    if lo <= a and b <= hi:
        return SUPPORTED
    if b < lo or a > hi:
        return CONTRADICTED
    return INCONCLUSIVE


def verdict_positive(ci: tuple[float, float]) -> str:
    """Supported if the CI lies above 0, contradicted if below 0, else inconclusive.

    >>> verdict_positive((0.1, 0.3)), verdict_positive((-0.3, -0.1)), verdict_positive((-0.1, 0.2))
    ('supported', 'contradicted', 'inconclusive')
    """
    a, b = ci
    if math.isfinite(a) and a > 0:
        return SUPPORTED
    if math.isfinite(b) and b < 0:
        return CONTRADICTED
    return INCONCLUSIVE


def verdict_above(ci: tuple[float, float], level: float) -> str:
    """Supported if the CI lies above `level`, contradicted if below it, else inconclusive.

    >>> verdict_above((0.6, 0.9), 0.5), verdict_above((0.1, 0.4), 0.5), verdict_above((0.4, 0.6), 0.5)
    ('supported', 'contradicted', 'inconclusive')
    """
    return verdict_positive((ci[0] - level, ci[1] - level))


@dataclasses.dataclass
class Claim:
    id: str
    claim: str          # the advice, as it is tested
    source: str         # the document's words
    test: str
    estimate: float
    ci95: tuple[float, float]
    verdict: str
    n: int              # deals the estimate rests on
    unit: str
    details: dict[str, Any]

    @property
    def method(self) -> str:
        return str(self.details.get("method", BEST_RESPONSE))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "claim": self.claim, "test": self.test, "estimate": self.estimate,
                "ci95": list(self.ci95), "verdict": self.verdict, "n": self.n, "unit": self.unit,
                "source": self.source, **self.details}
