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
 * The tables and the FEN reader's information arrive as arrays of unsigned 64-bit
 * integers, laid out as reference_impl/unwinnability/layout.py says (the one description:
 * native.py packs by its names, csrc/layout.h is generated from it, and the module
 * exports the constants it was built with as LAYOUT, which native.py checks at import).
 *
 * One compilation unit in parts, each included after the ones it uses:
 *   csrc/layout.h        the arrays' slots (generated)
 *   csrc/board.c         bits, the tables, positions, legal move generation, perft
 *   csrc/helpmate.c      the goal-directed depth-first helpmate search
 *   csrc/best_first.c    the greedy best-first helpmate search
 *   this file            reading the tables and the position from Python
 *   csrc/static_stage.c  the static stage (static.py and mate.py, compiled)
 *   csrc/explore.c       the exhaustive exploration (explore)
 *   csrc/forced_win.c    US Chess 14E's forced win (forced_win.py, compiled) and its entry point
 *   this file            the helpmate driver and its entry point
 *   csrc/batch.c         the batch: FEN text to verdict for many positions
 *   csrc/pgnscan.c       the PGN scan of ``arbiter audit``
 *   csrc/material.c      the material proof's search (material.py, compiled)
 *   this file            the other Python entry points
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "csrc/board.c"
#include "csrc/helpmate.c"
#include "csrc/best_first.c"

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

/* load_tables, remembering the last tables loaded (a copy of their packed form and the
 * result): every call of a run passes the same packed move layer, and building the
 * Tables costs more than a short search; an equal packed form gives an equal copy. */
static u64 *last_packed;
static Py_ssize_t last_packed_n;
static Tables *last_tables;

static int load_tables_cached(Tables *T, const u64 *data, Py_ssize_t n) {
    if (last_tables && n == last_packed_n && !memcmp(data, last_packed, (size_t)n * sizeof(u64))) {
        memcpy(T, last_tables, sizeof(Tables));
        return 1;
    }
    if (!load_tables(T, data, n)) return 0;
    u64 *packed = malloc((size_t)n * sizeof(u64));
    Tables *kept = malloc(sizeof(Tables));
    if (packed && kept) {
        memcpy(packed, data, (size_t)n * sizeof(u64));
        memcpy(kept, T, sizeof(Tables));
        free(last_packed);
        free(last_tables);
        last_packed = packed, last_packed_n = n, last_tables = kept;
    } else {
        free(packed);
        free(kept);
    }
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
    if (tables->len % 8 || !load_tables_cached(T, (const u64 *)tables->buf, tables->len / 8) ||
        !parse_position(T, P, placement, turn, castling, ep)) {
        free(T);
        PyErr_SetString(PyExc_ValueError, "malformed tables or position");
        return NULL;
    }
    return T;
}

#include "csrc/static_stage.c"
#include "csrc/explore.c"
#include "csrc/forced_win.c"

/* ---------------------------------------------------------------- Python bindings */

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

static PyObject *py_static_open(PyObject *self, PyObject *args) {
    Py_buffer tables, placement;
    int turn, ep, colours;
    unsigned long long castling;
    if (!PyArg_ParseTuple(args, "y*y*iKii", &tables, &placement, &turn, &castling, &ep, &colours)) return NULL;
    Pos P;
    PyObject *result = NULL;
    Tables *T = read_input(&tables, &placement, turn, castling, ep, &P);
    if (!T) goto done;
    int open = 0;
    for (int c = 0; c < 2; c++)
        if ((colours >> c & 1) && st_open(T, &P, c)) open |= 1 << c;
    result = PyLong_FromLong(open);
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

/* The helpmate search's schedule for ``S`` (its tables, position, winner, horizon and
 * transposition table set; ``S->generation`` carried on from any earlier search that
 * used the same table, so that none of its entries counts): the depth-first search by
 * iterative deepening over the mating pictures, then the best-first search with what
 * is left. Returns 1 with the line in S->line[0..S->ply), 0 when the whole reachable
 * space was searched without a mate, -1 when the node limit ran out; S->signalled when
 * a signal stopped it (the exception is set). Shared by py_helpmate and the batch, so
 * that both give the same answers. */
static int run_helpmate(Search *S, long long limit, long long local_limit, int max_iter_depth,
                        long long depth_first_limit) {
    const Tables *T = S->T;
    int winner = S->winner;
    S->limit = depth_first_limit < limit ? depth_first_limit : limit;
    int status = -1, found = 0;
    Pos root = S->P;
    /* Four mating pictures (corner colour, home side), tried in turn per depth; against
     * a lone minor with loser's pawns on the board, each is first tried (on a quarter of
     * the iteration's share) with every loser's pawn step counted as progress: those
     * pawns promote into the blockers the picture needs; against a lone minor, each is
     * tried again in waiting mode; against a lone minor whose blockers the loser must
     * promote, all of them again in the mirror picture (see choose_targets: which
     * neighbour of the corner the blocker takes is not known in advance, and the
     * mirror lines are not worth their cost elsewhere: K+P against two bishops of one
     * colour, say, then needs more than 10,000,000 moves). An iteration's share starts
     * small and grows fourfold each round, so that one picture whose free lines explode
     * does not spend the budget another would solve in a few nodes; a round goes deeper
     * only while some picture finished its depth within the share. */
    long long share = local_limit / 1024 < MIN_SHARE ? MIN_SHARE : local_limit / 1024;
    for (;;) {
        if (share > local_limit) share = local_limit;
        for (int depth = 1; depth <= max_iter_depth && !found && !S->aborted; depth++) {
            int all_starved = 1;
            for (int variant = 0; variant < 32 && !found && !S->aborted; variant++) {
                S->P = root;
                choose_targets(S, (variant & 3) | (variant >> 2 & 4));
                S->lone_minor = lone_minor(S);
                S->need_loser_promotion = loser_needs_promotion(S);
                if (variant >> 4 && !(S->lone_minor && S->need_loser_promotion)) break; /* mirror pictures: for promoted blockers only */
                if (S->need_loser_promotion && !S->lone_minor) /* the king covers the corner's other neighbours */
                    S->king_target = S->blocker + (S->king_target - S->corner);
                S->pawn_mode = !(variant >> 2 & 1);
                S->waiting = variant >> 3 & 1;
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
    if (found) return 1;
    return status == 0 ? 0 : -1;
}

/* One transposition table for every helpmate search of the process, grown to the largest
 * asked for, and its generation: each search starts from the generation the last one
 * ended with, so that no entry of an earlier search counts (the search only uses
 * entries of its own iterations), exactly as in a fresh table, without clearing or
 * allocating one per search (the page faults of a fresh table cost more than a short
 * search). Cleared when the generation nears its limit. NULL if out of memory. */
static TTEntry *shared_tt;
static size_t shared_tt_entries;
static int shared_generation;

static TTEntry *transposition_table(int tt_bits) {
    size_t need = (size_t)1 << tt_bits;
    if (need > shared_tt_entries) {
        free(shared_tt);
        shared_tt = calloc(need, sizeof(TTEntry));
        shared_tt_entries = shared_tt ? need : 0;
        shared_generation = 0;
    } else if (shared_generation > (1 << 30)) {
        memset(shared_tt, 0, shared_tt_entries * sizeof(TTEntry));
        shared_generation = 0;
    }
    return shared_tt;
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
    tt = transposition_table(tt_bits);
    if (!tt) { PyErr_NoMemory(); goto done; }
    S->T = T;
    S->winner = winner;
    S->horizon = horizon;
    S->tt = tt;
    S->tt_mask = ((u64)1 << tt_bits) - 1;
    S->generation = shared_generation;
    int status = run_helpmate(S, limit, local_limit, max_iter_depth, depth_first_limit);
    shared_generation = S->generation;
    int found = status == 1;
    if (S->signalled) goto done; /* the exception is set */
    PyObject *line = PyList_New(found ? S->ply : 0);
    if (!line) goto done;
    for (int i = 0; found && i < S->ply; i++) PyList_SET_ITEM(line, i, PyLong_FromLong(S->line[i]));
    result = Py_BuildValue("(iNL)", status, line, S->nodes);
done:
    free(T);
    free(S);
    PyBuffer_Release(&tables);
    PyBuffer_Release(&placement);
    return result;
}

#include "csrc/batch.c"

/* ---------------------------------------------------------------- PGN scan (conformance.tools.audit.fast) */

#include "csrc/pgnscan.c"
#include "csrc/material.c"

/* scan_pgn(tables, syntax, data, placement, turn, castling, ep) -> list of games, or None
 * when the partition must be read by the Python reader. Each game is
 * (1, start, end, line, tags, result, plies, bitboards, occupancy, mailbox, turn, castling,
 * ep, halfmove, fullmove, in check, legal move count, moves) replayed from the given
 * start position (the final position as reference_impl.core.board.Board holds it; the
 * moves as packed 32-bit integers), or (0, start, end, line, reason,
 * ply, token) for a piece the Python reader decides (``start``..``end``: its bytes;
 * ``line``: the line number of its first line, of its first tag for a game). */
static PyObject *py_scan_pgn(PyObject *self, PyObject *args) {
    Py_buffer tables, placement, data;
    PyObject *syntax, *result = NULL;
    int turn, ep;
    unsigned long long castling;
    if (!PyArg_ParseTuple(args, "y*O!y*y*iKi", &tables, &PyTuple_Type, &syntax, &data, &placement, &turn, &castling, &ep))
        return NULL;
    ScanSyntax S;
    Scan *sc = calloc(1, sizeof(Scan));
    Tables *T = NULL;
    if (!sc) { PyErr_NoMemory(); goto done; }
    if (!scan_syntax(syntax, &S)) goto done;
    T = read_input(&tables, &placement, turn, castling, ep, &sc->start);
    if (!T) goto done;
    sc->T = T;
    sc->S = &S;
    sc->d = data.buf;
    sc->n = data.len;
    sc->out = PyList_New(0);
    if (!sc->out) goto done;
    if (!scan_all(sc)) {
        Py_CLEAR(sc->out);
        goto done;
    }
    if (sc->fallback) {
        Py_CLEAR(sc->out);
        result = Py_NewRef(Py_None);
    } else result = sc->out;
done:
    free(T);
    free(sc);
    PyBuffer_Release(&tables);
    PyBuffer_Release(&placement);
    PyBuffer_Release(&data);
    return result;
}

static PyMethodDef methods[] = {
    {"perft", py_perft, METH_VARARGS, "perft(tables, placement, turn, castling, ep, depth) -> leaf count"},
    {"legal_moves", py_legal_moves, METH_VARARGS, "legal_moves(tables, placement, turn, castling, ep) -> packed moves"},
    {"helpmate", py_helpmate, METH_VARARGS,
     "helpmate(tables, placement, turn, castling, ep, winner, node_limit, local_limit, max_depth, tt_bits, horizon, depth_first_limit)"
     " -> (status, line, nodes)"},
    {"batch", py_batch, METH_VARARGS,
     "batch(tables, fen_info, items, side, full, proofs, probe, local, max_depth, tt_bits, horizon, depth_first,"
     " numbers=None) -> (answers, exception, blocks)"},
    {"read_fen", py_read_fen, METH_VARARGS,
     "read_fen(tables, fen_info, text) -> (placement, turn, castling, ep) of a plain FEN, or None"},
    {"static_stage", py_static_stage, METH_VARARGS,
     "static_stage(tables, placement, turn, castling, ep, colours) -> proven colours mask"},
    {"static_open", py_static_open, METH_VARARGS,
     "static_open(tables, placement, turn, castling, ep, colours) -> mask of the colours the static stage"
     " is shown not to prove (its last test passed on an under-approximation of its analysis)"},
    {"explore", py_explore, METH_VARARGS,
     "explore(tables, placement, turn, castling, ep, colours, node_limit, prune, prune_cost)"
     " -> (complete, mates, nodes, positions)"},
    {"forced_win", py_forced_win, METH_VARARGS,
     "forced_win(tables, placement, turn, castling, ep, winner, max_plies, node_limit, short_plies, short_limit, pns_limit)"
     " -> (status, plies, line, nodes, positions)"},
    {"scan_pgn", py_scan_pgn, METH_VARARGS,
     "scan_pgn(tables, syntax, data, placement, turn, castling, ep) -> games replayed, or None"},
    {"material_search", py_material_search, METH_VARARGS,
     "material_search(tables, classes, winner, node_limit, symmetries, fen_ok) -> (status, board, nodes), or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native", "Compiled helpmate search over the ruleset's tables.", -1, methods};

/* The module, with LAYOUT: every constant of layout.h by name. */
PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&module), *layout = PyDict_New();
    if (!m || !layout) goto fail;
    for (size_t i = 0; i < sizeof(layout_constants) / sizeof(layout_constants[0]); i++) {
        PyObject *value = PyLong_FromLongLong(layout_constants[i].value);
        int failed = !value || PyDict_SetItemString(layout, layout_constants[i].name, value) < 0;
        Py_XDECREF(value);
        if (failed) goto fail;
    }
    if (PyModule_AddObject(m, "LAYOUT", layout) < 0) goto fail;
    return m;
fail:
    Py_XDECREF(layout);
    Py_XDECREF(m);
    return NULL;
}
