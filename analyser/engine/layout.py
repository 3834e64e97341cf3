"""Integer codes shared by the kernels and their Python wrappers.

Module-level ints are compile-time constants for numba, so these cost nothing.
"""

# Event rows: int64[4] = (type, a, b, c).  Hands and discards carry a card mask.
E_DEAL = 0       # () then `players` E_HAND rows
E_HAND = 1       # (seat, mask)
E_TURNUP = 2     # (card,)
E_STAND = 3      # (seat,)
E_BEG = 4        # (seat,)
E_GIVE = 5       # (seat,)
E_RUN = 6        # (seat,)
E_MORE = 7       # () then `players` E_HAND rows
E_REDEAL = 8     # (reason,) 0 exhausted, 1 bunched
E_BUNCH = 9      # (agreed,)
E_TRUMP = 10     # (suit,)
E_DISCARD = 11   # (seat, mask)
E_PLAY = 12      # (seat, card)
E_TRICK = 13     # (winner,)
E_POINTS = 14    # (side, n, why)
E_GAME_TOTALS = 15  # (side, card points) one row per side, right after the game decision

REDEAL_REASONS = ("exhausted", "bunched")

# Why a side scored, in the log's words.
W_KICK, W_GIFT, W_JACK_BONUS, W_HIGH, W_LOW, W_JACK, W_HANG_JACK, W_GAME = range(8)
WHY = ("kick", "gift", "jack-bonus", "high", "low", "jack", "hang-jack", "game")
N_WHY = 8

# Per-line facts a kernel reports (int64 array `info`).
I_EVENTS = 0       # event rows written
I_WINNER = 1       # side that reached the target, or -1
I_DEALS = 2        # deals in the line (1 + redeals)
I_RUNS = 3         # runs (more + turn-up), all deals of the line
I_EXHAUSTED = 4    # redeals after an exhausted pack
I_BUNCH_VOTES = 5
I_BUNCHED = 6
I_BEGS = 7
I_GIVES = 8
I_TRICKS = 9       # tricks played (0 if the match ended before play)
I_FIRST_KICK = 10  # points of the first turn-up's kick (to the dealer's side)
I_OVERFLOW = 11    # 1 if the event buffer was too small (events were cut)
I_PLAYED = 12      # 1 if the line reached trick play
I_FIRST_BEG = 13   # first decision of the line: 1 beg, 0 stand, -1 none
I_FIRST_GIVE = 14  # dealer's first answer: 1 give, 0 run, -1 none
N_INFO = 16

# Match state of simulate_lines (int64 array `mstate`, made by deal.new_match_state): lines
# carry it from one call to the next, so a match may go on across calls.
MS_DEALER = 0       # seat that deals the next line
MS_NEW_MATCH = 1    # 1: the next line starts a match (a cut for the dealer, scores from zero)
MS_SCORE = 2        # + side: the match score before the next line
N_MSTATE = 6
assert N_MSTATE == MS_SCORE + 4

# Per-line rows simulate_lines writes when it keeps events (int64 array `meta`, one row per line).
LM_DEALER = 0
LM_FIRST_EVENT = 1  # the line's first row in the event buffer
LM_END_EVENT = 2    # one past its last row
LM_WINNER = 3       # side that won the match in this line, or -1
LM_SCORE_BEFORE = 4  # + side: score before the line
LM_SCORE_AFTER = 8   # + side: score after it
LM_OVERFLOW = 12    # 1 if the line's events did not fit (I_OVERFLOW)
N_LINE_META = 13
assert LM_SCORE_AFTER == LM_SCORE_BEFORE + 4 and LM_OVERFLOW == LM_SCORE_AFTER + 4 and N_LINE_META == LM_OVERFLOW + 1

# Event row columns (int64[4] rows, see the E_* codes above).
EV_TYPE = 0
EV_A = 1
EV_B = 2
EV_C = 3
N_EV_COLS = 4

# Random streams: xoshiro256** states of RNG_WORDS uint64 words. A paired rollout
# (decisions.paired_rollout) keeps its streams in the rows of a uint64 array `streams`.
RNG_WORDS = 4
ST_DEAL_DECK = 0    # the card stream as the deal starts: every option starts from a copy
ST_DEAL_CHOICE = 1  # the choice stream as the deal starts
ST_LINE_DECK = 2    # the copy one option plays with
ST_LINE_CHOICE = 3
ST_JUMP = 4         # scratch of the 2**128 jump
N_STREAMS = 5
assert N_STREAMS == ST_JUMP + 1

# Play state: one position of trick play as an int64 array (engine/state.py moves it).
# Card masks are uint64 bit patterns stored as int64; "+ seat" / "+ side" fields have 4 slots.
# The cards a seat has played are PS_START & ~PS_HAND (state.played_by).
PS_HAND = 0         # + seat: cards held now
PS_START = 4        # + seat: cards held when play started (who held High, Low, the jack)
PS_TRICK_CARD = 8   # + seat: the seat's card in the trick being played, -1 if none yet
PS_CAPTURED = 12    # + side: cards won in tricks
PS_SCORE = 16       # + side: match score when play started (for players who look at it)
PS_VOIDS = 20       # + seat: suits (bit 1 << suit) the seat has shown it lacks
PS_TRUMP = 24
PS_TURNUP = 25      # the turn-up that fixed trump (seen by everyone)
PS_PLAYERS = 26
PS_DEALER = 27
PS_LEADER = 28      # seat that led the trick being played
PS_TO_PLAY = 29     # seat to play next
PS_LED = 30         # led suit, -1 when leading
PS_BEST_CARD = 31   # card winning the trick so far, -1 when leading
PS_BEST_SEAT = 32
PS_TOP_TRUMP = 33   # highest trump in this trick, -1 if none
PS_TRICK_MASK = 34  # cards in this trick
PS_TRICK_NO = 35    # tricks completed
PS_N_TRICKS = 36    # tricks in the deal
PS_PLAYED = 37      # cards of completed tricks
PS_JACK_CAPTOR = 38  # side that captured the jack of trump, -1
PS_IN_PLAY = 39     # trumps held when play started
PS_FORBID = 40      # 1: undertrumping forbidden (rules)
PS_VOID_TRUMP = 41  # 1: void_play = trump (rules)
# What the seats know is out of play, and what their plays showed they lack (for the worlds, search.py):
PS_TURNUPS = 42     # every card turned up in the deal played, the one that fixed trump included (seen by all)
PS_DISCARDS = 43    # + seat: the cards the seat discarded (seen by that seat only; out of play)
PS_LACKS = 47       # + seat: cards the seat has shown it does not hold (voids, and what the rules made it
#                     show: a must-trump it did not trump, a forbidden undertrump it made; state.step)
N_STATE = 51

# Policies, chosen per seat by an int kind and a float64 parameter row.
K_RANDOM = 0
K_HEURISTIC = 1
K_TUNED = 2        # the heuristic with beg/stand and give/run looked up by hand class (engine/tuned.py)
K_ORACLE = 3       # the open-hand solver's best card, seeing every hand (engine/search.py)
K_PIMC = 4         # perfect-information Monte Carlo: the best mean over sampled worlds (engine/search.py)
POLICY_KINDS = ("random", "heuristic", "tuned", "oracle", "pimc")
N_CLASS_SLOTS = 33  # hand class codes (evaluator.N_HAND_CLASSES)
T_BEG = 24                      # tuned: eldest's choice per hand class, 33 slots: 1 beg, 0 stand, -1 heuristic's rule
T_GIVE = T_BEG + N_CLASS_SLOTS  # tuned: dealer's choice per hand class, 33 slots: 1 give, 0 run, -1 heuristic's rule
# Search players, appended after the tables (engine/bounded.py): pimc's bounded search above the horizon.
X_HORIZON = T_GIVE + N_CLASS_SLOTS  # 90: cards in the hands at or below which a world is solved exactly
X_NODES = X_HORIZON + 1             # 91: above it, try an exact solve of a world within this many nodes (0: never)
# Rules of play (engine/rulesplayer.py; the policy spec rules:FILE): a decision list of at most RL_MAX rules read
# before the heuristic's card. RL_COUNT holds the count (0: no list, the heuristic's card), then RL_STRIDE slots a
# rule: the first test's feature (a playrules.PF_* index), op (OP_*) and value, the second test's (feature -1:
# none), the action class (a playrules.A_* index).
RL_COUNT = X_NODES + 1   # 92
RL_RULE = RL_COUNT + 1   # 93: the first rule's slots; rule i's at RL_RULE + i * RL_STRIDE
RL_STRIDE = 7
RL_MAX = 8
RT_FEATURE, RT_OP, RT_VALUE = 0, 1, 2   # + 0: the first test, + 3: the second
RT_ACTION = 6
OP_EQ, OP_GE, OP_LE = 0, 1, 2           # ==, >=, <=
RULE_OPS = ("==", ">=", "<=")
N_PARAMS = RL_RULE + RL_MAX * RL_STRIDE  # 149
# Random policy parameters (also the fallback probabilities of every policy).
P_BEG = 0          # probability the eldest begs
P_GIVE = 1         # probability the dealer gives one when begged
P_BUNCH = 2        # probability a player agrees to bunch

# Hand evaluator features (int64 array filled by evaluator.evaluate_hand).
F_TRUMPS = 0        # trumps held
F_HIGH_TRUMP = 1    # rank index (0 = 2 .. 12 = A) of the highest trump held, -1 if none
F_LOW_TRUMP = 2     # rank index of the lowest trump held, -1 if none
F_TRUMP_JACK = 3    # 1 if the jack of trump is held
F_TRUMP_ACE = 4
F_TRUMP_TEN = 5
F_GAME_POINTS = 6   # card points for Game in the hand
F_SIDE_LEN = 7      # length of the longest non-trump suit
F_SIDE_TOP = 8      # rank index of that suit's top card, -1 if no side card
F_SIDE_TENS = 9     # tens held outside trump
F_CLASS = 10        # hand class code (evaluator.hand_class_code)
N_FEATURES = 11

# Heuristic policy parameters (indices >= 3; P_BEG/P_GIVE/P_BUNCH < 0 mean "use the rules").
H_BEG_TRUMPS = 3    # eldest begs when trump strength is below this
H_GIVE_TRUMPS = 4   # dealer gives one when trump strength is at least this
H_BUNCH_TRUMPS = 5  # agree to bunch when trump strength is below this
H_WIN_POINTS = 6    # Game points that make an opponent's trick worth taking
H_JACK_VALUE = 7    # what the jack of trump in a trick counts as, in Game points
H_DRAW_TRUMPS = 8   # lead a small trump to draw the jack holding this many below it
H_SMEAR = 9         # 1: throw Game points onto a partner's secure trick
H_SCORE_AWARE = 10  # 1: the dealer never gives a gift that ends the match
H_CASH_JACK = 11    # 1: lead the jack (then ten) of trump once no unseen trump can beat it
H_PULL = 12         # 1: lead a boss trump while the jack or ten of trump is unseen
# Slots 13..19: the heuristic's play-advice switches (engine/tips.py).
# Each: -1 as the player plays without it, 1 the tip forced on, 0 forced off (engine/tips.py).
H_TIP_CAPTURE_JACK = 13     # lead a small trump while the jack is out ("capturar la Jota")
H_TIP_EARLY_TRUMPS = 14     # the same in tricks 1 and 2 only ("salga con triunfos bajos en las bazas 1 y 2")
H_TIP_TRUMP_ACE = 15        # trump an opponent's side ace ("Triunfe el As a toda costa")
H_TIP_KEEP_GAME = 16        # keep side aces and tens for the last tricks ("Guarde sus mejores cartas")
H_TIP_RUN_STRONG_SIDE = 17  # the dealer runs when strong in a side suit ("rechace la peticion y corra las cartas")
# Search players (oracle, pimc): slots 20..23; their bidding is the heuristic's (slots 0..12).
X_WORLDS = 20       # pimc: worlds sampled per card decision
X_MAX_CARDS = 21    # search only when at most this many cards are left in the hands; the heuristic's card before
X_DOUBT = 22        # pimc: a world's weight for each opponent's card the heuristic would not have played there (1: none)
X_TRIES = 23        # pimc, inferring: worlds drawn at most per world kept
