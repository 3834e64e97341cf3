"""Default sizes of the analyses, in a module that imports nothing.

The command line reads these for its option defaults at start-up; importing the
analysis modules themselves (numba, pandas, matplotlib) waits until a command runs.
"""

ADVICE_DEALS = 500_000             # check-advice: paired decision deals per role
ADVICE_METHODS = ("best response", "equilibrium", "duplicated deals")
PLAY_ADVICE_DEALS = 100_000        # check-advice: duplicated deals per play tip (each played 4 ways, 6 with 3 players)
PLAY_ADVICE_MATCHES = 20_000       # check-advice: duplicated matches per play tip (as many ways)
EQUILIBRIUM_DEALS = 1_000_000      # equilibrium: decision deals, each played three ways
EQUILIBRIUM_RESAMPLES = 200        # equilibrium: bootstrap re-solves
EQUILIBRIUM_EXPLOIT_DEALS = 1_000_000  # equilibrium: at most these decision deals per simulated best-response round
EQUITY_DEALS_PER_CELL = 20_000     # equity: single deals sampled from every score
STRATEGY_DEALS = 1_000_000         # strategy: paired decision deals per round
STRATEGY_ROUNDS = 4                # strategy: best-response rounds at most
WHATIF_BATCH = 2000                # whatif: deals between stopping checks
WHATIF_MIN_DEALS = 2000
WHATIF_MAX_DEALS = 200_000
WHATIF_STOP_Z = 3.0
ANALYSE_WORLDS = 100               # analyse, whatif --log: worlds per card decision
ANALYSE_BID_DEALS = 4000           # analyse: paired deals per stand/beg or give/run decision
ANALYSE_MAX_CARDS = 52             # analyse, whatif --log: card decisions with more cards left are not analysed (52: none)
