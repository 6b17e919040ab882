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

/* The slot holding ``r`` (its key ``key``), or -1 if the set does not hold it. */
static long long visited_find(const VisitedSet *V, const Record *r, u64 key) {
    key |= 1;
    size_t i = key & V->mask;
    while (V->slots[i].key) {
        if (V->slots[i].key == key && !memcmp(&V->slots[i].record, r, sizeof(Record))) return (long long)i;
        i = (i + 1) & V->mask;
    }
    return -1;
}

/* The record of the position ``P`` (the e.p. square only where a legal capture exists).
 * Records are compared whole (memcmp), so the bytes the compiler pads them with are
 * cleared first: left as they were, one position could be told apart from itself. */
static void record_of(const Tables *T, Pos *P, Record *r) {
    memset(r, 0, sizeof(*r));
    memcpy(r->mailbox, P->mailbox, 64);
    r->castling = P->castling;
    r->turn = (signed char)P->turn;
    r->ep = (signed char)legal_ep(T, P);
}

/* The position a record holds (the inverse of record_of). */
static void position_of(const Tables *T, const Record *r, Pos *P) {
    memset(P, 0, sizeof(*P));
    for (int sq = 0; sq < 64; sq++) {
        P->mailbox[sq] = -1;
        if (r->mailbox[sq] >= 0) put(T, P, sq, r->mailbox[sq] >> 4, r->mailbox[sq] & 15);
    }
    P->turn = r->turn;
    P->castling = r->castling;
    P->ep = r->ep;
}

/*
 * The shortest mating line within the positions a walk visited: a breadth-first pass
 * from the root over the visited set, each move followed only to a position the set
 * holds, until a checkmate by each colour of ``wanted`` (a bitmask) is met. The walk is
 * depth first, so the path it first met a mate by is as long as its stack was then (a
 * hundred thousand plies in a position with many bishops); the pass gives the shortest
 * line through the same positions, which are already known to be reachable. Each
 * visited position is expanded at most once, so the pass costs at most what the walk
 * did; its moves are not charged to the node limit (it proves nothing new, and the
 * line it returns is replayed like any other). ``lines[c]`` receives a new list per
 * colour found; returns -1 on a memory or Python error or a signal (exception set),
 * else 0.
 */
static int shortest_mates(const Tables *T, const VisitedSet *V, const Pos *root, int wanted, PyObject **lines) {
    size_t size = V->mask + 1;
    uint32_t *parent = calloc(size, sizeof(uint32_t)); /* 0: not reached; else parent slot + 1 */
    int *via = malloc(size * sizeof(int));
    uint32_t *queue = malloc((V->count + 1) * sizeof(uint32_t));
    int status = 0;
    if (!parent || !via || !queue) { PyErr_NoMemory(); status = -1; goto done; }
    Pos P = *root;
    Record r;
    record_of(T, &P, &r);
    long long start = visited_find(V, &r, identity(T, &P));
    if (start < 0) goto done;
    size_t head = 0, tail = 0;
    parent[start] = (uint32_t)start + 1;
    queue[tail++] = (uint32_t)start;
    while (head < tail && wanted) {
        if ((head & 0xFFFF) == 0 && PyErr_CheckSignals() < 0) { status = -1; goto done; } /* Ctrl-C */
        uint32_t slot = queue[head++];
        position_of(T, &V->slots[slot].record, &P);
        P.key = full_key(T, &P);
        int moves[MAXMOVES];
        int n = legal_moves(T, &P, moves);
        if (n == 0) {
            int winner = P.turn ^ 1;
            if ((wanted >> winner & 1) && in_check(T, &P)) {
                int length = 0;
                for (uint32_t s = slot; s != (uint32_t)start; s = parent[s] - 1) length++;
                PyObject *line = PyList_New(length);
                if (!line) { status = -1; goto done; }
                for (uint32_t s = slot; s != (uint32_t)start; s = parent[s] - 1) {
                    PyObject *move = PyLong_FromLong(via[s]);
                    if (!move) { Py_DECREF(line); status = -1; goto done; }
                    PyList_SET_ITEM(line, --length, move);
                }
                lines[winner] = line;
                wanted &= ~(1 << winner);
            }
            continue;
        }
        for (int i = 0; i < n; i++) {
            Undo u;
            make(T, &P, moves[i], &u);
            record_of(T, &P, &r);
            long long next = visited_find(V, &r, identity(T, &P));
            unmake(T, &P, &u);
            if (next < 0 || parent[next]) continue;
            parent[next] = slot + 1;
            via[next] = moves[i];
            queue[tail++] = (uint32_t)next;
        }
    }
done:
    free(parent); free(via); free(queue);
    return status;
}

/* Is ``m`` a capture or a pawn move (castling is neither): after it no earlier position
 * comes back, and the static stage may close what lies below. */
static inline int irreversible(const Tables *T, const Pos *P, int m) {
    return (m >> 16 != FLAG_CASTLE) &&
           (P->mailbox[m >> 6 & 63] >= 0 || m >> 16 == FLAG_EP || (P->mailbox[m & 63] & 15) == T->pawn);
}

/*
 * Shortening a line between its irreversible moves. The moves of a line that are
 * captures, pawn moves or change the castling rights cut it into segments of
 * reversible moves, each leading from a position to one with the same units on other
 * squares. A long segment is replaced by a line found by a greedy best-first search
 * from its first position to its last, among reversible moves keeping the castling
 * rights, on an estimate of the moves left: for each colour and type, the units'
 * squares paired (greedily, closest first) with the target's, each pair costing the
 * moves that type needs between them on an empty board. The replacement reaches the
 * same position, so the moves after it stay legal and the line still ends in its mate.
 */

/* Moves a unit of type ``t`` and colour ``c`` needs between two squares on an empty
 * board (255: never): ``d[from * 64 + to]``. Pawns get none (they never move here). */
static void unit_distances(const Tables *T, int t, int c, unsigned char *d) {
    memset(d, 255, 64 * 64);
    if (t == T->pawn) return;
    for (int from = 0; from < 64; from++) {
        unsigned char *row = d + from * 64;
        int queue[64], head = 0, tail = 0;
        row[from] = 0;
        queue[tail++] = from;
        while (head < tail) {
            int sq = queue[head++];
            for (u64 b = attacks(T, t, c, sq, 0); b; b &= b - 1) {
                int to = lsb(b);
                if (row[to] == 255) { row[to] = (unsigned char)(row[sq] + 1); queue[tail++] = to; }
            }
        }
    }
}

/* Moves a unit needs to cross a square it can never reach: more than any real distance. */
#define UNREACHABLE_COST 16

/* The estimate of moves from ``P`` to ``goal`` (same units on both boards). */
static int moves_to(const Tables *T, const Pos *P, const Pos *goal, const unsigned char *dist) {
    int total = 0;
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < T->ntypes; t++) {
            u64 here = P->bb[c][t] & ~goal->bb[c][t], there = goal->bb[c][t] & ~P->bb[c][t];
            const unsigned char *d = dist + (size_t)(c * T->ntypes + t) * 4096;
            while (here && there) {
                int best = 1 << 20, bf = 0, bt = 0;
                for (u64 a = here; a; a &= a - 1)
                    for (u64 b = there; b; b &= b - 1) {
                        int v = d[lsb(a) * 64 + lsb(b)];
                        if (v == 255) v = UNREACHABLE_COST;
                        if (v < best) { best = v; bf = lsb(a); bt = lsb(b); }
                    }
                total += best;
                here &= ~(1ULL << bf);
                there &= ~(1ULL << bt);
            }
        }
    return total;
}

/* Does ``m`` keep the line inside a segment: no capture, no pawn move, no castling and
 * no change of the castling rights? */
static int reversible(const Tables *T, Pos *P, int m) {
    if (m >> 16 == FLAG_CASTLE || irreversible(T, P, m)) return 0;
    Undo u;
    u64 before = P->castling;
    make(T, P, m, &u);
    int same = P->castling == before;
    unmake(T, P, &u);
    return same;
}

/* A line of reversible moves from ``start`` to ``goal`` of at most ``max_length`` plies,
 * written to ``out``; its length, or -1 if none was found within ``budget`` moves. */
static int reach_position(const Tables *T, const Pos *start, const Pos *goal, const unsigned char *dist,
                          int max_length, long long budget, int *out) {
    long long cap = budget + 2;
    BFNode *nodes = malloc(sizeof(BFNode) * (size_t)cap);
    HeapItem *heap = malloc(sizeof(HeapItem) * (size_t)cap);
    size_t seen_size = 1;
    while (seen_size < (size_t)cap * 2) seen_size <<= 1;
    u64 *seen = calloc(seen_size, sizeof(u64));
    int result = -1;
    if (!nodes || !heap || !seen) goto done;
    Pos P = *start;
    u64 target = identity(T, goal) | 1;
    int count = 1, size = 0;
    nodes[0].parent = -1; nodes[0].move = 0; nodes[0].depth = 0;
    heap_push(heap, &size, (HeapItem){0, 0});
    seen[(identity(T, &P) | 1) & (seen_size - 1)] = identity(T, &P) | 1;
    long long spent = 0;
    while (size > 0) {
        HeapItem item = heap_pop(heap, &size);
        /* rebuild the position by replaying its path from the start */
        int path[MAXPLY], n = 0;
        for (int i = item.node; i > 0 && n < MAXPLY; i = nodes[i].parent) path[n++] = nodes[i].move;
        P = *start;
        Undo u;
        for (int i = n - 1; i >= 0; i--) make(T, &P, path[i], &u);
        if (nodes[item.node].depth >= max_length - 1) continue;
        int moves[MAXMOVES];
        int k = legal_moves(T, &P, moves);
        for (int i = 0; i < k; i++) {
            if (!reversible(T, &P, moves[i])) continue;
            if (spent >= budget || count >= cap) goto done;
            make(T, &P, moves[i], &u);
            spent++;
            u64 key = identity(T, &P) | 1;
            size_t slot = key & (seen_size - 1);
            while (seen[slot] && seen[slot] != key) slot = (slot + 1) & (seen_size - 1);
            if (!seen[slot]) {
                seen[slot] = key;
                nodes[count].parent = item.node; nodes[count].move = moves[i];
                nodes[count].depth = nodes[item.node].depth + 1;
                if (key == target && !memcmp(P.mailbox, goal->mailbox, 64) && P.turn == goal->turn) {
                    result = nodes[count].depth;
                    for (int j = count, at = result; j > 0; j = nodes[j].parent) out[--at] = nodes[j].move;
                    goto done;
                }
                heap_push(heap, &size, (HeapItem){4 * moves_to(T, &P, goal, dist) + nodes[count].depth, count});
                count++;
            }
            unmake(T, &P, &u);
        }
    }
done:
    free(nodes); free(heap); free(seen);
    return result;
}

/* Segments shorter than this are kept as they are. */
#define SHORT_SEGMENT 12
/* Moves the search for a shorter segment may make (each segment afresh). */
#define SEGMENT_BUDGET 200000

/* ``line`` (``n`` moves from ``root``) with each long segment replaced by a shorter line
 * to the same position where one is found (``budget`` moves per segment); the new
 * length, the moves rewritten in place. 0 moves made if the line is short already. */
static int shorten_line(const Tables *T, const Pos *root, int *line, int n, long long budget) {
    unsigned char *dist = malloc((size_t)2 * T->ntypes * 4096);
    int *out = malloc(sizeof(int) * (size_t)(n + 1));
    int *piece = malloc(sizeof(int) * MAXPLY);
    int length = 0;
    if (!dist || !out || !piece) { free(dist); free(out); free(piece); return n; }
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < T->ntypes; t++) unit_distances(T, t, c, dist + (size_t)(c * T->ntypes + t) * 4096);
    Pos P = *root, from = *root;
    int first = 0; /* the segment's first move */
    for (int i = 0; i <= n; i++) {
        int boundary = i == n || !reversible(T, &P, line[i]);
        if (boundary) {
            int plies = i - first, found = -1;
            if (plies >= SHORT_SEGMENT) {
                int cap = plies - 1 < MAXPLY ? plies - 1 : MAXPLY;
                found = reach_position(T, &from, &P, dist, cap, budget, piece);
            }
            if (found >= 0) for (int j = 0; j < found; j++) out[length++] = piece[j];
            else for (int j = first; j < i; j++) out[length++] = line[j];
            if (i < n) out[length++] = line[i];
            first = i + 1;
        }
        if (i < n) {
            Undo u;
            make(T, &P, line[i], &u);
            if (boundary) from = P;
        }
    }
    memcpy(line, out, sizeof(int) * (size_t)length);
    free(dist); free(out); free(piece);
    return length;
}

typedef struct { int start, count, index, move; Undo undo; } Level;

/* The caller's proof in a position without pawns (material.py's) answers by the material
 * alone: the castling rights, the colours asked, and each unit's colour, type and region
 * on an empty board (its answers are a function of these: cached so there), so one walk
 * asks it once per material and the other positions take its answer from here. */
#define PROOF_MEMO 256
typedef struct {
    int open, n, proven;
    u64 castling;
    unsigned short kind[64]; /* colour << 8 | type, per unit, in order */
    u64 region[64];
} ProofKey;

typedef struct {
    int count;
    ProofKey *keys;
} ProofMemo;

/* Empty-board regions per type, colour and square, per move layer (computed when asked). */
static u64 (*empty_regions)[2][64];
static u64 empty_known[MAXT][2], empty_regions_id;

static u64 empty_region(const Tables *T, int t, int c, int sq) {
    if (!empty_regions) empty_regions = malloc(sizeof(u64) * MAXT * 2 * 64);
    if (!empty_regions) return 0;
    if (empty_regions_id != T->id) {
        memset(empty_known, 0, sizeof(empty_known));
        empty_regions_id = T->id;
    }
    if (!(empty_known[t][c] >> sq & 1)) {
        u64 reach;
        st_flood(T, t, c, 1ULL << sq, 0, ~0ULL, &empty_regions[t][c][sq], &reach);
        empty_known[t][c] |= 1ULL << sq;
    }
    return empty_regions[t][c][sq];
}

/* ``P``'s material key for ``open``: its units by colour and type, each group's regions in
 * increasing order. 0 when it cannot be made (no memory, too many units). */
static int proof_key(const Tables *T, const Pos *P, int open, ProofKey *k) {
    k->open = open, k->castling = P->castling, k->n = 0, k->proven = 0;
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < T->ntypes; t++) {
            int first = k->n;
            for (u64 b = P->bb[c][t]; b; b &= b - 1) {
                if (k->n == 64) return 0;
                u64 r = empty_region(T, t, c, lsb(b));
                if (!r) return 0;
                int i = k->n++;
                while (i > first && k->region[i - 1] > r) { k->region[i] = k->region[i - 1]; i--; }
                k->region[i] = r;
            }
            for (int i = first; i < k->n; i++) k->kind[i] = (unsigned short)(c << 8 | t);
        }
    return 1;
}

static ProofKey *proof_find(ProofMemo *M, const ProofKey *k) {
    for (int i = 0; i < M->count; i++) {
        ProofKey *e = &M->keys[i];
        if (e->open == k->open && e->castling == k->castling && e->n == k->n &&
            !memcmp(e->kind, k->kind, sizeof(e->kind[0]) * (size_t)k->n) &&
            !memcmp(e->region, k->region, sizeof(e->region[0]) * (size_t)k->n))
            return e;
    }
    return NULL;
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
    ProofMemo memo = {0, NULL};
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
    const Pos root = S.P;
    int top = 0; /* moves in use */
    /* enter the root */
    int entering = 1, zeroing = 0;
    for (;;) {
        if (entering) {
            entering = 0;
            /* a position met again is left at once: its moves are generated only the
             * first time (most moves of a walk lead back to known positions) */
            Record r;
            record_of(T, P, &r);
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
                /* without pawns the caller's proof comes first: it is kept per material
                 * (and the squares each unit can reach), so after its first answer it
                 * costs a look-up, where the static stage is made again in every
                 * position (K+N against K: about 0.25 ms each); the colours it leaves go
                 * to the static stage. Both are sound, so the subtree closes exactly
                 * when it did with the static stage first. */
                int proven = 0;
                int pawnless = T->pawn < 0 || !(P->bb[0][T->pawn] | P->bb[1][T->pawn]);
                if (pawnless && prune != Py_None) {
                    ProofKey key;
                    int keyed = proof_key(T, P, open, &key);
                    ProofKey *known = keyed ? proof_find(&memo, &key) : NULL;
                    nodes += prune_cost;
                    if (known) {
                        proven = known->proven;
                    } else {
                        unsigned char mb[64];
                        for (int sq = 0; sq < 64; sq++) mb[sq] = P->mailbox[sq] < 0 ? 0xFF : (unsigned char)P->mailbox[sq];
                        PyObject *answer = PyObject_CallFunction(prune, "y#iKii", mb, (Py_ssize_t)64, P->turn,
                                                                 (unsigned long long)P->castling, (int)r.ep, open);
                        if (!answer) { error = 1; break; }
                        long more = PyLong_AsLong(answer);
                        Py_DECREF(answer);
                        if (more == -1 && PyErr_Occurred()) { error = 1; break; }
                        proven = (int)more;
                        if (!memo.keys) memo.keys = malloc(sizeof(ProofKey) * PROOF_MEMO);
                        if (keyed && memo.keys && memo.count < PROOF_MEMO) {
                            key.proven = (int)more;
                            memo.keys[memo.count++] = key;
                        }
                    }
                }
                if ((proven & open) != open) {
                    proven |= static_stage(T, P, r.ep, open & ~proven);
                    nodes += prune_cost; /* a static proof costs about as much as this many moves */
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
                int k = 0, later[MAXMOVES], nlater = 0;
                for (int i = 0; i < n; i++) {
                    if (irreversible(T, P, buffer[i])) moves[top + k++] = buffer[i];
                    else later[nlater++] = buffer[i];
                }
                memcpy(moves + top + k, later, (size_t)nlater * sizeof(int));
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
    /* each mate met, replaced by the shortest line to a mate through the visited set */
    int wanted = (mates[0] != NULL) | (mates[1] != NULL) << 1;
    if (wanted) {
        PyObject *shortest[2] = {NULL, NULL};
        if (shortest_mates(T, &V, &root, wanted, shortest) < 0) {
            Py_XDECREF(shortest[0]);
            Py_XDECREF(shortest[1]);
            goto done;
        }
        for (int c = 0; c < 2; c++)
            if (shortest[c]) {
                if (PyList_GET_SIZE(shortest[c]) < PyList_GET_SIZE(mates[c])) {
                    Py_DECREF(mates[c]);
                    mates[c] = shortest[c];
                } else Py_DECREF(shortest[c]);
            }
        /* then its long stretches of reversible moves, each by a shorter way there */
        for (int c = 0; c < 2; c++) {
            Py_ssize_t n = mates[c] ? PyList_GET_SIZE(mates[c]) : 0;
            if (n < SHORT_SEGMENT) continue;
            int *line = malloc(sizeof(int) * (size_t)n);
            if (!line) { PyErr_NoMemory(); goto done; }
            for (Py_ssize_t i = 0; i < n; i++) line[i] = (int)PyLong_AsLong(PyList_GET_ITEM(mates[c], i));
            int length = shorten_line(T, &root, line, (int)n, SEGMENT_BUDGET);
            if (length < n) {
                PyObject *shorter = PyList_New(length);
                for (int i = 0; shorter && i < length; i++) {
                    PyObject *move = PyLong_FromLong(line[i]);
                    if (!move) { Py_CLEAR(shorter); break; }
                    PyList_SET_ITEM(shorter, i, move);
                }
                if (!shorter) { free(line); goto done; }
                Py_DECREF(mates[c]);
                mates[c] = shorter;
            }
            free(line);
        }
    }
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
    free(V.slots); free(levels); free(moves); free(T); free(memo.keys);
    PyBuffer_Release(&tables);
    PyBuffer_Release(&placement);
    return result;
}
