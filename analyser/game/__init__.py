"""The game's facts at the edge: the cards, the rule sets and their words, the one error class."""
