/* The goal-directed depth-first helpmate search.
 * Part of _native.c, one compilation unit that includes this file after the parts it
 * uses. */

/* ---------------------------------------------------------------- helpmate search */

/*
 * A depth-limited depth-first search for a checkmate by ``winner`` with both sides
 * cooperating, by iterative deepening. The depth a move costs depends on whether it
 * makes progress toward a mating picture: the loser's king in a chosen corner, the
 * winner's king two squares in front of it, the loser's other units next to the corner
 * as self-blockers (beside it on its rank, or in the mirror picture on its file), the
 * winner's pawns promoting and its units taking what is in the way. Progress costs no
 * depth, an ordinary move one ply (none right after progress), a move that undoes the
 * picture (a loser's capture) three. Lines of pure progress are thus followed far
 * beyond the nominal depth, which is how long helpmates are found. Moves are tried
 * progress first. A transposition table keeps, per position, the most depth already
 * searched below it.
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
    const unsigned char (*blocker_distance)[64]; /* loser's leapers: moves to the blocker square */
    int need_loser_promotion;
    int horizon; /* beyond this many plies progress is no longer free */
    int pawn_mode; /* the loser's pawns all march on, to promote into blockers */
    int lone_minor; /* the winner has its king and one short-range or colour-bound unit */
    int offer_strong; /* the winner has only short-range or colour-bound units besides its king */
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

/* leaper_distances of every type of colour ``c`` to ``target``, made on first use and
 * kept for the move layer (a search chooses its pictures again at every iteration). */
static unsigned char (*distance_tables)[2][64][MAXT][64];
static u64 distance_tables_id;
static u64 distance_known[2];

static const unsigned char (*leaper_distance_table(const Tables *T, int c, int target))[64] {
    static unsigned char fallback[MAXT][64];
    if (!distance_tables) distance_tables = malloc(sizeof(*distance_tables));
    if (!distance_tables) { /* out of memory: computed each time, as before */
        for (int t = 0; t < T->ntypes; t++) leaper_distances(T, t, c, target, fallback[t]);
        return (const unsigned char (*)[64])fallback;
    }
    if (distance_tables_id != T->id) {
        distance_known[0] = distance_known[1] = 0;
        distance_tables_id = T->id;
    }
    if (!(distance_known[c] >> target & 1)) {
        for (int t = 0; t < T->ntypes; t++) leaper_distances(T, t, c, target, (*distance_tables)[c][target][t]);
        distance_known[c] |= 1ULL << target;
    }
    return (const unsigned char (*)[64])(*distance_tables)[c][target];
}

/* Squares a unit of type ``t`` attacks from d4 on an empty board: its reach. */
static inline int reach(const Tables *T, int t, int c) { return T->reach[t][c]; }

/* A unit that, next to the loser's king, would take or guard whatever mates it (a rook
 * or more): as the loser's, it spoils a lone minor's picture instead of blocking. */
static inline int strong(const Tables *T, int t, int c) {
    return t != T->royal && t != T->pawn && reach(T, t, c) >= 14;
}

/* The winner has two or more units besides its king, none of them strong and no pawn
 * (two knights, say): the loser's strong units are not wanted as blockers, which they
 * would not stay, but offered to the winner's king and units to be taken. */
static int only_weak_units(const Search *S) {
    const Tables *T = S->T;
    const Pos *P = &S->P;
    int w = S->winner;
    if (popcount(P->occ[w]) < 3 || (T->pawn >= 0 && P->bb[w][T->pawn])) return 0;
    for (int t = 0; t < T->ntypes; t++)
        if (P->bb[w][t] && strong(T, t, w)) return 0;
    return 1;
}

/* The mating picture of ``variant`` (0 to 7): a corner (bits 0-1) whose colour suits the
 * winner's colour-bound pieces (or, failing those, the loser's, which must then block),
 * the nearer of two such corners first; the winner's king two squares in front of it on
 * its file, the loser's blocker beside it on its rank, or with bit 2 the mirror picture
 * (the king two squares along the rank, the blocker on the file). */
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
    int bound = winner_bound_dark || winner_bound_light || loser_bound_light || loser_bound_dark;
    /* The four corners in order: of the colour the colour-bound units want first (when
     * there are any), then nearer the loser's king first, then the loser's home side
     * first. A corner the king is far from costs the moves of its walk there in every
     * line, and the first corners tried get the most of each share. */
    int corners[4], keys[4], king = king_square(T, P, l);
    for (int i = 0; i < 4; i++) {
        int d = dark ^ (i & 1), rank = (w == 0) == !(i & 2) ? 7 : 0; /* bit 1: the winner's side */
        /* h8 and a1 are dark; on rank 8 the dark corner is h, on rank 1 it is a */
        corners[i] = rank * 8 + ((rank == 7) == d ? 7 : 0);
        keys[i] = (bound ? (i & 1) * 16 : 0) + (king == NONE ? 0 : distance(king, corners[i])) * 4 + i;
    }
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && keys[j] < keys[j - 1]; j--) {
            int k = keys[j]; keys[j] = keys[j - 1]; keys[j - 1] = k;
            k = corners[j]; corners[j] = corners[j - 1]; corners[j - 1] = k;
        }
    int rank = rank_of(corners[variant & 3]), file = file_of(corners[variant & 3]);
    int toward = rank == 7 ? -1 : 1, inward = file == 7 ? -1 : 1;
    S->offer_strong = only_weak_units(S);
    S->corner = rank * 8 + file;
    if (variant & 4) { /* the mirror picture: the winner's king two squares along the rank, the blocker up the file */
        S->king_target = rank * 8 + file + 2 * inward;
        S->blocker = (rank + toward) * 8 + file;
    } else {
        S->king_target = (rank + 2 * toward) * 8 + file;
        S->blocker = rank * 8 + file + inward;
    }
    S->blocker_distance = leaper_distance_table(T, w ^ 1, S->blocker);
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
         * spoil the picture, unless against a lone minor it steps onto the blocker's
         * square next) or by walking up to the corner */
        if (promo) {
            int strong = T->ray_reach[promo - 1][P->turn] >= 14;
            if (S->lone_minor && S->need_loser_promotion && attacks(T, promo - 1, P->turn, to, P->all & ~(1ULL << from)) >> S->blocker & 1)
                return REWARD;
            return strong ? NORMAL : REWARD;
        }
        if (S->need_loser_promotion || (S->lone_minor && (closer || S->pawn_mode))) return REWARD;
        return NORMAL;
    }
    /* the loser's other units gather next to the corner, as self-blockers; against a
     * lone minor, a unit strong enough to spoil the picture is offered to the winner, or
     * where the blockers must be promoted, it may take the blocker's square */
    if ((S->lone_minor || S->offer_strong) && strong(T, t, P->turn))
        return to == S->blocker && S->lone_minor && S->need_loser_promotion ? REWARD
               : attacked(T, P, to, w, P->all & ~(1ULL << from)) ? REWARD : NORMAL;
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
    /* at the horizon only whether a move exists matters (is this a mate?) */
    int leaf = depth >= S->max_depth || S->ply >= MAXPLY - 1;
    u64 key = 0;
    int left = S->max_depth - depth;
    TTEntry *e = NULL;
    if (!leaf) { /* an entry is kept only for a position with moves: looked up before they are made */
        key = identity(T, P);
        e = &S->tt[key & S->tt_mask];
        if (e->key == key && e->generation == S->generation && e->left >= left) return 0;
    }
    int n = legal_moves_upto(T, P, moves, leaf ? 1 : MAXMOVES);
    if (n == 0) return P->turn != S->winner && in_check(T, P);
    if (leaf) { S->interrupted = 1; return 0; }
    e->key = key;
    e->left = left;
    e->generation = S->generation;
    int kind[MAXMOVES];
    int order[MAXMOVES];
    /* progress first (in waiting mode the kings' progress before the other units': a king
     * walking to its square is the spine of a mating picture), then the ordinary moves,
     * then the rest; in generation order within each rank */
    int bucket[4][MAXMOVES], count[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        kind[i] = classify(S, moves[i]);
        int rank = kind[i] == REWARD ? (S->waiting && (P->mailbox[moves[i] & 63] & 15) != T->royal)
                   : kind[i] == NORMAL ? 2 : 3;
        bucket[rank][count[rank]++] = i;
    }
    for (int r = 0, k = 0; r < 4; r++)
        for (int i = 0; i < count[r]; i++) order[k++] = bucket[r][i];
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
