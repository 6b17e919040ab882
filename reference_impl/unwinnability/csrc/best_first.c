/* The greedy best-first helpmate search.
 * Part of _native.c, one compilation unit that includes this file after the parts it
 * uses. */

/* ---------------------------------------------------------------- best-first search */

/*
 * The second strategy, for what the depth-first search leaves: a greedy best-first
 * search on a distance-to-mate estimate (the loser king's free squares, its distance
 * from the edge and a corner, the winner's units near it with the king kept two squares
 * off, the loser's units near it as blockers, the winner's pawns' way to promotion),
 * and against a lone minor on the mating picture's too (see estimate_picture).
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

/* The estimate against a lone minor, by the mating picture of choose_targets: the loser's
 * king near the corner (it weighs most: every mate of a lone minor is there), the
 * winner's king near its square two in front, the loser king's free steps, the loser's
 * strong units (each wanted taken: a cost and its distance from the winner's king,
 * which takes it), its nearest other unit near the blocker's square beside the corner,
 * and where the loser must make its blockers by promotion, its pawns' way there. */
static int estimate_picture(const Search *S) {
    const Tables *T = S->T;
    const Pos *P = &S->P;
    int w = S->winner, l = w ^ 1;
    int king = king_square(T, P, l), wking = king_square(T, P, w);
    if (king == NONE || wking == NONE) return 0;
    int score = 4 * distance(king, S->corner) + 2 * distance(wking, S->king_target);
    u64 steps = attacks(T, T->royal, l, king, P->all) & ~P->occ[l];
    while (steps) {
        int sq = lsb(steps); steps &= steps - 1;
        if (!attacked(T, P, sq, w, P->all)) score += 2;
    }
    int nearest_blocker = 7;
    for (int t = 0; t < T->ntypes; t++) {
        if (t == T->royal) continue;
        for (u64 b = P->bb[l][t]; b; b &= b - 1) {
            int sq = lsb(b);
            if (strong(T, t, l)) {
                score += 6 + distance(sq, wking);
                continue;
            }
            if (t == T->pawn && S->need_loser_promotion) score += 7 - (l == 0 ? rank_of(sq) : 7 - rank_of(sq));
            if (distance(sq, S->blocker) < nearest_blocker) nearest_blocker = distance(sq, S->blocker);
        }
    }
    return score + 2 * nearest_blocker;
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

/* Returns 1 with the line in S->line, 0 if the queues ran dry, -1 at the node limit.
 * Against a lone minor two queues share the nodes: one ordered by the general estimate,
 * one by the mating picture's (estimate_picture), popped in turn, each node expanded
 * once whichever queue brings it first; each estimate finds mates the other misses. */
static int best_first(Search *S, long long budget) {
    const Tables *T = S->T;
    Pos root = S->P;
    S->lone_minor = lone_minor(S);
    S->need_loser_promotion = loser_needs_promotion(S);
    int queues = S->lone_minor ? 2 : 1;
    long long cap = budget + 2;
    if (cap > 4000000) cap = 4000000;
    BFNode *nodes = malloc(sizeof(BFNode) * (size_t)cap);
    HeapItem *heaps[2] = {malloc(sizeof(HeapItem) * (size_t)cap), queues > 1 ? malloc(sizeof(HeapItem) * (size_t)cap) : NULL};
    unsigned char *expanded = calloc((size_t)cap, 1);
    size_t seen_size = 1;
    while (seen_size < (size_t)cap * 2) seen_size <<= 1;
    u64 *seen = calloc(seen_size, sizeof(u64));
    int result = -1;
    if (!nodes || !heaps[0] || (queues > 1 && !heaps[1]) || !expanded || !seen) goto done;
    int count = 1, sizes[2] = {0, 0};
    nodes[0].parent = -1; nodes[0].move = 0; nodes[0].depth = 0;
    for (int q = 0; q < queues; q++) heap_push(heaps[q], &sizes[q], (HeapItem){0, 0});
    long long spent = 0;
    result = 0;
    for (int turn = 0; sizes[0] > 0 || sizes[1] > 0; turn++) {
        int q = queues > 1 && (turn & 1) && sizes[1] > 0 ? 1 : (sizes[0] > 0 ? 0 : 1);
        HeapItem item = heap_pop(heaps[q], &sizes[q]);
        if (expanded[item.node]) continue;
        expanded[item.node] = 1;
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
                int reply[1];
                if (S->P.turn != S->winner && in_check(T, &S->P) && legal_moves_upto(T, &S->P, reply, 1) == 0) {
                    unmake(T, &S->P, &u);
                    nodes[count].parent = item.node; nodes[count].move = moves[i];
                    replay(S, nodes, count, &root);
                    result = 1;
                    goto done;
                }
                int depth = nodes[item.node].depth + 1;
                if (depth < MAXPLY - 2) {
                    nodes[count].parent = item.node; nodes[count].move = moves[i]; nodes[count].depth = depth;
                    heap_push(heaps[0], &sizes[0], (HeapItem){10 * estimate(S) + 2 * depth, count});
                    if (queues > 1) heap_push(heaps[1], &sizes[1], (HeapItem){10 * estimate_picture(S) + 2 * depth, count});
                    count++;
                }
            }
            unmake(T, &S->P, &u);
        }
    }
done:
    if (result != 1) S->P = root;
    free(nodes); free(heaps[0]); free(heaps[1]); free(expanded); free(seen);
    return result;
}
