/* The batch: many flag-fall questions in one call, from the FEN text to the verdict,
 * compiled throughout (the screening mode and the first stage of the full mode of
 * ``arbiter unwinnable --batch``, reference_impl.unwinnability.batch).
 * Part of _native.c, one compilation unit that includes this file after the parts it
 * uses (board.c, helpmate.c, best_first.c, static_stage.c and the helpmate driver).
 *
 * Per position: the FEN is read when it is *plain* (below); the Laws' answer when the
 * side to move has no legal move; then the helpmate probe if one is asked for (in full
 * mode the first probe of the full analysis: the same search with the same parameters
 * as analyse()'s, so the same line and node count), and in screening mode the static
 * stage. A mating line is replayed here with the
 * compiled legal-move generator (each move must be in the legal list, the end must be
 * the winner's checkmate) and written in UCI.
 *
 * A FEN is plain when this reader is sure the interpreter's validator
 * (reference_impl.core.fen) accepts it: six fields of printable ASCII; a placement
 * whose letters are the ruleset's (passed in, see pack_fen_info in native.py); one king
 * a side; no pawn on a forbidden rank; the material within the initial array plus
 * promotions; castling "-" or the letters K, Q, k, q each naming the outermost rook on
 * that side (on its initial square where the ruleset requires it); no en passant
 * square; clocks without a leading zero that the move number allows; the side not to
 * move not in check, and at most one check on the side to move, from a unit other than
 * a pawn that can have arrived on its square. Anything else (an en passant square,
 * file letters in the castling field, a double or a pawn's check, any malformation) is
 * "not sure": the interpreter decides, and gives the error text.
 */

/* The FEN information, read from the FEN record of layout.h (native.py: pack_fen_info). */
typedef struct {
    int uci_king_takes_rook, require_initial;
    unsigned char piece_of[128];
    char letter[MAXT];
    int initial[2][MAXT];
    u64 forbidden_pawn[2], initial_kings[2], initial_rooks[2];
} FenInfo;

static int load_fen_info(FenInfo *F, const u64 *data, Py_ssize_t n) {
    if (n != FEN_SIZE || data[FEN_VERSION] != FEN_INFO_VERSION) return 0;
    F->uci_king_takes_rook = (int)data[FEN_UCI_KING_TAKES_ROOK];
    F->require_initial = (int)data[FEN_REQUIRE_INITIAL];
    for (int i = 0; i < 128; i++) F->piece_of[i] = (unsigned char)data[FEN_PIECE_OF + i];
    for (int t = 0; t < MAXT; t++) F->letter[t] = (char)data[FEN_LETTER + t];
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < MAXT; t++) F->initial[c][t] = (int)data[FEN_INITIAL + c * MAXT + t];
    for (int c = 0; c < 2; c++) {
        F->forbidden_pawn[c] = data[FEN_FORBIDDEN_PAWN + c];
        F->initial_kings[c] = data[FEN_INITIAL_KINGS + c];
        F->initial_rooks[c] = data[FEN_INITIAL_ROOKS + c];
    }
    return 1;
}

/* ---------------------------------------------------------------- the plain FEN */

/* What str.split() splits on, among ASCII bytes. */
static inline int fen_space(unsigned char ch) { return ch == ' ' || (ch >= 9 && ch <= 13) || (ch >= 0x1c && ch <= 0x1f); }

/* The first six whitespace-separated fields of ``s`` (the rest is ignored); 0 unless
 * there are six, each of printable ASCII. */
static int fen_fields(const char *s, Py_ssize_t n, const char *field[6], Py_ssize_t length[6]) {
    Py_ssize_t i = 0;
    for (int k = 0; k < 6; k++) {
        while (i < n && fen_space((unsigned char)s[i])) i++;
        if (i >= n) return 0;
        Py_ssize_t start = i;
        for (; i < n && !fen_space((unsigned char)s[i]); i++)
            if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e) return 0;
        field[k] = s + start;
        length[k] = i - start;
    }
    return 1;
}

/* A clock: 1 to 9 ASCII digits, no leading zero. */
static int plain_number(const char *f, Py_ssize_t n, long long *value) {
    if (n < 1 || n > 9 || (n > 1 && f[0] == '0')) return 0;
    long long v = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (f[i] < '0' || f[i] > '9') return 0;
        v = v * 10 + (f[i] - '0');
    }
    *value = v;
    return 1;
}

static int plain_placement(const Tables *T, const FenInfo *F, const char *f, Py_ssize_t n, Pos *P) {
    int rank = 7, file = 0, previous_digit = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)f[i];
        if (ch == '/') {
            if (file != 8 || rank == 0) return 0;
            rank--;
            file = 0;
            previous_digit = 0;
        } else if (ch >= '0' && ch <= '9') {
            if (previous_digit || ch == '0' || ch == '9') return 0;
            file += ch - '0';
            previous_digit = 1;
        } else {
            int code = F->piece_of[ch];
            if (code == 255 || file >= 8 || (code & 15) >= T->ntypes) return 0;
            put(T, P, rank * 8 + file, code >> 4, code & 15);
            file++;
            previous_digit = 0;
        }
    }
    return rank == 0 && file == 8;
}

/* reachable.check_material: pawns within the initial array, extra pieces promoted. */
static int plain_material(const Tables *T, const FenInfo *F, const Pos *P) {
    for (int c = 0; c < 2; c++) {
        int start_pawns = T->pawn >= 0 ? F->initial[c][T->pawn] : 0;
        int pawns = T->pawn >= 0 ? popcount(P->bb[c][T->pawn]) : 0;
        if (pawns > start_pawns) return 0;
        int extra = 0;
        for (int t = 0; t < T->ntypes; t++) {
            int surplus = popcount(P->bb[c][t]) - F->initial[c][t];
            if (t == T->pawn || surplus <= 0) continue;
            int promotes = 0;
            for (int i = 0; i < T->npromo; i++) promotes |= T->promo[i] == t;
            if (!promotes) return 0;
            extra += surplus;
        }
        if (extra > start_pawns - pawns) return 0;
    }
    return 1;
}

/* The castling field in its plain form (K, Q, k, q): the rights as rook squares, or 0
 * (not sure) when the interpreter must decide. */
static int plain_castling(const Tables *T, const FenInfo *F, const char *f, Py_ssize_t n, Pos *P) {
    if (n == 1 && f[0] == '-') return 1;
    if (!T->castling || n > 4) return 0;
    int seen_black = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        char ch = f[i];
        int c = ch == 'k' || ch == 'q';
        if (!c && ch != 'K' && ch != 'Q') return 0;
        if (seen_black && !c) return 0; /* White's letters come first */
        seen_black |= c;
        for (Py_ssize_t j = 0; j < i; j++) if (f[j] == ch) return 0;
        u64 back = HOME_RANK[c];
        int king = king_square(T, P, c);
        if (!(1ULL << king & back)) return 0;
        if (F->require_initial && !(1ULL << king & F->initial_kings[c])) return 0;
        if (!F->require_initial && (file_of(king) == 0 || file_of(king) == 7)) return 0;
        u64 rooks = P->bb[c][T->rook_type] & back;
        int king_side = ch == 'K' || ch == 'k';
        u64 side = king_side ? rooks & ~((2ULL << king) - 1) : rooks & ((1ULL << king) - 1);
        if (!side) return 0;
        int rook = king_side ? 63 - __builtin_clzll(side) : lsb(side);
        if (F->require_initial && !(1ULL << rook & F->initial_rooks[c])) return 0;
        u64 own = P->castling & P->occ[c];
        u64 same_side = king_side ? own & ~((2ULL << king) - 1) : own & ((1ULL << king) - 1);
        if (same_side) return 0;
        P->castling |= 1ULL << rook;
    }
    return 1;
}

/* reachable.check_checks, the cases it accepts that are sure: nobody checks the side
 * not to move; at most one unit checks the side to move, and some empty square lets
 * that unit have arrived where it stands (a pawn by a push or a capture). */
static int plain_checks(const Tables *T, const FenInfo *F, const Pos *P) {
    int us = P->turn, them = us ^ 1;
    int ours = king_square(T, P, us), theirs = king_square(T, P, them);
    if (attacked(T, P, theirs, us, P->all)) return 0;
    if (!attacked(T, P, ours, them, P->all)) return 1;
    u64 checkers = 0;
    for (int t = 0; t < T->ntypes; t++)
        for (u64 b = P->bb[them][t]; b; b &= b - 1)
            if (attacks(T, t, them, lsb(b), P->all) >> ours & 1) checkers |= 1ULL << lsb(b);
    if (popcount(checkers) != 1) return 0;
    int at = lsb(checkers), t = P->mailbox[at] & 15;
    if (t == T->pawn) { /* its push or capture onto that square (never from a forbidden rank) */
        u64 open = ~P->all & ~F->forbidden_pawn[them];
        int back = at - T->push_delta[them];
        if (T->pawn_cap_from[them][at] & open) return 1;
        return back >= 0 && back < 64 && (open >> back & 1) && (T->pawn_push[them][back] >> at & 1);
    }
    for (u64 empty = ~P->all; empty; empty &= empty - 1)
        if (attacks(T, t, them, lsb(empty), P->all) >> at & 1) return 1;
    return 0;
}

/* Read ``s`` into ``P`` if it is a plain FEN (see the top of this file), its six fields
 * into ``field`` and ``length``; 0 if not sure. */
static int plain_fen(const Tables *T, const FenInfo *F, const char *s, Py_ssize_t n, Pos *P, const char *field[6],
                     Py_ssize_t length[6]) {
    if (!fen_fields(s, n, field, length)) return 0;
    memset(P, 0, sizeof(*P));
    memset(P->mailbox, -1, sizeof(P->mailbox));
    P->ep = -1;
    if (!plain_placement(T, F, field[0], length[0], P)) return 0;
    if (length[1] != 1 || (field[1][0] != 'w' && field[1][0] != 'b')) return 0;
    P->turn = field[1][0] == 'b';
    for (int c = 0; c < 2; c++)
        if (popcount(P->bb[c][T->royal]) != 1) return 0;
    if (T->pawn >= 0)
        for (int c = 0; c < 2; c++)
            if (P->bb[c][T->pawn] & F->forbidden_pawn[c]) return 0;
    if (!plain_material(T, F, P)) return 0;
    if (!plain_castling(T, F, field[2], length[2], P)) return 0;
    if (length[3] != 1 || field[3][0] != '-') return 0;
    long long halfmove, fullmove;
    if (!plain_number(field[4], length[4], &halfmove) || !plain_number(field[5], length[5], &fullmove)) return 0;
    if (fullmove < 1 || halfmove > 2 * (fullmove - 1) + P->turn) return 0;
    return plain_checks(T, F, P);
}

/* ---------------------------------------------------------------- the line */

/* The UCI of ``m`` (castling as the ruleset writes it) into ``text``; its length. */
static int move_uci(const Tables *T, const FenInfo *F, int m, char text[6]) {
    int from = m & 63, to = m >> 6 & 63, promo = m >> 12 & 15;
    if (m >> 16 == FLAG_CASTLE && !F->uci_king_takes_rook) {
        int s = castling_side(T, to > from);
        to = (from & ~7) + T->side_kto[s];
    }
    text[0] = (char)('a' + file_of(from)), text[1] = (char)('1' + rank_of(from));
    text[2] = (char)('a' + file_of(to)), text[3] = (char)('1' + rank_of(to));
    if (!promo) return 4;
    text[4] = F->letter[promo - 1];
    return 5;
}

/* ``line`` replayed from ``root`` by the compiled generator: 1 if each move is one of
 * the legal moves where it is played (is_legal_move) and the end is ``winner``'s
 * checkmate, else 0. */
static int checked_line(const Tables *T, const Pos *root, const int *line, int n, int winner) {
    Pos R = *root;
    int moves[MAXMOVES];
    for (int i = 0; i < n; i++) {
        if (!is_legal_move(T, &R, line[i])) return 0;
        Undo u;
        make(T, &R, line[i], &u);
    }
    return R.turn != winner && legal_moves_upto(T, &R, moves, 1) == 0 && in_check(T, &R);
}

/* ``line`` in UCI, as a new list. */
static PyObject *uci_list(const Tables *T, const FenInfo *F, const int *line, int n) {
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        char text[6];
        PyObject *uci = PyUnicode_FromStringAndSize(text, move_uci(T, F, line[i], text));
        if (!uci) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, uci);
    }
    return out;
}

/* ---------------------------------------------------------------- the batch */

typedef struct {
    int full;                  /* the full analysis's first probe, else the screening stages */
    long long probe, local;    /* the helpmate search's node limit and iteration share */
    int max_depth, horizon;
    long long depth_first;
    int side;                  /* the colour asked, or -1: the side not to move */
} BatchMode;

/* One position's answer, before it becomes a tuple or a line of text: a CAN with
 * ``plies`` 0 is a mate on the board, else ``line`` (the search's, checked) holds it. */
typedef struct {
    int verdict, side, stage, plies;
    long long nodes;
    const int *line;
} BatchResult;

/* The helpmate probe of ``M`` for ``side`` into ``R``: 1 if it found a mate (its line
 * checked) or, in full mode, with the open answer; 0 if not found (the moves made in
 * R->nodes); -1 with an exception set on failure or a signal. */
static int batch_probe(const Tables *T, const FenInfo *F, const BatchMode *M, Search *S, const Pos *P, int side,
                       BatchResult *R) {
    TTEntry *tt = S->tt;
    u64 tt_mask = S->tt_mask;
    memset(S, 0, sizeof(*S));
    S->T = T;
    S->P = *P;
    S->winner = side;
    S->horizon = M->horizon;
    S->tt = tt;
    S->tt_mask = tt_mask;
    S->generation = shared_generation; /* no entry of an earlier search counts */
    int status = run_helpmate(S, M->probe, M->local, M->max_depth, M->depth_first);
    shared_generation = S->generation;
    R->nodes = S->nodes;
    if (S->signalled) return -1;
    if (status != 1) {
        if (!M->full) return 0;
        R->verdict = BATCH_OPEN, R->stage = BATCH_STAGE_NONE;
        return 1;
    }
    if (!checked_line(T, P, S->line, S->ply, side)) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled helpmate search proposed a line the generator rejects");
        return -1;
    }
    R->line = S->line, R->plies = S->ply;
    R->verdict = BATCH_CAN, R->stage = BATCH_STAGE_HELPMATE;
    return 1;
}

/* Has the side to move a legal move? (legal_moves stopping at the first) */
static int has_legal_move(const Tables *T, Pos *P) {
    int first[1];
    return legal_moves_upto(T, P, first, 1);
}

/* One position's answer into ``R``: the Laws' answer without a legal move; the probe
 * (full mode: only it); the static stage, skipped where st_open shows it would not
 * prove the side unable. 0, or -1 with an exception set on failure (a proposed line the
 * generator rejects is a RuntimeError). */
static int batch_one(const Tables *T, const FenInfo *F, const BatchMode *M, Search *S, Pos *P, BatchResult *R) {
    int side = M->side >= 0 ? M->side : P->turn ^ 1;
    R->side = side, R->nodes = 0, R->line = NULL, R->plies = 0;
    if (!has_legal_move(T, P)) {
        int mated = in_check(T, P) ? P->turn : -1;
        R->verdict = mated >= 0 && side != mated ? BATCH_CAN : BATCH_CANNOT;
        R->stage = BATCH_STAGE_TERMINAL;
        return 0;
    }
    if (M->probe > 0) {
        int found = batch_probe(T, F, M, S, P, side, R);
        if (found) return found < 0 ? -1 : 0;
    }
    int proven = !st_open(T, P, side) && static_stage(T, P, legal_ep(T, P), 1 << side);
    R->verdict = proven ? BATCH_CANNOT : BATCH_OPEN;
    R->stage = proven ? BATCH_STAGE_STATIC : BATCH_STAGE_NONE;
    return 0;
}

/* ``R`` as the tuple (verdict, side, line in UCI or None, nodes, stage). */
static PyObject *result_tuple(const Tables *T, const FenInfo *F, const BatchResult *R) {
    PyObject *line = R->verdict == BATCH_CAN ? uci_list(T, F, R->line, R->plies) : Py_NewRef(Py_None);
    if (!line) return NULL;
    return Py_BuildValue("(iiNLi)", R->verdict, R->side, line, R->nodes, R->stage);
}

/* ---------------------------------------------------------------- the output line */

static const char *const VERDICT_JSON[3] = {"can", "cannot", "undetermined"};
static const char *const SIDE_JSON[2] = {"white", "black"};

/* A growing text buffer (0 in ``failed`` while memory lasts). */
typedef struct {
    char *text;
    size_t length, size;
    int failed;
} Text;

static char *text_room(Text *B, size_t need) {
    if (B->length + need > B->size) {
        size_t size = B->size ? B->size : 1 << 16;
        while (size < B->length + need) size *= 2;
        char *grown = realloc(B->text, size);
        if (!grown) { B->failed = 1; return NULL; }
        B->text = grown, B->size = size;
    }
    return B->text + B->length;
}

static void text_add(Text *B, const char *s, size_t n) {
    char *at = text_room(B, n);
    if (at) memcpy(at, s, n), B->length += n;
}

static inline void text_str(Text *B, const char *s) { text_add(B, s, strlen(s)); }

static void text_number(Text *B, long long v) {
    char digits[24];
    int n = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do digits[n++] = (char)('0' + u % 10); while (u /= 10);
    char *at = text_room(B, (size_t)n + 1);
    if (!at) return;
    if (v < 0) *at++ = '-', B->length++;
    while (n) *at++ = digits[--n], B->length++;
}

/* ``R`` as its JSON Lines object, from "fen" on (the caller writes what comes before):
 * the same text as json.dumps of the object, written here because a screening answer
 * costs less than formatting it in Python. ``proofs`` holds each stage's proof as JSON
 * text ("null" where none). -1 with an exception on failure. */
static int answer_text(Text *B, const Tables *T, const FenInfo *F, const BatchResult *R, const char *field[6],
                       const Py_ssize_t length[6], PyObject *proofs) {
    text_str(B, "\"fen\": \"");
    for (int k = 0; k < 6; k++) {
        if (k) text_add(B, " ", 1);
        const char *f = field[k];
        Py_ssize_t start = 0;
        for (Py_ssize_t i = 0; i < length[k]; i++)
            if (f[i] == '"' || f[i] == '\\') {
                text_add(B, f + start, (size_t)(i - start));
                text_add(B, "\\", 1);
                start = i;
            }
        text_add(B, f + start, (size_t)(length[k] - start));
    }
    text_str(B, "\", \"side\": \"");
    text_str(B, SIDE_JSON[R->side & 1]);
    text_str(B, "\", \"verdict\": \"");
    text_str(B, VERDICT_JSON[R->verdict]);
    text_str(B, "\", \"line_uci\": ");
    if (R->verdict == BATCH_CAN) {
        text_add(B, "[", 1);
        for (int i = 0; i < R->plies; i++) {
            char uci[8] = {'"'};
            int n = move_uci(T, F, R->line[i], uci + 1);
            uci[n + 1] = '"';
            if (i) text_add(B, ", ", 2);
            text_add(B, uci, (size_t)n + 2);
        }
        text_add(B, "]", 1);
    } else {
        text_str(B, "null");
    }
    text_str(B, ", \"proof\": ");
    if (R->verdict == BATCH_CANNOT) {
        Py_ssize_t n;
        const char *proof = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(proofs, R->stage), &n);
        if (!proof) return -1;
        text_add(B, proof, (size_t)n);
    } else {
        text_str(B, "null");
    }
    text_str(B, ", \"nodes\": ");
    text_number(B, R->nodes);
    text_add(B, "}", 1);
    if (B->failed) { PyErr_NoMemory(); return -1; }
    return 0;
}

/* batch(tables, fen_info, items, side, full, proofs, probe, local, max_depth, tt_bits, horizon, depth_first,
 *       numbers=None) -> (answers, exception, blocks): an answer per item, in order, as long
 * as no signal came (the exception it raised is handed back, not set). An item is a FEN
 * (str; its answer None when it is not plain) or a position already validated,
 * (placement, turn, castling, ep) as the other entry points take it. With ``proofs`` (a
 * tuple of each stage's proof as JSON text, not None), a final answer to a FEN is its
 * output text: from "fen" on, as a str in ``answers`` (answer_text); or, with
 * ``numbers`` (each item's input line number), the whole line with its "input_line",
 * and its answer True: the lines of each run of consecutive True answers are one str of
 * ``blocks``, joined by newlines, in order (a screening writes a chunk of lines at once). */
static PyObject *py_batch(PyObject *self, PyObject *args) {
    Py_buffer tables, info;
    PyObject *items;
    BatchMode M;
    int tt_bits;
    PyObject *proofs, *numbers = Py_None;
    if (!PyArg_ParseTuple(args, "y*y*O!iiOLLiiiL|O", &tables, &info, &PyList_Type, &items, &M.side, &M.full, &proofs,
                          &M.probe, &M.local, &M.max_depth, &tt_bits, &M.horizon, &M.depth_first, &numbers))
        return NULL;
    PyObject *answers = NULL, *blocks = NULL, *result = NULL;
    Text B = {NULL, 0, 0, 0};
    Tables *T = malloc(sizeof(Tables));
    FenInfo *F = malloc(sizeof(FenInfo));
    Search *S = calloc(1, sizeof(Search));
    if (tt_bits < 10) tt_bits = 10;
    if (tt_bits > 26) tt_bits = 26;
    TTEntry *tt = M.probe > 0 ? transposition_table(tt_bits) : NULL;
    if (!T || !F || !S || (M.probe > 0 && !tt)) { PyErr_NoMemory(); goto done; }
    Py_ssize_t n = PyList_GET_SIZE(items);
    int text_mode = proofs != Py_None, whole_lines = numbers != Py_None;
    if (tables.len % 8 || !load_tables_cached(T, (const u64 *)tables.buf, tables.len / 8) || info.len % 8 ||
        !load_fen_info(F, (const u64 *)info.buf, info.len / 8) || M.side < -1 || M.side > 1 ||
        (text_mode && (!PyTuple_Check(proofs) || PyTuple_GET_SIZE(proofs) != 4)) ||
        (whole_lines && (!text_mode || !PyList_Check(numbers) || PyList_GET_SIZE(numbers) != n))) {
        PyErr_SetString(PyExc_ValueError, "malformed tables, FEN information, side or line numbers");
        goto done;
    }
    S->tt = tt;
    S->tt_mask = ((u64)1 << tt_bits) - 1;
    answers = PyList_New(0);
    blocks = PyList_New(0);
    if (!answers || !blocks) goto done;
    PyObject *stopped = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyErr_CheckSignals() < 0) break;
        PyObject *item = PyList_GET_ITEM(items, i), *answer = NULL;
        Pos P;
        const char *field[6];
        Py_ssize_t length[6];
        int fen = PyUnicode_Check(item);
        BatchResult R = {0, 0, 0, 0, 0, NULL};
        if (fen) {
            Py_ssize_t size;
            const char *text = PyUnicode_AsUTF8AndSize(item, &size);
            if (!text) goto done;
            if (!plain_fen(T, F, text, size, &P, field, length)) answer = Py_NewRef(Py_None);
        } else {
            Py_buffer placement;
            int turn, ep;
            unsigned long long castling;
            if (!PyArg_ParseTuple(item, "y*iKi", &placement, &turn, &castling, &ep)) goto done;
            int ok = parse_position(T, &P, &placement, turn, castling, ep);
            PyBuffer_Release(&placement);
            if (!ok) { PyErr_SetString(PyExc_ValueError, "malformed position"); goto done; }
        }
        if (!answer) {
            if (batch_one(T, F, &M, S, &P, &R) < 0) {
                if (S->signalled) break;
                goto done;
            }
            int final = fen && text_mode && !(M.full && R.verdict == BATCH_OPEN);
            if (final && whole_lines) {
                if (B.length) text_add(&B, "\n", 1);
                text_str(&B, "{\"input_line\": ");
                text_number(&B, PyLong_AsLongLong(PyList_GET_ITEM(numbers, i)));
                text_str(&B, ", ");
                if (answer_text(&B, T, F, &R, field, length, proofs) < 0 || PyErr_Occurred()) goto done;
                answer = Py_NewRef(Py_True);
            } else if (final) {
                Text line = {NULL, 0, 0, 0};
                int failed = answer_text(&line, T, F, &R, field, length, proofs) < 0;
                answer = failed ? NULL : PyUnicode_FromStringAndSize(line.text, (Py_ssize_t)line.length);
                free(line.text);
                if (!answer) goto done;
            } else {
                answer = result_tuple(T, F, &R);
                if (!answer) goto done;
            }
        }
        if (answer != Py_True && B.length) { /* a run of written lines ends */
            PyObject *block = PyUnicode_FromStringAndSize(B.text, (Py_ssize_t)B.length);
            B.length = 0;
            int kept = block ? PyList_Append(blocks, block) : -1;
            Py_XDECREF(block);
            if (kept < 0) { Py_DECREF(answer); goto done; }
        }
        int appended = PyList_Append(answers, answer);
        Py_DECREF(answer);
        if (appended < 0) goto done;
    }
    if (B.length) {
        PyObject *block = PyUnicode_FromStringAndSize(B.text, (Py_ssize_t)B.length);
        int kept = block ? PyList_Append(blocks, block) : -1;
        Py_XDECREF(block);
        if (kept < 0) goto done;
    }
    if (PyErr_Occurred()) { /* a signal's exception: handed back with what was answered */
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        PyErr_NormalizeException(&type, &value, &traceback);
        if (traceback) PyException_SetTraceback(value, traceback);
        stopped = value ? value : Py_None;
        Py_INCREF(stopped);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(traceback);
    } else {
        stopped = Py_None;
        Py_INCREF(stopped);
    }
    result = Py_BuildValue("(NNN)", answers, stopped, blocks);
    answers = blocks = NULL;
done:
    Py_XDECREF(answers);
    Py_XDECREF(blocks);
    free(B.text);
    free(S);
    free(F);
    free(T);
    PyBuffer_Release(&tables);
    PyBuffer_Release(&info);
    return result;
}

/* read_fen(tables, fen_info, text) -> (placement, turn, castling, ep) of a plain FEN, or
 * None when the reader is not sure (the tests compare it with the interpreter's board). */
static PyObject *py_read_fen(PyObject *self, PyObject *args) {
    Py_buffer tables, info;
    const char *text;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "y*y*s#", &tables, &info, &text, &size)) return NULL;
    PyObject *result = NULL;
    Tables *T = malloc(sizeof(Tables));
    FenInfo *F = malloc(sizeof(FenInfo));
    if (!T || !F) { PyErr_NoMemory(); goto done; }
    if (tables.len % 8 || !load_tables_cached(T, (const u64 *)tables.buf, tables.len / 8) || info.len % 8 ||
        !load_fen_info(F, (const u64 *)info.buf, info.len / 8)) {
        PyErr_SetString(PyExc_ValueError, "malformed tables or FEN information");
        goto done;
    }
    Pos P;
    const char *field[6];
    Py_ssize_t length[6];
    if (!plain_fen(T, F, text, size, &P, field, length)) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    unsigned char placement[64];
    for (int sq = 0; sq < 64; sq++) placement[sq] = (unsigned char)P.mailbox[sq];
    result = Py_BuildValue("(y#iKi)", (const char *)placement, (Py_ssize_t)64, P.turn,
                           (unsigned long long)P.castling, P.ep);
done:
    free(F);
    free(T);
    PyBuffer_Release(&tables);
    PyBuffer_Release(&info);
    return result;
}
