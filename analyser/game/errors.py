"""One base class for every error a user's input can cause.

The command line catches `AllFoursError` at its edge and prints it as one line;
anything else (a real bug) keeps its traceback.
"""

from __future__ import annotations


class AllFoursError(ValueError):
    """Bad input: a card, a rule, a policy, a log, a score, a folder, an option."""
