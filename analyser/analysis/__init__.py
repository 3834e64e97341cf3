"""Analyses built on the engine: decision what-ifs, match equity, their statistics and charts."""

from ..errors import AllFoursError


class AnalysisError(AllFoursError):
    """Input an analysis cannot work from: a score, a situation, a rule set without two sides, a folder."""
