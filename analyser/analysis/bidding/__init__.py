"""Bidding: should the eldest beg, should the dealer give one or run the cards?

The paired what-if of one decision (``whatif``), the strategy tables by hand class (``strategy``),
match equity (``equity``), the equilibrium of the two bids with its exploitability
(``equilibrium``, ``exploit``) and the published bidding advice checked (``advice``).
Nothing here imports from ``analysis.play``.
"""
