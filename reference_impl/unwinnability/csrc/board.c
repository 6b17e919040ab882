/* Bits, the compiled tables, positions and legal move generation.
 * Part of _native.c, one compilation unit that includes this file after the parts it
 * uses. */

typedef uint64_t u64;

#include "layout.h" /* the packed arrays' slots, generated from layout.py */

#define MAXRAYS 64
#define MAXMOVES 320
#define MAXPLY 1200
#define MIN_SHARE 1000
#define FLAG_NORMAL 0
#define FLAG_CASTLE 1
#define FLAG_EP 2
#define FLAG_DOUBLE 3
#define NONE (-1)

typedef struct { int df, dr; } Dir;

typedef struct {
    int ntypes, royal, pawn, en_passant;
    int npromo, promo[MAXPROMO];
    int castling, rook_type, empty_king_path, empty_rook_path;
    int safe_from, safe_path, safe_to, rook_removed;
    int nsides, side_king[MAXSIDES], side_kto[MAXSIDES], side_rto[MAXSIDES];
    int push_delta[2];
    u64 rights_lost_from; /* castling.rights_lost.by: a move from these squares loses the right there */
    int rights_lost_by_king;
    u64 leaps[MAXT][2][64];
    u64 leaps_to[MAXT][2][64];
    int has_leaps[MAXT][2];
    int ndir[MAXT][2];
    Dir dirs[MAXT][2][MAXDIR];
    /* reverse riders: for colour c, directions d such that some type of c rides d */
    int nrev[2];
    Dir rev[2][MAXT * MAXDIR];
    unsigned rev_types[2][MAXT * MAXDIR];
    /* every distinct rider direction, with its ray from each square: the squares a step
     * at a time along it, in order of increasing index when ``ascending`` */
    int nrays;
    Dir ray_dir[MAXRAYS];
    int ray_ascending[MAXRAYS];
    u64 ray[MAXRAYS][64];
    int ray_shift[MAXRAYS];  /* one step along the ray for a whole set of squares: */
    u64 ray_source[MAXRAYS]; /* (set & source) shifted left by shift (right if negative) */
    int dir_ray[MAXT][2][MAXDIR]; /* the ray of each piece direction */
    int rev_ray[2][MAXT * MAXDIR];  /* the ray of each reverse direction */
    u64 pawn_push[2][64], pawn_double[2][64], pawn_cap[2][64], pawn_cap_from[2][64];
    u64 promo_rank[2];
    u64 zobrist[2][MAXT][64], zobrist_turn, zobrist_castle[64], zobrist_ep[64];
    u64 id; /* a digest of the packed tables: memoised static results belong to one move layer */
    int dir_back_ray[MAXT][2][MAXDIR]; /* the ray of each piece direction reversed */
    u64 rev_lines[2][64]; /* the squares of every reverse ray of a colour from each square */
    /* each type's leaps as whole-board shifts, where its table is one (the same steps
     * from every square, as far as the board goes): leap_shift[t][c][i] squares on, from
     * the squares of leap_source[t][c][i]; nleap_shifts -1 where the table is not */
    int nleap_shifts[MAXT][2];
    int leap_shift[MAXT][2][16];
    u64 leap_source[MAXT][2][16];
    int ray_reach[MAXT][2]; /* squares each type attacks from d4 on an empty board, by its rays */
    int reach[MAXT][2];     /* the same by its leaps and rays together */
} Tables;

typedef struct {
    u64 bb[2][MAXT];
    u64 occ[2];
    u64 all;
    signed char mailbox[64];
    int turn;
    u64 castling;
    int ep;
    u64 key;
} Pos;

typedef struct {
    int move, captured, ep;
    u64 castling, key;
} Undo;

/* ---------------------------------------------------------------- bits */

static inline int lsb(u64 b) { return __builtin_ctzll(b); }
static inline int popcount(u64 b) { return __builtin_popcountll(b); }
static inline int file_of(int sq) { return sq & 7; }
static inline int rank_of(int sq) { return sq >> 3; }
static inline int square_step(int sq, Dir d) {
    int f = file_of(sq) + d.df, r = rank_of(sq) + d.dr;
    return (f < 0 || f > 7 || r < 0 || r > 7) ? NONE : r * 8 + f;
}
/* The king's distance between two squares, by table (filled when tables are loaded). */
static unsigned char king_distance[64][64];
static inline int distance(int a, int b) { return king_distance[a][b]; }
static void fill_king_distance(void) {
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            int df = abs(file_of(a) - file_of(b)), dr = abs(rank_of(a) - rank_of(b));
            king_distance[a][b] = (unsigned char)(df > dr ? df : dr);
        }
}

/* ---------------------------------------------------------------- tables */

static u64 splitmix(u64 *state) {
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The index of direction ``d``'s ray, made on first use; -1 if there are too many. */
static int ray_of(Tables *T, Dir d) {
    for (int k = 0; k < T->nrays; k++)
        if (T->ray_dir[k].df == d.df && T->ray_dir[k].dr == d.dr) return k;
    if (T->nrays == MAXRAYS || (d.df == 0 && d.dr == 0)) return -1;
    int k = T->nrays++;
    T->ray_dir[k] = d;
    T->ray_ascending[k] = d.dr > 0 || (d.dr == 0 && d.df > 0);
    T->ray_shift[k] = d.dr * 8 + d.df;
    T->ray_source[k] = 0;
    for (int sq = 0; sq < 64; sq++)
        if (square_step(sq, d) != NONE) T->ray_source[k] |= 1ULL << sq;
    for (int sq = 0; sq < 64; sq++) {
        u64 r = 0;
        for (int s = square_step(sq, d); s != NONE; s = square_step(s, d)) r |= 1ULL << s;
        T->ray[k][sq] = r;
    }
    return k;
}

/* The first occupied square along ray ``k`` from ``sq`` (NONE if the ray is empty). */
static inline int first_on_ray(const Tables *T, int k, int sq, u64 occ) {
    u64 b = T->ray[k][sq] & occ;
    if (!b) return NONE;
    return T->ray_ascending[k] ? lsb(b) : 63 - __builtin_clzll(b);
}

/* Type ``t``'s leaps as shifts (see Tables), if its table is made of the same steps
 * from every square; else nleap_shifts -1. */
static void leap_shifts(Tables *T, int t, int c) {
    Dir steps[16];
    int n = 0;
    T->nleap_shifts[t][c] = -1;
    for (int sq = 0; sq < 64; sq++)
        for (u64 b = T->leaps[t][c][sq]; b; b &= b - 1) {
            Dir d = {file_of(lsb(b)) - file_of(sq), rank_of(lsb(b)) - rank_of(sq)};
            int known = 0;
            for (int i = 0; i < n && !known; i++) known = steps[i].df == d.df && steps[i].dr == d.dr;
            if (known) continue;
            if (n == 16) return;
            steps[n++] = d;
        }
    for (int i = 0; i < n; i++) {
        T->leap_shift[t][c][i] = steps[i].dr * 8 + steps[i].df;
        T->leap_source[t][c][i] = 0;
        for (int sq = 0; sq < 64; sq++)
            if (square_step(sq, steps[i]) != NONE) T->leap_source[t][c][i] |= 1ULL << sq;
    }
    for (int sq = 0; sq < 64; sq++) { /* the shifts give the table exactly, or are not used */
        u64 b = 0;
        for (int i = 0; i < n; i++)
            if (T->leap_source[t][c][i] >> sq & 1) b |= 1ULL << square_step(sq, steps[i]);
        if (b != T->leaps[t][c][sq]) return;
    }
    T->nleap_shifts[t][c] = n;
}

static int load_tables(Tables *T, const u64 *data, Py_ssize_t n) {
    if (n < HEAD_SIZE || data[HEAD_VERSION] != TABLES_VERSION) return 0;
    if (!king_distance[0][63]) fill_king_distance();
    memset(T, 0, sizeof(*T));
    T->ntypes = (int)data[HEAD_NTYPES];
    T->royal = (int)data[HEAD_ROYAL];
    T->pawn = (int)(int64_t)data[HEAD_PAWN];
    T->en_passant = (int)data[HEAD_EN_PASSANT];
    T->npromo = (int)data[HEAD_NPROMO];
    if (T->ntypes < 1 || T->ntypes > MAXT || T->npromo > MAXPROMO) return 0;
    for (int i = 0; i < MAXPROMO; i++) T->promo[i] = (int)data[HEAD_PROMO + i];
    T->castling = (int)data[HEAD_CASTLING];
    T->rook_type = (int)data[HEAD_ROOK_TYPE];
    T->empty_king_path = (int)data[HEAD_EMPTY_KING_PATH];
    T->empty_rook_path = (int)data[HEAD_EMPTY_ROOK_PATH];
    T->safe_from = (int)data[HEAD_SAFE_KING_FROM];
    T->safe_path = (int)data[HEAD_SAFE_KING_PATH];
    T->safe_to = (int)data[HEAD_SAFE_KING_TO];
    T->rook_removed = (int)data[HEAD_ROOK_REMOVED];
    T->nsides = (int)data[HEAD_NSIDES];
    if (T->nsides > MAXSIDES) return 0;
    for (int s = 0; s < MAXSIDES; s++) {
        T->side_king[s] = (int)data[HEAD_SIDES + SIDE_SIZE * s + SIDE_KING_SIDE];
        T->side_kto[s] = (int)data[HEAD_SIDES + SIDE_SIZE * s + SIDE_KING_TO_FILE];
        T->side_rto[s] = (int)data[HEAD_SIDES + SIDE_SIZE * s + SIDE_ROOK_TO_FILE];
    }
    for (int c = 0; c < 2; c++) T->push_delta[c] = (int)(int64_t)data[HEAD_PUSH_DELTA + c];
    T->rights_lost_from = data[HEAD_RIGHTS_LOST_FROM];
    T->rights_lost_by_king = (int)data[HEAD_RIGHTS_LOST_BY_KING];
    u64 id = 0x243F6A8885A308D3ULL;
    for (Py_ssize_t i = 0; i < n; i++) id = (id ^ data[i]) * 0x100000001B3ULL + (id >> 29);
    T->id = id;
    /* then a PIECE record per type and colour, a PAWN record per colour */
    if (n != HEAD_SIZE + (Py_ssize_t)T->ntypes * 2 * PIECE_SIZE + 2 * PAWN_SIZE) return 0;
    Py_ssize_t at = HEAD_SIZE;
    for (int t = 0; t < T->ntypes; t++)
        for (int c = 0; c < 2; c++) {
            for (int sq = 0; sq < 64; sq++) {
                T->leaps[t][c][sq] = data[at + PIECE_LEAPS + sq];
                if (data[at + PIECE_LEAPS + sq]) T->has_leaps[t][c] = 1;
            }
            T->ndir[t][c] = (int)data[at + PIECE_NDIRS];
            if (T->ndir[t][c] > MAXDIR) return 0;
            for (int i = 0; i < MAXDIR; i++) {
                T->dirs[t][c][i].df = (int)(int64_t)data[at + PIECE_DIRS + DIR_SIZE * i + DIR_DF];
                T->dirs[t][c][i].dr = (int)(int64_t)data[at + PIECE_DIRS + DIR_SIZE * i + DIR_DR];
            }
            at += PIECE_SIZE;
        }
    for (int c = 0; c < 2; c++) {
        for (int sq = 0; sq < 64; sq++) {
            T->pawn_push[c][sq] = data[at + PAWN_PUSH + sq];
            T->pawn_double[c][sq] = data[at + PAWN_DOUBLE + sq];
            T->pawn_cap[c][sq] = data[at + PAWN_CAPTURES + sq];
        }
        T->promo_rank[c] = data[at + PAWN_PROMOTION_RANKS];
        at += PAWN_SIZE;
    }
    /* reverse tables: who attacks a square */
    for (int t = 0; t < T->ntypes; t++)
        for (int c = 0; c < 2; c++)
            for (int from = 0; from < 64; from++) {
                u64 b = T->leaps[t][c][from];
                while (b) { int to = lsb(b); b &= b - 1; T->leaps_to[t][c][to] |= 1ULL << from; }
            }
    for (int c = 0; c < 2; c++)
        for (int from = 0; from < 64; from++) {
            u64 b = T->pawn_cap[c][from];
            while (b) { int to = lsb(b); b &= b - 1; T->pawn_cap_from[c][to] |= 1ULL << from; }
        }
    for (int c = 0; c < 2; c++) {
        T->nrev[c] = 0;
        for (int t = 0; t < T->ntypes; t++)
            for (int i = 0; i < T->ndir[t][c]; i++) {
                Dir d = T->dirs[t][c][i];
                int k;
                for (k = 0; k < T->nrev[c]; k++)
                    if (T->rev[c][k].df == -d.df && T->rev[c][k].dr == -d.dr) break;
                if (k == T->nrev[c]) {
                    T->rev[c][k].df = -d.df;
                    T->rev[c][k].dr = -d.dr;
                    T->rev_types[c][k] = 0;
                    T->nrev[c]++;
                }
                T->rev_types[c][k] |= 1u << t;
            }
    }
    for (int t = 0; t < T->ntypes; t++)
        for (int c = 0; c < 2; c++)
            for (int i = 0; i < T->ndir[t][c]; i++)
                if ((T->dir_ray[t][c][i] = ray_of(T, T->dirs[t][c][i])) < 0) return 0;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < T->nrev[c]; k++)
            if ((T->rev_ray[c][k] = ray_of(T, T->rev[c][k])) < 0) return 0;
    for (int c = 0; c < 2; c++)
        for (int sq = 0; sq < 64; sq++)
            for (int k = 0; k < T->nrev[c]; k++) T->rev_lines[c][sq] |= T->ray[T->rev_ray[c][k]][sq];
    for (int t = 0; t < T->ntypes; t++)
        for (int c = 0; c < 2; c++)
            for (int i = 0; i < T->ndir[t][c]; i++)
                for (int k = 0; k < T->nrev[c]; k++)
                    if (T->rev[c][k].df == -T->dirs[t][c][i].df && T->rev[c][k].dr == -T->dirs[t][c][i].dr)
                        T->dir_back_ray[t][c][i] = T->rev_ray[c][k];
    for (int t = 0; t < T->ntypes; t++)
        for (int c = 0; c < 2; c++) leap_shifts(T, t, c);
    for (int t = 0; t < T->ntypes; t++)
        for (int c = 0; c < 2; c++) {
            u64 rays = 0;
            for (int i = 0; i < T->ndir[t][c]; i++) rays |= T->ray[T->dir_ray[t][c][i]][27];
            T->ray_reach[t][c] = popcount(rays);
            T->reach[t][c] = popcount(T->leaps[t][c][27]) + T->ray_reach[t][c];
        }
    u64 seed = 0x5EED5EEDULL;
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < MAXT; t++)
            for (int sq = 0; sq < 64; sq++) T->zobrist[c][t][sq] = splitmix(&seed);
    T->zobrist_turn = splitmix(&seed);
    for (int sq = 0; sq < 64; sq++) T->zobrist_castle[sq] = splitmix(&seed);
    for (int sq = 0; sq < 64; sq++) T->zobrist_ep[sq] = splitmix(&seed);
    return 1;
}

/* ---------------------------------------------------------------- position */

static inline void put(const Tables *T, Pos *P, int sq, int c, int t) {
    u64 bit = 1ULL << sq;
    P->bb[c][t] |= bit; P->occ[c] |= bit; P->all |= bit;
    P->mailbox[sq] = (signed char)(c << 4 | t);
    P->key ^= T->zobrist[c][t][sq];
}

static inline void take(const Tables *T, Pos *P, int sq) {
    int code = P->mailbox[sq], c = code >> 4, t = code & 15;
    u64 bit = 1ULL << sq;
    P->bb[c][t] ^= bit; P->occ[c] ^= bit; P->all ^= bit;
    P->mailbox[sq] = -1;
    P->key ^= T->zobrist[c][t][sq];
}

static u64 rider_attacks(const Tables *T, int t, int c, int sq, u64 occ) {
    u64 a = 0;
    for (int i = 0; i < T->ndir[t][c]; i++) {
        int k = T->dir_ray[t][c][i];
        int stop = first_on_ray(T, k, sq, occ);
        a |= stop == NONE ? T->ray[k][sq] : T->ray[k][sq] & ~T->ray[k][stop];
    }
    return a;
}

/* The squares from which a unit of type ``t`` (colour ``c``) attacks ``sq``, riders
 * stopped by ``occ``: where rider_attacks and the leaps from them hold ``sq``. */
static u64 attackers_of(const Tables *T, int t, int c, int sq, u64 occ) {
    u64 a = T->leaps_to[t][c][sq];
    for (int i = 0; i < T->ndir[t][c]; i++) {
        int k = T->dir_back_ray[t][c][i];
        int stop = first_on_ray(T, k, sq, occ);
        a |= stop == NONE ? T->ray[k][sq] : T->ray[k][sq] & ~T->ray[k][stop];
    }
    return a;
}

static inline u64 attacks(const Tables *T, int t, int c, int sq, u64 occ) {
    if (t == T->pawn) return T->pawn_cap[c][sq];
    return T->leaps[t][c][sq] | (T->ndir[t][c] ? rider_attacks(T, t, c, sq, occ) : 0);
}

/* Is ``sq`` attacked by colour ``by``, with ``occ`` as the blocking occupancy? */
static int attacked(const Tables *T, const Pos *P, int sq, int by, u64 occ) {
    if (T->pawn >= 0 && (T->pawn_cap_from[by][sq] & P->bb[by][T->pawn] & occ)) return 1;
    for (int t = 0; t < T->ntypes; t++)
        if (t != T->pawn && T->has_leaps[t][by] && (T->leaps_to[t][by][sq] & P->bb[by][t] & occ)) return 1;
    for (int k = 0; k < T->nrev[by]; k++) {
        int s = first_on_ray(T, T->rev_ray[by][k], sq, occ);
        if (s == NONE) continue;
        int code = P->mailbox[s];
        if (code >= 0 && (code >> 4) == by && (T->rev_types[by][k] >> (code & 15) & 1)) return 1;
    }
    return 0;
}

static inline int king_square(const Tables *T, const Pos *P, int c) {
    u64 b = P->bb[c][T->royal];
    return b ? 63 - __builtin_clzll(b) : NONE;
}

static inline int in_check(const Tables *T, const Pos *P) {
    int k = king_square(T, P, P->turn);
    return k != NONE && attacked(T, P, k, P->turn ^ 1, P->all);
}

static u64 ep_key(const Tables *T, const Pos *P) {
    /* the e.p. square counts for identity only where a pawn could take there */
    if (P->ep < 0 || T->pawn < 0) return 0;
    return (T->pawn_cap_from[P->turn][P->ep] & P->bb[P->turn][T->pawn]) ? T->zobrist_ep[P->ep] : 0;
}

static u64 full_key(const Tables *T, const Pos *P) {
    u64 k = 0;
    for (int sq = 0; sq < 64; sq++)
        if (P->mailbox[sq] >= 0) k ^= T->zobrist[P->mailbox[sq] >> 4][P->mailbox[sq] & 15][sq];
    return k;
}

static inline u64 identity(const Tables *T, const Pos *P) {
    u64 k = P->key ^ (P->turn ? T->zobrist_turn : 0) ^ ep_key(T, P);
    u64 c = P->castling;
    while (c) { k ^= T->zobrist_castle[lsb(c)]; c &= c - 1; }
    return k;
}

static const u64 HOME_RANK[2] = {0xFFULL, 0xFFULL << 56};

static int castling_side(const Tables *T, int king_side) {
    for (int s = 0; s < T->nsides; s++)
        if (T->side_king[s] == king_side) return s;
    return NONE;
}

static void make(const Tables *T, Pos *P, int m, Undo *u) {
    int from = m & 63, to = m >> 6 & 63, promo = m >> 12 & 15, flag = m >> 16;
    int c = P->turn;
    int t = P->mailbox[from] & 15;
    u->move = m;
    u->captured = flag == FLAG_CASTLE ? -1 : P->mailbox[to];
    u->castling = P->castling;
    u->ep = P->ep;
    u->key = P->key;
    int back = from & ~7;
    if (flag == FLAG_CASTLE) {
        int s = castling_side(T, to > from);
        take(T, P, from);
        take(T, P, to);
        put(T, P, back + T->side_kto[s], c, t);
        put(T, P, back + T->side_rto[s], c, T->rook_type);
        P->castling &= ~HOME_RANK[c];
    } else {
        if (u->captured >= 0) take(T, P, to);
        take(T, P, from);
        put(T, P, to, c, promo ? promo - 1 : t);
        if (flag == FLAG_EP) take(T, P, to + T->push_delta[c ^ 1]);
        if (t == T->royal && T->rights_lost_by_king) P->castling &= ~HOME_RANK[c];
        u64 lost_to = u->captured >= 0 ? ~0ULL : T->rights_lost_from; /* a captured rook always loses it */
        P->castling &= ~((1ULL << from & T->rights_lost_from) | (1ULL << to & lost_to));
    }
    P->ep = flag == FLAG_DOUBLE ? to - T->push_delta[c] : -1;
    P->turn = c ^ 1;
}

static void unmake(const Tables *T, Pos *P, const Undo *u) {
    int m = u->move;
    int from = m & 63, to = m >> 6 & 63, promo = m >> 12 & 15, flag = m >> 16;
    int c = P->turn ^ 1;
    P->turn = c;
    if (flag == FLAG_CASTLE) {
        int back = from & ~7;
        int s = castling_side(T, to > from);
        take(T, P, back + T->side_kto[s]);
        take(T, P, back + T->side_rto[s]);
        put(T, P, from, c, T->royal);
        put(T, P, to, c, T->rook_type);
    } else {
        int t = P->mailbox[to] & 15;
        take(T, P, to);
        put(T, P, from, c, promo ? T->pawn : t);
        if (u->captured >= 0) put(T, P, to, u->captured >> 4, u->captured & 15);
        if (flag == FLAG_EP) put(T, P, to + T->push_delta[c ^ 1], c ^ 1, T->pawn);
    }
    P->castling = u->castling;
    P->ep = u->ep;
    P->key = u->key;
}

/* ---------------------------------------------------------------- move generation */

static inline u64 span(int a, int b) {
    int lo = a < b ? a : b, hi = a < b ? b : a;
    return hi > lo ? (((1ULL << hi) - 1) & ~((2ULL << lo) - 1)) : 0;
}

static int castling_moves(const Tables *T, const Pos *P, int *out, int n) {
    if (!T->castling) return n;
    int c = P->turn, king = king_square(T, P, c);
    u64 rights = P->castling & P->occ[c] & P->bb[c][T->rook_type];
    if (king == NONE || !rights) return n;
    if (T->safe_from && attacked(T, P, king, c ^ 1, P->all)) return n;
    int back = king & ~7;
    while (rights) {
        int rook = lsb(rights); rights &= rights - 1;
        if ((rook & ~7) != back) continue;
        int s = castling_side(T, rook > king);
        if (s == NONE) continue;
        int kto = back + T->side_kto[s], rto = back + T->side_rto[s];
        u64 others = P->all & ~(1ULL << king) & ~(1ULL << rook);
        u64 empty = 0;
        if (T->empty_king_path) empty |= span(king, kto) | 1ULL << kto;
        if (T->empty_rook_path) empty |= span(rook, rto) | 1ULL << rto;
        if (others & empty) continue;
        u64 lifted = T->rook_removed ? others : others | 1ULL << rook;
        u64 safe = 0;
        if (T->safe_path) safe |= span(king, kto);
        if (T->safe_to) safe |= 1ULL << kto;
        if (T->safe_from) safe |= 1ULL << king;
        int bad = 0;
        while (safe && !bad) { int sq = lsb(safe); safe &= safe - 1; bad = attacked(T, P, sq, c ^ 1, lifted); }
        if (bad) continue;
        /* never into check: the king on kto with the rook on rto */
        Pos after = *P;
        Undo u;
        make(T, &after, king | rook << 6 | FLAG_CASTLE << 16, &u);
        if (attacked(T, &after, kto, c ^ 1, after.all)) continue;
        out[n++] = king | rook << 6 | FLAG_CASTLE << 16;
    }
    return n;
}

/* Pseudo-legal moves (castling already legal); returns the count. */
static int pseudo_moves(const Tables *T, const Pos *P, int *out) {
    int n = 0, c = P->turn;
    u64 own = P->occ[c], enemy = P->occ[c ^ 1], occ = P->all;
    for (int t = 0; t < T->ntypes; t++) {
        u64 pieces = P->bb[c][t];
        while (pieces) {
            int sq = lsb(pieces); pieces &= pieces - 1;
            if (t == T->pawn) {
                u64 push = T->pawn_push[c][sq] & ~occ;
                u64 targets = push | (T->pawn_cap[c][sq] & enemy);
                u64 dbl = push ? (T->pawn_double[c][sq] & ~occ) : 0;
                while (targets) {
                    int to = lsb(targets); targets &= targets - 1;
                    if (T->promo_rank[c] >> to & 1) {
                        for (int i = 0; i < T->npromo; i++) out[n++] = sq | to << 6 | (T->promo[i] + 1) << 12;
                    } else out[n++] = sq | to << 6;
                }
                if (dbl) out[n++] = sq | lsb(dbl) << 6 | FLAG_DOUBLE << 16;
                if (P->ep >= 0 && T->en_passant && (T->pawn_cap[c][sq] >> P->ep & 1)) {
                    int victim = P->ep + T->push_delta[c ^ 1];
                    if (victim >= 0 && victim < 64 && P->mailbox[victim] == ((c ^ 1) << 4 | T->pawn))
                        out[n++] = sq | P->ep << 6 | FLAG_EP << 16;
                }
            } else {
                u64 targets = attacks(T, t, c, sq, occ) & ~own;
                while (targets) { int to = lsb(targets); targets &= targets - 1; out[n++] = sq | to << 6; }
            }
        }
    }
    return castling_moves(T, P, out, n);
}

/* Own units that alone stand between colour ``c``'s king and an enemy rider riding
 * toward it: only they can uncover a check by moving. */
static u64 pinned(const Tables *T, const Pos *P, int c, int king) {
    u64 result = 0;
    int by = c ^ 1;
    u64 riders = 0; /* none of the other side's riders on a line from the king: no pin */
    for (int t = 0; t < T->ntypes; t++)
        if (T->ndir[t][by]) riders |= P->bb[by][t];
    if (!(riders & T->rev_lines[by][king])) return 0;
    for (int k = 0; k < T->nrev[by]; k++) {
        int ray = T->rev_ray[by][k];
        int first = first_on_ray(T, ray, king, P->all);
        if (first == NONE || (P->mailbox[first] >> 4) != c) continue;
        int second = first_on_ray(T, ray, first, P->all);
        if (second == NONE) continue;
        int code = P->mailbox[second];
        if ((code >> 4) == by && (T->rev_types[by][k] >> (code & 15) & 1)) result |= 1ULL << first;
    }
    return result;
}

/* Enemy units of ``by`` attacking ``sq`` by a leap or a pawn's capture: attacks no
 * occupancy can block. */
static inline u64 leap_attackers(const Tables *T, const Pos *P, int sq, int by) {
    u64 a = T->pawn >= 0 ? T->pawn_cap_from[by][sq] & P->bb[by][T->pawn] : 0;
    for (int t = 0; t < T->ntypes; t++)
        if (t != T->pawn && T->has_leaps[t][by]) a |= T->leaps_to[t][by][sq] & P->bb[by][t];
    return a;
}

/* Does a rider of ``by`` attack ``sq`` through ``occ``, a unit on a square of ``gone``
 * (taken, or replaced by the mover's own) not counting? */
static inline int ray_attacked(const Tables *T, const Pos *P, int sq, int by, u64 occ, u64 gone) {
    for (int k = 0; k < T->nrev[by]; k++) {
        int s = first_on_ray(T, T->rev_ray[by][k], sq, occ);
        if (s == NONE || (gone >> s & 1)) continue;
        int code = P->mailbox[s];
        if (code >= 0 && (code >> 4) == by && (T->rev_types[by][k] >> (code & 15) & 1)) return 1;
    }
    return 0;
}

/* Every square colour ``by`` attacks, its riders stopped by ``occ``. */
static inline u64 attacked_squares(const Tables *T, const Pos *P, int by, u64 occ) {
    u64 a = 0;
    for (int t = 0; t < T->ntypes; t++)
        for (u64 b = P->bb[by][t]; b; b &= b - 1) a |= attacks(T, t, by, lsb(b), occ);
    return a;
}

/* Would the move ``m`` (neither castling nor en passant) leave colour ``c``'s only king,
 * on ``king``, attacked? What make, attacked and unmake would say, without making it.
 * The king moving: its arrival square is attacked after the move exactly when it is in
 * ``danger``, the squares the other side attacks with the king lifted off the board (a
 * unit on the arrival square, taken, attacks other squares only; the square the king
 * leaves blocks nothing). Any other unit leaves on the king exactly the leap and pawn
 * attacks ``leapers`` already on it, less a unit it takes, and the rider attacks through
 * the occupancy after the move. */
static inline int exposes_king(const Tables *T, const Pos *P, int m, int c, int king, u64 leapers, u64 danger) {
    int from = m & 63, to = m >> 6 & 63;
    u64 to_bit = 1ULL << to;
    if (from == king) return (int)(danger >> to & 1);
    if (leapers & ~to_bit) return 1;
    return ray_attacked(T, P, king, c ^ 1, (P->all & ~(1ULL << from)) | to_bit, to_bit);
}

/* legal_moves_upto where make and attacked decide: the pseudo-legal moves, those that
 * may expose a king made and its square tested (en passant, several royal units). */
static int legal_moves_tested(const Tables *T, Pos *P, int *out, int limit) {
    int pseudo[MAXMOVES];
    int n = pseudo_moves(T, P, pseudo), k = 0, c = P->turn;
    int own_king = king_square(T, P, c);
    u64 must_test = ~0ULL;
    if (own_king != NONE && !attacked(T, P, own_king, c ^ 1, P->all))
        must_test = pinned(T, P, c, own_king) | 1ULL << own_king;
    for (int i = 0; i < n && k < limit; i++) {
        int m = pseudo[i];
        if (m >> 16 == FLAG_CASTLE) { out[k++] = m; continue; }
        if (!(must_test >> (m & 63) & 1) && m >> 16 != FLAG_EP) { out[k++] = m; continue; }
        Undo u;
        make(T, P, m, &u);
        int king = king_square(T, P, c);
        int ok = king == NONE || !attacked(T, P, king, c ^ 1, P->all);
        unmake(T, P, &u);
        if (ok) out[k++] = m;
    }
    return k;
}

/* Is the en passant capture ``m`` legal (made, the king's square tested)? */
static int en_passant_legal(const Tables *T, Pos *P, int m) {
    int c = P->turn;
    Undo u;
    make(T, P, m, &u);
    int king = king_square(T, P, c);
    int ok = king == NONE || !attacked(T, P, king, c ^ 1, P->all);
    unmake(T, P, &u);
    return ok;
}

/* The first ``limit`` legal moves of the units on ``units`` (castling too when
 * ``castles``), in pseudo_moves' order. With one king of the side (not of the pawn's
 * type) they are generated unit by unit: out of check, a unit that is neither the king
 * nor pinned may play every pseudo-legal move but en passant (two squares empty), the
 * king every one to a square out of ``danger`` (exposes_king); a pinned unit's moves,
 * and in check every move but the king's, are tested by exposes_king; en passant is
 * made and tested. Otherwise legal_moves_tested, for every unit. */
static inline int legal_moves_of(const Tables *T, Pos *P, int *out, int limit, u64 units, int castles) {
    int c = P->turn;
    int own_king = king_square(T, P, c);
    if (own_king == NONE || T->royal == T->pawn || (P->bb[c][T->royal] & (P->bb[c][T->royal] - 1)))
        return legal_moves_tested(T, P, out, limit);
    u64 danger = attacked_squares(T, P, c ^ 1, P->all & ~(1ULL << own_king));
    int check = (int)(danger >> own_king & 1);
    u64 leapers = check ? leap_attackers(T, P, own_king, c ^ 1) : 0;
    u64 tested = check ? ~(1ULL << own_king) : pinned(T, P, c, own_king);
    u64 own = P->occ[c], enemy = P->occ[c ^ 1], occ = P->all;
    int k = 0;
#define EMIT(move)                                                                                   \
    do {                                                                                             \
        int m_ = (move);                                                                             \
        if (!test || !exposes_king(T, P, m_, c, own_king, leapers, danger)) {                        \
            out[k++] = m_;                                                                           \
            if (k >= limit) return k;                                                                \
        }                                                                                            \
    } while (0)
    for (int t = 0; t < T->ntypes; t++) {
        for (u64 pieces = P->bb[c][t] & units; pieces; pieces &= pieces - 1) {
            int sq = lsb(pieces), test = (int)(tested >> sq & 1);
            if (t == T->pawn) {
                u64 push = T->pawn_push[c][sq] & ~occ;
                u64 targets = push | (T->pawn_cap[c][sq] & enemy);
                u64 dbl = push ? (T->pawn_double[c][sq] & ~occ) : 0;
                while (targets) {
                    int to = lsb(targets); targets &= targets - 1;
                    if (T->promo_rank[c] >> to & 1) {
                        for (int i = 0; i < T->npromo; i++) EMIT(sq | to << 6 | (T->promo[i] + 1) << 12);
                    } else EMIT(sq | to << 6);
                }
                if (dbl) EMIT(sq | lsb(dbl) << 6 | FLAG_DOUBLE << 16);
                if (P->ep >= 0 && T->en_passant && (T->pawn_cap[c][sq] >> P->ep & 1)) {
                    int victim = P->ep + T->push_delta[c ^ 1];
                    int m = sq | P->ep << 6 | FLAG_EP << 16;
                    if (victim >= 0 && victim < 64 && P->mailbox[victim] == ((c ^ 1) << 4 | T->pawn) &&
                        en_passant_legal(T, P, m)) {
                        out[k++] = m;
                        if (k >= limit) return k;
                    }
                }
            } else {
                u64 targets = attacks(T, t, c, sq, occ) & ~own;
                if (sq == own_king) {
                    targets &= ~danger;
                    test = 0;
                }
                while (targets) { int to = lsb(targets); targets &= targets - 1; EMIT(sq | to << 6); }
            }
        }
    }
#undef EMIT
    if (T->castling && castles) {
        int castled[MAXMOVES];
        int n = castling_moves(T, P, castled, 0);
        for (int i = 0; i < n && k < limit; i++) out[k++] = castled[i];
    }
    return k;
}

/* The first ``limit`` legal moves (all of them with MAXMOVES), in pseudo_moves' order. */
static inline int legal_moves_upto(const Tables *T, Pos *P, int *out, int limit) {
    return legal_moves_of(T, P, out, limit, ~0ULL, 1);
}

/* Is ``m`` one of the legal moves (legal_moves' list holds it)? Only the moves of the
 * unit on its square are generated (castling's where it castles). */
static int is_legal_move(const Tables *T, Pos *P, int m) {
    int moves[MAXMOVES];
    int castle = m >> 16 == FLAG_CASTLE;
    int n = legal_moves_of(T, P, moves, MAXMOVES, castle ? 0 : 1ULL << (m & 63), castle);
    for (int i = 0; i < n; i++)
        if (moves[i] == m) return 1;
    return 0;
}

/* Every legal move. */
static int legal_moves(const Tables *T, Pos *P, int *out) { return legal_moves_upto(T, P, out, MAXMOVES); }

static u64 perft(const Tables *T, Pos *P, int depth) {
    int moves[MAXMOVES];
    int n = legal_moves(T, P, moves);
    if (depth <= 1) return depth == 1 ? (u64)n : 1;
    u64 total = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        make(T, P, moves[i], &u);
        total += perft(T, P, depth - 1);
        unmake(T, P, &u);
    }
    return total;
}
