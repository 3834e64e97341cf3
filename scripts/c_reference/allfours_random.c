/*
 * allfours_random.c: a plain C reference for the random figure of `allfours bench`.
 *
 * Written from the rule book (docs/rules.md, preset `trinidad`), not translated from
 * the engine. It does the work the engine's benchmark does for `random:beg=0`:
 *
 *   - 4 players, sides {0, 2} and {1, 3}; matches to 14: the first dealer of a match
 *     is cut at random, the deal passes to the next seat after every deal, scores carry,
 *     and a new match (new cut, scores from zero) starts once a side reaches 14;
 *   - every deal: shuffle (a partial Fisher-Yates of the 25 cards used, on a deck that
 *     stays a permutation from deal to deal), 6 cards to each player eldest first,
 *     the turn-up and its kick points to the dealer's side (A 1, six 2, J 3);
 *   - the eldest always stands (no begging, so no gift, no runs, no exhausted pack);
 *   - 6 tricks of uniformly random legal cards, permissive trumping: on a trump lead a
 *     player holding trump must play trump; on a non-trump lead a player holding the
 *     led suit follows or trumps (never a third suit), a player void in it plays any
 *     card; the highest trump wins the trick, else the highest card of the led suit;
 *     the winner leads the next trick;
 *   - then strictly High, Low, Jack (hang-jack: capturing the opponents' jack scores 3,
 *     the holder's own side capturing it scores 1), Game (10=10 A=4 K=3 Q=2 J=1; a tie
 *     scores nothing); points stop the moment a side reaches 14, kick included.
 *
 * Cards are suit*13+rank (rank 0 = two .. 12 = ace), hands are uint64 bitmasks, and the
 * random stream is xoshiro256** seeded through splitmix64. Where the compiler targets
 * BMI2 (-march=native on x86-64) the n-th legal card is one PDEP instruction, unless
 * compiled with -DNO_PDEP (AMD Zen 1/2, where PDEP is microcoded and slow).
 *
 * One difference of bookkeeping, not of play: the engine's random policy draws a random
 * number for the eldest's stand/beg decision even with beg=0; the rule book's "the
 * eldest always stands" needs no draw, so none is made here.
 *
 * Build:  cc -O3 -march=native -std=c99 -o allfours_random allfours_random.c
 * Usage:  allfours_random speed DEALS SEED        play DEALS deals, print deals/s (JSON)
 *         allfours_random speed-time SECONDS SEED play batches of 2000 deals until SECONDS
 *                                                 have passed (as `allfours bench` does)
 *         allfours_random totals DEALS SEED       point totals per category (JSON)
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__BMI2__) && !defined(NO_PDEP)
#include <immintrin.h>
#define USE_PDEP 1
#else
#define USE_PDEP 0
#endif

#define PLAYERS 4
#define HAND 6
#define TARGET 14
#define BATCH 2000 /* deals between two looks at the clock in speed-time mode */

enum { KICK, HIGH, LOW, JACK, HANG_JACK, GAME, NCAT };
static const char *CAT_NAMES[NCAT] = {"kick", "high", "low", "jack", "hang-jack", "game"};

/* --- random stream ------------------------------------------------------------- */

typedef struct { uint64_t s[4]; } rng_t;

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next_u64(rng_t *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n) for small n: multiply-shift on the high 32 bits. */
static inline unsigned below(rng_t *r, unsigned n) {
    return (unsigned)(((next_u64(r) >> 32) * (uint64_t)n) >> 32);
}

/* --- cards ----------------------------------------------------------------------- */

#define SUIT_BITS 0x1FFFULL
#define RANK_SIX 4
#define RANK_JACK 9
#define RANK_ACE 12

static inline uint64_t suit_mask(int suit) { return SUIT_BITS << (13 * suit); }
static inline int popcount(uint64_t m) { return __builtin_popcountll(m); }

/* The n-th lowest card (0-based) of a mask. */
static inline int nth_card(uint64_t m, unsigned n) {
#if USE_PDEP
    return __builtin_ctzll(_pdep_u64(1ULL << n, m));
#else
    while (n--) m &= m - 1;
    return __builtin_ctzll(m);
#endif
}

static inline int random_card(rng_t *r, uint64_t legal) {
    return nth_card(legal, below(r, (unsigned)popcount(legal)));
}

static int kick_points(int card) {
    switch (card % 13) {
    case RANK_ACE: return 1;
    case RANK_SIX: return 2;
    case RANK_JACK: return 3;
    default: return 0;
    }
}

/* Masks of one rank in all four suits, for Game points. */
#define RANK_ALL(r) ((1ULL << (r)) | (1ULL << (13 + (r))) | (1ULL << (26 + (r))) | (1ULL << (39 + (r))))

static inline int game_points(uint64_t m) {
    return 10 * popcount(m & RANK_ALL(8)) + popcount(m & RANK_ALL(9)) + 2 * popcount(m & RANK_ALL(10))
         + 3 * popcount(m & RANK_ALL(11)) + 4 * popcount(m & RANK_ALL(12));
}

/* True if `card` takes the trick from `best`. */
static inline int beats(int card, int best, int led, int trump) {
    int suit = card / 13, best_suit = best / 13;
    if (suit == trump) return best_suit != trump || card > best;
    return best_suit != trump && suit == led && card > best;
}

/* --- one deal -------------------------------------------------------------------- */

typedef struct {
    rng_t rng;
    uint8_t deck[52];
    int scores[2];
    int pts[2][NCAT]; /* this deal's points, by side and category */
} game_t;

/* Score n for a side now; 1 if it has reached the target. */
static inline int award(game_t *g, int side, int n, int cat) {
    if (n <= 0) return 0;
    g->scores[side] += n;
    g->pts[side][cat] += n;
    return g->scores[side] >= TARGET;
}

static inline int draw(game_t *g, int pos) {
    int j = pos + (int)below(&g->rng, (unsigned)(52 - pos));
    uint8_t tmp = g->deck[pos];
    g->deck[pos] = g->deck[j];
    g->deck[j] = tmp;
    return g->deck[pos];
}

/* Play one deal with `dealer`; the side that reached the target, or -1. */
static int play_deal(game_t *g, int dealer) {
    uint64_t hands[PLAYERS], start[PLAYERS], captured[2] = {0, 0};
    int eldest = (dealer + 1) & 3, dside = dealer & 1;
    int pos = 0;
    memset(g->pts, 0, sizeof g->pts);

    for (int k = 0; k < PLAYERS; k++) {
        uint64_t h = 0;
        for (int c = 0; c < HAND; c++) h |= 1ULL << draw(g, pos++);
        hands[(eldest + k) & 3] = h;
    }
    int turnup = draw(g, pos++);
    if (award(g, dside, kick_points(turnup), KICK)) return dside;
    /* The eldest stands: the turn-up's suit is trump. */
    int trump = turnup / 13;
    uint64_t tmask = suit_mask(trump);
    uint64_t jack_bit = 1ULL << (trump * 13 + RANK_JACK);
    uint64_t in_play = 0;
    for (int s = 0; s < PLAYERS; s++) {
        start[s] = hands[s];
        in_play |= hands[s] & tmask;
    }

    int leader = eldest, jack_captor = -1;
    for (int t = 0; t < HAND; t++) {
        int seat = leader;
        int card = random_card(&g->rng, hands[seat]);
        hands[seat] &= ~(1ULL << card);
        uint64_t trick = 1ULL << card;
        int led = card / 13, best = card, best_seat = seat;
        uint64_t led_mask = suit_mask(led);
        for (int k = 1; k < PLAYERS; k++) {
            seat = (seat + 1) & 3;
            uint64_t h = hands[seat], legal;
            if (led == trump) {
                legal = h & tmask;
                if (!legal) legal = h;
            } else {
                uint64_t follow = h & led_mask;
                legal = follow ? (follow | (h & tmask)) : h;
            }
            card = random_card(&g->rng, legal);
            hands[seat] = h & ~(1ULL << card);
            trick |= 1ULL << card;
            if (beats(card, best, led, trump)) {
                best = card;
                best_seat = seat;
            }
        }
        captured[best_seat & 1] |= trick;
        if (trick & jack_bit) jack_captor = best_seat & 1;
        leader = best_seat;
    }

    /* Strictly High, Low, Jack, Game, stopping at the target. */
    if (in_play) {
        uint64_t high = 1ULL << (63 - __builtin_clzll(in_play));
        uint64_t low = in_play & (~in_play + 1);
        for (int s = 0; s < PLAYERS; s++)
            if ((start[s] & high) && award(g, s & 1, 1, HIGH)) return s & 1;
        for (int s = 0; s < PLAYERS; s++)
            if ((start[s] & low) && award(g, s & 1, 1, LOW)) return s & 1;
    }
    if (in_play & jack_bit) {
        int holder = -1;
        for (int s = 0; s < PLAYERS; s++)
            if (start[s] & jack_bit) holder = s & 1;
        if (holder != jack_captor) {
            if (award(g, jack_captor, 3, HANG_JACK)) return jack_captor;
        } else if (award(g, jack_captor, 1, JACK)) {
            return jack_captor;
        }
    }
    int g0 = game_points(captured[0]), g1 = game_points(captured[1]);
    if (g0 != g1) {
        int side = g0 > g1 ? 0 : 1;
        if (award(g, side, 1, GAME)) return side;
    }
    return -1;
}

/* --- matches and totals ------------------------------------------------------------ */

typedef struct {
    uint64_t deals, matches;
    uint64_t sum[2][NCAT]; /* [0] dealer's side, [1] the other side */
    uint64_t sq[2][NCAT];  /* sums of squares of the per-deal points, for standard errors */
} totals_t;

typedef struct {
    int dealer, new_match;
} match_t;

static void play_deals(game_t *g, match_t *m, totals_t *tot, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        if (m->new_match) {
            m->dealer = (int)below(&g->rng, PLAYERS);
            m->new_match = 0;
            g->scores[0] = g->scores[1] = 0;
        }
        int dealer = m->dealer;
        int winner = play_deal(g, dealer);
        if (winner >= 0) {
            m->new_match = 1;
            tot->matches++;
        } else {
            m->dealer = (dealer + 1) & 3;
        }
        int dside = dealer & 1;
        for (int c = 0; c < NCAT; c++) {
            uint64_t d = (uint64_t)g->pts[dside][c], o = (uint64_t)g->pts[dside ^ 1][c];
            tot->sum[0][c] += d;
            tot->sum[1][c] += o;
            tot->sq[0][c] += d * d;
            tot->sq[1][c] += o * o;
        }
        tot->deals++;
    }
}

static void init_game(game_t *g, match_t *m, uint64_t seed) {
    memset(g, 0, sizeof *g);
    for (int k = 0; k < 4; k++) g->rng.s[k] = splitmix64(&seed);
    for (int c = 0; c < 52; c++) g->deck[c] = (uint8_t)c;
    m->dealer = 0;
    m->new_match = 1;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_side(const char *name, const uint64_t v[NCAT]) {
    printf("\"%s\": {", name);
    for (int c = 0; c < NCAT; c++) printf("%s\"%s\": %llu", c ? ", " : "", CAT_NAMES[c], (unsigned long long)v[c]);
    printf("}");
}

static uint64_t checksum(const totals_t *t) {
    uint64_t x = t->matches;
    for (int c = 0; c < NCAT; c++) x = x * 31 + t->sum[0][c] * 7 + t->sum[1][c];
    return x;
}

static int usage(void) {
    fprintf(stderr, "usage: allfours_random speed DEALS SEED | speed-time SECONDS SEED | totals DEALS SEED\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc != 4) return usage();
    const char *mode = argv[1];
    uint64_t seed = strtoull(argv[3], NULL, 10);
    game_t g;
    match_t m;
    totals_t tot;
    memset(&tot, 0, sizeof tot);
    init_game(&g, &m, seed);

    if (strcmp(mode, "speed") == 0 || strcmp(mode, "speed-time") == 0) {
        double start = now(), seconds;
        if (mode[5] == '\0') {
            play_deals(&g, &m, &tot, strtoull(argv[2], NULL, 10));
        } else {
            double limit = strtod(argv[2], NULL);
            while (now() - start < limit) play_deals(&g, &m, &tot, BATCH);
        }
        seconds = now() - start;
        printf("{\"deals\": %llu, \"seconds\": %.6f, \"deals_per_second\": %.1f, \"pdep\": %s, \"checksum\": %llu}\n",
               (unsigned long long)tot.deals, seconds, (double)tot.deals / seconds, USE_PDEP ? "true" : "false",
               (unsigned long long)checksum(&tot));
        return 0;
    }
    if (strcmp(mode, "totals") == 0) {
        play_deals(&g, &m, &tot, strtoull(argv[2], NULL, 10));
        printf("{\"deals\": %llu, \"matches\": %llu, ", (unsigned long long)tot.deals,
               (unsigned long long)tot.matches);
        print_side("dealer", tot.sum[0]);
        printf(", ");
        print_side("other", tot.sum[1]);
        printf(", ");
        print_side("dealer_sq", tot.sq[0]);
        printf(", ");
        print_side("other_sq", tot.sq[1]);
        printf("}\n");
        return 0;
    }
    return usage();
}
