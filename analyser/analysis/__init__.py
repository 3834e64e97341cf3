"""Analyses built on the engine, by the question they answer.

* ``bidding``: beg or stand, give or run (what-ifs, strategy tables, match equity, the equilibrium,
  the bidding advice);
* ``play``: which card (card values, recorded games, the play tips, tournaments);
* this folder's own modules are what both share: the simulation runner (``runner``), statistics
  (``stats``), charts (``charts``), default sizes (``defaults``) and a claim's verdict (``claims``).

Imports point down: ``play`` may use ``bidding``, both use the shared base, the base uses neither.
What a player sees at the table (hint, record, play) is a layer above both.
"""

from ..game.errors import AllFoursError


class AnalysisError(AllFoursError):
    """Input an analysis cannot work from: a score, a situation, a rule set without two sides, a folder."""
