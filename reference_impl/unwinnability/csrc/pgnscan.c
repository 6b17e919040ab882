/* PGN bytes to replayed games, compiled: the common path of conformance.tools.audit.fast.
 * Part of _native.c (included after board.c, whose positions and legal moves it uses).
 *
 * The scan cuts a partition's bytes into the pieces that reference_impl.notation.pgn's
 * split_games makes (same rules, on bytes) and reads each piece the way its _Reader
 * would, but only within a subset it is sure of: tags in pair form without escapes,
 * movetext of move numbers, SAN moves, brace and semicolon comments, NAGs after a move,
 * and variations (their moves read as plain tokens, not replayed), ending in the result. In that subset each
 * main-line move must be canonical SAN of exactly one legal move (the form
 * notation.fastsan reads; en passant too), and the game is replayed on the compiled
 * board. Anything else -- an escape line, a glyph, a null move, a lenient spelling, a
 * move no legal move fits, a piece that holds more than one game -- leaves that piece to
 * the Python reader, and so does a game in which the per-ply automatic-end thresholds
 * may hold (its repetition count is taken over placement, side to move and castling
 * rights, a coarser identity than any the rulesets define, so it never misses one).
 * Where even the cutting into pieces depends on how a non-ASCII byte decodes (a line
 * that might begin with Unicode white space, say), or a lone carriage return splits
 * lines differently, the whole partition is left to the Python reader.
 *
 * Letters and marks come in from the notation tables (ScanSyntax); nothing here names
 * a piece. */

#define SCAN_MAXKEYS 4096
#define SCAN_MAXSUFFIX 8
#define SCAN_MAXALIAS 16
#define SCAN_MAXMARK 8

typedef struct {
    const char *s;
    Py_ssize_t n;
} Str;

typedef struct {
    signed char letter_type[256]; /* piece letter -> piece type (-1: not a letter) */
    Str castle[2];                /* [0] king side, [1] queen side */
    Str capture, promo_sep, check, mate;
    int nsuffix;
    Str suffix[SCAN_MAXSUFFIX];
    int nalias;
    Str alias[SCAN_MAXALIAS];
    int nag_max;
    long long plies, occurrences; /* the per-ply automatic-end thresholds */
} ScanSyntax;

typedef struct {
    const Tables *T;
    const ScanSyntax *S;
    const unsigned char *d;
    Py_ssize_t n;
    Pos start;
    u64 keys[SCAN_MAXKEYS];
    int32_t codes[SCAN_MAXKEYS]; /* the main line's moves, packed */
    PyObject *out;
    int fallback; /* the whole partition goes to the Python reader */
} Scan;

/* The piece a game ends in: the reason a piece is left to the Python reader. */
typedef struct {
    const char *what;
    int ply;
    Py_ssize_t token, token_end;
} Unsure;

static inline int scan_ws(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f); }
static inline int scan_name_char(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '+' ||
           c == '#' || c == '=' || c == ':' || c == '-';
}
static inline int scan_special(unsigned char c) { /* outside a symbol token: [^\s{}()\[\];$"] */
    return c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']' || c == ';' || c == '$' || c == '"';
}

/* ---------------------------------------------------------------- cutting into pieces */

/* pgn._TAG_RE at ``pos`` (d[pos] == '['), within the line ending at ``lim``: 1 for a
 * tag pair (name and value bounds set, ``*escaped`` when the value holds a backslash),
 * 2 for the malformed form; ``*end`` past the match either way. */
static int scan_tag(const unsigned char *d, Py_ssize_t pos, Py_ssize_t lim, Py_ssize_t *end, Py_ssize_t *ns,
                    Py_ssize_t *ne, Py_ssize_t *vs, Py_ssize_t *ve, int *escaped) {
    Py_ssize_t p = pos + 1;
    *escaped = 0;
    while (p < lim && (d[p] == ' ' || d[p] == '\t')) p++;
    *ns = p;
    while (p < lim && scan_name_char(d[p])) p++;
    *ne = p;
    if (p > *ns) {
        while (p < lim && (d[p] == ' ' || d[p] == '\t')) p++;
        if (p < lim && d[p] == '"') {
            p++;
            *vs = p;
            int ok = 0;
            while (p < lim) {
                if (d[p] == '"') { ok = 1; break; }
                if (d[p] == '\\') {
                    if (p + 1 >= lim) break;
                    *escaped = 1;
                    p += 2;
                    continue;
                }
                p++;
            }
            if (ok) {
                *ve = p;
                p++;
                while (p < lim && (d[p] == ' ' || d[p] == '\t')) p++;
                if (p < lim && d[p] == ']') {
                    *end = p + 1;
                    return 1;
                }
            }
        }
    }
    p = pos + 1;
    while (p < lim && d[p] != ']') p++;
    *end = p < lim ? p + 1 : p;
    return 2;
}

/* Whether d[a..b) is blank as str.strip() sees it: 1 blank, 0 not, -1 it depends on
 * how its non-ASCII bytes decode. */
static int scan_blank(const unsigned char *d, Py_ssize_t a, Py_ssize_t b) {
    int unsure = 0;
    for (Py_ssize_t i = a; i < b; i++) {
        if (d[i] >= 0x80) unsure = 1;
        else if (!scan_ws(d[i])) return 0;
    }
    return unsure ? -1 : 1;
}

/* pgn._scan_line over the line d[a..b) (its newline excluded): sets ``*movetext``;
 * returns the comment state at its end, or -1 when the answer depends on decoding. */
static int scan_line(const unsigned char *d, Py_ssize_t a, Py_ssize_t b, int in_comment, int *movetext) {
    Py_ssize_t end, ns, ne, vs, ve;
    int escaped;
    *movetext = 0;
    if (!in_comment && a < b && d[a] == '%') return 0;
    if (!in_comment && a < b && d[a] == '[') {
        scan_tag(d, a, b, &end, &ns, &ne, &vs, &ve, &escaped);
        int blank = scan_blank(d, end, b);
        if (blank < 0) return -1;
        if (blank) return 0;
    }
    Py_ssize_t pos = a;
    while (pos < b) {
        if (in_comment) {
            const unsigned char *close = memchr(d + pos, '}', b - pos);
            if (!close) return 1;
            in_comment = 0;
            pos = close - d + 1;
            continue;
        }
        Py_ssize_t stop = pos;
        while (stop < b && d[stop] != '{' && d[stop] != ';' && d[stop] != '[') stop++;
        if (!*movetext) {
            int blank = scan_blank(d, pos, stop);
            if (blank < 0) return -1;
            if (!blank) *movetext = 1;
        }
        if (stop == b || d[stop] == ';') break;
        if (d[stop] == '{') {
            in_comment = 1;
            pos = stop + 1;
        } else {
            scan_tag(d, stop, b, &end, &ns, &ne, &vs, &ve, &escaped);
            pos = end;
        }
    }
    return in_comment;
}

/* ---------------------------------------------------------------- SAN on the board */

static inline int str_at(const unsigned char *d, Py_ssize_t a, Py_ssize_t b, Str s) {
    return s.n > 0 && b - a >= s.n && memcmp(d + a, s.s, s.n) == 0;
}
static inline int str_ends(const unsigned char *d, Py_ssize_t a, Py_ssize_t b, Str s) {
    return s.n > 0 && b - a >= s.n && memcmp(d + b - s.n, s.s, s.n) == 0;
}

/* Whether d[a..b) is an optional mark (check or mate) then an optional suffix. */
static int scan_tail(const ScanSyntax *S, const unsigned char *d, Py_ssize_t a, Py_ssize_t b) {
    if (a == b) return 1;
    Py_ssize_t m = a;
    if (str_at(d, a, b, S->check)) m = a + S->check.n;
    else if (str_at(d, a, b, S->mate)) m = a + S->mate.n;
    if (m == b) return 1;
    for (int i = 0; i < S->nsuffix; i++)
        if (b - m == S->suffix[i].n && memcmp(d + m, S->suffix[i].s, S->suffix[i].n) == 0) return 1;
    return 0;
}

/* The legal moves of the side to move's units of type ``pt`` to ``to`` with promotion
 * code ``promo`` (castling aside): legal_moves filtered, generated for the one target
 * (pseudo_moves' rules per unit, then the king's square tested after each). */
static int scan_targets(const Tables *T, Pos *P, int pt, int to, int promo, int *out) {
    int c = P->turn, n = 0, k = 0;
    u64 own = P->occ[c], enemy = P->occ[c ^ 1], occ = P->all, units = P->bb[c][pt];
    int pseudo[64];
    if (own >> to & 1) return 0;
    while (units) {
        int sq = lsb(units);
        units &= units - 1;
        if (pt == T->pawn) {
            u64 push = T->pawn_push[c][sq] & ~occ;
            u64 targets = push | (T->pawn_cap[c][sq] & enemy);
            if (targets >> to & 1) {
                if (T->promo_rank[c] >> to & 1) {
                    for (int i = 0; i < T->npromo; i++)
                        if (T->promo[i] + 1 == promo) pseudo[n++] = sq | to << 6 | promo << 12;
                } else if (!promo) pseudo[n++] = sq | to << 6;
            }
            u64 dbl = push ? (T->pawn_double[c][sq] & ~occ) : 0;
            if (dbl && lsb(dbl) == to && !promo) pseudo[n++] = sq | to << 6 | FLAG_DOUBLE << 16;
            if (P->ep == to && T->en_passant && (T->pawn_cap[c][sq] >> P->ep & 1) && !promo) {
                int victim = P->ep + T->push_delta[c ^ 1];
                if (victim >= 0 && victim < 64 && P->mailbox[victim] == ((c ^ 1) << 4 | T->pawn))
                    pseudo[n++] = sq | P->ep << 6 | FLAG_EP << 16;
            }
        } else if (!promo && (attacks(T, pt, c, sq, occ) >> to & 1)) pseudo[n++] = sq | to << 6;
        if (n > 56) break; /* never: at most a few units reach one square */
    }
    for (int i = 0; i < n; i++) {
        Undo u;
        make(T, P, pseudo[i], &u);
        int king = king_square(T, P, c);
        int ok = king == NONE || !attacked(T, P, king, c ^ 1, P->all);
        unmake(T, P, &u);
        if (ok) out[k++] = pseudo[i];
    }
    return k;
}

/* The legal move that the canonical SAN d[a..b) writes on P (marks unchecked), or -1
 * when the text is not canonical SAN of exactly one legal move. */
static int scan_san(const Tables *T, const ScanSyntax *S, Pos *P, const unsigned char *d, Py_ssize_t a, Py_ssize_t b) {
    int moves[MAXMOVES];
    int n = -1, c = P->turn;
    for (int side = 0; side < 2; side++) {
        if (str_at(d, a, b, S->castle[side]) && scan_tail(S, d, a + S->castle[side].n, b)) {
            /* the longer form first: the queen side's begins with the king side's */
            if (side == 0 && str_at(d, a, b, S->castle[1]) && scan_tail(S, d, a + S->castle[1].n, b)) continue;
            n = legal_moves(T, P, moves);
            int found = -1;
            for (int i = 0; i < n; i++) {
                int m = moves[i];
                if (m >> 16 == FLAG_CASTLE && ((m >> 6 & 63) > (m & 63)) == (side == 0)) {
                    if (found >= 0) return -1;
                    found = m;
                }
            }
            return found;
        }
    }
    /* from the end: suffix, mark, promotion, target square, capture, rank, file, letter */
    Py_ssize_t e = b;
    while (e > a && (d[e - 1] == '!' || d[e - 1] == '?')) e--;
    if (e < b) {
        int ok = 0;
        for (int i = 0; i < S->nsuffix; i++)
            if (b - e == S->suffix[i].n && memcmp(d + e, S->suffix[i].s, S->suffix[i].n) == 0) ok = 1;
        if (!ok) return -1;
    }
    if (str_ends(d, a, e, S->check)) e -= S->check.n;
    else if (str_ends(d, a, e, S->mate)) e -= S->mate.n;
    int promo = 0;
    if (e - a >= 1 + S->promo_sep.n && S->letter_type[d[e - 1]] >= 0 && str_ends(d, a, e - 1, S->promo_sep)) {
        promo = S->letter_type[d[e - 1]] + 1;
        e -= 1 + S->promo_sep.n;
    }
    if (e - a < 2 || d[e - 2] < 'a' || d[e - 2] > 'h' || d[e - 1] < '1' || d[e - 1] > '8') return -1;
    int to = (d[e - 1] - '1') * 8 + (d[e - 2] - 'a');
    e -= 2;
    int capture_mark = 0;
    if (str_ends(d, a, e, S->capture)) {
        capture_mark = 1;
        e -= S->capture.n;
    }
    int rank = -1, file = -1;
    if (e > a && d[e - 1] >= '1' && d[e - 1] <= '8') rank = d[--e] - '1';
    if (e > a && d[e - 1] >= 'a' && d[e - 1] <= 'h') file = d[--e] - 'a';
    int pt = T->pawn;
    if (e > a) {
        if (e - a != 1 || S->letter_type[d[a]] < 0) return -1;
        pt = S->letter_type[d[a]];
    }
    if (pt < 0) return -1;
    int victim = P->mailbox[to];
    if (victim >= 0 && (victim >> 4) == c) return -1;
    int found[MAXMOVES], nf = scan_targets(T, P, pt, to, promo, found), ep = 0;
    for (int i = 0; i < nf; i++)
        if (found[i] >> 16 == FLAG_EP) ep = 1;
    if (capture_mark != (victim >= 0 || ep)) return -1;
    int chosen = -1, nchosen = 0;
    for (int i = 0; i < nf; i++)
        if ((file < 0 || (found[i] & 7) == file) && (rank < 0 || (found[i] >> 3 & 7) == rank)) {
            chosen = found[i];
            nchosen++;
        }
    if (nchosen != 1) return -1;
    int origin = chosen & 63, want_file = -1, want_rank = -1;
    if (pt == T->pawn) {
        if (capture_mark) want_file = origin & 7;
    } else {
        int others = 0, same_file = 0, same_rank = 0;
        for (int i = 0; i < nf; i++) {
            int o = found[i] & 63;
            if (o == origin) continue;
            others++;
            if ((o & 7) == (origin & 7)) same_file = 1;
            if ((o >> 3) == (origin >> 3)) same_rank = 1;
        }
        if (others) { /* pgn:8.2.3.4: the file if it tells them apart, else the rank, else both */
            if (!same_file) want_file = origin & 7;
            else if (!same_rank) want_rank = origin >> 3;
            else { want_file = origin & 7; want_rank = origin >> 3; }
        }
    }
    if (file != want_file || rank != want_rank) return -1;
    return chosen;
}

/* _SUFFIX_RE.search on the token d[a..b): where the leftmost suffix annotation that
 * ends it starts, or b when there is none or it is the whole token. */
static Py_ssize_t scan_suffix_start(const ScanSyntax *S, const unsigned char *d, Py_ssize_t a, Py_ssize_t b) {
    for (Py_ssize_t i = b - SCAN_MAXMARK > a ? b - SCAN_MAXMARK : a; i < b; i++)
        for (int k = 0; k < S->nsuffix; k++)
            if (b - i == S->suffix[k].n && memcmp(d + i, S->suffix[k].s, S->suffix[k].n) == 0) return i > a ? i : b;
    return b;
}

/* ---------------------------------------------------------------- one piece */

/* The repetition identity the scan counts: placement, side to move, castling rights. */
static inline u64 scan_key(const Tables *T, const Pos *P) {
    u64 k = P->key ^ (P->turn ? T->zobrist_turn : 0);
    u64 c = P->castling;
    while (c) { k ^= T->zobrist_castle[lsb(c)]; c &= c - 1; }
    return k;
}

static PyObject *scan_value(const unsigned char *d, Py_ssize_t a, Py_ssize_t b) {
    /* decode_lines: the line as UTF-8, else ISO 8859-1 (the rest of a pair's line is ASCII) */
    PyObject *v = PyUnicode_DecodeUTF8((const char *)d + a, b - a, NULL);
    if (v) return v;
    if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return NULL;
    PyErr_Clear();
    return PyUnicode_DecodeLatin1((const char *)d + a, b - a, NULL);
}

/* The tuple of a game the scan replayed, its final position as the reference Board's
 * fields: bitboards per colour and piece type, occupancy per colour, the mailbox; with
 * whether the side to move is in check, how many legal moves it has, the moves
 * played (packed, as 32-bit integers in native byte order), and where the last comment
 * the reader gives the last main-line move is (its body's bounds; -1 none, -2 one the
 * scan does not hand over: a semicolon comment, a byte the reader may decode otherwise). */
static PyObject *scan_game(const Tables *T, Pos *P, Py_ssize_t ps, Py_ssize_t pe, int line, PyObject *tags,
                           const char *result, int plies, int halfmove, int fullmove, const int32_t *codes,
                           Py_ssize_t last_start, Py_ssize_t last_end) {
    int moves[MAXMOVES];
    int nlegal = legal_moves(T, P, moves), check = in_check(T, P);
    PyObject *bb = PyList_New(2), *occ = NULL, *mailbox = NULL;
    if (!bb) return NULL;
    for (int c = 0; c < 2; c++) {
        PyObject *row = PyList_New(T->ntypes);
        if (!row) goto fail;
        PyList_SET_ITEM(bb, c, row);
        for (int t = 0; t < T->ntypes; t++) {
            PyObject *v = PyLong_FromUnsignedLongLong(P->bb[c][t]);
            if (!v) goto fail;
            PyList_SET_ITEM(row, t, v);
        }
    }
    occ = Py_BuildValue("[KK]", (unsigned long long)P->occ[0], (unsigned long long)P->occ[1]);
    mailbox = PyList_New(64);
    if (!occ || !mailbox) goto fail;
    for (int sq = 0; sq < 64; sq++) {
        PyObject *v = PyLong_FromLong(P->mailbox[sq]);
        if (!v) goto fail;
        PyList_SET_ITEM(mailbox, sq, v);
    }
    return Py_BuildValue("(inniOsiNNNiKiiiiiy#nn)", 1, ps, pe, line, tags, result, plies, bb, occ, mailbox, P->turn,
                         (unsigned long long)P->castling, P->ep, halfmove, fullmove, check, nlegal, (const char *)codes,
                         (Py_ssize_t)plies * (Py_ssize_t)sizeof(int32_t), last_start, last_end);
fail:
    Py_DECREF(bb);
    Py_XDECREF(occ);
    Py_XDECREF(mailbox);
    return NULL;
}

/* Reads the piece d[ps..pe) (its first line numbered ``line``). Returns 1 with *out a
 * game tuple, 0 when the piece holds no game, -1 with *why set when the Python reader
 * must read it, -2 with a Python exception. */
static int scan_piece(Scan *sc, Py_ssize_t ps, Py_ssize_t pe, int line, PyObject **out, Unsure *why) {
    const unsigned char *d = sc->d;
    const Tables *T = sc->T;
    const ScanSyntax *S = sc->S;
    why->what = NULL;
    why->ply = -1;
    why->token = why->token_end = 0;
    PyObject *tags = PyDict_New();
    if (!tags) return -2;
    Py_ssize_t pos = ps;
    int game_line = -1, status = -1;
#define UNSURE(reason) do { why->what = (reason); goto unsure; } while (0)
    /* tag pairs */
    for (;;) {
        while (pos < pe && scan_ws(d[pos])) {
            if (d[pos] == '\n') line++;
            pos++;
        }
        if (pos >= pe || d[pos] != '[') break;
        Py_ssize_t lim = pos;
        while (lim < pe && d[lim] != '\n') lim++;
        Py_ssize_t end, ns, ne, vs, ve;
        int escaped;
        if (scan_tag(d, pos, lim, &end, &ns, &ne, &vs, &ve, &escaped) != 1 || escaped) UNSURE("tag");
        if (game_line < 0) game_line = line;
        PyObject *name = PyUnicode_FromStringAndSize((const char *)d + ns, ne - ns);
        if (!name) goto error;
        int dup = PyDict_Contains(tags, name);
        PyObject *value = dup ? NULL : scan_value(d, vs, ve);
        if (dup || !value || PyDict_SetItem(tags, name, value) < 0) {
            Py_DECREF(name);
            Py_XDECREF(value);
            if (dup > 0) UNSURE("tag given twice");
            goto error;
        }
        Py_DECREF(name);
        Py_DECREF(value);
        pos = end; /* one pair to a line: a line decodes as a whole */
        while (pos < lim && scan_ws(d[pos])) pos++;
        if (pos < lim) UNSURE("more on a tag line");
    }
    if (pos >= pe) {
        if (PyDict_GET_SIZE(tags)) UNSURE("no movetext");
        Py_DECREF(tags);
        return 0;
    }
    if (game_line < 0) game_line = line;
    /* movetext */
    Pos P = sc->start;
    int plies = 0, halfmove = 0, fullmove = 1, depth = 0, has_move = 0, nkeys = 0;
    /* the last comment after the last main-line move, outside variations (the reader's
     * moves[-1].comments[-1], or its game comment before any move): see scan_game */
    Py_ssize_t last_start = -1, last_end = -1;
    const char *result = NULL;
    sc->keys[nkeys++] = scan_key(T, &P);
    while (pos < pe) {
        unsigned char ch = d[pos];
        if (scan_ws(ch)) {
            pos++;
            continue;
        }
        if (ch == '{') {
            const unsigned char *close = memchr(d + pos + 1, '}', pe - pos - 1);
            if (!close) UNSURE("comment never closed");
            int plain = 1; /* ASCII without a carriage return: handed over as it stands */
            for (const unsigned char *q = d + pos + 1; q < close; q++) { /* "\n\n[" (with \r\n as \n) */
                if (*q >= 0x80 || *q == '\r') plain = 0;
                if (*q != '\n') continue;
                const unsigned char *r = q + 1;
                if (r < close && *r == '\r') r++;
                if (r + 1 < close && r[0] == '\n' && r[1] == '[') UNSURE("comment runs into tags");
            }
            if (!depth) {
                last_start = plain ? pos + 1 : -2;
                last_end = plain ? close - d : -2;
            }
            pos = close - d + 1;
            continue;
        }
        if (ch >= 0x80) UNSURE("non-ASCII movetext");
        if (ch == '%' && (pos == ps || d[pos - 1] == '\n')) UNSURE("escape line");
        if (ch == ';') {
            while (pos < pe && d[pos] != '\n') pos++;
            if (!depth) last_start = last_end = -2;
            continue;
        }
        if (ch == '$') {
            Py_ssize_t q = pos + 1;
            int value = 0;
            while (q < pe && d[q] >= '0' && d[q] <= '9' && q - pos <= 3) value = value * 10 + (d[q++] - '0');
            if (q == pos + 1 || (q < pe && d[q] >= '0' && d[q] <= '9') || value > S->nag_max || !has_move)
                UNSURE("NAG");
            pos = q;
            continue;
        }
        if (ch == '(') {
            if (!has_move) UNSURE("variation before a move");
            depth++;
            has_move = 0;
            pos++;
            continue;
        }
        if (ch == ')') {
            if (!depth) UNSURE("')' without a variation");
            depth--;
            has_move = 1;
            pos++;
            continue;
        }
        /* a result token: followed by white space, ()[]{};, or the end of the text */
        static const char *const RESULTS[4] = {"1-0", "0-1", "1/2-1/2", "*"};
        static const Py_ssize_t RESULT_LEN[4] = {3, 3, 7, 1};
        const char *res = NULL;
        Py_ssize_t res_end = pos;
        for (int i = 0; i < 4 && !res && (ch == '0' || ch == '1' || ch == '*'); i++) {
            Py_ssize_t len = RESULT_LEN[i];
            if (pe - pos >= len && memcmp(d + pos, RESULTS[i], len) == 0) {
                Py_ssize_t q = pos + len;
                if (q == pe || scan_ws(d[q]) || (scan_special(d[q]) && d[q] != '$' && d[q] != '"')) {
                    res = RESULTS[i];
                    res_end = q;
                } else if (q < pe && d[q] >= 0x80) UNSURE("non-ASCII after a result");
            }
        }
        if (res) {
            if (depth) UNSURE("result inside a variation");
            result = res;
            pos = res_end;
            for (; pos < pe; pos++)
                if (!scan_ws(d[pos])) UNSURE("text after the result");
            break;
        }
        if (ch >= '0' && ch <= '9') { /* a move number */
            Py_ssize_t q = pos, zeros = 1;
            while (q < pe && d[q] >= '0' && d[q] <= '9') {
                if (d[q] != '0') zeros = 0;
                q++;
            }
            Py_ssize_t r = q;
            int dots = 0;
            for (;;) {
                Py_ssize_t t = r;
                while (t < pe && (d[t] == ' ' || d[t] == '\t')) t++;
                if (t < pe && d[t] == '.') { r = t + 1; dots++; } else break;
            }
            if (dots) { pos = r; continue; }
            if (zeros) UNSURE("null move");
            if (q == pe || scan_ws(d[q]) || scan_special(d[q])) { pos = q; continue; }
            UNSURE("symbol");
        }
        if (scan_special(ch)) UNSURE("character");
        /* a symbol: [^\s{}()\[\];$"]+ */
        Py_ssize_t te = pos;
        while (te < pe && !scan_ws(d[te]) && !scan_special(d[te])) {
            if (d[te] >= 0x80) UNSURE("non-ASCII symbol");
            te++;
        }
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z'))) UNSURE("glyph");
        for (int i = 0; i < S->nalias; i++)
            if (S->alias[i].n == te - pos && memcmp(d + pos, S->alias[i].s, te - pos) == 0) UNSURE("result alias");
        has_move = 1;
        if (depth) { /* variation moves are not replayed, but read as the reader's plain moves */
            /* what the reader's symbol() repairs or ends the game on: a marker written onto
             * a move (Nc6*, Qh4#0-1), an e.p. mark, the null move Z0 */
            unsigned char last = d[te - 1];
            if (last == '*' || last == '.' || (te - pos == 2 && ch == 'Z' && d[pos + 1] == '0')) UNSURE("variation");
            for (int i = 0; i < 3; i++)
                if (te - pos > RESULT_LEN[i] && memcmp(d + te - RESULT_LEN[i], RESULTS[i], RESULT_LEN[i]) == 0)
                    UNSURE("variation");
            pos = te;
            continue;
        }
        /* pgn:8.2.3.8: the reader takes the suffix annotation that ends the token off it
         * (_SUFFIX_RE: the leftmost that reaches the end), unless it is the whole token */
        Py_ssize_t me = d[te - 1] == '!' || d[te - 1] == '?' ? scan_suffix_start(S, d, pos, te) : te;
        int m = scan_san(T, S, &P, d, pos, me);
        if (m < 0) {
            why->ply = plies;
            why->token = pos;
            why->token_end = te;
            UNSURE("move");
        }
        int mover = P.turn, pt = P.mailbox[m & 63] & 15;
        sc->codes[plies] = m;
        last_start = last_end = -1;
        Undo u;
        make(T, &P, m, &u);
        if (m >> 16 != FLAG_CASTLE && (pt == T->pawn || u.captured >= 0)) halfmove = 0;
        else halfmove++;
        if (mover == 1) fullmove++;
        plies++;
        if (nkeys >= SCAN_MAXKEYS) {
            why->ply = plies;
            UNSURE("long game");
        }
        u64 key = scan_key(T, &P);
        sc->keys[nkeys++] = key;
        long long count = 1;
        for (int j = nkeys - 3; j >= 0 && j >= nkeys - 1 - halfmove; j -= 2)
            if (sc->keys[j] == key) count++;
        if (halfmove >= S->plies || count >= S->occurrences) {
            why->ply = plies;
            UNSURE("automatic end");
        }
        pos = te;
    }
    if (!result) UNSURE("no result");
    *out = scan_game(T, &P, ps, pe, game_line, tags, result, plies, halfmove, fullmove, sc->codes, last_start,
                     last_end);
    status = *out ? 1 : -2;
    Py_DECREF(tags);
    return status;
unsure:
    Py_DECREF(tags);
    return -1;
error:
    Py_DECREF(tags);
    return -2;
#undef UNSURE
}

static int scan_emit(Scan *sc, Py_ssize_t ps, Py_ssize_t pe, int line) {
    PyObject *item = NULL;
    Unsure why;
    int r = scan_piece(sc, ps, pe, line, &item, &why);
    if (r == -2) return 0;
    if (r == 0) return 1;
    if (r == -1) {
        if (why.token_end > why.token)
            item = Py_BuildValue("(innisis#)", 0, ps, pe, line, why.what, why.ply, (const char *)sc->d + why.token,
                                 why.token_end - why.token);
        else
            item = Py_BuildValue("(innisiz)", 0, ps, pe, line, why.what, why.ply, NULL);
        if (!item) return 0;
    }
    int ok = PyList_Append(sc->out, item) == 0;
    Py_DECREF(item);
    return ok;
}

/* split_games over the bytes, each piece read by scan_piece. 0 with a Python exception,
 * 1 done (sc->fallback set when the partition must go to the Python reader). */
static int scan_all(Scan *sc) {
    const unsigned char *d = sc->d;
    Py_ssize_t n = sc->n, pos = 0;
    if (n >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF) pos = 3; /* a byte-order mark */
    Py_ssize_t piece = pos;
    /* blank: 1 yes, 0 no, -1 it depends on how the line decodes */
    int number = 1, start = 1, movetext = 0, in_comment = 0, blank = 0;
    while (pos < n) {
        const unsigned char *nl = memchr(d + pos, '\n', n - pos);
        Py_ssize_t next = nl ? nl - d + 1 : n, e = nl ? nl - d : n;
        if (nl && e > pos && d[e - 1] == '\r') e--; /* \r\n reads as \n */
        if (memchr(d + pos, '\r', e - pos)) { sc->fallback = 1; return 1; } /* lines split differently */
        Py_ssize_t f = pos;
        while (f < e && scan_ws(d[f])) f++;
        int unsure_blank = 0;
        if (f < e && d[f] >= 0x80) { /* it may begin with Unicode white space */
            Py_ssize_t g = f;
            while (g < e && (d[g] >= 0x80 || scan_ws(d[g]))) g++;
            if (g < e && d[g] == '[') { sc->fallback = 1; return 1; }
            unsure_blank = g == e;
        }
        int starts_tag = f < e && d[f] == '[';
        if (starts_tag && movetext && in_comment && blank < 0) { sc->fallback = 1; return 1; }
        if (starts_tag && movetext && (blank || !in_comment)) {
            if (!scan_emit(sc, piece, pos, start)) return 0;
            piece = pos;
            start = number;
            movetext = in_comment = 0;
        }
        blank = unsure_blank ? -1 : f == e;
        int has_moves;
        in_comment = scan_line(d, pos, e, in_comment, &has_moves);
        if (in_comment < 0) { sc->fallback = 1; return 1; }
        movetext = movetext || has_moves;
        pos = next;
        number++;
    }
    if (piece < n && !scan_emit(sc, piece, n, start)) return 0;
    return 1;
}

/* The syntax tuple from native.py: (letters 256 bytes, king-side castle, queen-side castle,
 * capture, promotion separator, check, mate, suffixes, aliases, nag max, plies, occurrences). */
static int scan_syntax(PyObject *t, ScanSyntax *S) {
    Py_buffer letters;
    PyObject *suffixes, *aliases;
    const char *k, *q, *cap, *sep, *chk, *mate;
    Py_ssize_t kn, qn, capn, sepn, chkn, maten;
    memset(S, 0, sizeof(*S));
    if (!PyArg_ParseTuple(t, "y*y#y#y#y#y#y#O!O!iLL", &letters, &k, &kn, &q, &qn, &cap, &capn, &sep, &sepn, &chk,
                          &chkn, &mate, &maten, &PyTuple_Type, &suffixes, &PyTuple_Type, &aliases, &S->nag_max,
                          &S->plies, &S->occurrences))
        return 0;
    int ok = letters.len == 256 && PyTuple_GET_SIZE(suffixes) <= SCAN_MAXSUFFIX &&
             PyTuple_GET_SIZE(aliases) <= SCAN_MAXALIAS;
    if (ok) memcpy(S->letter_type, letters.buf, 256);
    PyBuffer_Release(&letters);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "malformed scan syntax");
        return 0;
    }
    S->castle[0] = (Str){k, kn};
    S->castle[1] = (Str){q, qn};
    S->capture = (Str){cap, capn};
    S->promo_sep = (Str){sep, sepn};
    S->check = (Str){chk, chkn};
    S->mate = (Str){mate, maten};
    S->nsuffix = (int)PyTuple_GET_SIZE(suffixes);
    for (int i = 0; i < S->nsuffix; i++) {
        PyObject *s = PyTuple_GET_ITEM(suffixes, i);
        if (!PyBytes_Check(s)) { PyErr_SetString(PyExc_TypeError, "suffixes must be bytes"); return 0; }
        S->suffix[i] = (Str){PyBytes_AS_STRING(s), PyBytes_GET_SIZE(s)};
    }
    S->nalias = (int)PyTuple_GET_SIZE(aliases);
    for (int i = 0; i < S->nalias; i++) {
        PyObject *s = PyTuple_GET_ITEM(aliases, i);
        if (!PyBytes_Check(s)) { PyErr_SetString(PyExc_TypeError, "aliases must be bytes"); return 0; }
        S->alias[i] = (Str){PyBytes_AS_STRING(s), PyBytes_GET_SIZE(s)};
    }
    return 1;
}
