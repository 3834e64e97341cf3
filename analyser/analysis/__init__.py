"""Analyses built on the engine: simulation runs, decision what-ifs, strategy tables, match equity,
tournaments, the decisions' vocabulary, their statistics and charts."""

from ..errors import AllFoursError


class AnalysisError(AllFoursError):
    """Input an analysis cannot work from: a score, a situation, a rule set without two sides, a folder."""
