/* The static stage (static.py and mate.py, compiled).
 * Part of _native.c, one compilation unit that includes this file after the parts it
 * uses. */

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

/* Pawns' units (a cone and the floods of its promotions) recur all through a walk and
 * from one position of a batch to the next (pieces wandering inside their regions give
 * the same questions): they are memoised on their exact inputs, for the move layer the
 * memo was filled for. A piece's flood is not: it costs less than a look-up that
 * misses the cache. */
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

static inline u64 shift_by(u64 set, int shift) { return shift >= 0 ? set << shift : set >> -shift; }

/* Everything a rider along ray ``k`` attacks from any square of ``from``, stopped by
 * ``occ``: the squares of ``from`` and the empty squares they slide over, filled by
 * doubling (1, 2, 4 steps: the 7 a ray of the 8x8 board holds at most), then one step
 * more. ``target``: the squares a step along the ray can land on, so a step never wraps
 * round an edge; a bit of ``open`` stays only while the step before it did not wrap. A
 * ray whose step crosses two ranks or more holds at most 3 steps (four ranks: 1), so the
 * doublings a 64-bit shift cannot make are never needed. */
static inline u64 ray_fill_attacks(const Tables *T, int k, u64 from, u64 occ) {
    int s = T->ray_shift[k];
    u64 target = shift_by(T->ray_source[k], s), open = ~occ & target, gen = from;
    gen |= open & shift_by(gen, s);
    if (s < 32 && s > -32) {
        open &= shift_by(open, s);
        gen |= open & shift_by(gen, 2 * s);
        if (s < 16 && s > -16) {
            open &= shift_by(open, 2 * s);
            gen |= open & shift_by(gen, 4 * s);
        }
    }
    return shift_by(gen, s) & target;
}

/* Everything a unit of type ``t`` attacks from any square of ``from`` (riders stopped by
 * ``occ``): the union of st_attacks over the set. */
static u64 set_attacks(const Tables *T, int t, int c, u64 from, u64 occ) {
    u64 a = 0;
    if (T->nleap_shifts[t][c] > 0)
        for (int i = 0; i < T->nleap_shifts[t][c]; i++)
            a |= shift_by(from & T->leap_source[t][c][i], T->leap_shift[t][c][i]);
    else if (T->has_leaps[t][c])
        for (u64 b = from; b; b &= b - 1) a |= T->leaps[t][c][lsb(b)];
    for (int i = 0; i < T->ndir[t][c]; i++) a |= ray_fill_attacks(T, T->dir_ray[t][c][i], from, occ);
    return a;
}

/* The squares a unit of type ``t`` can reach from ``seeds`` moving inside ``allowed``
 * (region, the seeds included) and those it attacks on the way (reach), riders stopped
 * by ``walls``: a breadth-first fill, a whole frontier a step. Not memoised: the fill
 * costs less than a look-up in a table too large for the cache. */
static void st_flood(const Tables *T, int t, int c, u64 seeds, u64 walls, u64 allowed, u64 *region, u64 *reach) {
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

/* The floods of the pieces a pawn may promote to, from each promotion square, for the
 * walls of one st_regions call (computed when first asked): the flood from a set of
 * seeds is the union of the floods from each. */
typedef struct {
    u64 known[2][8], region[2][8][64], reach[2][8][64];
} StPromotions;

/* Does every move of type ``t`` (colour ``c``) belong to type ``q`` too: each leap, and
 * each ray (a rider of both stops at the same units)? Then from the same seeds, inside
 * the same squares and walls, t's flood holds no square q's does not, and t reaches no
 * square q does not: each step of t is a step of q. */
static int st_moves_within(const Tables *T, int t, int q, int c) {
    for (int sq = 0; sq < 64; sq++)
        if (T->leaps[t][c][sq] & ~T->leaps[q][c][sq]) return 0;
    for (int i = 0; i < T->ndir[t][c]; i++) {
        int found = 0;
        for (int j = 0; j < T->ndir[q][c] && !found; j++) found = T->dir_ray[q][c][j] == T->dir_ray[t][c][i];
        if (!found) return 0;
    }
    return 1;
}

/* The promotion choices whose floods a pawn's unit needs, by colour (a bitmask over
 * T->promo): a choice whose moves all belong to another choice adds nothing to the
 * union (st_moves_within), so it is left out; of two with the same moves, the first is
 * kept. Computed once per move layer. */
static u64 promotion_needed_id;
static int promotion_needed_set, promotion_needed[2];

static int st_promotions_needed(const Tables *T, int c) {
    if (!promotion_needed_set || promotion_needed_id != T->id) {
        for (int colour = 0; colour < 2; colour++) {
            int needed = 0;
            for (int i = 0; i < T->npromo; i++) {
                int covered = 0;
                for (int j = 0; j < T->npromo && !covered; j++) {
                    if (j == i || !st_moves_within(T, T->promo[i], T->promo[j], colour)) continue;
                    /* j covers i unless they have the same moves and i comes first */
                    covered = !st_moves_within(T, T->promo[j], T->promo[i], colour) || j < i;
                }
                if (!covered) needed |= 1 << i;
            }
            promotion_needed[colour] = needed;
        }
        promotion_needed_id = T->id;
        promotion_needed_set = 1;
    }
    return promotion_needed[c];
}

static void st_promotion_floods(const Tables *T, StPromotions *pc, int c, u64 squares, u64 walls, u64 *region, u64 *reach) {
    u64 reg = 0, rch = 0;
    int needed = st_promotions_needed(T, c);
    for (int i = 0; i < T->npromo; i++) {
        if (!(needed >> i & 1)) continue;
        u64 reg_i = 0;
        for (u64 b = squares; b; b &= b - 1) {
            int sq = lsb(b);
            if (reg_i >> sq & 1) continue; /* inside a flood already counted: its flood adds nothing */
            if (!(pc->known[c][i] >> sq & 1)) {
                st_flood(T, T->promo[i], c, 1ULL << sq, walls, ~walls, &pc->region[c][i][sq], &pc->reach[c][i][sq]);
                pc->known[c][i] |= 1ULL << sq;
            }
            reg_i |= pc->region[c][i][sq];
            rch |= pc->reach[c][i][sq];
        }
        reg |= reg_i;
    }
    *region = reg;
    *reach = rch;
}

static void st_pawn_unit(const Tables *T, StUnit *u, u64 walls, u64 prey, u64 block, StPromotions *pc) {
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
    if (promotion) {
        u64 r, a;
        st_promotion_floods(T, pc, u->color, promotion, walls, &r, &a);
        region |= r;
        reach |= a;
    }
    u->region = region;
    u->reach = reach;
    if (e) { memcpy(e->key, key, sizeof(key)); e->region = region; e->reach = reach; }
}

/* Facing mobile pawns: partner[i] is the unit index of pawn i's partner, or -1. */
static void st_facing_pairs(const Tables *T, const StAnalysis *A, const int *pawns, int np, u64 walls, int *partner) {
    int ahead_of[ST_UNITS], at[64]; /* at[sq]: the pawn on sq, valid where ``occupied`` has sq */
    u64 occupied = 0;
    for (int j = 0; j < np; j++) {
        at[A->u[pawns[j]].square] = j;
        occupied |= 1ULL << A->u[pawns[j]].square;
    }
    for (int i = 0; i < np; i++) {
        ahead_of[i] = -1;
        const StUnit *u = &A->u[pawns[i]];
        int sq = u->square;
        for (;;) {
            u64 ahead = T->pawn_push[u->color][sq];
            if (!ahead) break;
            sq = 63 - __builtin_clzll(ahead);
            if (walls >> sq & 1) break;
            if (occupied >> sq & 1) {
                int other = at[sq];
                if (A->u[pawns[other]].color != u->color) ahead_of[i] = other;
                break;
            }
        }
    }
    for (int i = 0; i < np; i++) partner[i] = ahead_of[i] >= 0 && ahead_of[ahead_of[i]] == i ? ahead_of[i] : -1;
}

static void st_pawn_regions(const StInput *in, StAnalysis *A, const int *pawns, int np, u64 walls, StPromotions *promotions) {
    const Tables *T = in->T;
    int partner[ST_UNITS], anchored[ST_UNITS];
    st_facing_pairs(T, A, pawns, np, walls, partner);
    for (int i = 0; i < np; i++) anchored[i] = partner[i] >= 0;
    /* A pawn's unit is a function of (walls, prey, block), and the walls are this call's:
     * the last units of each pawn are kept with their prey and block and used again
     * when those recur (as they do after a pawn is found adrift and the fixed point is
     * started again). */
    enum { KEPT = 4 };
    struct { u64 prey, block, region, reach; } kept[ST_UNITS][KEPT];
    int nkept[ST_UNITS], next_kept[ST_UNITS];
    for (int i = 0; i < np; i++) nkept[i] = next_kept[i] = 0;
    for (;;) {
        /* computed again only when its prey or block changed since it was last computed */
        u64 last_prey[ST_UNITS], last_block[ST_UNITS];
        int known[ST_UNITS];
        for (int i = 0; i < np; i++) {
            A->u[pawns[i]].region = 1ULL << A->u[pawns[i]].square;
            A->u[pawns[i]].reach = 0;
            known[i] = 0;
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
                u64 prey = stand[1 - u->color] | A->frozen[1 - u->color];
                if (known[i] && last_prey[i] == prey && last_block[i] == block) continue;
                int k = 0;
                while (k < nkept[i] && !(kept[i][k].prey == prey && kept[i][k].block == block)) k++;
                if (k < nkept[i]) {
                    u->region = kept[i][k].region;
                    u->reach = kept[i][k].reach;
                } else {
                    st_pawn_unit(T, u, walls, prey, block, promotions);
                    k = next_kept[i];
                    next_kept[i] = (k + 1) % KEPT;
                    if (nkept[i] < KEPT) nkept[i]++;
                    kept[i][k].prey = prey;
                    kept[i][k].block = block;
                    kept[i][k].region = u->region;
                    kept[i][k].reach = u->reach;
                }
                known[i] = 1;
                last_prey[i] = prey;
                last_block[i] = block;
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
 * (static.py's _dead_ends_of; ``walls``: the frozen units). */
static u64 st_dead_ends_of(const StInput *in, const StAnalysis *A, int color, u64 walls) {
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
    u64 barred = A->frozen[stuck] | A->guarded[color], ends = 0;
    /* the stuck king's squares with what it touches and where it may step from each,
     * which do not depend on the end tried: computed once */
    int squares[64], n = 0;
    u64 touches[64], open[64];
    for (u64 k = king->region; k; k &= k - 1) {
        int sq = lsb(k);
        squares[n] = sq;
        touches[n] = st_attacks(T, T->royal, stuck, sq, ~0ULL);
        open[n++] = st_attacks(T, T->royal, stuck, sq, walls) & ~barred;
    }
    for (u64 b = mover->reach & ~(1ULL << mover->square) & ~A->frozen[color]; b; b &= b - 1) {
        int s = lsb(b), end = 1;
        u64 near = st_attacks(T, T->royal, color, s, ~0ULL) | 1ULL << s;
        for (int i = 0; i < n && end; i++) {
            if (squares[i] == s || (touches[i] >> s & 1)) continue;
            if (open[i] & ~near) end = 0;
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
    if (np) {
        StPromotions promotions;
        memset(promotions.known, 0, sizeof(promotions.known));
        st_pawn_regions(in, A, pawns, np, walls, &promotions);
    }
    A->dead_ends[0] = in->dead_ends ? st_dead_ends_of(in, A, 0, walls) : 0;
    A->dead_ends[1] = in->dead_ends ? st_dead_ends_of(in, A, 1, walls) : 0;
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

/* Can a blocker of type ``t`` and colour ``c`` on ``n`` take the checker on ``checker``
 * or move onto a square of ``between`` in every position? A pawn's unit answers only if
 * the pawn (never on the last rank) and every piece it promotes to do. (mate.py's
 * _answers_check) */
static int st_answers_check(const Tables *T, int t, int c, int n, int checker, u64 between) {
    u64 line = between | 1ULL << checker;
    if (t != T->pawn) return (st_attacks(T, t, c, n, ~0ULL) & line) != 0;
    if (!(T->promo_rank[c] >> n & 1)) {
        u64 push = T->pawn_push[c][n] & between, capture = T->pawn_cap[c][n] & 1ULL << checker;
        if (!T->npromo) {
            push &= ~T->promo_rank[c];
            capture &= ~T->promo_rank[c];
        }
        if (!(push | capture)) return 0;
    }
    for (int i = 0; i < T->npromo; i++)
        if (!(st_attacks(T, T->promo[i], c, n, ~0ULL) & line)) return 0;
    return 1;
}

/* The squares other than ``s`` attacked from ``from`` by type ``t`` (walls: ``walls``)
 * whose filling would cut that attack on ``s``: none where a leap reaches ``s``, else
 * those on every open ray from ``from`` through ``s`` (its squares before ``s``; a ray
 * is open when none of them is a wall). */
static u64 st_between(const Tables *T, int t, int color, int from, int s, u64 walls) {
    if (T->leaps[t][color][from] >> s & 1) return 0;
    u64 cut = ~0ULL;
    int routes = 0;
    for (int i = 0; i < T->ndir[t][color]; i++) {
        int k = T->dir_ray[t][color][i];
        if (!(T->ray[k][from] >> s & 1)) continue;
        u64 segment = T->ray[k][from] & ~T->ray[k][s] & ~(1ULL << s);
        if (segment & walls) continue;
        cut &= segment;
        routes++;
    }
    return routes ? cut : st_attacks(T, t, color, from, walls) & ~(1ULL << s);
}

/* The blockers' regions without the squares of ``escapes`` from which each could answer
 * the check of the lone checker ``u`` on ``checker`` (mate.py's _not_answering). */
static void st_not_answering(const Tables *T, const StUnit *u, int checker, int s, u64 escapes, const u64 *blockers,
                             const int *types, int nb, u64 walls, int color, u64 *narrowed) {
    u64 between = st_between(T, u->type, color, checker, s, walls), answering[MAXT];
    int known[MAXT] = {0};
    for (int i = 0; i < nb; i++) {
        int t = types[i];
        if (!known[t]) {
            answering[t] = 0;
            for (u64 b = escapes; b; b &= b - 1)
                if (st_answers_check(T, t, 1 - color, lsb(b), checker, between)) answering[t] |= 1ULL << lsb(b);
            known[t] = 1;
        }
        narrowed[i] = blockers[i] & ~answering[t];
    }
}

/* ``types``: the blockers' types when ``u`` is a lone checker (mate.py's step 3), else NULL. */
static int st_mate_with_checker(const Tables *T, const StUnit *u, int s, u64 steps, u64 uncovered, u64 king_region,
                                const u64 *blockers, const int *types, int nb, u64 walls, int color, long *budget) {
    /* the squares of its region from which the checker attacks s (a pawn's unit: its
     * whole reach, from no square in particular), in increasing order */
    u64 from = u->type == T->pawn ? 1 : u->region & ~(1ULL << s) & attackers_of(T, u->type, color, s, walls);
    for (; from; from &= from - 1) {
        int c = u->type == T->pawn ? -1 : lsb(from);
        u64 attack_set = c < 0 ? u->reach : st_attacks(T, u->type, color, c, walls);
        u64 escapes = uncovered & ~attack_set;
        if (c >= 0 && (steps >> c & 1)) escapes |= uncovered & 1ULL << c;
        u64 near = steps | 1ULL << s | (c >= 0 ? 1ULL << c : 0);
        u64 narrowed[ST_UNITS];
        const u64 *use = blockers;
        if (types && escapes) {
            st_not_answering(T, u, c, s, escapes, blockers, types, nb, walls, color, narrowed);
            use = narrowed;
        }
        if (!king_region) {
            if (c >= 0 && (escapes >> c & 1)) continue;
            if (st_matchable(escapes, use, nb)) return 1;
            continue;
        }
        for (u64 b = king_region & ~near; b; b &= b - 1) {
            if (budget && --*budget < 0) return 0;
            u64 king_attacks = st_attacks(T, T->royal, color, lsb(b), walls);
            u64 rest = escapes & ~king_attacks;
            if (c >= 0 && (rest >> c & 1)) continue;
            if (st_matchable(rest, king_attacks >> s & 1 ? blockers : use, nb)) return 1;
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

/* st_cannot_mate with the walls, the squares the winner's frozen units cover and those
 * the loser's frozen units block given apart from ``A`` (st_open's under-approximation
 * passes none). With ``budget`` (st_open's), each king square tried for a mate spends
 * one, and when none is left the search stops as if it had found no mate. */
static int st_cannot_mate_with(const Tables *T, const StAnalysis *A, int color, u64 walls, u64 fixed_cover,
                               u64 fixed_block, long *budget) {
    int loser = 1 - color;
    const StUnit *king = st_king(A, loser);
    if (!king) return 0;
    const StUnit *checkers[ST_UNITS];
    u64 blockers[ST_UNITS];
    int types[ST_UNITS], nc = 0, nb = 0;
    u64 own_king_region = 0;
    for (int i = 0; i < A->n; i++) {
        const StUnit *u = &A->u[i];
        if (u->color == color) {
            if (u->royal) own_king_region |= u->region;
            else checkers[nc++] = u;
        } else if (!u->royal) {
            types[nb] = u->type;
            blockers[nb++] = u->region;
        }
    }
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
            /* a lone checker (mate.py's step 3): blockers that could answer its check do not count */
            int lone = !(others >> s & 1) && !(fixed_cover >> s & 1) && checkers[i]->type != T->pawn;
            const int *answering = lone ? types : NULL;
            if (st_mate_with_checker(T, checkers[i], s, steps, open_steps & ~others, own_king_region, blockers,
                                     answering, nb, walls, color, budget))
                return 0;
            if (budget && *budget < 0) return 1;
        }
    }
    return 1;
}

/* True if ``color`` provably can never checkmate (mate.py's _cannot_mate). */
static int st_cannot_mate(const Tables *T, const StAnalysis *A, int color) {
    return st_cannot_mate_with(T, A, color, A->frozen[0] | A->frozen[1], A->guarded[color], A->frozen[1 - color], NULL);
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

/* ---------------------------------------------------------------- the screening's shortcut */

/*
 * st_open: a proof, cheaper than the static stage, that the static stage will NOT prove
 * ``color`` unable to mate (so the screening may say "undetermined" without running
 * it). It runs the static stage's last test, st_cannot_mate, on an analysis W that is
 * an under-approximation of the one the static stage ends with (F), and finds a mate
 * square W allows. Why F allows it too:
 *
 * 1. F's frozen units are among W's (its walls). F is a fixed point of st_thaw (no
 *    unit of F thaws against F's analysis; the fallback after ST_ROUNDS freezes
 *    nothing). W starts with every unit frozen and thaws by those of st_thaw's rules
 *    that need no region, until none applies: a unit on a rank with a castling right
 *    (the king, the rook holding it); a king with a step to a square neither its own
 *    frozen unit's nor guarded by a frozen enemy; a pawn whose push square is not
 *    frozen or whose capture square holds an enemy now; another piece attacking (walls:
 *    the frozen units) a square not its own frozen unit's. Each rule that applies
 *    against a frozen set applies against any smaller one too (attacks grow as walls
 *    go, the frozen and guarded squares shrink), so while W's frozen set holds F's, a
 *    unit it thaws is not in F (else st_thaw would thaw it against F): it always holds
 *    F's.
 * 2. Every unit of W is a unit of F (not frozen there), with a region and a reach within
 *    F's. A piece's flood grows as walls go (its rays stop later, more squares are
 *    allowed; castling seeds only add). A pawn's cone in F is the least set closed
 *    under pushes onto squares neither walls nor the block square of a facing pair (the
 *    partner's square: a pawn's) and captures onto prey that is no wall, prey holding
 *    every enemy non-royal unit's square (frozen: in F's frozen set; mobile: in its
 *    region) and their regions; W's cone is closed under pushes onto squares that are no
 *    wall of W and hold no pawn, and captures onto enemy non-royal units' squares and
 *    W's regions of enemy pieces, neither being walls of W: a subset, with the captures
 *    from it as reach and, where it reaches the last rank, the floods of the promotions
 *    (walls: W's) as F has them. A king's region is its flood, leaving out the squares
 *    the other side's frozen units of W guard (F's guard fewer), where F can have no
 *    dead end for it: a castling right remains (st_dead_ends_of then gives none), or the
 *    other side has a non-royal unit whose region in W holds two squares or more (so in
 *    F); else the king's own square alone (never a dead end).
 * 3. st_cannot_mate is monotone in these: with W's regions and reaches within F's, F's
 *    walls within W's, and W's fixed cover and fixed block empty (F's frozen winner
 *    units cover squares, F's frozen loser units block, where W asks a unit to), every
 *    mate square W allows F allows: F's escape squares are W's or fewer (a frozen
 *    winner unit of W that F thaws covers its squares by its reach; a frozen loser unit
 *    of W that F thaws is a blocker with its own square in its region), its blockers
 *    and checkers are W's with larger regions and more, its kings' regions larger; a
 *    lone checker in F is one in W (its "others" are W's or more), and a blocker left
 *    out of F's matching for answering the check is left out of W's (the squares
 *    between checker and mate square are the same in both when every type reaches each
 *    square by one route only: checked per move layer, with a king that only leaps).
 * With no dead end in F the step into one is never tried, and where one may remain
 * only the kings' own squares are used, which both analyses (with and without dead
 * ends) hold.
 *
 * Any smaller W is as good a proof, so W is tried twice: first cheaply (one pass of the
 * thaw rules, each piece's region its square and the squares it may step to, each
 * pawn's its own square: enough for most positions), then in full (the thaw rules to
 * their fixed point, floods, cones, promotions). The test of a mate square spends a
 * small budget (OPEN_BUDGET king squares tried); when it runs out, W shows nothing.
 */

#ifndef OPEN_BUDGET
#define OPEN_BUDGET 20
#endif

static u64 open_tables_id;
static int open_tables_set, open_tables_fit;

/* Does every type reach each square by one route only (a leap, or one ray), and the
 * royal type only by leaps? Computed once per move layer. */
static int st_open_fits(const Tables *T) {
    if (open_tables_set && open_tables_id == T->id) return open_tables_fit;
    int fit = 1;
    for (int c = 0; c < 2 && fit; c++) {
        if (T->ndir[T->royal][c]) fit = 0;
        for (int t = 0; t < T->ntypes && fit; t++)
            for (int sq = 0; sq < 64 && fit; sq++) {
                u64 seen = T->leaps[t][c][sq];
                for (int i = 0; i < T->ndir[t][c] && fit; i++) {
                    u64 ray = T->ray[T->dir_ray[t][c][i]][sq];
                    if (ray & seen) fit = 0;
                    seen |= ray;
                }
            }
    }
    open_tables_id = T->id;
    open_tables_set = 1;
    open_tables_fit = fit;
    return fit;
}

/* What each type attacks with every square filled (st_attacks with occupancy ~0: its
 * leaps and the first square of each ray), per move layer. */
static u64 (*near_table)[2][64];
static u64 near_table_id;

static const u64 (*st_near(const Tables *T))[2][64] {
    if (near_table && near_table_id == T->id) return (const u64 (*)[2][64])near_table;
    if (!near_table) near_table = malloc(sizeof(u64) * MAXT * 2 * 64);
    if (!near_table) return NULL;
    for (int t = 0; t < T->ntypes; t++)
        for (int c = 0; c < 2; c++)
            for (int sq = 0; sq < 64; sq++) near_table[t][c][sq] = st_attacks(T, t, c, sq, ~0ULL);
    near_table_id = T->id;
    return (const u64 (*)[2][64])near_table;
}

/* What the frozen units of ``frozen`` guard, by colour (st_guarded_by's squares). */
static void st_open_guarded(const Tables *T, const u64 (*near)[2][64], const Pos *P, const u64 frozen[2],
                            u64 guarded[2]) {
    for (int c = 0; c < 2; c++) {
        guarded[c] = 0;
        for (int t = 0; t < T->ntypes; t++)
            for (u64 b = P->bb[c][t] & frozen[c]; b; b &= b - 1) {
                int sq = lsb(b);
                guarded[c] |= t == T->pawn ? T->pawn_cap[c][sq] : near[t][c][sq];
            }
    }
}

/* W's frozen units (see above): every unit, thawed by the rules that need no region,
 * in ``passes`` passes over the units or until none thaws (any number of passes gives a
 * set holding F's). In the first pass every unit is frozen, so a piece attacks a square
 * not its own frozen unit's exactly when the first square of one of its rays, or one of
 * its leaps, is not its own unit's. */
static void st_open_frozen(const Tables *T, const u64 (*near)[2][64], const Pos *P, u64 frozen[2], int passes) {
    frozen[0] = P->occ[0];
    frozen[1] = P->occ[1];
    for (int pass = 0, changed = 1; changed && pass < passes; pass++) {
        changed = 0;
        u64 walls = frozen[0] | frozen[1], guarded[2], thawed[2] = {0, 0};
        st_open_guarded(T, near, P, frozen, guarded);
        for (int c = 0; c < 2; c++)
            for (int t = 0; t < T->ntypes; t++)
                for (u64 b = P->bb[c][t] & frozen[c]; b; b &= b - 1) {
                    int sq = lsb(b), royal = t == T->royal, thaw;
                    if ((P->castling & (0xFFULL << (sq & ~7))) && (royal || (P->castling >> sq & 1))) thaw = 1;
                    else if (royal) thaw = (st_attacks(T, t, c, sq, walls) & ~frozen[c] & ~guarded[1 - c]) != 0;
                    else if (t == T->pawn)
                        thaw = (T->pawn_push[c][sq] & ~walls) || (T->pawn_cap[c][sq] & P->occ[1 - c]);
                    else if (pass == 0) thaw = (near[t][c][sq] & ~frozen[c]) != 0;
                    else thaw = (st_attacks(T, t, c, sq, walls) & ~frozen[c]) != 0;
                    if (thaw) thawed[c] |= 1ULL << sq;
                }
        for (int c = 0; c < 2; c++) {
            frozen[c] &= ~thawed[c];
            changed |= thawed[c] != 0;
        }
    }
}

/* st_open's test on one W: with ``full`` 0 the frozen units of one pass, each piece with
 * its square and the squares it may step to for region, each pawn with its own square
 * (cheap, and enough for most positions); with ``full`` 1 the frozen units of the fixed
 * point, the pieces' floods and the pawns' cones and promotions. */
static int st_open_with(const Tables *T, const u64 (*near)[2][64], const Pos *P, int color, int full) {
    u64 frozen[2], guarded[2];
    st_open_frozen(T, near, P, frozen, full ? 64 * ST_UNITS : 1);
    u64 walls = frozen[0] | frozen[1], pawns = T->pawn >= 0 ? P->bb[0][T->pawn] | P->bb[1][T->pawn] : 0;
    st_open_guarded(T, near, P, frozen, guarded);
    StAnalysis analysis, *W = &analysis;
    W->n = 0;
    int roomy[2] = {P->castling != 0, P->castling != 0};
    StPromotions promotions; /* the promotions' floods, as the static stage makes them (walls: W's) */
    if (full) memset(promotions.known, 0, sizeof(promotions.known));
    u64 prey[2] = {0, 0}; /* by the colour that takes */
    /* the pieces first: their regions are prey for the other side's pawns */
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < 2; c++)
            for (int t = 0; t < T->ntypes; t++) {
                if (t == T->royal || (t == T->pawn) != pass) continue;
                for (u64 b = P->bb[c][t] & ~frozen[c]; b; b &= b - 1) {
                    StUnit *u = &W->u[W->n++];
                    u->type = t; u->color = c; u->square = lsb(b); u->royal = 0;
                    u64 at = 1ULL << u->square;
                    if (t != T->pawn && !full) {
                        u->region = at | (st_attacks(T, t, c, u->square, walls) & ~walls);
                        u->reach = set_attacks(T, t, c, u->region, walls);
                    } else if (t != T->pawn) {
                        st_flood(T, t, c, at, walls, ~walls, &u->region, &u->reach);
                        prey[1 - c] |= u->region;
                    } else if (!full) {
                        u->region = at;
                        u->reach = T->pawn_cap[c][u->square];
                    } else {
                        u64 open = ~walls & ~pawns, take = (prey[c] | (P->occ[1 - c] & ~P->bb[1 - c][T->royal])) & ~walls;
                        u64 region = at, reach = 0, frontier = at, promotion = 0;
                        while (frontier) {
                            u64 fresh = 0;
                            for (u64 f = frontier; f; f &= f - 1) {
                                int sq = lsb(f);
                                if (T->promo_rank[c] >> sq & 1) { promotion |= 1ULL << sq; continue; }
                                reach |= T->pawn_cap[c][sq];
                                u64 push = T->pawn_push[c][sq] & open;
                                if (push) fresh |= push | (T->pawn_double[c][sq] & open);
                                fresh |= T->pawn_cap[c][sq] & take;
                            }
                            frontier = fresh & ~region;
                            region |= fresh;
                        }
                        if (promotion) {
                            u64 r, a;
                            st_promotion_floods(T, &promotions, c, promotion, walls, &r, &a);
                            region |= r;
                            reach |= a;
                        }
                        u->region = region;
                        u->reach = reach;
                    }
                    if (u->region & ~at) roomy[c] = 1;
                }
            }
    for (int c = 0; c < 2; c++) {
        StUnit *u = &W->u[W->n++];
        u->type = T->royal; u->color = c; u->square = lsb(P->bb[c][T->royal]); u->royal = 1;
        u64 at = 1ULL << u->square;
        if (roomy[1 - c]) st_flood(T, T->royal, c, at, walls, ~walls & ~guarded[1 - c], &u->region, &u->reach);
        else u->region = at, u->reach = st_attacks(T, T->royal, c, u->square, walls);
    }
    long budget = OPEN_BUDGET;
    return !st_cannot_mate_with(T, W, color, walls, 0, 0, &budget);
}

/* 1 if the static stage provably does not prove ``color`` unable to mate (see above);
 * 0 says nothing. */
static int st_open(const Tables *T, const Pos *P, int color) {
    for (int c = 0; c < 2; c++)
        if (popcount(P->bb[c][T->royal]) != 1) return 0; /* one king a side: st_king's */
    const u64 (*near)[2][64] = st_near(T);
    if (!near || !st_open_fits(T)) return 0;
    return st_open_with(T, near, P, color, 0) || st_open_with(T, near, P, color, 1);
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
