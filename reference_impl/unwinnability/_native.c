/*
 * The helpmate search's hot loop, compiled: a move generator over the ruleset's
 * compiled tables (passed in from reference_impl.core.tables, nothing here names a
 * piece) and a goal-directed cooperative search for a checkmate by one side.
 *
 * Nothing this module says is taken on trust by the interpreter: a mating line it
 * returns is replayed move by move by reference_impl.core.board before it is reported,
 * and its perft counts are checked against the interpreter's in the tests.
 *
 * Moves are packed as in reference_impl.core.movegen:
 *   from | to << 6 | promotion << 12 | flag << 16   (promotion = piece type + 1)
 * Castling is king-takes-own-rook (flag 1); en passant flag 2; double step flag 3.
 *
 * Table layout (an array of unsigned 64-bit integers, see native.py: pack_tables):
 *   [0] version  [1] ntypes  [2] royal  [3] pawn (or 2^64-1)  [4] en_passant
 *   [5] npromo   [6..13] promotion types
 *   [14] castling present  [15] rook type  [16] empty king path  [17] empty rook path
 *   [18] safe king_from [19] safe king_path [20] safe king_to [21] rook removed
 *   [22] nsides  [23..25] side 0: king side, king_to file, rook_to file  [26..28] side 1
 *   [29] push delta white  [30] push delta black (two's complement)
 *   then per type, per colour: 64 leap bitboards, ndirs, 16 pairs (df, dr)
 *   then per colour: 64 push, 64 double, 64 capture bitboards, promotion rank mask
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

typedef uint64_t u64;

#define VERSION 2
#define MAXT 16
#define MAXDIR 16
#define MAXRAYS 64
#define MAXMOVES 320
#define MAXPLY 1200
#define HEADER 33
#define MIN_SHARE 1000
#define FLAG_NORMAL 0
#define FLAG_CASTLE 1
#define FLAG_EP 2
#define FLAG_DOUBLE 3
#define NONE (-1)

typedef struct { int df, dr; } Dir;

typedef struct {
    int ntypes, royal, pawn, en_passant;
    int npromo, promo[8];
    int castling, rook_type, empty_king_path, empty_rook_path;
    int safe_from, safe_path, safe_to, rook_removed;
    int nsides, side_king[2], side_kto[2], side_rto[2];
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
static inline int distance(int a, int b) {
    int df = abs(file_of(a) - file_of(b)), dr = abs(rank_of(a) - rank_of(b));
    return df > dr ? df : dr;
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

static int load_tables(Tables *T, const u64 *data, Py_ssize_t n) {
    if (n < HEADER || data[0] != VERSION) return 0;
    memset(T, 0, sizeof(*T));
    T->ntypes = (int)data[1];
    T->royal = (int)data[2];
    T->pawn = (int)(int64_t)data[3];
    T->en_passant = (int)data[4];
    T->npromo = (int)data[5];
    if (T->ntypes < 1 || T->ntypes > MAXT || T->npromo > 8) return 0;
    for (int i = 0; i < 8; i++) T->promo[i] = (int)data[6 + i];
    T->castling = (int)data[14];
    T->rook_type = (int)data[15];
    T->empty_king_path = (int)data[16];
    T->empty_rook_path = (int)data[17];
    T->safe_from = (int)data[18];
    T->safe_path = (int)data[19];
    T->safe_to = (int)data[20];
    T->rook_removed = (int)data[21];
    T->nsides = (int)data[22];
    if (T->nsides > 2) return 0;
    for (int s = 0; s < 2; s++) {
        T->side_king[s] = (int)data[23 + 3 * s];
        T->side_kto[s] = (int)data[24 + 3 * s];
        T->side_rto[s] = (int)data[25 + 3 * s];
    }
    T->push_delta[0] = (int)(int64_t)data[29];
    T->push_delta[1] = (int)(int64_t)data[30];
    T->rights_lost_from = data[31];
    T->rights_lost_by_king = (int)data[32];
    u64 id = 0x243F6A8885A308D3ULL;
    for (Py_ssize_t i = 0; i < n; i++) id = (id ^ data[i]) * 0x100000001B3ULL + (id >> 29);
    T->id = id;
    Py_ssize_t at = HEADER;
    Py_ssize_t need = HEADER + (Py_ssize_t)T->ntypes * 2 * (64 + 1 + 2 * MAXDIR) + 2 * (3 * 64 + 1);
    if (n != need) return 0;
    for (int t = 0; t < T->ntypes; t++)
        for (int c = 0; c < 2; c++) {
            for (int sq = 0; sq < 64; sq++) {
                T->leaps[t][c][sq] = data[at + sq];
                if (data[at + sq]) T->has_leaps[t][c] = 1;
            }
            at += 64;
            T->ndir[t][c] = (int)data[at++];
            if (T->ndir[t][c] > MAXDIR) return 0;
            for (int i = 0; i < MAXDIR; i++) {
                T->dirs[t][c][i].df = (int)(int64_t)data[at + 2 * i];
                T->dirs[t][c][i].dr = (int)(int64_t)data[at + 2 * i + 1];
            }
            at += 2 * MAXDIR;
        }
    for (int c = 0; c < 2; c++) {
        memcpy(T->pawn_push[c], data + at, 64 * sizeof(u64)); at += 64;
        memcpy(T->pawn_double[c], data + at, 64 * sizeof(u64)); at += 64;
        memcpy(T->pawn_cap[c], data + at, 64 * sizeof(u64)); at += 64;
        T->promo_rank[c] = data[at++];
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
    if (king == NONE) return n;
    if (T->safe_from && attacked(T, P, king, c ^ 1, P->all)) return n;
    u64 rights = P->castling & P->occ[c] & P->bb[c][T->rook_type];
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

/* Legal moves. Out of check, a move of a unit that is neither the king nor pinned, other
 * than en passant (two squares empty), cannot expose the king; every other move is made
 * and the king's square tested. */
static int legal_moves(const Tables *T, Pos *P, int *out) {
    int pseudo[MAXMOVES];
    int n = pseudo_moves(T, P, pseudo), k = 0, c = P->turn;
    int own_king = king_square(T, P, c);
    u64 must_test = ~0ULL;
    if (own_king != NONE && !attacked(T, P, own_king, c ^ 1, P->all))
        must_test = pinned(T, P, c, own_king) | 1ULL << own_king;
    for (int i = 0; i < n; i++) {
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

/* ---------------------------------------------------------------- helpmate search */

/*
 * A depth-limited depth-first search for a checkmate by ``winner`` with both sides
 * cooperating, by iterative deepening. The depth a move costs depends on whether it
 * makes progress toward a mating picture: the loser's king in a chosen corner, the
 * winner's king two squares in front of it, the loser's other units next to the corner
 * as self-blockers, the winner's pawns promoting and its units taking what is in the
 * way. Progress costs no depth, an ordinary move one ply (none right after progress),
 * a move that undoes the picture (a loser's capture) three. Lines of pure progress are
 * thus followed far beyond the nominal depth, which is how long helpmates are found.
 * Moves are tried progress first. A transposition table keeps, per position, the most
 * depth already searched below it.
 */

enum { NORMAL = 0, REWARD = 1, PUNISH = 2 };

typedef struct { u64 key; int left, generation; } TTEntry;

typedef struct {
    const Tables *T;
    Pos P;
    int winner;
    long long nodes, limit, local_nodes, local_limit;
    int max_depth, interrupted, aborted;
    int starved; /* the iteration ran out of its own share before its depth did */
    int line[MAXPLY];
    int ply;
    TTEntry *tt;
    u64 tt_mask;
    int generation; /* entries of earlier iterations do not count: no clearing needed */
    int corner, king_target;
    int blocker; /* the square beside the corner on its rank, for the loser's blocker */
    unsigned char blocker_distance[MAXT][64]; /* loser's leapers: moves to the blocker square */
    int need_loser_promotion;
    int horizon; /* beyond this many plies progress is no longer free */
    int pawn_mode; /* the loser's pawns all march on, to promote into blockers */
    int lone_minor; /* the winner has its king and one short-range or colour-bound unit */
    int waiting; /* the winner's free replies to progress only wait (see holds) */
    int signalled; /* a signal (Ctrl-C) arrived: stop and let Python raise it */
} Search;

/* Every 2^16 nodes, let Python's signal handlers run (Ctrl-C stops a long search). */
static inline int signalled(Search *S) {
    if ((S->nodes & 0xFFFF) == 0 && !S->signalled && PyErr_CheckSignals() < 0) S->signalled = 1;
    return S->signalled;
}

/* Squares whose file and rank add up odd (b1, a2, ...): the light squares. */
#define LIGHT_SQUARES 0x55AA55AA55AA55AAULL

/* Does colour ``c`` have a piece that moves like a bishop only (a colour-bound rider)? */
static int colour_bound(const Tables *T, int t, int c) {
    if (t == T->pawn || t == T->royal || T->has_leaps[t][c] || !T->ndir[t][c]) return 0;
    for (int i = 0; i < T->ndir[t][c]; i++) if ((T->dirs[t][c][i].df + T->dirs[t][c][i].dr) & 1) return 0;
    return 1;
}

/* Moves a pure leaper of type ``t`` needs from each square to ``target`` on an empty
 * board (255: never, or not a pure leaper). */
static void leaper_distances(const Tables *T, int t, int c, int target, unsigned char *distance) {
    memset(distance, 255, 64);
    if (!T->has_leaps[t][c] || T->ndir[t][c] || t == T->royal || t == T->pawn) return;
    distance[target] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int sq = 0; sq < 64; sq++)
            for (u64 b = T->leaps[t][c][sq]; b; b &= b - 1)
                if (distance[lsb(b)] != 255 && distance[lsb(b)] + 1 < distance[sq]) {
                    distance[sq] = (unsigned char)(distance[lsb(b)] + 1);
                    changed = 1;
                }
    }
}

/* The mating picture: a corner on the loser's side whose colour suits the winner's
 * colour-bound pieces (or, failing those, the loser's, which must then block). */
static void choose_targets(Search *S, int variant) {
    const Tables *T = S->T;
    const Pos *P = &S->P;
    int w = S->winner, l = w ^ 1;
    u64 light = LIGHT_SQUARES;
    int winner_bound_dark = 0, winner_bound_light = 0, loser_bound_light = 0, loser_bound_dark = 0;
    for (int t = 0; t < T->ntypes; t++) {
        if (colour_bound(T, t, w)) {
            if (P->bb[w][t] & ~light) winner_bound_dark = 1;
            if (P->bb[w][t] & light) winner_bound_light = 1;
        }
        if (colour_bound(T, t, l)) {
            if (P->bb[l][t] & ~light) loser_bound_dark = 1;
            if (P->bb[l][t] & light) loser_bound_light = 1;
        }
    }
    int dark = winner_bound_dark || (!winner_bound_light && loser_bound_light && !loser_bound_dark);
    if (variant & 1) dark = !dark;
    int rank = (w == 0) ? 7 : 0;           /* the loser's home side */
    if (variant & 2) rank = 7 - rank;
    /* h8 and a1 are dark; on rank 8 the dark corner is h, on rank 1 it is a */
    int file = (rank == 7) == dark ? 7 : 0;
    int toward = rank == 7 ? -1 : 1;
    S->corner = rank * 8 + file;
    S->king_target = (rank + 2 * toward) * 8 + file;
    S->blocker = rank * 8 + (file ? file - 1 : 1);
    for (int t = 0; t < T->ntypes; t++) leaper_distances(T, t, w ^ 1, S->blocker, S->blocker_distance[t]);
}

/* Squares a unit of type ``t`` attacks from d4 on an empty board: its reach. */
static inline int reach(const Tables *T, int t, int c) {
    return popcount(T->leaps[t][c][27]) + popcount(rider_attacks(T, t, c, 27, 0));
}

/* A unit that, next to the loser's king, would take or guard whatever mates it (a rook
 * or more): as the loser's, it spoils a lone minor's picture instead of blocking. */
static inline int strong(const Tables *T, int t, int c) {
    return t != T->royal && t != T->pawn && reach(T, t, c) >= 14;
}

static int lone_minor(const Search *S) {
    const Tables *T = S->T;
    const Pos *P = &S->P;
    int w = S->winner;
    if (popcount(P->occ[w]) != 2 || (T->pawn >= 0 && P->bb[w][T->pawn])) return 0;
    for (int t = 0; t < T->ntypes; t++)
        if (P->bb[w][t] && t != T->royal)
            return reach(T, t, w) <= 13; /* a short-range or colour-bound unit */
    return 0;
}

/* The winner's units besides its king are colour-bound riders, all on one square
 * colour: they never cover the corner's neighbours of the other colour. */
static int bound_to_one_colour(const Search *S, int c, u64 *squares) {
    const Tables *T = S->T;
    const Pos *P = &S->P;
    u64 on = 0;
    for (int t = 0; t < T->ntypes; t++) {
        if (t == T->royal || !P->bb[c][t]) continue;
        if (!colour_bound(T, t, c)) return 0;
        on |= P->bb[c][t];
    }
    *squares = on & LIGHT_SQUARES ? LIGHT_SQUARES : ~LIGHT_SQUARES;
    return on && !((on & LIGHT_SQUARES) && (on & ~LIGHT_SQUARES));
}

/* The winner needs blockers the loser has only pawns to make them from: against a lone
 * minor, when the loser's other units are too strong to serve (they would take or
 * guard); against colour-bound riders of one colour, when the loser has no leaper and
 * no colour-bound unit of the other colour. */
static int loser_needs_promotion(const Search *S) {
    const Tables *T = S->T;
    const Pos *P = &S->P;
    int l = S->winner ^ 1;
    u64 colour;
    if (T->pawn < 0 || !P->bb[l][T->pawn]) return 0;
    if (S->lone_minor) {
        for (int t = 0; t < T->ntypes; t++)
            if (P->bb[l][t] && t != T->royal && t != T->pawn && !strong(T, t, l)) return 0;
        return 1;
    }
    if (!bound_to_one_colour(S, S->winner, &colour)) return 0;
    for (int t = 0; t < T->ntypes; t++) {
        if (!P->bb[l][t] || t == T->royal || t == T->pawn) continue;
        if (T->has_leaps[t][l] || (colour_bound(T, t, l) && (P->bb[l][t] & ~colour))) return 0;
    }
    return 1;
}

/* Does a rider of type ``t`` on ``sq`` see the corner along an empty board? */
static inline int eyes(const Search *S, int t, int c, int sq) {
    const Tables *T = S->T;
    return (int)((attacks(T, t, c, sq, S->P.all & ~(1ULL << S->corner)) >> S->corner) & 1);
}

static int classify(Search *S, int m) {
    const Tables *T = S->T;
    Pos *P = &S->P;
    int from = m & 63, to = m >> 6 & 63, flag = m >> 16, promo = m >> 12 & 15;
    int t = P->mailbox[from] & 15;
    int capture = flag == FLAG_EP || (flag != FLAG_CASTLE && P->mailbox[to] >= 0);
    int w = S->winner;
    int closer = distance(to, S->corner) < distance(from, S->corner);
    if (P->turn == w) {
        if (promo) return REWARD;
        if (capture) {
            /* against a lone minor the loser's units are wanted as blockers, except those
             * strong enough to take or guard the mating square */
            int victim = flag == FLAG_EP ? T->pawn : P->mailbox[to] & 15;
            return !S->lone_minor || strong(T, victim, w ^ 1) ? REWARD : NORMAL;
        }
        if (t == T->pawn) {
            int rank = w == 0 ? rank_of(from) : 7 - rank_of(from);
            return rank >= 2 ? REWARD : NORMAL;
        }
        if (t == T->royal) return distance(to, S->king_target) < distance(from, S->king_target) ? REWARD : NORMAL;
        if (T->has_leaps[t][w]) return closer ? REWARD : NORMAL;
        if (S->lone_minor && eyes(S, t, w, to) && !eyes(S, t, w, from)) return REWARD;
        return NORMAL;
    }
    if (capture && !(t == T->royal && closer)) return PUNISH;
    if (t == T->royal) return closer ? REWARD : NORMAL;
    if (t == T->pawn) {
        /* pawns become blockers: by promoting (not to the strongest piece, which could
         * spoil the picture) or by walking up to the corner */
        if (promo) {
            int strong = popcount(rider_attacks(T, promo - 1, P->turn, 27, 0)) >= 14;
            return strong ? NORMAL : REWARD;
        }
        if (S->need_loser_promotion || (S->lone_minor && (closer || S->pawn_mode))) return REWARD;
        return NORMAL;
    }
    /* the loser's other units gather next to the corner, as self-blockers; against a
     * lone minor, a unit strong enough to spoil the picture is offered to the winner */
    if (S->lone_minor && strong(T, t, P->turn))
        return attacked(T, P, to, w, P->all & ~(1ULL << from)) ? REWARD : NORMAL;
    if (S->need_loser_promotion && S->blocker_distance[t][from] != 255) /* a leaper: to the blocker's square */
        return S->blocker_distance[t][to] < S->blocker_distance[t][from] ? REWARD : NORMAL;
    if (closer && to != S->corner) return REWARD;
    return NORMAL;
}

/* May ``m`` be the free reply to progress? In waiting mode (against a lone minor) the
 * winner's free replies only wait: its king stays near its square and its minor keeps
 * eyeing the corner, so that free replies leaving the picture do not let the progress
 * lines branch without end. */
static int holds(Search *S, int m) {
    const Tables *T = S->T;
    const Pos *P = &S->P;
    if (!S->waiting || P->turn != S->winner) return 1;
    int from = m & 63, to = m >> 6 & 63, t = P->mailbox[from] & 15;
    if (t == T->royal) return distance(to, S->king_target) <= 2;
    if (T->has_leaps[t][S->winner]) return distance(to, S->corner) <= 3;
    return eyes(S, t, S->winner, to);
}

static int search(Search *S, int depth, int progressed) {
    const Tables *T = S->T;
    Pos *P = &S->P;
    int moves[MAXMOVES];
    int n = legal_moves(T, P, moves);
    if (n == 0) return P->turn != S->winner && in_check(T, P);
    if (depth >= S->max_depth || S->ply >= MAXPLY - 1) { S->interrupted = 1; return 0; }
    u64 key = identity(T, P);
    int left = S->max_depth - depth;
    TTEntry *e = &S->tt[key & S->tt_mask];
    if (e->key == key && e->generation == S->generation && e->left >= left) return 0;
    e->key = key;
    e->left = left;
    e->generation = S->generation;
    int kind[MAXMOVES], rank[MAXMOVES];
    int order[MAXMOVES];
    int k = 0;
    /* progress first (in waiting mode the kings' progress before the other units': a king
     * walking to its square is the spine of a mating picture), then the ordinary moves,
     * then the rest */
    for (int i = 0; i < n; i++) {
        kind[i] = classify(S, moves[i]);
        rank[i] = kind[i] == REWARD ? (S->waiting && (P->mailbox[moves[i] & 63] & 15) != T->royal)
                  : kind[i] == NORMAL ? 2 : 3;
    }
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < n; i++) if (rank[i] == r) order[k++] = i;
    for (int j = 0; j < n; j++) {
        int i = order[j];
        if (S->nodes >= S->limit || signalled(S)) { S->aborted = 1; return 0; }
        if (S->local_nodes >= S->local_limit) { S->interrupted = S->starved = 1; return 0; }
        int next = depth + 1;
        if (S->ply >= S->horizon) next = kind[i] == PUNISH ? depth + 3 : depth + 1;
        else if (kind[i] == REWARD) next = depth;
        else if (kind[i] == PUNISH) next = depth + 3;
        else if (progressed && holds(S, moves[i])) next = depth;
        Undo u;
        make(T, P, moves[i], &u);
        S->nodes++;
        S->local_nodes++;
        S->line[S->ply++] = moves[i];
        int found = search(S, next, kind[i] == REWARD && S->ply <= S->horizon);
        if (found) return 1;
        S->ply--;
        unmake(T, P, &u);
        if (S->aborted) return 0;
    }
    return 0;
}

/* ---------------------------------------------------------------- best-first search */

/*
 * The second strategy, for what the depth-first search leaves: a greedy best-first
 * search on a distance-to-mate estimate (the loser king's free squares, its distance
 * from the edge and a corner, the winner's units near it with the king kept two squares
 * off, the loser's units near it as blockers, the winner's pawns' way to promotion).
 * Nodes keep only (parent, move): a position is rebuilt by replaying its path.
 */

typedef struct { int parent, move, depth; } BFNode;
typedef struct { int priority, node; } HeapItem;

static void heap_push(HeapItem *heap, int *size, HeapItem item) {
    int i = (*size)++;
    while (i > 0) {
        int up = (i - 1) / 2;
        if (heap[up].priority <= item.priority) break;
        heap[i] = heap[up];
        i = up;
    }
    heap[i] = item;
}

static HeapItem heap_pop(HeapItem *heap, int *size) {
    HeapItem top = heap[0], last = heap[--(*size)];
    int i = 0;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= *size) break;
        if (child + 1 < *size && heap[child + 1].priority < heap[child].priority) child++;
        if (heap[child].priority >= last.priority) break;
        heap[i] = heap[child];
        i = child;
    }
    if (*size > 0) heap[i] = last;
    return top;
}

static int edge_distance(int sq) {
    int f = file_of(sq), r = rank_of(sq);
    int a = f < 7 - f ? f : 7 - f, b = r < 7 - r ? r : 7 - r;
    return a < b ? a : b;
}

static int corner_distance(int sq) {
    int f = file_of(sq), r = rank_of(sq);
    int a = f < 7 - f ? f : 7 - f, b = r < 7 - r ? r : 7 - r;
    return a > b ? a : b;
}

static int estimate(const Search *S) {
    const Tables *T = S->T;
    const Pos *P = &S->P;
    int w = S->winner, l = w ^ 1;
    int king = king_square(T, P, l);
    if (king == NONE) return 0;
    int score = 0;
    u64 steps = attacks(T, T->royal, l, king, P->all) & ~P->occ[l];
    while (steps) {
        int sq = lsb(steps); steps &= steps - 1;
        if (!attacked(T, P, sq, w, P->all)) score += 6;
    }
    score += 2 * edge_distance(king) + corner_distance(king);
    for (int t = 0; t < T->ntypes; t++) {
        u64 b = P->bb[w][t];
        while (b) {
            int sq = lsb(b); b &= b - 1;
            int d = distance(sq, king);
            if (t == T->royal) score += d > 2 ? d - 2 : 2 - d;
            else if (t == T->pawn) {
                int rank = w == 0 ? rank_of(sq) : 7 - rank_of(sq);
                score += 2 * (7 - rank);
            } else score += d;
        }
        b = t == T->royal || t == T->pawn ? 0 : P->bb[l][t];
        while (b) { int sq = lsb(b); b &= b - 1; score += distance(sq, king); }
    }
    return score;
}

static void replay(Search *S, const BFNode *nodes, int index, const Pos *root) {
    int path[MAXPLY], n = 0;
    while (index > 0 && n < MAXPLY) { path[n++] = nodes[index].move; index = nodes[index].parent; }
    S->P = *root;
    Undo u;
    for (int i = n - 1; i >= 0; i--) make(S->T, &S->P, path[i], &u);
    S->ply = 0;
    for (int i = n - 1; i >= 0; i--) S->line[S->ply++] = path[i];
}

/* Returns 1 with the line in S->line, 0 if the queue ran dry, -1 at the node limit. */
static int best_first(Search *S, long long budget) {
    const Tables *T = S->T;
    Pos root = S->P;
    long long cap = budget + 2;
    if (cap > 4000000) cap = 4000000;
    BFNode *nodes = malloc(sizeof(BFNode) * (size_t)cap);
    HeapItem *heap = malloc(sizeof(HeapItem) * (size_t)cap);
    size_t seen_size = 1;
    while (seen_size < (size_t)cap * 2) seen_size <<= 1;
    u64 *seen = calloc(seen_size, sizeof(u64));
    int result = -1;
    if (!nodes || !heap || !seen) goto done;
    int count = 1, size = 0;
    nodes[0].parent = -1; nodes[0].move = 0; nodes[0].depth = 0;
    heap_push(heap, &size, (HeapItem){0, 0});
    long long spent = 0;
    result = 0;
    while (size > 0) {
        HeapItem item = heap_pop(heap, &size);
        replay(S, nodes, item.node, &root);
        int moves[MAXMOVES];
        int n = legal_moves(T, &S->P, moves);
        for (int i = 0; i < n; i++) {
            if (spent >= budget || S->nodes >= S->limit || count >= cap || signalled(S)) { result = -1; goto done; }
            Undo u;
            make(T, &S->P, moves[i], &u);
            spent++;
            S->nodes++;
            u64 key = identity(T, &S->P) | 1;
            size_t slot = key & (seen_size - 1);
            while (seen[slot] && seen[slot] != key) slot = (slot + 1) & (seen_size - 1);
            if (!seen[slot]) {
                seen[slot] = key;
                int replies[MAXMOVES];
                if (S->P.turn != S->winner && legal_moves(T, &S->P, replies) == 0 && in_check(T, &S->P)) {
                    unmake(T, &S->P, &u);
                    nodes[count].parent = item.node; nodes[count].move = moves[i];
                    replay(S, nodes, count, &root);
                    result = 1;
                    goto done;
                }
                int depth = nodes[item.node].depth + 1;
                if (depth < MAXPLY - 2) {
                    nodes[count].parent = item.node; nodes[count].move = moves[i]; nodes[count].depth = depth;
                    heap_push(heap, &size, (HeapItem){10 * estimate(S) + 2 * depth, count});
                    count++;
                }
            }
            unmake(T, &S->P, &u);
        }
    }
done:
    if (result != 1) S->P = root;
    free(nodes); free(heap); free(seen);
    return result;
}

/* ---------------------------------------------------------------- Python glue */

static int parse_position(const Tables *T, Pos *P, Py_buffer *placement, int turn, unsigned long long castling, int ep) {
    if (placement->len != 64) return 0;
    memset(P, 0, sizeof(*P));
    const unsigned char *mb = placement->buf;
    for (int sq = 0; sq < 64; sq++) {
        P->mailbox[sq] = -1;
        if (mb[sq] != 0xFF) {
            int c = mb[sq] >> 4, t = mb[sq] & 15;
            if (c > 1 || t >= T->ntypes) return 0;
            put(T, P, sq, c, t);
        }
    }
    P->turn = turn & 1;
    P->castling = castling;
    P->ep = ep >= 0 && ep < 64 ? ep : -1;
    P->key = full_key(T, P);
    return 1;
}

/* The tables and the position every entry point receives, read into a new Tables
 * (freed by the caller) and ``P``; NULL with the Python exception set if malformed. */
static Tables *read_input(Py_buffer *tables, Py_buffer *placement, int turn, unsigned long long castling, int ep,
                          Pos *P) {
    Tables *T = malloc(sizeof(Tables));
    if (!T) {
        PyErr_NoMemory();
        return NULL;
    }
    if (tables->len % 8 || !load_tables(T, (const u64 *)tables->buf, tables->len / 8) ||
        !parse_position(T, P, placement, turn, castling, ep)) {
        free(T);
        PyErr_SetString(PyExc_ValueError, "malformed tables or position");
        return NULL;
    }
    return T;
}

/* ---------------------------------------------------------------- static stage */

/*
 * The static stage of reference_impl.unwinnability.static and .mate, compiled: frozen
 * units (a greatest fixed point), the region and reach of every other unit, and the
 * necessary conditions of a checkmate square checked against them. The Python modules
 * are its specification, with the reasoning that makes it a proof; a test runs both on
 * many positions and requires the same answers. Only ever "proven: cannot mate".
 */

#define ST_ROUNDS 64
#define ST_UNITS 64 /* one unit per occupied square at most */

typedef struct { int type, color, square, royal; u64 region, reach; } StUnit;

typedef struct {
    u64 frozen[2], guarded[2];
    u64 dead_ends[2]; /* squares whose entry by this colour's king leaves the other no move */
    int n;
    StUnit u[ST_UNITS];
} StAnalysis;

typedef struct {
    const Tables *T;
    const Pos *P;
    u64 ep;       /* the e.p. target as a bit, when a capture there may be legal now */
    u64 castling; /* squares of the rooks that still hold castling rights */
    int dead_ends; /* whether the kings' dead ends are computed */
} StInput;

static inline u64 st_attacks(const Tables *T, int t, int c, int sq, u64 occ) {
    return T->leaps[t][c][sq] | (T->ndir[t][c] ? rider_attacks(T, t, c, sq, occ) : 0);
}

/* Flood fills and pawn cones recur all through a walk (pieces wandering inside their
 * regions give the same questions): they are memoised on their exact inputs, for the
 * move layer the memo was filled for. */
#define MEMO_BITS 16
typedef struct { u64 key[4]; u64 region, reach; } MemoEntry;
static MemoEntry *memo_table;
static u64 memo_tables_id;

static void memo_bind(const Tables *T) {
    if (!memo_table) {
        memo_table = calloc((size_t)1 << MEMO_BITS, sizeof(MemoEntry));
        memo_tables_id = T->id;
    }
    if (memo_table && memo_tables_id != T->id) {
        memset(memo_table, 0, sizeof(MemoEntry) << MEMO_BITS);
        memo_tables_id = T->id;
    }
}

static inline MemoEntry *memo_slot(const u64 key[4]) {
    if (!memo_table) return NULL;
    u64 h = key[0] * 0x9E3779B97F4A7C15ULL;
    h = (h ^ key[1]) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ key[2]) * 0x94D049BB133111EBULL;
    h = (h ^ key[3]) * 0x9E3779B97F4A7C15ULL;
    return &memo_table[(h >> 40) & (((u64)1 << MEMO_BITS) - 1)];
}

static void st_flood_uncached(const Tables *T, int t, int c, u64 seeds, u64 walls, u64 allowed, u64 *region, u64 *reach);

/* The flood from a set of seeds is the union of the floods from each (the closure of a
 * union is the union of the closures), so it is memoised per seed square: those recur. */
static void st_flood(const Tables *T, int t, int c, u64 seeds, u64 walls, u64 allowed, u64 *region, u64 *reach) {
    u64 reg = 0, rch = 0;
    for (; seeds; seeds &= seeds - 1) {
        int sq = lsb(seeds);
        if (reg >> sq & 1) continue; /* already inside the union: its flood adds nothing */
        /* key[0]: a tag bit (an empty slot never matches), kind 0, type, colour, seed */
        u64 key[4] = {1ULL << 63 | (u64)t << 8 | (u64)c << 16 | (u64)sq << 24, walls, allowed, 0};
        MemoEntry *e = memo_slot(key);
        u64 r, a;
        if (e && !memcmp(e->key, key, sizeof(key))) {
            r = e->region;
            a = e->reach;
        } else {
            st_flood_uncached(T, t, c, 1ULL << sq, walls, allowed, &r, &a);
            if (e) { memcpy(e->key, key, sizeof(key)); e->region = r; e->reach = a; }
        }
        reg |= r;
        rch |= a;
    }
    *region = reg;
    *reach = rch;
}

static inline u64 ray_step(const Tables *T, int k, u64 set) {
    int shift = T->ray_shift[k];
    set &= T->ray_source[k];
    return shift >= 0 ? set << shift : set >> -shift;
}

/* Everything a unit of type ``t`` attacks from any square of ``from`` (riders stopped by
 * ``occ``): the union of st_attacks over the set, a step at a time along each ray. */
static u64 set_attacks(const Tables *T, int t, int c, u64 from, u64 occ) {
    u64 a = 0;
    if (T->has_leaps[t][c])
        for (u64 b = from; b; b &= b - 1) a |= T->leaps[t][c][lsb(b)];
    for (int i = 0; i < T->ndir[t][c]; i++) {
        int k = T->dir_ray[t][c][i];
        for (u64 g = ray_step(T, k, from); g; g = ray_step(T, k, g & ~occ)) a |= g;
    }
    return a;
}

static void st_flood_uncached(const Tables *T, int t, int c, u64 seeds, u64 walls, u64 allowed, u64 *region, u64 *reach) {
    u64 reg = seeds, rch = 0, frontier = seeds;
    while (frontier) {
        u64 a = set_attacks(T, t, c, frontier, walls);
        rch |= a;
        u64 fresh = a & allowed;
        frontier = fresh & ~reg;
        reg |= fresh;
    }
    *region = reg;
    *reach = rch;
}

static void st_pawn_cone(const Tables *T, int c, int sq, u64 walls, u64 prey, u64 block, u64 *region, u64 *reach) {
    u64 reg = 1ULL << sq, rch = 0, frontier = reg;
    while (frontier) {
        u64 fresh = 0;
        for (u64 b = frontier; b; b &= b - 1) {
            int s = lsb(b);
            if (T->promo_rank[c] >> s & 1) continue;
            u64 captures = T->pawn_cap[c][s];
            rch |= captures;
            u64 push = T->pawn_push[c][s] & ~walls & ~block;
            if (push) fresh |= push | (T->pawn_double[c][s] & ~walls & ~block);
            fresh |= captures & prey & ~walls;
        }
        frontier = fresh & ~reg;
        reg |= fresh;
    }
    *region = reg;
    *reach = rch;
}

static void st_castling_seeds(const StInput *in, int royal_sq, u64 *king, u64 *rook) {
    const Tables *T = in->T;
    int rank = royal_sq >> 3;
    *king = *rook = 0;
    if (!T->castling || !(in->castling & (0xFFULL << (8 * rank)))) return;
    for (int s = 0; s < T->nsides; s++) {
        *king |= 1ULL << (rank * 8 + T->side_kto[s]);
        *rook |= 1ULL << (rank * 8 + T->side_rto[s]);
    }
}

static u64 st_guarded_by(const StInput *in, int c, u64 frozen) {
    const Tables *T = in->T;
    u64 bb = 0;
    for (int t = 0; t < T->ntypes; t++)
        for (u64 b = in->P->bb[c][t] & frozen; b; b &= b - 1) {
            int sq = lsb(b);
            bb |= t == T->pawn ? T->pawn_cap[c][sq] : st_attacks(T, t, c, sq, ~0ULL);
        }
    return bb;
}

static void st_pawn_unit(const Tables *T, StUnit *u, u64 walls, u64 prey, u64 block) {
    /* key[0]: tag bit, kind 1, colour, square; ``block`` is at most one square */
    u64 key[4] = {1ULL << 63 | 1 | (u64)u->color << 16 | (u64)u->square << 24 | (u64)(block ? 64 + lsb(block) : 0) << 32,
                  walls, prey, 0};
    MemoEntry *e = memo_slot(key);
    if (e && !memcmp(e->key, key, sizeof(key))) {
        u->region = e->region;
        u->reach = e->reach;
        return;
    }
    u64 region, reach;
    st_pawn_cone(T, u->color, u->square, walls, prey, block, &region, &reach);
    u64 promotion = region & T->promo_rank[u->color];
    if (promotion)
        for (int i = 0; i < T->npromo; i++) {
            u64 r, a;
            st_flood(T, T->promo[i], u->color, promotion, walls, ~walls, &r, &a);
            region |= r;
            reach |= a;
        }
    u->region = region;
    u->reach = reach;
    if (e) { memcpy(e->key, key, sizeof(key)); e->region = region; e->reach = reach; }
}

/* Facing mobile pawns: partner[i] is the unit index of pawn i's partner, or -1. */
static void st_facing_pairs(const Tables *T, const StAnalysis *A, const int *pawns, int np, u64 walls, int *partner) {
    int ahead_of[ST_UNITS];
    for (int i = 0; i < np; i++) {
        ahead_of[i] = -1;
        const StUnit *u = &A->u[pawns[i]];
        int sq = u->square;
        for (;;) {
            u64 ahead = T->pawn_push[u->color][sq];
            if (!ahead) break;
            sq = 63 - __builtin_clzll(ahead);
            if (walls >> sq & 1) break;
            int other = -1;
            for (int j = 0; j < np; j++)
                if (A->u[pawns[j]].square == sq) other = j;
            if (other >= 0) {
                if (A->u[pawns[other]].color != u->color) ahead_of[i] = other;
                break;
            }
        }
    }
    for (int i = 0; i < np; i++) partner[i] = ahead_of[i] >= 0 && ahead_of[ahead_of[i]] == i ? ahead_of[i] : -1;
}

static void st_pawn_regions(const StInput *in, StAnalysis *A, const int *pawns, int np, u64 walls) {
    const Tables *T = in->T;
    int partner[ST_UNITS], anchored[ST_UNITS];
    st_facing_pairs(T, A, pawns, np, walls, partner);
    for (int i = 0; i < np; i++) anchored[i] = partner[i] >= 0;
    for (;;) {
        for (int i = 0; i < np; i++) {
            A->u[pawns[i]].region = 1ULL << A->u[pawns[i]].square;
            A->u[pawns[i]].reach = 0;
        }
        for (;;) {
            u64 stand[2] = {in->ep, in->ep};
            for (int i = 0; i < A->n; i++)
                if (!A->u[i].royal) stand[A->u[i].color] |= A->u[i].region;
            int changed = 0;
            for (int i = 0; i < np; i++) {
                StUnit *u = &A->u[pawns[i]];
                u64 before = u->region;
                u64 block = partner[i] >= 0 && anchored[partner[i]] ? 1ULL << A->u[pawns[partner[i]]].square : 0;
                st_pawn_unit(T, u, walls, stand[1 - u->color] | A->frozen[1 - u->color], block);
                changed |= u->region != before;
            }
            if (!changed) break;
        }
        /* anchored pawns whose cone shows they may leave the file or be taken */
        u64 take[2] = {0, 0};
        for (int i = 0; i < A->n; i++) {
            const StUnit *u = &A->u[i];
            take[u->color] |= u->royal ? u->reach & ~A->guarded[1 - u->color] : u->reach;
        }
        int adrift = 0;
        for (int i = 0; i < np; i++) {
            if (!anchored[i]) continue;
            const StUnit *u = &A->u[pawns[i]];
            u64 file = 0x0101010101010101ULL << (u->square & 7);
            if ((u->region & ~file) || (u->region & T->promo_rank[u->color]) || (u->region & take[1 - u->color])) {
                anchored[i] = 0;
                adrift = 1;
            }
        }
        if (!adrift) return;
    }
}

/* Region and reach of a piece (not a pawn); a king also keeps out of ``avoid``. */
static void st_flood_unit(const StInput *in, const StAnalysis *A, StUnit *u, u64 walls, u64 avoid) {
    const Tables *T = in->T;
    int c = u->color, t = u->type;
    u64 seeds = 1ULL << u->square, allowed = ~walls, king_seeds = 0, rook_seeds = 0;
    if (in->P->bb[c][T->royal]) st_castling_seeds(in, lsb(in->P->bb[c][T->royal]), &king_seeds, &rook_seeds);
    if (u->royal) {
        allowed &= ~A->guarded[1 - c] & ~avoid;
        seeds |= king_seeds & allowed;
    } else if (T->castling && t == T->rook_type && (in->castling >> u->square & 1)) {
        seeds |= rook_seeds & allowed;
    }
    st_flood(T, t, c, seeds, walls, allowed, &u->region, &u->reach);
}

static const StUnit *st_king(const StAnalysis *A, int color) {
    for (int i = 0; i < A->n; i++)
        if (A->u[i].royal && A->u[i].color == color) return &A->u[i];
    return NULL;
}

/* Squares the king of ``color`` may step to after which the other side has no move
 * (static.py's _dead_ends_of). */
static u64 st_dead_ends_of(const StInput *in, const StAnalysis *A, int color) {
    const Tables *T = in->T;
    int stuck = 1 - color;
    const StUnit *mover = st_king(A, color), *king = st_king(A, stuck);
    if (!mover || !king) return 0;
    for (int i = 0; i < A->n; i++) {
        const StUnit *u = &A->u[i];
        if (u->color == stuck && !u->royal && u->region != 1ULL << u->square) return 0;
    }
    if (in->castling) return 0; /* a castling right: another move for the stuck side, or a rook that checks on arrival */
    /* only frozen units block for ever: a unit that never moves may still be taken */
    u64 walls = A->frozen[0] | A->frozen[1], barred = A->frozen[stuck] | A->guarded[color], ends = 0;
    for (u64 b = mover->reach & ~(1ULL << mover->square) & ~A->frozen[color]; b; b &= b - 1) {
        int s = lsb(b), end = 1;
        u64 near = st_attacks(T, T->royal, color, s, ~0ULL) | 1ULL << s;
        for (u64 k = king->region & ~(1ULL << s); k && end; k &= k - 1) {
            int sq = lsb(k);
            if (st_attacks(T, T->royal, stuck, sq, ~0ULL) >> s & 1) continue;
            if (st_attacks(T, T->royal, stuck, sq, walls) & ~barred & ~near) end = 0;
        }
        if (end) ends |= 1ULL << s;
    }
    return ends;
}

static void st_regions(const StInput *in, const u64 frozen[2], StAnalysis *A) {
    const Tables *T = in->T;
    const Pos *P = in->P;
    u64 walls = frozen[0] | frozen[1];
    A->frozen[0] = frozen[0];
    A->frozen[1] = frozen[1];
    A->guarded[0] = st_guarded_by(in, 0, frozen[0]);
    A->guarded[1] = st_guarded_by(in, 1, frozen[1]);
    A->n = 0;
    int pawns[ST_UNITS], np = 0;
    for (int t = 0; t < T->ntypes; t++)
        for (int c = 0; c < 2; c++) {
            int royal = t == T->royal;
            u64 bb = royal ? P->bb[c][t] : P->bb[c][t] & ~frozen[c];
            for (; bb; bb &= bb - 1) {
                StUnit *u = &A->u[A->n];
                u->type = t; u->color = c; u->square = lsb(bb); u->royal = royal;
                if (t == T->pawn) {
                    u->region = 1ULL << u->square;
                    u->reach = 0;
                    pawns[np++] = A->n++;
                    continue;
                }
                st_flood_unit(in, A, u, walls, 0);
                A->n++;
            }
        }
    if (np) st_pawn_regions(in, A, pawns, np, walls);
    A->dead_ends[0] = in->dead_ends ? st_dead_ends_of(in, A, 0) : 0;
    A->dead_ends[1] = in->dead_ends ? st_dead_ends_of(in, A, 1) : 0;
    for (int i = 0; i < A->n; i++) {
        StUnit *u = &A->u[i];
        if (u->royal && (A->dead_ends[u->color] & u->region)) st_flood_unit(in, A, u, walls, A->dead_ends[u->color]);
    }
}

static void st_thaw(const StInput *in, const StAnalysis *A, const u64 occupied_by[2], u64 result[2]) {
    const Tables *T = in->T;
    const Pos *P = in->P;
    u64 walls = A->frozen[0] | A->frozen[1];
    u64 stand[2] = {0, 0}, take[2] = {0, 0}, king_take[2] = {0, 0};
    for (int i = 0; i < A->n; i++) {
        const StUnit *u = &A->u[i];
        stand[u->color] |= u->region;
        if (u->royal) king_take[u->color] |= u->reach & ~A->dead_ends[u->color];
        else take[u->color] |= u->reach;
    }
    result[0] = result[1] = 0;
    for (int t = 0; t < T->ntypes; t++)
        for (int c = 0; c < 2; c++) {
            int enemy = 1 - c, royal = t == T->royal;
            for (u64 b = P->bb[c][t] & A->frozen[c]; b; b &= b - 1) {
                int sq = lsb(b);
                if ((in->castling & (0xFFULL << (sq & ~7))) && (royal || (in->castling >> sq & 1))) continue;
                if (royal) {
                    if (st_attacks(T, t, c, sq, walls) & ~A->frozen[c] & ~A->guarded[enemy]) continue;
                    result[c] |= 1ULL << sq;
                    continue;
                }
                if (take[enemy] >> sq & 1) continue;
                if ((king_take[enemy] >> sq & 1) && !(A->guarded[c] >> sq & 1)) continue;
                if (t == T->pawn) {
                    if (T->pawn_push[c][sq] & ~walls) continue;
                    u64 captures = T->pawn_cap[c][sq];
                    if (captures & (stand[enemy] | occupied_by[enemy])) continue;
                    if (captures & in->ep) continue;
                } else if (st_attacks(T, t, c, sq, walls) & ~A->frozen[c]) {
                    continue;
                }
                result[c] |= 1ULL << sq;
            }
        }
}

/* The greatest fixed point of the frozen units. */
static void st_analyse(const StInput *in, StAnalysis *A) {
    u64 occupied_by[2] = {in->P->occ[0], in->P->occ[1]};
    u64 frozen[2] = {occupied_by[0], occupied_by[1]};
    for (int round = 0; round < ST_ROUNDS; round++) {
        st_regions(in, frozen, A);
        u64 thawed[2];
        st_thaw(in, A, occupied_by, thawed);
        if (thawed[0] == frozen[0] && thawed[1] == frozen[1]) return;
        frozen[0] = thawed[0];
        frozen[1] = thawed[1];
    }
    u64 none[2] = {0, 0};
    st_regions(in, none, A);
}

/* Can each square of ``squares`` get its own unit whose region holds it? */
static int st_assign(int sq, const u64 *regions, int n, int *owner, int *seen) {
    for (int i = 0; i < n; i++)
        if ((regions[i] >> sq & 1) && !seen[i]) {
            seen[i] = 1;
            if (owner[i] < 0 || st_assign(owner[i], regions, n, owner, seen)) {
                owner[i] = sq;
                return 1;
            }
        }
    return 0;
}

static int st_matchable(u64 squares, const u64 *regions, int n) {
    if (!squares) return 1;
    int count = 0; /* one unit per square (counted without popcount, which may be a call) */
    for (u64 b = squares; b && count <= n; b &= b - 1) count++;
    if (count > n) return 0;
    u64 any = 0;
    for (int i = 0; i < n; i++) any |= regions[i];
    if (squares & ~any) return 0; /* a square no unit can reach */
    int owner[ST_UNITS];
    for (int i = 0; i < n; i++) owner[i] = -1;
    for (; squares; squares &= squares - 1) {
        int seen[ST_UNITS] = {0};
        if (!st_assign(lsb(squares), regions, n, owner, seen)) return 0;
    }
    return 1;
}

static int st_king_can_cover(const Tables *T, int color, u64 region, u64 near, u64 needed, u64 walls) {
    for (u64 b = region & ~near; b; b &= b - 1)
        if (!(needed & ~st_attacks(T, T->royal, color, lsb(b), walls))) return 1;
    return 0;
}

static int st_mate_with_checker(const Tables *T, const StUnit *u, int s, u64 steps, u64 uncovered, u64 king_region,
                                const u64 *blockers, int nb, u64 walls, int color) {
    u64 attack_sets[64];
    int from[64], n = 0;
    if (u->type == T->pawn) {
        attack_sets[0] = u->reach;
        from[0] = -1;
        n = 1;
    } else {
        for (u64 b = u->region & ~(1ULL << s); b; b &= b - 1) {
            int c = lsb(b);
            u64 a = st_attacks(T, u->type, color, c, walls);
            if (a >> s & 1) { attack_sets[n] = a; from[n] = c; n++; }
        }
    }
    for (int i = 0; i < n; i++) {
        int c = from[i];
        u64 escapes = uncovered & ~attack_sets[i];
        if (c >= 0 && (steps >> c & 1)) escapes |= uncovered & 1ULL << c;
        u64 near = steps | 1ULL << s | (c >= 0 ? 1ULL << c : 0);
        if (!king_region) {
            if (c >= 0 && (escapes >> c & 1)) continue;
            if (st_matchable(escapes, blockers, nb)) return 1;
            continue;
        }
        for (u64 b = king_region & ~near; b; b &= b - 1) {
            u64 rest = escapes & ~st_attacks(T, T->royal, color, lsb(b), walls);
            if (c >= 0 && (rest >> c & 1)) continue;
            if (st_matchable(rest, blockers, nb)) return 1;
        }
    }
    return 0;
}

/* Could a step of ``color``'s king into a dead end uncover a check? (mate.py's
 * mate_on_arrival) */
static int st_mate_on_arrival(const Tables *T, const Pos *P, const StAnalysis *A, int color) {
    u64 ends = A->dead_ends[color];
    const StUnit *king = st_king(A, color), *target = st_king(A, 1 - color);
    if (!ends || !king || !target) return 0;
    u64 walls = A->frozen[0] | A->frozen[1];
    int types[ST_UNITS * 9 + MAXT];
    u64 squares[ST_UNITS * 9 + MAXT];
    int n = 0;
    for (int i = 0; i < A->n; i++) {
        const StUnit *u = &A->u[i];
        if (u->color != color || u->royal) continue;
        types[n] = u->type; squares[n++] = u->region;
        if (u->type == T->pawn)
            for (int j = 0; j < T->npromo; j++) { types[n] = T->promo[j]; squares[n++] = u->region; }
    }
    for (int t = 0; t < T->ntypes; t++)
        if (t != T->royal && (P->bb[color][t] & A->frozen[color])) { types[n] = t; squares[n++] = P->bb[color][t] & A->frozen[color]; }
    for (u64 ob = king->region; ob; ob &= ob - 1) {
        int o = lsb(ob);
        for (u64 sb = st_attacks(T, T->royal, color, o, walls) & ends; sb; sb &= sb - 1) {
            int s = lsb(sb);
            for (u64 kb = target->region & ~(1ULL << s | 1ULL << o); kb; kb &= kb - 1) {
                int k = lsb(kb);
                for (int i = 0; i < n; i++)
                    for (u64 rb = squares[i] & ~(1ULL << s | 1ULL << o | 1ULL << k); rb; rb &= rb - 1) {
                        int r = lsb(rb);
                        if ((st_attacks(T, types[i], color, r, walls) >> k & 1) &&
                            !(st_attacks(T, types[i], color, r, walls | 1ULL << o) >> k & 1) &&
                            (st_attacks(T, types[i], color, r, walls | 1ULL << s) >> k & 1))
                            return 1;
                    }
            }
        }
    }
    return 0;
}

/* True if ``color`` provably can never checkmate (mate.py's _cannot_mate). */
static int st_cannot_mate(const Tables *T, const StAnalysis *A, int color) {
    int loser = 1 - color;
    const StUnit *king = st_king(A, loser);
    if (!king) return 0;
    u64 walls = A->frozen[0] | A->frozen[1];
    const StUnit *checkers[ST_UNITS];
    u64 blockers[ST_UNITS];
    int nc = 0, nb = 0;
    u64 own_king_region = 0;
    for (int i = 0; i < A->n; i++) {
        const StUnit *u = &A->u[i];
        if (u->color == color) {
            if (u->royal) own_king_region |= u->region;
            else checkers[nc++] = u;
        } else if (!u->royal) {
            blockers[nb++] = u->region;
        }
    }
    u64 fixed_cover = A->guarded[color], fixed_block = A->frozen[loser];
    u64 all_reach = 0, block_union = 0;
    for (int i = 0; i < nc; i++) all_reach |= checkers[i]->reach;
    for (int i = 0; i < nb; i++) block_union |= blockers[i];
    for (u64 b = king->region & all_reach; b; b &= b - 1) {
        int s = lsb(b);
        u64 steps = st_attacks(T, T->royal, loser, s, walls);
        u64 open_steps = steps & ~(fixed_cover | fixed_block);
        u64 bare = open_steps & ~(all_reach | block_union);
        if (bare && !st_king_can_cover(T, color, own_king_region, steps | 1ULL << s, bare, walls)) continue;
        for (int i = 0; i < nc; i++) {
            if (!(checkers[i]->reach >> s & 1)) continue;
            u64 others = 0;
            for (int j = 0; j < nc; j++)
                if (j != i) others |= checkers[j]->reach;
            if (st_mate_with_checker(T, checkers[i], s, steps, open_steps & ~others, own_king_region, blockers, nb,
                                     walls, color))
                return 0;
        }
    }
    return 1;
}

/* The colours of ``mask`` the static stage proves can never mate (a bitmask). ``ep``
 * is the e.p. target only where a capture there is legal now. */
static int static_stage(const Tables *T, const Pos *P, int ep, int mask) {
    StInput in = {T, P, ep >= 0 ? 1ULL << ep : 0, P->castling, 1};
    memo_bind(T);
    StAnalysis A, plain; /* with the dead ends; without them, where a step into one may mate */
    int have_plain = 0, proven = 0;
    st_analyse(&in, &A);
    for (int c = 0; c < 2; c++) {
        if (!(mask >> c & 1)) continue;
        const StAnalysis *use = &A;
        if (st_mate_on_arrival(T, P, &A, c)) {
            if (!have_plain) {
                in.dead_ends = 0;
                st_analyse(&in, &plain);
                have_plain = 1;
            }
            use = &plain;
        }
        if (st_cannot_mate(T, use, c)) proven |= 1 << c;
    }
    return proven;
}

/* The e.p. square if a legal capture there exists now, else -1. */
static int legal_ep(const Tables *T, Pos *P) {
    if (P->ep < 0) return -1;
    int moves[MAXMOVES];
    int n = legal_moves(T, P, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] >> 16 == FLAG_EP) return P->ep;
    return -1;
}

/* ---------------------------------------------------------------- exhaustive exploration */

/*
 * Every position reachable from the root, depth first, each visited once: positions are
 * told apart exactly (placement, side to move, castling rights, and the e.p. square only
 * where a legal capture exists: FIDE 9.2.3), not by a hash. Every checkmate met is
 * recorded for the colour that gave it. A walk that ends within the node limit is a
 * proof that the colours still open can never mate. After a capture or a pawn move the
 * static stage above may close a subtree, and in a position without pawns so may the
 * caller's proof (``prune``: a Python callable or None, answering a bitmask of the
 * colours it proves unable to mate there).
 */

typedef struct { signed char mailbox[64]; u64 castling; signed char turn, ep; } Record;

/* An open-addressing set of exact records, each slot holding its key next to its record
 * (one cache line pair per probe). It starts small and doubles when three quarters full,
 * so memory follows the positions met, not the node limit. */
typedef struct { u64 key; Record record; } Slot;

typedef struct {
    Slot *slots;
    size_t mask, count, max_slots;
} VisitedSet;

static int visited_grow(VisitedSet *V) {
    size_t size = (V->mask + 1) * 2;
    if (size > V->max_slots) return -1;
    Slot *grown = calloc(size, sizeof(Slot));
    if (!grown) return -1;
    for (size_t i = 0; i <= V->mask; i++) {
        if (!V->slots[i].key) continue;
        size_t j = V->slots[i].key & (size - 1);
        while (grown[j].key) j = (j + 1) & (size - 1);
        grown[j] = V->slots[i];
    }
    free(V->slots);
    V->slots = grown;
    V->mask = size - 1;
    return 0;
}

static int visited_add(VisitedSet *V, const Record *r, u64 key) {
    /* 1 if newly added, 0 if present, -1 if full */
    if (V->count * 4 >= (V->mask + 1) * 3 && visited_grow(V) < 0) return -1;
    key |= 1;
    size_t i = key & V->mask;
    while (V->slots[i].key) {
        if (V->slots[i].key == key && !memcmp(&V->slots[i].record, r, sizeof(Record))) return 0;
        i = (i + 1) & V->mask;
    }
    V->slots[i].key = key;
    V->slots[i].record = *r;
    V->count++;
    return 1;
}

typedef struct { int start, count, index, move; Undo undo; } Level;

/* Is ``m`` a capture or a pawn move (castling is neither): after it no earlier position
 * comes back, and the static stage may close what lies below. */
static inline int irreversible(const Tables *T, const Pos *P, int m) {
    return (m >> 16 != FLAG_CASTLE) &&
           (P->mailbox[m >> 6 & 63] >= 0 || m >> 16 == FLAG_EP || (P->mailbox[m & 63] & 15) == T->pawn);
}

static PyObject *py_explore(PyObject *self, PyObject *args) {
    Py_buffer tables, placement;
    int turn, ep, colours;
    unsigned long long castling;
    long long limit, prune_cost;
    PyObject *prune;
    if (!PyArg_ParseTuple(args, "y*y*iKiiLOL", &tables, &placement, &turn, &castling, &ep, &colours, &limit, &prune,
                          &prune_cost))
        return NULL;
    PyObject *result = NULL;
    Search S;
    memset(&S, 0, sizeof(S));
    VisitedSet V = {0};
    Level *levels = NULL;
    int *moves = NULL;
    size_t level_cap = 1024, move_cap = 1 << 16;
    PyObject *mates[2] = {NULL, NULL};
    Tables *T = read_input(&tables, &placement, turn, castling, ep, &S.P);
    if (!T) goto done;
    S.T = T;
    /* at most one new position per move made, and at most 2^26 slots */
    V.max_slots = 1 << 12;
    while (V.max_slots < (size_t)(limit + 2) * 2 && V.max_slots < ((size_t)1 << 26)) V.max_slots <<= 1;
    V.slots = calloc(1 << 12, sizeof(Slot));
    V.mask = (1 << 12) - 1;
    levels = malloc(level_cap * sizeof(Level));
    moves = malloc(move_cap * sizeof(int));
    if (!V.slots || !levels || !moves) { PyErr_NoMemory(); goto done; }
    int open = colours & 3, depth = 0, complete = 0, error = 0;
    long long nodes = 0;
    Pos *P = &S.P;
    int top = 0; /* moves in use */
    /* enter the root */
    int entering = 1, zeroing = 0;
    for (;;) {
        if (entering) {
            entering = 0;
            /* a position met again is left at once: its moves are generated only the
             * first time (most moves of a walk lead back to known positions) */
            Record r;
            memcpy(r.mailbox, P->mailbox, 64);
            r.castling = P->castling;
            r.turn = (signed char)P->turn;
            r.ep = (signed char)legal_ep(T, P);
            int added = visited_add(&V, &r, identity(T, P));
            if (added < 0) break; /* the set is full: not complete */
            int expand = added == 1;
            int buffer[MAXMOVES];
            int n = expand ? legal_moves(T, P, buffer) : 0;
            if (expand && n == 0) {
                expand = 0;
                if (in_check(T, P)) {
                    int winner = P->turn ^ 1;
                    if ((open >> winner & 1) && !mates[winner]) {
                        mates[winner] = PyList_New(depth);
                        if (!mates[winner]) { error = 1; break; }
                        for (int i = 0; i < depth; i++) PyList_SET_ITEM(mates[winner], i, PyLong_FromLong(levels[i].move));
                        open &= ~(1 << winner);
                        if (!open) { complete = 1; break; }
                    }
                }
            }
            if (expand && zeroing) {
                int proven = static_stage(T, P, r.ep, open);
                nodes += prune_cost; /* a static proof costs about as much as this many moves */
                int pawnless = T->pawn < 0 || !(P->bb[0][T->pawn] | P->bb[1][T->pawn]);
                if ((proven & open) != open && pawnless && prune != Py_None) {
                    unsigned char mb[64];
                    for (int sq = 0; sq < 64; sq++) mb[sq] = P->mailbox[sq] < 0 ? 0xFF : (unsigned char)P->mailbox[sq];
                    PyObject *answer = PyObject_CallFunction(prune, "y#iKii", mb, (Py_ssize_t)64, P->turn,
                                                             (unsigned long long)P->castling, (int)r.ep, open & ~proven);
                    nodes += prune_cost;
                    if (!answer) { error = 1; break; }
                    long more = PyLong_AsLong(answer);
                    Py_DECREF(answer);
                    if (more == -1 && PyErr_Occurred()) { error = 1; break; }
                    proven |= (int)more;
                }
                if ((proven & open) == open) expand = 0;
            }
            if (expand) {
                if ((size_t)(top + n) > move_cap) {
                    while ((size_t)(top + n) > move_cap) move_cap *= 2;
                    int *grown = realloc(moves, move_cap * sizeof(int));
                    if (!grown) { PyErr_NoMemory(); error = 1; break; }
                    moves = grown;
                }
                if ((size_t)depth + 1 >= level_cap) {
                    level_cap *= 2;
                    Level *grown = realloc(levels, level_cap * sizeof(Level));
                    if (!grown) { PyErr_NoMemory(); error = 1; break; }
                    levels = grown;
                }
                /* captures, pawn moves and promotions first: the walk is depth first, so
                 * the changes that lead to new material meet the mates sooner; the set of
                 * positions walked is the same in any order */
                int k = 0;
                for (int pass = 0; pass < 2; pass++)
                    for (int i = 0; i < n; i++)
                        if (irreversible(T, P, buffer[i]) != pass) moves[top + k++] = buffer[i];
                levels[depth].start = top;
                levels[depth].count = n;
                levels[depth].index = 0;
                top += n;
            } else {
                if (depth == 0) { complete = 1; break; }
                depth--;
                unmake(T, P, &levels[depth].undo);
                continue;
            }
        }
        Level *L = &levels[depth];
        if (L->index == L->count) {
            top = L->start;
            if (depth == 0) { complete = 1; break; }
            depth--;
            unmake(T, P, &levels[depth].undo);
            continue;
        }
        if (nodes >= limit) break;
        if ((nodes & 0xFFFF) == 0 && PyErr_CheckSignals() < 0) { error = 1; break; }
        int m = moves[L->start + L->index++];
        zeroing = irreversible(T, P, m);
        L->move = m;
        make(T, P, m, &L->undo);
        nodes++;
        depth++;
        entering = 1;
    }
    if (error) goto done;
    PyObject *found = PyDict_New();
    if (!found) goto done;
    for (int c = 0; c < 2; c++)
        if (mates[c]) {
            PyObject *key = PyLong_FromLong(c);
            if (!key || PyDict_SetItem(found, key, mates[c]) < 0) { Py_XDECREF(key); Py_DECREF(found); goto done; }
            Py_DECREF(key);
        }
    result = Py_BuildValue("(iNLn)", complete, found, nodes, (Py_ssize_t)V.count);
done:
    Py_XDECREF(mates[0]);
    Py_XDECREF(mates[1]);
    free(V.slots); free(levels); free(moves); free(T);
    PyBuffer_Release(&tables);
    PyBuffer_Release(&placement);
    return result;
}

/* static_stage(tables, placement, turn, castling, ep, colours) -> proven colours mask */
static PyObject *py_static_stage(PyObject *self, PyObject *args) {
    Py_buffer tables, placement;
    int turn, ep, colours;
    unsigned long long castling;
    if (!PyArg_ParseTuple(args, "y*y*iKii", &tables, &placement, &turn, &castling, &ep, &colours)) return NULL;
    Pos P;
    PyObject *result = NULL;
    Tables *T = read_input(&tables, &placement, turn, castling, ep, &P);
    if (!T) goto done;
    result = PyLong_FromLong(static_stage(T, &P, legal_ep(T, &P), colours & 3));
done:
    free(T);
    PyBuffer_Release(&tables);
    PyBuffer_Release(&placement);
    return result;
}

static PyObject *py_perft(PyObject *self, PyObject *args) {
    Py_buffer tables, placement;
    int turn, ep, depth;
    unsigned long long castling;
    if (!PyArg_ParseTuple(args, "y*y*iKii", &tables, &placement, &turn, &castling, &ep, &depth)) return NULL;
    Pos P;
    PyObject *result = NULL;
    Tables *T = read_input(&tables, &placement, turn, castling, ep, &P);
    if (!T) goto done;
    u64 n;
    Py_BEGIN_ALLOW_THREADS
    n = perft(T, &P, depth);
    Py_END_ALLOW_THREADS
    result = PyLong_FromUnsignedLongLong(n);
done:
    free(T);
    PyBuffer_Release(&tables);
    PyBuffer_Release(&placement);
    return result;
}

static PyObject *py_legal_moves(PyObject *self, PyObject *args) {
    Py_buffer tables, placement;
    int turn, ep;
    unsigned long long castling;
    if (!PyArg_ParseTuple(args, "y*y*iKi", &tables, &placement, &turn, &castling, &ep)) return NULL;
    Pos P;
    PyObject *result = NULL;
    Tables *T = read_input(&tables, &placement, turn, castling, ep, &P);
    if (!T) goto done;
    int moves[MAXMOVES];
    int n = legal_moves(T, &P, moves);
    result = PyList_New(n);
    for (int i = 0; result && i < n; i++) PyList_SET_ITEM(result, i, PyLong_FromLong(moves[i]));
done:
    free(T);
    PyBuffer_Release(&tables);
    PyBuffer_Release(&placement);
    return result;
}

/* helpmate(tables, placement, turn, castling, ep, winner, node_limit, local_limit, max_depth, tt_bits, horizon, depth_first_limit)
 * -> (status, line, nodes): status 1 mate found (line), 0 the whole reachable space was
 * searched without a mate, -1 the node limit ran out. */
static PyObject *py_helpmate(PyObject *self, PyObject *args) {
    Py_buffer tables, placement;
    int turn, ep, winner, max_iter_depth, tt_bits;
    unsigned long long castling;
    long long limit, local_limit;
    int horizon;
    long long depth_first_limit;
    if (!PyArg_ParseTuple(args, "y*y*iKiiLLiiiL", &tables, &placement, &turn, &castling, &ep, &winner,
                          &limit, &local_limit, &max_iter_depth, &tt_bits, &horizon, &depth_first_limit))
        return NULL;
    PyObject *result = NULL;
    Search *S = calloc(1, sizeof(Search));
    Tables *T = NULL;
    if (tt_bits < 10) tt_bits = 10;
    if (tt_bits > 26) tt_bits = 26;
    TTEntry *tt = NULL;
    if (!S) { PyErr_NoMemory(); goto done; }
    T = read_input(&tables, &placement, turn, castling, ep, &S->P);
    if (!T) goto done;
    if (winner & ~1) {
        PyErr_SetString(PyExc_ValueError, "winner must be 0 (white) or 1 (black)");
        goto done;
    }
    tt = calloc((size_t)1 << tt_bits, sizeof(TTEntry));
    if (!tt) { PyErr_NoMemory(); goto done; }
    S->T = T;
    S->winner = winner;
    S->limit = depth_first_limit < limit ? depth_first_limit : limit;
    S->horizon = horizon;
    S->tt = tt;
    S->tt_mask = ((u64)1 << tt_bits) - 1;
    int status = -1, found = 0;
    Pos root = S->P;
    /* Four mating pictures (corner colour, home side), tried in turn per depth; against
     * a lone minor with loser's pawns on the board, each is first tried (on a quarter of
     * the iteration's share) with every loser's pawn step counted as progress: those
     * pawns promote into the blockers the picture needs; against a lone minor, each is
     * tried again in waiting mode. An iteration's share starts
     * small and grows fourfold each round, so that one picture whose free lines explode
     * does not spend the budget another would solve in a few nodes; a round goes deeper
     * only while some picture finished its depth within the share. */
    long long share = local_limit / 1024 < MIN_SHARE ? MIN_SHARE : local_limit / 1024;
    for (;;) {
        if (share > local_limit) share = local_limit;
        for (int depth = 1; depth <= max_iter_depth && !found && !S->aborted; depth++) {
            int all_starved = 1;
            for (int variant = 0; variant < 16 && !found && !S->aborted; variant++) {
                S->P = root;
                choose_targets(S, variant & 3);
                S->lone_minor = lone_minor(S);
                S->need_loser_promotion = loser_needs_promotion(S);
                if (S->need_loser_promotion && !S->lone_minor) /* the king covers the corner's other neighbours */
                    S->king_target = S->blocker + (S->king_target - S->corner);
                S->pawn_mode = !(variant >> 2 & 1);
                S->waiting = variant >> 3;
                if (S->pawn_mode && (!S->lone_minor || S->need_loser_promotion || T->pawn < 0 || !root.bb[winner ^ 1][T->pawn])) continue;
                if (S->waiting && !S->lone_minor) continue;
                S->max_depth = depth;
                S->interrupted = S->starved = 0;
                S->local_nodes = 0;
                S->local_limit = S->pawn_mode ? share / 4 : share;
                S->ply = 0;
                S->generation++;
                found = search(S, 0, 0);
                if (!found && !S->aborted && !S->interrupted) { status = 0; break; }
                if (!S->starved) all_starved = 0;
            }
            if (status == 0 || found || all_starved) break;
        }
        if (status == 0 || found || S->aborted || share >= local_limit) break;
        share *= 4;
    }
    S->limit = limit;
    if (!found && status != 0 && S->nodes < S->limit) {
        S->aborted = 0;
        S->P = root;
        choose_targets(S, 0);
        int r = best_first(S, S->limit - S->nodes);
        if (r == 1) found = 1;
    }
    if (found) status = 1;
    else if (status != 0) status = -1;
    if (S->signalled) goto done; /* the exception is set */
    PyObject *line = PyList_New(found ? S->ply : 0);
    if (!line) goto done;
    for (int i = 0; found && i < S->ply; i++) PyList_SET_ITEM(line, i, PyLong_FromLong(S->line[i]));
    result = Py_BuildValue("(iNL)", status, line, S->nodes);
done:
    free(tt);
    free(T);
    free(S);
    PyBuffer_Release(&tables);
    PyBuffer_Release(&placement);
    return result;
}

static PyMethodDef methods[] = {
    {"perft", py_perft, METH_VARARGS, "perft(tables, placement, turn, castling, ep, depth) -> leaf count"},
    {"legal_moves", py_legal_moves, METH_VARARGS, "legal_moves(tables, placement, turn, castling, ep) -> packed moves"},
    {"helpmate", py_helpmate, METH_VARARGS,
     "helpmate(tables, placement, turn, castling, ep, winner, node_limit, local_limit, max_depth, tt_bits, horizon, depth_first_limit)"
     " -> (status, line, nodes)"},
    {"static_stage", py_static_stage, METH_VARARGS,
     "static_stage(tables, placement, turn, castling, ep, colours) -> proven colours mask"},
    {"explore", py_explore, METH_VARARGS,
     "explore(tables, placement, turn, castling, ep, colours, node_limit, prune, prune_cost)"
     " -> (complete, mates, nodes, positions)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native", "Compiled helpmate search over the ruleset's tables.", -1, methods};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
