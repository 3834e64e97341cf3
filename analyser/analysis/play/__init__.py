"""Card play: which card, and how well were the cards played?

The value of each card at a decision over sampled or exact worlds (``cardvalues``), the
decisions of a recorded game (``logcuts``) and their analysis (``analyse``, its HTML page
``analyse_html``), the play tips checked (``play_advice``) and duplicated-deal matches between
players (``tournament``). It may use ``analysis.bidding`` (match equity for the win chance, the
bid what-if for a recorded game's bids); bidding never imports from here.
"""
