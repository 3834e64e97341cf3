"""allfours: a Monte Carlo strategy analyser for the card game All Fours."""

__version__ = "0.1.0"
