/* US Chess 14E "forced win": can a side force checkmate against any defence?
 * Part of _native.c, one compilation unit that includes this file after the parts it
 * uses (board.c's move generation, static_stage.c's static stage, explore.c's exact
 * position records).
 *
 * The specification is reference_impl/unwinnability/forced_win.py; this file answers the
 * same two questions, and a differential test holds the two to the same verdicts:
 *
 * - a bounded question, the shortest forced mate within ``max_plies`` plies: a
 *   depth-first AND/OR search by iterative deepening on the mate distance, with a table
 *   of proven bounds per position (forced_win.py's _MateSearch, move for move);
 * - the unbounded question, a forced mate at any distance: a short bounded pass first
 *   (as forced_win.py's _unbounded), then the whole game solved on the fly (below),
 *   where forced_win.py grows a proof-number tree.
 *
 * The game solved on the fly. A position is the winner's (some move must lead to a won
 * position) or the defender's (every move must). Positions are told apart exactly (an
 * explore.c Record: placement, side to move, castling rights, the e.p. square only
 * where a legal capture exists), never by a hash alone. The winner's positions are
 * expanded whole: every legal move becomes an edge. The defender's positions are
 * expanded lazily: one move is chosen (a position already met first, so that the
 * defence closes on itself, then captures, king moves toward the middle, other moves,
 * pawn moves last), and another only when the chosen one is found won. "Won" spreads
 * backwards along the edges (a winner's position with a won child; a defender's
 * position whose every move leads to a won child). Fixed points:
 *
 * - a checkmate of the defender is won (0 plies); a stalemate, a position in which the
 *   winner has no move, and a position after a capture or promotion in which the static
 *   stage proves the winner can never mate are safe for the defender forever;
 * - when no position is left to expand and the root is not won, the positions not won
 *   form a closed set: each winner's position has every move inside it, each defender's
 *   position has its chosen move inside it, and none is a checkmate. The defender stays
 *   inside it forever by playing the chosen moves, so the winner has no forced mate at
 *   any distance: a proof, whatever the position's repetitions (a forced mate never
 *   needs one, the distance to mate falling with every move).
 *
 * A won position's distance is that of the strategy found (one more than the winning
 * child's for the winner, one more than the longest child's for the defender), which
 * is an upper bound of the shortest forced mate: the caller compares it with the move
 * rule, as forced_win.py does. Every move made counts against the node limit.
 */

/* ---------------------------------------------------------------- positions by record */

/* An open-addressing map from exact records to dense indices (0, 1, 2, ...), growing
 * as positions are added; the records themselves are kept in index order, each slot
 * holds its record's key (a probe reads the record only when the keys agree). */
typedef struct { u64 key; uint32_t index; } FwSlot; /* index + 1, 0 for an empty slot */

typedef struct {
    Record *records;
    FwSlot *slots;
    size_t mask, count, capacity;
} FwSet;

static void fw_set_free(FwSet *S) {
    free(S->records);
    free(S->slots);
    memset(S, 0, sizeof(*S));
}

/* The exact record of ``P`` (padding zeroed, so that records compare by memcmp) and its key. */
static u64 fw_record(const Tables *T, Pos *P, Record *r) {
    memset(r, 0, sizeof(*r));
    record_of(T, P, r);
    u64 k = P->key ^ (r->turn ? T->zobrist_turn : 0) ^ (r->ep >= 0 ? T->zobrist_ep[r->ep] : 0);
    u64 c = r->castling;
    while (c) { k ^= T->zobrist_castle[lsb(c)]; c &= c - 1; }
    return k;
}

static long long fw_find(const FwSet *S, const Record *r, u64 key) {
    if (!S->slots) return -1;
    for (size_t i = key & S->mask; S->slots[i].index; i = (i + 1) & S->mask)
        if (S->slots[i].key == key && !memcmp(&S->records[S->slots[i].index - 1], r, sizeof(Record)))
            return S->slots[i].index - 1;
    return -1;
}

/* Adds a record known to be absent; its index, or -1 when out of memory. */
static long long fw_add(FwSet *S, const Record *r, u64 key) {
    if (S->count == S->capacity) {
        size_t capacity = S->capacity ? S->capacity * 2 : 1024;
        Record *records = realloc(S->records, capacity * sizeof(Record));
        if (!records) return -1;
        S->records = records;
        S->capacity = capacity;
    }
    if (!S->slots || (S->count + 1) * 2 > S->mask + 1) {
        size_t size = S->slots ? (S->mask + 1) * 2 : 2048;
        FwSlot *slots = calloc(size, sizeof(FwSlot));
        if (!slots) return -1;
        for (size_t i = 0; S->slots && i <= S->mask; i++) {
            if (!S->slots[i].index) continue;
            size_t j = S->slots[i].key & (size - 1);
            while (slots[j].index) j = (j + 1) & (size - 1);
            slots[j] = S->slots[i];
        }
        free(S->slots);
        S->slots = slots;
        S->mask = size - 1;
    }
    size_t at = S->count++;
    S->records[at] = *r;
    size_t i = key & S->mask;
    while (S->slots[i].index) i = (i + 1) & S->mask;
    S->slots[i] = (FwSlot){key, (uint32_t)at + 1};
    return (long long)at;
}

/* ---------------------------------------------------------------- shared small rules */

/* A capture (en passant included, castling never) or a promotion: the material changes. */
static inline int fw_material(const Pos *P, int m) {
    int flag = m >> 16;
    if (flag == FLAG_EP || (m >> 12 & 15)) return 1;
    return flag != FLAG_CASTLE && P->mailbox[m >> 6 & 63] >= 0;
}

/* Do the two colours' royal units only leap, each onto the other's square exactly
 * when the other could leap back? Then a royal unit never gives check: the two royals
 * would stand attacking each other, which no legal move brings about. */
static int fw_royals_symmetric(const Tables *T) {
    int R = T->royal;
    if (T->ndir[R][0] || T->ndir[R][1]) return 0;
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++)
            if ((T->leaps[R][0][a] >> b & 1) != (T->leaps[R][1][b] >> a & 1)) return 0;
    return 1;
}

/* Per move layer: are the royals symmetric, and can a royal with one unit of type t
 * (colour c) checkmate a lone royal at all (-1: not yet worked out)? */
static u64 fw_lone_id;
static int fw_lone_royals, fw_lone_mates[MAXT][2];

/* Does any position with colour c's royal and one unit of type t against a lone royal,
 * the lone royal to move, hold a checkmate? Every placement is tried. */
static int fw_lone_unit_mates(const Tables *T, int t, int c) {
    Pos P;
    for (int d = 0; d < 64; d++)
        for (int x = 0; x < 64; x++) {
            if (x == d || !(attacks(T, t, c, x, 1ULL << d | 1ULL << x) >> d & 1)) continue; /* the unit must check */
            for (int k = 0; k < 64; k++) {
                if (k == d || k == x) continue;
                memset(&P, 0, sizeof(P));
                for (int sq = 0; sq < 64; sq++) P.mailbox[sq] = -1;
                put(T, &P, d, c ^ 1, T->royal);
                put(T, &P, x, c, t);
                put(T, &P, k, c, T->royal);
                P.turn = c, P.ep = -1;
                if (in_check(T, &P)) continue; /* the side that just moved may not stand in check */
                P.turn = c ^ 1;
                int moves[MAXMOVES];
                if (in_check(T, &P) && !legal_moves_upto(T, &P, moves, 1)) return 1;
            }
        }
    return 0;
}

/* 1 when cheap arguments prove that ``winner`` can never mate from ``P``, -1 when they
 * do not tell: a royal unit alone (see fw_royals_symmetric), and a royal with one unit
 * that is not a pawn against a lone royal when no placement of the three is a
 * checkmate (without pawns the material can only shrink). */
static int fw_quickly_never_mates(const Tables *T, const Pos *P, int winner) {
    if (fw_lone_id != T->id) {
        fw_lone_id = T->id;
        fw_lone_royals = fw_royals_symmetric(T);
        for (int t = 0; t < MAXT; t++) fw_lone_mates[t][0] = fw_lone_mates[t][1] = -1;
    }
    if (!fw_lone_royals || P->castling) return -1;
    u64 own = P->occ[winner] & ~P->bb[winner][T->royal];
    if (!own) return 1;
    if (own & (own - 1) || P->occ[winner ^ 1] & ~P->bb[winner ^ 1][T->royal]) return -1;
    if (popcount(P->bb[winner][T->royal]) != 1 || popcount(P->bb[winner ^ 1][T->royal]) != 1) return -1;
    int t = P->mailbox[lsb(own)] & 15;
    if (t == T->pawn) return -1;
    if (fw_lone_mates[t][winner] < 0) fw_lone_mates[t][winner] = fw_lone_unit_mates(T, t, winner);
    return fw_lone_mates[t][winner] ? -1 : 1;
}

/* Does the static stage (after the cheap arguments) prove that ``winner`` can never mate from ``P``? */
static inline int fw_never_mates(const Tables *T, Pos *P, int winner) {
    if (fw_quickly_never_mates(T, P, winner) == 1) return 1;
    return static_stage(T, P, legal_ep(T, P), 1 << winner) >> winner & 1;
}

/* Distance of ``sq`` from the nearest edge: kings near the middle escape mates. */
static inline int fw_room(int sq) {
    int f = file_of(sq), r = rank_of(sq);
    int a = f < 7 - f ? f : 7 - f, b = r < 7 - r ? r : 7 - r;
    return a < b ? a : b;
}

/* ---------------------------------------------------------------- the bounded search */

#define FW_NEVER (-1)
#define FW_UNBOUNDED (1 << 30)

typedef struct { int failed, solved, best; } FwBound; /* deepest bound failed, shallowest mated, move */

typedef struct {
    const Tables *T;
    Pos P;
    int winner;
    long long nodes, limit;
    int aborted, signalled, oom;
    FwSet set;
    FwBound *bound;
} FwBounded;

/* Counts a move made; 0 (and ``aborted``) when the limit is reached (it is never passed)
 * or a signal arrived (``signalled``: the exception is set). */
static inline int fw_spend(long long *nodes, long long limit, int *aborted, int *signalled) {
    if (*aborted) return 0;
    if (*nodes >= limit) { *aborted = 1; return 0; }
    if ((++*nodes & 0xFFFF) == 0 && PyErr_CheckSignals() < 0) { *signalled = *aborted = 1; return 0; }
    return 1;
}

static inline int fb_spend(FwBounded *B) { return fw_spend(&B->nodes, B->limit, &B->aborted, &B->signalled); }

/* The bounds entry of the position on the board, added when ``add`` (-1 if absent or out of memory). */
static long long fb_entry(FwBounded *B, int add) {
    Record r;
    u64 key = fw_record(B->T, &B->P, &r);
    long long at = fw_find(&B->set, &r, key);
    if (at >= 0 || !add) return at;
    size_t capacity = B->set.capacity;
    at = fw_add(&B->set, &r, key);
    if (at < 0) { B->oom = B->aborted = 1; return -1; }
    if (B->set.capacity != capacity) {
        FwBound *bound = realloc(B->bound, B->set.capacity * sizeof(FwBound));
        if (!bound) { B->oom = B->aborted = 1; return -1; }
        B->bound = bound;
    }
    B->bound[at] = (FwBound){FW_NEVER, FW_UNBOUNDED, -1};
    return at;
}

static int fb_wins(FwBounded *B, int plies);

static int fb_can_still_mate(FwBounded *B) { return !fw_never_mates(B->T, &B->P, B->winner); }

typedef struct { int first, score, code; } FwCandidate;

static int fb_candidate_order(const void *a, const void *b) {
    const FwCandidate *x = a, *y = b;
    if (x->first != y->first) return x->first - y->first;
    if (x->score != y->score) return x->score - y->score;
    return 0;
}

static void fb_set_best(FwBounded *B, int code) {
    long long at = fb_entry(B, 1);
    if (at >= 0) B->bound[at].best = code;
}

/* The winner to move: checks first, then the fewest replies; a move that mates at once
 * wins outright; within the last two plies only a checking move can count. */
static int fb_winner_node(FwBounded *B, int plies, int remembered) {
    const Tables *T = B->T;
    Pos *P = &B->P;
    if (plies < 1) return 0;
    int moves[MAXMOVES], replies_buf[MAXMOVES];
    int n = legal_moves(T, P, moves);
    FwCandidate candidates[MAXMOVES];
    int nc = 0;
    for (int i = 0; i < n; i++) {
        int code = moves[i];
        if (!fb_spend(B)) return 0;
        int material = fw_material(P, code);
        Undo u;
        make(T, P, code, &u);
        int check = in_check(T, P);
        if (!check && plies < 3) { unmake(T, P, &u); continue; }
        int replies = legal_moves(T, P, replies_buf);
        if (check && !replies) {
            unmake(T, P, &u);
            fb_set_best(B, code);
            return 1;
        }
        if (plies >= 3 && replies && (!material || fb_can_still_mate(B)))
            candidates[nc++] = (FwCandidate){code == remembered ? 0 : 1, (check ? 0 : 64) + replies, code};
        unmake(T, P, &u);
    }
    /* a stable sort, as Python's: equal keys keep the generation order */
    for (int i = 0; i < nc; i++) candidates[i].score = candidates[i].score * MAXMOVES + i;
    qsort(candidates, (size_t)nc, sizeof(FwCandidate), fb_candidate_order);
    for (int i = 0; i < nc; i++) {
        if (!fb_spend(B)) return 0;
        Undo u;
        make(T, P, candidates[i].code, &u);
        int won = fb_wins(B, plies - 1);
        unmake(T, P, &u);
        if (B->aborted) return 0;
        if (won) {
            fb_set_best(B, candidates[i].code);
            return 1;
        }
    }
    return 0;
}

/* The defender to move: the remembered refutation first, then captures and promotions,
 * then king moves to the squares with the most room, then the rest. */
static int fb_defender_node(FwBounded *B, int plies, int remembered) {
    const Tables *T = B->T;
    Pos *P = &B->P;
    int moves[MAXMOVES];
    int n = legal_moves(T, P, moves);
    if (!n) return in_check(T, P);
    if (plies < 2) return 0;
    int king = king_square(T, P, P->turn);
    FwCandidate order[MAXMOVES];
    for (int i = 0; i < n; i++) {
        int code = moves[i], first, score = 0;
        if (code == remembered) first = 0;
        else if (fw_material(P, code)) first = 1;
        else if ((code & 63) == king) first = 2, score = -fw_room(code >> 6 & 63);
        else first = 3;
        order[i] = (FwCandidate){first, score * MAXMOVES + i, code};
    }
    qsort(order, (size_t)n, sizeof(FwCandidate), fb_candidate_order);
    for (int i = 0; i < n; i++) {
        int code = order[i].code;
        if (!fb_spend(B)) return 0;
        int material = fw_material(P, code);
        Undo u;
        make(T, P, code, &u);
        int escapes = (material && !fb_can_still_mate(B)) || (!B->aborted && !fb_wins(B, plies - 1));
        unmake(T, P, &u);
        if (B->aborted) return 0;
        if (escapes) {
            fb_set_best(B, code);
            return 0;
        }
    }
    return 1;
}

/* Can the winner force mate within ``plies`` plies from the position on the board? */
static int fb_wins(FwBounded *B, int plies) {
    long long at = fb_entry(B, 0);
    int remembered = -1;
    if (at >= 0) {
        if (B->bound[at].failed >= plies) return 0;
        if (B->bound[at].solved <= plies) return 1;
        remembered = B->bound[at].best;
    }
    int result = B->P.turn == B->winner ? fb_winner_node(B, plies, remembered) : fb_defender_node(B, plies, remembered);
    if (B->aborted) return 0;
    at = fb_entry(B, 1);
    if (at < 0) return 0;
    if (result) {
        if (plies < B->bound[at].solved) B->bound[at].solved = plies;
    } else if (plies > B->bound[at].failed) B->bound[at].failed = plies;
    return result;
}

/* The defender's reply that holds out longest against the mate within ``plies``: each
 * reply's own shortest mate, found by deepening from one ply with the table (a bound
 * a reply was proven at may exceed its shortest mate). */
static int fb_surviving_reply(FwBounded *B, int plies) {
    const Tables *T = B->T;
    Pos *P = &B->P;
    int moves[MAXMOVES], chosen = -1, longest = -1;
    int n = legal_moves(T, P, moves);
    for (int i = 0; i < n; i++) {
        Undo u;
        make(T, P, moves[i], &u);
        int depth = -1;
        for (int p = 0; p <= plies - 1 && depth < 0 && !B->aborted; p++)
            if (fb_wins(B, p)) depth = p;
        unmake(T, P, &u);
        if (depth > longest) longest = depth, chosen = moves[i];
    }
    return chosen;
}

/* The mating line the table remembers from the root (as forced_win.py's _MateSearch.line,
 * the defender holding out longest). */
static int fb_line(FwBounded *B, int plies, int *line) {
    const Tables *T = B->T;
    Pos root = B->P;
    long long nodes = B->nodes, limit = B->limit; /* the line proves nothing new: not charged */
    B->limit = LLONG_MAX;
    int n = 0, moves[MAXMOVES];
    while (plies > 0 && n < MAXPLY && legal_moves(T, &B->P, moves)) {
        long long at = fb_entry(B, 0);
        int code = at >= 0 ? B->bound[at].best : -1;
        if (B->P.turn != B->winner || code < 0) code = fb_surviving_reply(B, plies);
        if (code < 0) break;
        Undo u;
        make(T, &B->P, code, &u);
        line[n++] = code;
        plies--;
    }
    B->P = root;
    B->nodes = nodes, B->limit = limit;
    return n;
}

/* The shortest forced mate within ``max_plies``: 1 (``*plies`` and ``line`` set), 0 none
 * that short, -1 the node limit ran out. */
static int fb_solve(FwBounded *B, int max_plies, int *plies, int *line, int *length) {
    for (int p = B->P.turn == B->winner ? 1 : 2; p <= max_plies; p += 2) {
        int won = fb_wins(B, p);
        if (B->aborted) return -1;
        if (won) {
            *plies = p;
            *length = fb_line(B, p, line);
            return 1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- the game solved on the fly */


/* Symmetries. Where the move layer is the same seen in a mirror or turned (every leap
 * and rider direction of every unit maps onto one of the same unit), a position and its
 * image are the same game, and the game solved on the fly keeps one of them: the image
 * with the smallest record. Without pawns and castling rights the eight symmetries of
 * the square may apply, with pawns only the mirror between the a- and h-files. */
static u64 fw_sym_id;
static int fw_sym_square[8][64];
static int fw_sym_pieces[8], fw_sym_pawns[8]; /* applies without pawns / with pawns */

static inline Dir fw_sym_dir(int g, Dir d) {
    int x = g & 1 ? -d.df : d.df, y = g & 2 ? -d.dr : d.dr;
    return g & 4 ? (Dir){y, x} : (Dir){x, y};
}

static inline u64 fw_sym_set(int g, u64 b) {
    u64 out = 0;
    while (b) { out |= 1ULL << fw_sym_square[g][lsb(b)]; b &= b - 1; }
    return out;
}

static void fw_symmetries(const Tables *T) {
    if (fw_sym_id == T->id) return;
    fw_sym_id = T->id;
    for (int g = 0; g < 8; g++) {
        for (int sq = 0; sq < 64; sq++) {
            int f = file_of(sq), r = rank_of(sq);
            int x = g & 1 ? 7 - f : f, y = g & 2 ? 7 - r : r;
            fw_sym_square[g][sq] = g & 4 ? x * 8 + y : y * 8 + x;
        }
        int ok = 1;
        for (int t = 0; t < T->ntypes && ok; t++) {
            if (t == T->pawn) continue;
            for (int c = 0; c < 2 && ok; c++) {
                for (int sq = 0; sq < 64 && ok; sq++)
                    ok = fw_sym_set(g, T->leaps[t][c][sq]) == T->leaps[t][c][fw_sym_square[g][sq]];
                for (int i = 0; i < T->ndir[t][c] && ok; i++) {
                    Dir d = fw_sym_dir(g, T->dirs[t][c][i]);
                    int found = 0;
                    for (int j = 0; j < T->ndir[t][c]; j++)
                        found |= T->dirs[t][c][j].df == d.df && T->dirs[t][c][j].dr == d.dr;
                    ok = found;
                }
            }
        }
        fw_sym_pieces[g] = ok;
        int pawns = ok && g < 2;
        for (int c = 0; c < 2 && pawns && T->pawn >= 0; c++) {
            pawns = fw_sym_set(g, T->promo_rank[c]) == T->promo_rank[c];
            for (int sq = 0; sq < 64 && pawns; sq++) {
                int to = fw_sym_square[g][sq];
                pawns = fw_sym_set(g, T->pawn_push[c][sq]) == T->pawn_push[c][to] &&
                        fw_sym_set(g, T->pawn_double[c][sq]) == T->pawn_double[c][to] &&
                        fw_sym_set(g, T->pawn_cap[c][sq]) == T->pawn_cap[c][to];
            }
        }
        fw_sym_pieces[g] = ok;
        fw_sym_pawns[g] = pawns;
    }
}

/* A key of a record's bytes. */
static inline u64 fw_hash(const Record *r) {
    const unsigned char *b = (const unsigned char *)r;
    u64 h = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i + 8 <= sizeof(Record); i += 8) {
        u64 w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 29;
    }
    return h;
}

/* The record of ``P`` the game solved on the fly keeps and its key: of its images under
 * the symmetries that apply, the one with the defender's royal, then the winner's, on
 * the lowest squares, and among those the smallest record (a choice that depends on
 * the images only, so every image of a position gets the same record). */
static u64 fw_canonical(const Tables *T, Pos *P, Record *r, int winner) {
    fw_record(T, P, r);
    if (r->castling) return fw_hash(r);
    int pawns = T->pawn >= 0 && (P->bb[0][T->pawn] | P->bb[1][T->pawn]);
    u64 kd = P->bb[winner ^ 1][T->royal], kw = P->bb[winner][T->royal];
    if (popcount(kd) != 1 || popcount(kw) != 1) return fw_hash(r);
    int d = lsb(kd), w = lsb(kw), lowest = 1 << 30, ties = 0, tied[8];
    for (int g = 0; g < 8; g++) {
        if (g && !(pawns ? fw_sym_pawns[g] : fw_sym_pieces[g])) continue;
        int rank = fw_sym_square[g][d] * 64 + fw_sym_square[g][w];
        if (rank < lowest) lowest = rank, ties = 0;
        if (rank == lowest) tied[ties++] = g;
    }
    if (ties == 1 && tied[0] == 0) return fw_hash(r);
    Record image, best;
    for (int i = 0; i < ties; i++) {
        int g = tied[i];
        memset(&image, 0, sizeof(image));
        image.castling = r->castling, image.turn = r->turn;
        for (int sq = 0; sq < 64; sq++) image.mailbox[fw_sym_square[g][sq]] = r->mailbox[sq];
        image.ep = r->ep >= 0 ? (signed char)fw_sym_square[g][r->ep] : r->ep;
        if (!i || memcmp(&image, &best, sizeof(Record)) < 0) best = image;
    }
    *r = best;
    return fw_hash(r);
}

enum { FW_OPEN = 0, FW_WON = 1, FW_SAFE = 2 };

typedef struct {
    int32_t preds;  /* the first edge into this position, -1 for none */
    int32_t choice; /* the defender's: the position its chosen move leads to, -1 */
    int32_t dist;   /* won: the plies to mate of the strategy found */
    int32_t best;   /* won, the winner's: the winning move */
    uint32_t priority;
    uint8_t status, expanded;
} FwNode;

typedef struct { int32_t parent, move, next; } FwEdge;

/* A position waiting to be expanded: its key is its priority (the defender's replies
 * beyond the first, summed from the root: as a proof number counts the lines a proof
 * must close, so mates against a defence with few choices are met first), then the
 * order it came in. */
typedef struct { u64 key; uint32_t at; } FgQueued;

typedef struct {
    const Tables *T;
    int winner;
    long long nodes;
    int signalled, oom;
    FwSet set;
    FwNode *node;
    FwEdge *edge;
    size_t nedge, edge_capacity;
    FgQueued *queue; /* positions to expand: a binary heap, the smallest key first */
    size_t queued, queue_capacity, expansions;
    u64 sequence;
    uint32_t *won; /* positions found won whose parents have not heard yet */
    size_t nwon, won_capacity;
    u64 *configs; /* the placements of the defender's units its chosen moves led to (0: empty) */
    size_t config_mask, nconfigs;
} FwGame;

/* Counts a move made; the node limit is checked between expansions (fg_run), so that an
 * expansion is never left half done and a search can be resumed with a larger limit. */
static inline void fg_spend(FwGame *G) { G->nodes++; }

static void fg_free(FwGame *G) {
    free(G->configs);
    fw_set_free(&G->set);
    free(G->node);
    free(G->edge);
    free(G->queue);
    free(G->won);
}

static int fg_grow(void **array, size_t *capacity, size_t need, size_t size) {
    if (need <= *capacity) return 1;
    size_t grown = *capacity ? *capacity : 1024;
    while (grown < need) grown *= 2;
    void *moved = realloc(*array, grown * size);
    if (!moved) return 0;
    *array = moved;
    *capacity = grown;
    return 1;
}

static void fg_oom(FwGame *G) { G->oom = 1; }

/* The heap of positions waiting: push and pop. */
static void fg_push(FwGame *G, uint32_t at, u64 priority) {
    if (!fg_grow((void **)&G->queue, &G->queue_capacity, G->queued + 1, sizeof(FgQueued))) { fg_oom(G); return; }
    FgQueued item = {priority << 40 | G->sequence++, at};
    size_t i = G->queued++;
    while (i > 0 && G->queue[(i - 1) / 2].key > item.key) {
        G->queue[i] = G->queue[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    G->queue[i] = item;
}

static uint32_t fg_pop(FwGame *G) {
    uint32_t at = G->queue[0].at;
    FgQueued last = G->queue[--G->queued];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= G->queued) break;
        if (c + 1 < G->queued && G->queue[c + 1].key < G->queue[c].key) c++;
        if (G->queue[c].key >= last.key) break;
        G->queue[i] = G->queue[c];
        i = c;
    }
    if (G->queued) G->queue[i] = last;
    return at;
}

/* Status of the new position ``P`` (the move that reached it changed the material
 * when ``material``): a checkmate of the defender is won, a stalemate or a winner
 * without a move or (after a change of material) a winner the static stage proves
 * can never mate is safe, anything else open; ``*replies`` its legal moves. */
static int fg_status(FwGame *G, Pos *P, int material, int *replies) {
    const Tables *T = G->T;
    *replies = 0;
    if (material && fw_never_mates(T, P, G->winner)) return FW_SAFE;
    int moves[MAXMOVES];
    *replies = P->turn != G->winner ? legal_moves(T, P, moves) : legal_moves_upto(T, P, moves, 1);
    if (*replies) return FW_OPEN;
    return P->turn != G->winner && in_check(T, P) ? FW_WON : FW_SAFE;
}

/* The index of the position ``P`` (added with ``status`` and queued if open, when new;
 * ``priority``: smaller first). */
static long long fg_node(FwGame *G, Pos *P, const Record *r, u64 key, int status, u64 priority) {
    long long at = fw_find(&G->set, r, key);
    if (at >= 0) return at;
    size_t capacity = G->set.capacity;
    at = fw_add(&G->set, r, key);
    if (at < 0) { fg_oom(G); return -1; }
    if (G->set.capacity != capacity) {
        FwNode *node = realloc(G->node, G->set.capacity * sizeof(FwNode));
        if (!node) { fg_oom(G); return -1; }
        G->node = node;
    }
    G->node[at] = (FwNode){-1, -1, 0, -1, (uint32_t)priority, (uint8_t)status, 0};
    if (status == FW_OPEN) fg_push(G, (uint32_t)at, priority);
    (void)P;
    return at;
}

static int fg_edge(FwGame *G, long long child, long long parent, int move) {
    if (!fg_grow((void **)&G->edge, &G->edge_capacity, G->nedge + 1, sizeof(FwEdge))) { fg_oom(G); return 0; }
    G->edge[G->nedge] = (FwEdge){(int32_t)parent, move, G->node[child].preds};
    G->node[child].preds = (int32_t)G->nedge++;
    return 1;
}

static void fg_win(FwGame *G, long long at, int dist, int best) {
    FwNode *n = &G->node[at];
    n->status = FW_WON;
    n->dist = dist;
    n->best = best;
    if (!fg_grow((void **)&G->won, &G->won_capacity, G->nwon + 1, sizeof(uint32_t))) { fg_oom(G); return; }
    G->won[G->nwon++] = (uint32_t)at;
}

/* The placement ``bb`` (a colour's bitboards by type) as a key (never 0), the same for
 * every image under the symmetries that apply (``pawns``: some pawn is on the board). */
static u64 fg_config(const Tables *T, const u64 *bb, int colour, int pawns, u64 castling) {
    u64 best = 0;
    for (int g = 0; g < 8; g++) {
        if (g && (castling || !(pawns ? fw_sym_pawns[g] : fw_sym_pieces[g]))) continue;
        u64 k = 0x9E3779B97F4A7C15ULL;
        for (int t = 0; t < T->ntypes; t++) {
            u64 b = bb[t];
            while (b) { k ^= T->zobrist[colour][t][fw_sym_square[g][lsb(b)]]; b &= b - 1; }
        }
        k = k ? k : 1;
        if (!best || k < best) best = k;
    }
    return best;
}

static int fg_config_known(const FwGame *G, u64 k) {
    if (!G->configs) return 0;
    for (size_t i = k & G->config_mask; G->configs[i]; i = (i + 1) & G->config_mask)
        if (G->configs[i] == k) return 1;
    return 0;
}

static int fg_config_add(FwGame *G, u64 k) {
    if (fg_config_known(G, k)) return 1;
    if (!G->configs || (G->nconfigs + 1) * 2 > G->config_mask + 1) {
        size_t size = G->configs ? (G->config_mask + 1) * 2 : 1024;
        u64 *grown = calloc(size, sizeof(u64));
        if (!grown) return 0;
        for (size_t i = 0; G->configs && i <= G->config_mask; i++) {
            if (!G->configs[i]) continue;
            size_t j = G->configs[i] & (size - 1);
            while (grown[j]) j = (j + 1) & (size - 1);
            grown[j] = G->configs[i];
        }
        free(G->configs);
        G->configs = grown;
        G->config_mask = size - 1;
    }
    size_t i = k & G->config_mask;
    while (G->configs[i]) i = (i + 1) & G->config_mask;
    G->configs[i] = k;
    G->nconfigs++;
    return 1;
}


/* The defender's ranks (smaller first): a pawn move or a change of material, each rank
 * of distance from the middle for its king, a placement of its units not used before,
 * a king move. */
#define FG_PAWN_OR_MATERIAL 16
#define FG_ROOM 4
#define FG_NEW_PLACEMENT 2
#define FG_KING_MOVED 1

typedef struct { int rank, code; u64 config; } FgCandidate;

static int fg_candidate_order(const void *a, const void *b) {
    const FgCandidate *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    if (x->config != y->config) return x->config < y->config ? -1 : 1;
    return x->code < y->code ? -1 : x->code > y->code;
}

/* The defender's position ``at`` chooses a move not known to lose, in this order: a
 * change of material after which the winner can never mate (cheap arguments only), then
 * moves ranked by where they leave the defender (its king nearer the middle, a placement
 * of its units the defence already used, a unit other than the king moved; pawn moves
 * and other changes of material last), ties to the smallest placement key, the same in
 * every image of the position. With every move leading to a won position, the position
 * is won. The ranks need no move made: only the chosen move is. */
static void fg_choose(FwGame *G, long long at) {
    const Tables *T = G->T;
    Pos P;
    position_of(T, &G->set.records[at], &P);
    int moves[MAXMOVES];
    int n = legal_moves(T, &P, moves);
    int defender = P.turn, king = king_square(T, &P, defender);
    int pawns = T->pawn >= 0 && (P.bb[0][T->pawn] | P.bb[1][T->pawn]);
    FgCandidate candidate[MAXMOVES];
    for (int i = 0; i < n; i++) {
        int code = moves[i], from = code & 63, to = code >> 6 & 63, rank;
        int material = fw_material(&P, code);
        u64 config;
        fg_spend(G);
        if (material || code >> 16 == FLAG_CASTLE) {
            Undo u;
            make(T, &P, code, &u);
            int safe = material && fw_quickly_never_mates(T, &P, G->winner) == 1;
            int now = king_square(T, &P, defender);
            config = fg_config(T, P.bb[defender], defender, T->pawn >= 0 && (P.bb[0][T->pawn] | P.bb[1][T->pawn]),
                               P.castling);
            unmake(T, &P, &u);
            rank = safe ? 0
                        : 2 + FG_PAWN_OR_MATERIAL * material + FG_ROOM * (3 - fw_room(now)) +
                              FG_NEW_PLACEMENT * !fg_config_known(G, config) + FG_KING_MOVED * (now != king);
        } else {
            int t = P.mailbox[from] & 15, moved_king = from == king;
            u64 bb[MAXT];
            memcpy(bb, P.bb[defender], sizeof(u64) * (size_t)T->ntypes);
            bb[t] ^= 1ULL << from | 1ULL << to;
            config = fg_config(T, bb, defender, pawns, P.castling);
            rank = 2 + FG_PAWN_OR_MATERIAL * (t == T->pawn) + FG_ROOM * (3 - fw_room(moved_king ? to : king)) +
                   FG_NEW_PLACEMENT * !fg_config_known(G, config) + FG_KING_MOVED * moved_king;
        }
        candidate[i] = (FgCandidate){rank, code, config};
    }
    qsort(candidate, (size_t)n, sizeof(FgCandidate), fg_candidate_order);
    int longest = 0;
    for (int i = 0; i < n; i++) {
        int code = candidate[i].code;
        fg_spend(G);
        int material = fw_material(&P, code);
        Undo u;
        make(T, &P, code, &u);
        Record r;
        u64 key = fw_canonical(T, &P, &r, G->winner);
        long long child = fw_find(&G->set, &r, key);
        int replies = 0;
        if (child < 0) child = fg_node(G, &P, &r, key, candidate[i].rank == 0 ? FW_SAFE : fg_status(G, &P, material, &replies),
                                       G->node[at].priority);
        if (child < 0) return;
        if (G->node[child].status == FW_WON) {
            if (G->node[child].dist > longest) longest = G->node[child].dist;
            unmake(T, &P, &u);
            continue;
        }
        if (!fg_edge(G, child, at, code)) return;
        if (!fg_config_add(G, candidate[i].config)) { fg_oom(G); return; }
        G->node[at].choice = (int32_t)child;
        unmake(T, &P, &u);
        return;
    }
    fg_win(G, at, 1 + longest, -1);
}

/* The winner's position ``at``: every move becomes an edge (until one reaches a won position). */
static void fg_expand_winner(FwGame *G, long long at) {
    const Tables *T = G->T;
    Pos P;
    position_of(T, &G->set.records[at], &P);
    int moves[MAXMOVES];
    int n = legal_moves(T, &P, moves);
    for (int i = 0; i < n; i++) {
        int code = moves[i];
        fg_spend(G);
        int material = fw_material(&P, code);
        Undo u;
        make(T, &P, code, &u);
        Record r;
        u64 key = fw_canonical(T, &P, &r, G->winner);
        long long child = fw_find(&G->set, &r, key);
        int replies = 0, status = child < 0 ? fg_status(G, &P, material, &replies) : 0;
        /* the defender's replies beyond the first, summed along the way: positions where
         * the defence has few choices (mates come there) are expanded first */
        if (child < 0) child = fg_node(G, &P, &r, key, status, G->node[at].priority + (u64)(replies > 1 ? replies - 1 : 0));
        unmake(T, &P, &u);
        if (child < 0 || !fg_edge(G, child, at, code)) return;
        if (G->node[child].status == FW_WON) {
            fg_win(G, at, G->node[child].dist + 1, code);
            return;
        }
    }
}

/* Tell the parents of every position found won. */
static void fg_propagate(FwGame *G) {
    while (G->nwon && !G->oom) {
        uint32_t won = G->won[--G->nwon];
        for (int32_t e = G->node[won].preds; e >= 0 && !G->oom; e = G->edge[e].next) {
            int32_t parent = G->edge[e].parent;
            FwNode *p = &G->node[parent];
            if (p->status != FW_OPEN) continue;
            if (G->set.records[parent].turn == G->winner) fg_win(G, parent, G->node[won].dist + 1, G->edge[e].move);
            else if (p->choice == (int32_t)won) fg_choose(G, parent);
        }
    }
}

/* The mating line of the strategy found from the root: the winner's moves against the
 * replies that hold out longest (forced_win.py's _ProofNumberSearch.line). */
static int fg_line(FwGame *G, const Pos *root, int *line) {
    const Tables *T = G->T;
    Pos P = *root;
    int n = 0, moves[MAXMOVES], replies[MAXMOVES];
    while (n < MAXPLY) {
        int count = legal_moves(T, &P, moves), move = -1;
        if (!count) break;
        /* the winner's move to the won position nearest mate (the strategy's own, or one
         * as near), the defender's to the one farthest (positions are kept by their
         * images, so moves are found again from the board) */
        int winner = P.turn == G->winner, chosen = -1;
        for (int i = 0; i < count; i++) {
            Undo u;
            make(T, &P, moves[i], &u);
            Record r;
            u64 key = fw_canonical(T, &P, &r, G->winner);
            long long at = fw_find(&G->set, &r, key);
            int dist = at >= 0 && G->node[at].status == FW_WON ? G->node[at].dist : -1;
            if (!dist && !(in_check(T, &P) && !legal_moves_upto(T, &P, replies, 1))) dist = -1;
            unmake(T, &P, &u);
            if (dist < 0) continue;
            if (chosen < 0 || (winner ? dist < chosen : dist > chosen)) chosen = dist, move = moves[i];
        }
        if (move < 0) break;
        Undo u;
        make(T, &P, move, &u);
        line[n++] = move;
    }
    return n;
}

/* The most moves one expansion makes: a defender's position counts each of its moves
 * once to rank it and once to make it. */
#define FG_MOST_PER_EXPANSION (2 * MAXMOVES)

/* The root's position in the game (added first), -1 when out of memory. */
static long long fg_start(FwGame *G, Pos *root) {
    fw_symmetries(G->T);
    Record r;
    u64 key = fw_canonical(G->T, root, &r, G->winner);
    int replies;
    return fg_node(G, root, &r, key, fg_status(G, root, 0, &replies), 0);
}

/* Expand until the root is decided or ``limit`` moves have been made in all: 1 a forced
 * mate (``*plies``, ``line`` set), 0 none at all, -1 the limit (or memory) ran out; a
 * search that ran out may be run again with a larger limit. */
static int fg_run(FwGame *G, Pos *root, long long limit, int *plies, int *line, int *length) {
    long long at = 0; /* the root is the first position added */
    while (G->node[at].status == FW_OPEN && G->queued && !G->oom) {
        if (G->nodes + FG_MOST_PER_EXPANSION > limit) return -1;
        if ((++G->expansions & 0x3FF) == 0 && PyErr_CheckSignals() < 0) { G->signalled = 1; return -1; }
        uint32_t next = fg_pop(G);
        FwNode *n = &G->node[next];
        if (n->status != FW_OPEN || n->expanded) continue;
        n->expanded = 1;
        if (G->set.records[next].turn == G->winner) fg_expand_winner(G, next);
        else fg_choose(G, next);
        fg_propagate(G);
    }
    if (G->oom) return -1;
    if (G->node[at].status != FW_WON) return 0; /* safe, or open in the closed set of the header comment */
    *plies = G->node[at].dist;
    *length = fg_line(G, root, line);
    return 1;
}

/* ---------------------------------------------------------------- the proof-number search */

/* forced_win.py's _ProofNumberSearch, move for move: a tree grown at the most-proving
 * node, solved positions kept by position (proofs always; disproofs only when no
 * repetition took part), a position already on the path an escape for the defender. */

#define FW_INFINITE (1LL << 40)

typedef struct {
    long long pn, dn;
    int32_t code, children, nchildren, distance;
    int32_t info; /* the index of its position's FpInfo (-1 until known) */
    uint8_t clean;
} FpNode;

typedef struct { int32_t distance, move; uint8_t proven, refuted; int32_t on_path; } FpInfo;

typedef struct {
    const Tables *T;
    Pos P;
    int winner;
    long long nodes, limit;
    int aborted, signalled, oom;
    FwSet set;
    FpInfo *info;
    FpNode *pool;
    size_t npool, pool_capacity;
} FwPns;

static inline int fp_spend(FwPns *S) { return fw_spend(&S->nodes, S->limit, &S->aborted, &S->signalled); }

/* The info of the position on the board (added when new), -1 when out of memory. */
static long long fp_info(FwPns *S) {
    Record r;
    u64 key = fw_record(S->T, &S->P, &r);
    long long at = fw_find(&S->set, &r, key);
    if (at >= 0) return at;
    size_t capacity = S->set.capacity;
    at = fw_add(&S->set, &r, key);
    if (at < 0) { S->oom = S->aborted = 1; return -1; }
    if (S->set.capacity != capacity) {
        FpInfo *info = realloc(S->info, S->set.capacity * sizeof(FpInfo));
        if (!info) { S->oom = S->aborted = 1; return -1; }
        S->info = info;
    }
    S->info[at] = (FpInfo){0, -1, 0, 0, 0};
    return at;
}

static void fp_prove(FwPns *S, long long at, int distance, int move) {
    if (!S->info[at].proven || S->info[at].distance > distance) {
        S->info[at].proven = 1;
        S->info[at].distance = distance;
        S->info[at].move = move;
    }
}

/* A new child for the position just reached by ``code`` (forced_win.py's _leaf). */
static FpNode fp_leaf(FwPns *S, int code, int material) {
    const Tables *T = S->T;
    FpNode child = {1, 1, code, -1, 0, 0, -1, 1};
    long long at = fp_info(S);
    if (at < 0) return child;
    child.info = (int32_t)at;
    FpInfo *known = &S->info[at];
    if (known->proven) {
        child.pn = 0, child.dn = FW_INFINITE, child.distance = known->distance;
        return child;
    }
    if (known->refuted) { child.pn = FW_INFINITE, child.dn = 0; return child; }
    if (known->on_path) { child.pn = FW_INFINITE, child.dn = 0, child.clean = 0; return child; }
    if (material && fw_never_mates(T, &S->P, S->winner)) {
        S->info[at].refuted = 1;
        child.pn = FW_INFINITE, child.dn = 0;
        return child;
    }
    if (S->P.turn == S->winner) return child;
    int moves[MAXMOVES];
    int replies = legal_moves(T, &S->P, moves);
    if (!replies) {
        if (in_check(T, &S->P)) {
            fp_prove(S, at, 0, -1);
            child.pn = 0, child.dn = FW_INFINITE;
        } else {
            S->info[at].refuted = 1;
            child.pn = FW_INFINITE, child.dn = 0;
        }
        return child;
    }
    child.pn = replies;
    return child;
}

/* The numbers of ``node`` from its children; a solved node is recorded by position (the
 * board stands on it) and forgets its children. */
static void fp_update(FwPns *S, FpNode *node, int winner_to_move) {
    FpNode *c = S->pool + node->children;
    int n = node->nchildren;
    long long pn, dn;
    if (winner_to_move) {
        pn = FW_INFINITE, dn = 0;
        for (int i = 0; i < n; i++) { if (c[i].pn < pn) pn = c[i].pn; dn += c[i].dn; }
        if (dn > FW_INFINITE) dn = FW_INFINITE;
    } else {
        pn = 0, dn = FW_INFINITE;
        for (int i = 0; i < n; i++) { pn += c[i].pn; if (c[i].dn < dn) dn = c[i].dn; }
        if (pn > FW_INFINITE) pn = FW_INFINITE;
    }
    node->pn = pn, node->dn = dn;
    if (pn == 0) {
        long long at = node->info;
        int distance = 0, move = -1;
        if (winner_to_move) {
            int best = -1;
            for (int i = 0; i < n; i++)
                if (!c[i].pn && (best < 0 || c[i].distance < c[best].distance)) best = i;
            distance = c[best].distance + 1, move = c[best].code;
        } else {
            for (int i = 0; i < n; i++) if (c[i].distance > distance) distance = c[i].distance;
            distance += 1;
        }
        node->distance = distance;
        fp_prove(S, at, distance, move);
        node->children = -1, node->nchildren = 0;
    } else if (dn == 0) {
        int clean;
        if (winner_to_move) {
            clean = 1;
            for (int i = 0; i < n; i++) clean &= c[i].clean;
        } else {
            clean = 0;
            for (int i = 0; i < n; i++) if (!c[i].dn && c[i].clean) clean = 1;
        }
        node->clean = (uint8_t)clean;
        if (clean) S->info[node->info].refuted = 1;
        node->children = -1, node->nchildren = 0;
    }
}

/* Make every legal move of the position on the board into a child of ``node`` (an index:
 * the pool may move). */
static void fp_expand(FwPns *S, size_t node) {
    const Tables *T = S->T;
    int winner_to_move = S->P.turn == S->winner;
    int moves[MAXMOVES];
    int n = legal_moves(T, &S->P, moves);
    if (!n) {
        S->pool[node].pn = FW_INFINITE, S->pool[node].dn = 0;
        S->info[S->pool[node].info].refuted = 1;
        return;
    }
    if (!fg_grow((void **)&S->pool, &S->pool_capacity, S->npool + (size_t)n, sizeof(FpNode))) {
        S->oom = S->aborted = 1;
        return;
    }
    size_t first = S->npool;
    int made = 0;
    for (int i = 0; i < n; i++) {
        if (!fp_spend(S)) return;
        int material = fw_material(&S->P, moves[i]);
        Undo u;
        make(T, &S->P, moves[i], &u);
        FpNode child = fp_leaf(S, moves[i], material);
        unmake(T, &S->P, &u);
        if (S->aborted) return;
        S->pool[first + made++] = child;
        if (winner_to_move ? !child.pn : !child.dn) break; /* a mate found / an escape found */
    }
    S->npool += (size_t)made;
    S->pool[node].children = (int32_t)first;
    S->pool[node].nchildren = made;
    fp_update(S, &S->pool[node], winner_to_move);
}

static inline void fp_path(FwPns *S, size_t node, int delta) { S->info[S->pool[node].info].on_path += delta; }

/* Grow the tree until the root is proven or disproven or the budget ends: 1 proven, 0
 * disproven, -1 not decided. */
static int fp_run(FwPns *S) {
    const Tables *T = S->T;
    if (!fg_grow((void **)&S->pool, &S->pool_capacity, 1, sizeof(FpNode))) { S->oom = S->aborted = 1; return -1; }
    S->pool[0] = (FpNode){1, 1, -1, -1, 0, 0, -1, 1};
    S->npool = 1;
    long long root = fp_info(S);
    if (root < 0) return -1;
    S->pool[0].info = (int32_t)root;
    fp_path(S, 0, 1);
    fp_expand(S, 0);
    size_t *stack = malloc(MAXPLY * sizeof(size_t));
    Undo *undo = malloc(MAXPLY * sizeof(Undo));
    if (!stack || !undo) { free(stack); free(undo); S->oom = S->aborted = 1; return -1; }
    int depth = 0;
    stack[0] = 0;
    while (!S->aborted && S->pool[0].pn && S->pool[0].dn) {
        size_t node = stack[depth];
        while (S->pool[node].children >= 0 && !S->aborted) {
            FpNode *c = S->pool + S->pool[node].children;
            int n = S->pool[node].nchildren, pick = 0;
            if (S->P.turn == S->winner) {
                for (int i = 1; i < n; i++) if (c[i].pn < c[pick].pn) pick = i;
            } else {
                for (int i = 1; i < n; i++) if (c[i].dn < c[pick].dn) pick = i;
            }
            if (!fp_spend(S) || depth + 1 >= MAXPLY) { S->aborted = 1; break; }
            node = (size_t)S->pool[node].children + (size_t)pick;
            make(T, &S->P, S->pool[node].code, &undo[depth + 1]);
            fp_path(S, node, 1);
            stack[++depth] = node;
        }
        if (S->aborted) break;
        long long pn = S->pool[node].pn, dn = S->pool[node].dn;
        fp_expand(S, node);
        if (S->aborted) break;
        while (depth > 0 && ((S->pool[node].pn != pn || S->pool[node].dn != dn) || !S->pool[node].pn || !S->pool[node].dn)) {
            fp_path(S, node, -1);
            unmake(T, &S->P, &undo[depth]);
            node = stack[--depth];
            pn = S->pool[node].pn, dn = S->pool[node].dn;
            fp_update(S, &S->pool[node], S->P.turn == S->winner);
        }
    }
    while (depth > 0) unmake(T, &S->P, &undo[depth--]); /* back to the root */
    free(stack);
    free(undo);
    if (S->aborted) return -1;
    return S->pool[0].pn == 0 ? 1 : 0;
}

/* The proven strategy's line from the root: the winner's recorded moves against the
 * replies that hold out longest. */
static int fp_line(FwPns *S, int *line) {
    const Tables *T = S->T;
    Pos root = S->P;
    int n = 0, moves[MAXMOVES];
    while (n < MAXPLY) {
        int count = legal_moves(T, &S->P, moves), move = -1;
        if (!count) break;
        if (S->P.turn == S->winner) {
            long long at = fp_info(S);
            if (at < 0 || !S->info[at].proven) break;
            move = S->info[at].move;
        } else {
            int longest = -2;
            for (int i = 0; i < count; i++) {
                Undo u;
                make(T, &S->P, moves[i], &u);
                long long at = fp_info(S);
                int distance = at >= 0 && S->info[at].proven ? S->info[at].distance : -1;
                unmake(T, &S->P, &u);
                if (distance > longest) longest = distance, move = moves[i];
            }
        }
        if (move < 0) break;
        Undo u;
        make(T, &S->P, move, &u);
        line[n++] = move;
    }
    S->P = root;
    return n;
}

static void fp_free(FwPns *S) {
    fw_set_free(&S->set);
    free(S->info);
    free(S->pool);
}

/* ---------------------------------------------------------------- entry point */

/* forced_win(tables, placement, turn, castling, ep, winner, max_plies, node_limit,
 * short_plies, short_limit, pns_limit) -> (status, plies, line, nodes, positions): status
 * 1 a forced mate (``plies`` the length of the strategy found, ``line`` one line of it),
 * 0 none (within ``max_plies`` when it is not negative), -1 the node limit ran out
 * first. With ``max_plies`` not negative, the bounded search (the shortest mate). With
 * ``max_plies`` negative, the unbounded question, as forced_win.py's _unbounded: the
 * bounded search up to ``short_plies`` with at most ``short_limit`` moves, the
 * proof-number search with at most ``pns_limit`` (it finds long mates with few moves),
 * then the game solved on the fly with the rest (it proves there is none). */
static PyObject *py_forced_win(PyObject *self, PyObject *args) {
    Py_buffer tables, placement;
    int turn, ep, winner, max_plies, short_plies;
    unsigned long long castling;
    long long limit, short_limit, pns_limit;
    if (!PyArg_ParseTuple(args, "y*y*iKiiiLiLL", &tables, &placement, &turn, &castling, &ep, &winner, &max_plies,
                          &limit, &short_plies, &short_limit, &pns_limit))
        return NULL;
    PyObject *result = NULL;
    FwBounded *B = calloc(1, sizeof(FwBounded));
    FwPns *S = calloc(1, sizeof(FwPns));
    FwGame *G = calloc(1, sizeof(FwGame));
    int *line = malloc(MAXPLY * sizeof(int));
    Tables *T = NULL;
    if (!B || !S || !G || !line) { PyErr_NoMemory(); goto done; }
    T = read_input(&tables, &placement, turn, castling, ep, &B->P);
    if (!T) goto done;
    if (winner & ~1) {
        PyErr_SetString(PyExc_ValueError, "winner must be 0 (white) or 1 (black)");
        goto done;
    }
    Pos root = B->P;
    B->T = T, B->winner = winner;
    B->limit = max_plies >= 0 ? limit : short_limit < limit ? short_limit : limit;
    int plies = 0, length = 0;
    int status = fb_solve(B, max_plies >= 0 ? max_plies : short_plies, &plies, line, &length);
    int oom = B->oom, signalled = B->signalled;
    if (max_plies < 0 && status != 1 && !oom && !signalled) {
        long long left = limit - B->nodes;
        S->T = T, S->P = root, S->winner = winner;
        S->limit = pns_limit < left ? pns_limit : left;
        status = fp_run(S);
        oom = S->oom, signalled = S->signalled;
        if (status == 1) {
            Record r;
            u64 key = fw_record(T, &S->P, &r);
            plies = S->info[fw_find(&S->set, &r, key)].distance;
            length = fp_line(S, line);
        } else if (status == -1 && !oom && !signalled) {
            G->T = T, G->winner = winner;
            status = fg_start(G, &root) < 0 ? -1 : fg_run(G, &root, left - S->nodes, &plies, line, &length);
            oom = G->oom, signalled = G->signalled;
        }
    }
    if (signalled) goto done; /* the exception is set */
    if (oom) { PyErr_NoMemory(); goto done; }
    PyObject *moves = PyList_New(status == 1 ? length : 0);
    if (!moves) goto done;
    for (int i = 0; status == 1 && i < length; i++) PyList_SET_ITEM(moves, i, PyLong_FromLong(line[i]));
    result = Py_BuildValue("(iiNLL)", status, plies, moves, B->nodes + S->nodes + G->nodes,
                           (long long)(B->set.count + S->set.count + G->set.count));
done:
    if (B) fw_set_free(&B->set), free(B->bound);
    if (S) fp_free(S);
    if (G) fg_free(G);
    free(B);
    free(S);
    free(G);
    free(line);
    free(T);
    PyBuffer_Release(&tables);
    PyBuffer_Release(&placement);
    return result;
}
