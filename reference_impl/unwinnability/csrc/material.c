/* The material proof's search (reference_impl/unwinnability/material.py is its
 * specification), compiled. Part of _native.c, included after board.c and the Python
 * glue (load_tables_cached).
 *
 * Partial positions are grown one unit at a time exactly as material.py's _Search grows
 * them: the same loser king squares (up to the symmetries that keep every region), the
 * same obligation with the fewest candidates (the first of them on a tie), the
 * candidates in the same order, the same positions counted once (the set of placed
 * units), the same node limit. So it visits the same partial positions in the same order
 * and gives the same answer: no mate (a proof), a leaf that meets every obligation (the
 * caller confirms it with the Board, as _Search._confirm), or the limit. The one test it
 * does not make itself, whether a leaf's checks fit one last move (the Board's FEN
 * test, O6), it asks of the caller.
 */

#define MAT_MAXCLS 64
#define MAT_MAXUNITS 64

enum { MAT_NONE = 0, MAT_LEAF = 1, MAT_ABORT = 2 };

typedef struct { int color, type, count; u64 region; } MatClass;

typedef struct { int *v; int n, cap; } MatList; /* candidates: cid << 6 | square */

typedef struct {
    const Tables *T;
    int n, winner, loser, loser_king, winner_king;
    MatClass cls[MAT_MAXCLS];
    int loser_units[MAT_MAXCLS], nloser;
    int winner_units[MAT_MAXCLS], nwinner;
    int every[MAT_MAXCLS];
    long long nodes, limit;
    int np, psq[MAT_MAXUNITS], pcid[MAT_MAXUNITS]; /* placed units, in the order placed */
    int used[MAT_MAXCLS];
    unsigned char board[64]; /* class + 1 on each square, 0 empty */
    u64 hash;
    /* the positions grown so far (their boards), open addressing on the hash */
    unsigned char (*seen)[64];
    u64 *seen_hash;
    unsigned char *seen_used;
    size_t seen_mask;
    /* the obligations' candidate lists of one node: all in ``cands``, each a segment */
    MatList cands;
    int *seg_start, *seg_len, nseg, seg_cap;
    PyObject *fen_ok; /* O6: does this leaf's position pass the Board's FEN test? */
    int error;        /* a Python exception is set */
} MatSearch;

static int mat_push(MatList *L, int value) {
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 256;
        int *v = realloc(L->v, (size_t)cap * sizeof(int));
        if (!v) return 0;
        L->v = v, L->cap = cap;
    }
    L->v[L->n++] = value;
    return 1;
}

/* ---------------------------------------------------------------- the move layer's facts */

/* Whether some rider reaches a square along two rays (material.py's _paths gives None:
 * one blocker may not do, no proof is attempted), per tables digest. */
static u64 mat_paths_checked_id;
static int mat_paths_checked, mat_paths_ok;

static int mat_paths_fit(const Tables *T) {
    if (mat_paths_checked && mat_paths_checked_id == T->id) return mat_paths_ok;
    int ok = 1;
    for (int t = 0; t < T->ntypes && ok; t++)
        for (int c = 0; c < 2 && ok; c++)
            for (int a = 0; a < 64 && ok; a++) {
                u64 seen = 0;
                for (int i = 0; i < T->ndir[t][c] && ok; i++)
                    for (int s = square_step(a, T->dirs[t][c][i]); s != NONE; s = square_step(s, T->dirs[t][c][i])) {
                        if (seen >> s & 1) { ok = 0; break; }
                        seen |= 1ULL << s;
                    }
            }
    mat_paths_checked = 1, mat_paths_checked_id = T->id, mat_paths_ok = ok;
    return ok;
}

/* The squares strictly between a unit of type t (colour c) on a and the square b it
 * reaches (0 for a leap, which cannot be blocked; material.py's paths). */
static u64 mat_path(const Tables *T, int t, int c, int a, int b) {
    if (T->leaps[t][c][a] >> b & 1) return 0;
    for (int i = 0; i < T->ndir[t][c]; i++) {
        u64 passed = 0;
        for (int s = square_step(a, T->dirs[t][c][i]); s != NONE; s = square_step(s, T->dirs[t][c][i])) {
            if (s == b) return passed;
            passed |= 1ULL << s;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- the obligations */

/* free(): the empty squares of ``squares`` in each class's region, for each class of
 * ``cids`` with a unit left, class by class, squares in increasing order. */
static int mat_free(MatSearch *S, const int *cids, int ncids, u64 squares, u64 occ) {
    for (int i = 0; i < ncids; i++) {
        int cid = cids[i];
        if (S->used[cid] >= S->cls[cid].count) continue;
        u64 b = squares & S->cls[cid].region & ~occ;
        while (b) {
            if (!mat_push(&S->cands, cid << 6 | lsb(b))) return 0;
            b &= b - 1;
        }
    }
    return 1;
}

static int mat_blockers(MatSearch *S, int t, int c, int a, int b, u64 occ) {
    return mat_free(S, S->every, S->n, mat_path(S->T, t, c, a, b), occ);
}

/* attackers(): the free squares from which a winner unit would attack ``target``. */
static int mat_attackers(MatSearch *S, int target, u64 occupied, u64 exclude, u64 occ) {
    for (int i = 0; i < S->nwinner; i++) {
        int cid = S->winner_units[i];
        u64 from = attackers_of(S->T, S->cls[cid].type, S->winner, target, occupied) & ~exclude;
        if (!mat_free(S, &cid, 1, from, occ)) return 0;
    }
    return 1;
}

/* attacked(): does a placed winner unit (not the one on ``captured``) attack ``target``? */
static int mat_attacked(const MatSearch *S, int target, u64 occupied, int captured) {
    for (int i = 0; i < S->np; i++) {
        int cid = S->pcid[i];
        if (S->cls[cid].color != S->winner || S->psq[i] == captured) continue;
        if (attacks(S->T, S->cls[cid].type, S->winner, S->psq[i], occupied) >> target & 1) return 1;
    }
    return 0;
}

static int mat_segment(MatSearch *S, int start) {
    if (S->nseg == S->seg_cap) {
        int cap = S->seg_cap ? 2 * S->seg_cap : 64;
        int *a = realloc(S->seg_start, (size_t)cap * sizeof(int)), *b;
        if (!a) return 0;
        S->seg_start = a;
        b = realloc(S->seg_len, (size_t)cap * sizeof(int));
        if (!b) return 0;
        S->seg_len = b, S->seg_cap = cap;
    }
    S->seg_start[S->nseg] = start;
    S->seg_len[S->nseg] = S->cands.n - start;
    S->nseg++;
    return 1;
}

/* _enough(): can the units left meet the failed obligations (those with pairwise
 * disjoint candidate squares need a unit each; those offering one side's units only,
 * that side's)? */
static int mat_enough(MatSearch *S) {
    int order[S->nseg > 0 ? S->nseg : 1];
    for (int i = 0; i < S->nseg; i++) { /* a stable sort by length, as sorted(failed, key=len) */
        int j = i;
        while (j > 0 && S->seg_len[order[j - 1]] > S->seg_len[i]) { order[j] = order[j - 1]; j--; }
        order[j] = i;
    }
    int sides[3] = {-1, S->winner, S->loser};
    for (int k = 0; k < 3; k++) {
        int side = sides[k], needed = 0, have = 0;
        u64 taken = 0;
        for (int i = 0; i < S->nseg; i++) {
            int seg = order[i], start = S->seg_start[seg], len = S->seg_len[seg], other = 0;
            u64 squares = 0;
            for (int j = 0; j < len; j++) {
                int cand = S->cands.v[start + j];
                if (side >= 0 && S->cls[cand >> 6].color != side) other = 1;
                squares |= 1ULL << (cand & 63);
            }
            if (other) continue;
            if (!(squares & taken)) taken |= squares, needed++;
        }
        for (int i = 0; i < S->n; i++)
            if (side < 0 || S->cls[i].color == side) have += S->cls[i].count - S->used[i];
        if (needed > have) return 0;
    }
    return 1;
}

/* Does the Board's FEN test accept the placed units as a position (O6)? -1 on a Python error. */
static int mat_fen_ok(MatSearch *S) {
    PyObject *answer = PyObject_CallFunction(S->fen_ok, "y#", (const char *)S->board, (Py_ssize_t)64);
    if (!answer) return -1;
    int ok = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    return ok;
}

/* _obligation(): 1 when the placed units are a mate (no obligation fails and the FEN
 * test passes), else 0 with the candidates of the failed obligation with fewest of them
 * in S->cands[*start, *start + *len) (none: no mate extends the units); -1 on an error. */
static int mat_obligation(MatSearch *S, int *start, int *len) {
    const Tables *T = S->T;
    u64 occ_by[2] = {0, 0};
    int k = NONE, w = NONE;
    for (int i = 0; i < S->np; i++) {
        int cid = S->pcid[i], c = S->cls[cid].color;
        occ_by[c] |= 1ULL << S->psq[i];
        if (S->cls[cid].type == T->royal) {
            if (c == S->loser && k == NONE) k = S->psq[i];
            if (c == S->winner && w == NONE) w = S->psq[i];
        }
    }
    u64 occ = occ_by[0] | occ_by[1];
    S->cands.n = 0;
    S->nseg = 0;
    int best = -1;
#define MAT_CONSIDER(begin)                                                          \
    do {                                                                             \
        if (!mat_segment(S, begin)) return -1;                                       \
        if (best < 0 || S->seg_len[S->nseg - 1] < S->seg_len[best]) best = S->nseg - 1; \
        if (S->seg_len[S->nseg - 1] == 0) goto chosen;                              \
    } while (0)
    if (w != NONE) { /* O4: the winner king is not attacked */
        for (int i = 0; i < S->np; i++) {
            int cid = S->pcid[i], t = S->cls[cid].type, sq = S->psq[i];
            if (S->cls[cid].color != S->loser || !(attacks(T, t, S->loser, sq, occ) >> w & 1)) continue;
            int begin = S->cands.n;
            if (!mat_blockers(S, t, S->loser, sq, w, occ)) return -1;
            MAT_CONSIDER(begin);
        }
    }
    if (!mat_attacked(S, k, occ, -1)) { /* O1: the loser king is in check */
        int begin = S->cands.n;
        if (!mat_attackers(S, k, occ, 0, occ)) return -1;
        MAT_CONSIDER(begin);
    }
    { /* O2: no king step is legal */
        u64 steps = attacks(T, T->royal, S->loser, k, occ) & ~occ_by[S->loser];
        while (steps) {
            int b = lsb(steps);
            steps &= steps - 1;
            u64 after = (occ & ~(1ULL << k)) | 1ULL << b;
            if (mat_attacked(S, b, after, b)) continue;
            int begin = S->cands.n;
            if (!mat_free(S, S->loser_units, S->nloser, 1ULL << b, occ) ||
                !mat_blockers(S, T->royal, S->loser, k, b, occ) || !mat_attackers(S, b, after, 1ULL << b, occ))
                return -1;
            MAT_CONSIDER(begin);
        }
    }
    for (int i = 0; i < S->np; i++) { /* O3: no other loser move is legal */
        int cid = S->pcid[i], t = S->cls[cid].type, a = S->psq[i];
        if (S->cls[cid].color != S->loser || t == T->royal) continue;
        u64 moves = attacks(T, t, S->loser, a, occ) & ~occ_by[S->loser];
        while (moves) {
            int b = lsb(moves);
            moves &= moves - 1;
            u64 after = (occ & ~(1ULL << a)) | 1ULL << b;
            if (mat_attacked(S, k, after, b)) continue;
            int begin = S->cands.n;
            if (!mat_free(S, S->loser_units, S->nloser, 1ULL << b, occ) || !mat_blockers(S, t, S->loser, a, b, occ) ||
                !mat_attackers(S, k, after, 1ULL << b, occ))
                return -1;
            MAT_CONSIDER(begin);
        }
    }
    if (w == NONE) { /* O5: the winner king is placed */
        int begin = S->cands.n;
        if (!mat_free(S, &S->winner_king, 1, ~0ULL, occ)) return -1;
        MAT_CONSIDER(begin);
    }
#undef MAT_CONSIDER
    if (best >= 0) {
        if (!mat_enough(S)) {
            *start = 0, *len = 0;
            return 0;
        }
        goto chosen;
    }
    { /* O6: the checks must fit one last move (the Board's own FEN test) */
        int ok = mat_fen_ok(S);
        if (ok < 0) return -1;
        if (ok) return 1;
        S->cands.n = 0;
        if (!mat_attackers(S, k, occ, 0, occ)) return -1;
        for (int i = 0; i < S->np; i++) {
            int cid = S->pcid[i], t = S->cls[cid].type, sq = S->psq[i];
            if (S->cls[cid].color == S->winner && attacks(T, t, S->winner, sq, occ) >> k & 1)
                if (!mat_blockers(S, t, S->winner, sq, k, occ)) return -1;
        }
        *start = 0, *len = S->cands.n;
        return 0;
    }
chosen:
    *start = S->seg_start[best], *len = S->seg_len[best];
    return 0;
}

/* ---------------------------------------------------------------- the growth */

/* Random keys of (square, class), for the hash of a set of placed units. */
static u64 mat_zobrist[64][MAT_MAXCLS];
static int mat_zobrist_made;

static void mat_make_zobrist(void) {
    u64 state = 0x6d617465726961ULL;
    for (int sq = 0; sq < 64; sq++)
        for (int c = 0; c < MAT_MAXCLS; c++) mat_zobrist[sq][c] = splitmix(&state);
    mat_zobrist_made = 1;
}

static void mat_place(MatSearch *S, int sq, int cid) {
    S->psq[S->np] = sq, S->pcid[S->np] = cid, S->np++;
    S->used[cid]++;
    S->board[sq] = (unsigned char)(cid + 1);
    S->hash ^= mat_zobrist[sq][cid];
}

static void mat_unplace(MatSearch *S) {
    S->np--;
    int sq = S->psq[S->np], cid = S->pcid[S->np];
    S->used[cid]--;
    S->board[sq] = 0;
    S->hash ^= mat_zobrist[sq][cid];
}

/* Is the set of placed units new? It is kept if so (the positions grown are at most the
 * node limit plus one; the table holds twice that). */
static int mat_new(MatSearch *S) {
    size_t i = (size_t)S->hash & S->seen_mask;
    while (S->seen_used[i]) {
        if (S->seen_hash[i] == S->hash && !memcmp(S->seen[i], S->board, 64)) return 0;
        i = (i + 1) & S->seen_mask;
    }
    S->seen_used[i] = 1;
    S->seen_hash[i] = S->hash;
    memcpy(S->seen[i], S->board, 64);
    return 1;
}

static int mat_grow(MatSearch *S) {
    if (!mat_new(S)) return MAT_NONE;
    if (++S->nodes > S->limit) return MAT_ABORT;
    int start, len;
    int found = mat_obligation(S, &start, &len);
    if (found < 0) {
        S->error = 1;
        return MAT_ABORT;
    }
    if (found) return MAT_LEAF;
    if (!len) return MAT_NONE;
    int *mine = malloc((size_t)len * sizeof(int)); /* the next node reuses S->cands */
    if (!mine) {
        PyErr_NoMemory();
        S->error = 1;
        return MAT_ABORT;
    }
    memcpy(mine, S->cands.v + start, (size_t)len * sizeof(int));
    int result = MAT_NONE;
    for (int i = 0; i < len && result == MAT_NONE; i++) {
        mat_place(S, mine[i] & 63, mine[i] >> 6);
        result = mat_grow(S);
        if (result != MAT_LEAF) mat_unplace(S); /* a leaf's units are the answer */
    }
    free(mine);
    return result;
}

/* run(): each loser king square up to the symmetries, the search from the king alone. */
static int mat_run(MatSearch *S, const unsigned char (*symmetries)[64], int nsym) {
    if (S->loser_king < 0 || S->winner_king < 0) return MAT_NONE;
    u64 done = 0, squares = S->cls[S->loser_king].region;
    while (squares) {
        int k = lsb(squares);
        squares &= squares - 1;
        if (done >> k & 1) continue;
        for (int m = 0; m < nsym; m++) done |= 1ULL << symmetries[m][k];
        memset(S->used, 0, sizeof(S->used)); /* the king's own class holds one unit placed */
        mat_place(S, k, S->loser_king);
        int result = mat_grow(S);
        if (result != MAT_NONE) return result;
        mat_unplace(S);
    }
    return MAT_NONE;
}

static u64 mat_map(const unsigned char *m, u64 b) {
    u64 out = 0;
    while (b) {
        out |= 1ULL << m[lsb(b)];
        b &= b - 1;
    }
    return out;
}

/* material_search(tables, classes, winner, node_limit, symmetries, fen_ok)
 *   -> (status, board, nodes): status 0 no mate (the proof), 1 a leaf meeting every
 *   obligation (board: 64 bytes, the class + 1 on each square), 2 the node limit ran out,
 *   3 no proof is attempted (a rider reaches a square along two rays); None when the
 *   material is too large for the compiled search (the caller searches in Python).
 *   classes: (colour, type, region, count) in material.py's order; symmetries: the board
 *   maps (64 bytes each) that keep every piece's moves; fen_ok(board) -> bool. */
static PyObject *py_material_search(PyObject *self, PyObject *args) {
    Py_buffer tables;
    PyObject *classes, *symmetries, *fen_ok, *result = NULL;
    int winner;
    long long limit;
    if (!PyArg_ParseTuple(args, "y*O!iLO!O", &tables, &PyTuple_Type, &classes, &winner, &limit, &PyTuple_Type,
                          &symmetries, &fen_ok))
        return NULL;
    MatSearch *S = calloc(1, sizeof(MatSearch));
    Tables *T = malloc(sizeof(Tables));
    unsigned char (*maps)[64] = NULL;
    if (!S || !T) {
        PyErr_NoMemory();
        goto done;
    }
    if (tables.len % 8 || !load_tables_cached(T, (const u64 *)tables.buf, tables.len / 8)) {
        PyErr_SetString(PyExc_ValueError, "malformed tables");
        goto done;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(classes), nsym = PyTuple_GET_SIZE(symmetries);
    if (n > MAT_MAXCLS) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    S->T = T, S->n = (int)n, S->winner = winner & 1, S->loser = 1 - (winner & 1), S->limit = limit;
    S->loser_king = S->winner_king = -1;
    int units = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        MatClass *C = &S->cls[i];
        unsigned long long region;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(classes, i), "iiKi", &C->color, &C->type, &region, &C->count)) goto done;
        C->region = region;
        if (C->color < 0 || C->color > 1 || C->type < 0 || C->type >= T->ntypes || C->count < 0) {
            PyErr_SetString(PyExc_ValueError, "malformed material class");
            goto done;
        }
        units += C->count;
        S->every[i] = (int)i;
        if (C->color == S->loser && C->type == T->royal && S->loser_king < 0) S->loser_king = (int)i;
        if (C->color == S->winner && C->type == T->royal && S->winner_king < 0) S->winner_king = (int)i;
        if (C->color == S->loser && C->type != T->royal) S->loser_units[S->nloser++] = (int)i;
        if (C->color == S->winner) S->winner_units[S->nwinner++] = (int)i;
    }
    if (units > MAT_MAXUNITS) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (!mat_paths_fit(T)) {
        result = Py_BuildValue("(iOL)", 3, Py_None, 0LL);
        goto done;
    }
    maps = malloc((size_t)(nsym ? nsym : 1) * 64);
    if (!maps) {
        PyErr_NoMemory();
        goto done;
    }
    int kept = 0;
    for (Py_ssize_t m = 0; m < nsym; m++) { /* those that keep every region */
        PyObject *map = PyTuple_GET_ITEM(symmetries, m);
        if (!PyBytes_Check(map) || PyBytes_GET_SIZE(map) != 64) {
            PyErr_SetString(PyExc_ValueError, "a symmetry is 64 bytes");
            goto done;
        }
        const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(map);
        int keeps = 1;
        for (int i = 0; i < S->n && keeps; i++) keeps = mat_map(bytes, S->cls[i].region) == S->cls[i].region;
        if (keeps) memcpy(maps[kept++], bytes, 64);
    }
    if (!mat_zobrist_made) mat_make_zobrist();
    size_t size = 64;
    while (size < 2 * (size_t)(limit > 0 ? limit + 1 : 1)) size <<= 1;
    S->seen = malloc(size * 64);
    S->seen_hash = malloc(size * sizeof(u64));
    S->seen_used = calloc(size, 1);
    if (!S->seen || !S->seen_hash || !S->seen_used) {
        PyErr_NoMemory();
        goto done;
    }
    S->seen_mask = size - 1;
    S->fen_ok = fen_ok;
    int status = mat_run(S, (const unsigned char (*)[64])maps, kept);
    if (S->error) goto done;
    if (status == MAT_LEAF)
        result = Py_BuildValue("(iy#L)", 1, (const char *)S->board, (Py_ssize_t)64, S->nodes);
    else
        result = Py_BuildValue("(iOL)", status == MAT_ABORT ? 2 : 0, Py_None, S->nodes);
done:
    if (S) {
        free(S->cands.v);
        free(S->seg_start);
        free(S->seg_len);
        free(S->seen);
        free(S->seen_hash);
        free(S->seen_used);
    }
    free(maps);
    free(S);
    free(T);
    PyBuffer_Release(&tables);
    return result;
}
