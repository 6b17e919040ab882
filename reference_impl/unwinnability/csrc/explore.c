/* The exhaustive exploration of every reachable position.
 * Part of _native.c, one compilation unit that includes this file after the parts it
 * uses. */

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
