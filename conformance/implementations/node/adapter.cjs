// Protocol v1 adapter for the npm chess libraries chess.js, chessops, kokopu and chess.
//
//   node adapter.cjs LIBRARY PREFIX [ADAPTER]
//
// LIBRARY is "chess.js", "chessops", "kokopu" or "chess"; PREFIX is the folder `npm install --prefix`
// filled (the library is PREFIX/node_modules/LIBRARY); ADAPTER is the adapter's name
// in `arbiter adapters install` when it differs from LIBRARY. Requests come on stdin, one
// JSON object a line; each answer is one JSON line on stdout (docs/protocol.md).
// What each kind maps to is documented in docs/adapters.md.
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { createRequire } = require('module');
const { pathToFileURL } = require('url');

const UCI = /^([a-h][1-8])([a-h][1-8])([qrbn]?)$/;
const CHESS960 = 'fide-2023-chess960';

function version(prefix, name) {
  const file = path.join(prefix, 'node_modules', name, 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

function parseUciMove(text) {
  const m = UCI.exec(text);
  if (!m) throw new Invalid(`not a UCI move: ${JSON.stringify(text)}`);
  return { from: m[1], to: m[2], promotion: m[3] || undefined };
}

// Shredder-FEN letters of the corner rooks (H, A) as FEN's K, Q: the same rights, in
// the only dialect chess.js reads. Other file letters stay, for the library to judge.
function fenCastling(fen) {
  const fields = fen.split(' ');
  if (fields.length < 3 || fields[2] === '-') return fen;
  fields[2] = fields[2].replace(/[HAha]/g, (c) => ({ H: 'K', A: 'Q', h: 'k', a: 'q' })[c]);
  return fields.join(' ');
}

class Invalid extends Error {}
class Skip extends Error {}

// -- chess.js ---------------------------------------------------------------------------

function chessjs(lib) {
  const { Chess, validateFen } = lib;
  const board = (fen) => new Chess(fenCastling(fen));
  const uci = (m) => m.from + m.to + (m.promotion || '');
  const find = (game, text) => {
    const want = parseUciMove(text);
    return game.moves({ verbose: true }).find(
      (m) => m.from === want.from && m.to === want.to && (m.promotion || undefined) === want.promotion);
  };
  return {
    rulesets: ['fide-2023'],
    unclassified: ['parse_san'],
    kinds: {
      legal_moves: (_, d) => ({ moves: board(d.fen).moves({ verbose: true }).map(uci) }),
      perft: (_, d) => ({ nodes: board(d.fen).perft(d.depth) }),
      apply_moves: (_, d) => {
        const game = board(d.fen);
        for (const text of d.moves || []) {
          let move;
          try { move = parseUciMove(text); } catch (e) { return { fen: null, error: 'invalid' }; }
          try { game.move(move); } catch (e) { return { fen: null, error: 'illegal' }; }
        }
        return { fen: game.fen() };
      },
      validate_fen: (_, d) => {
        const verdict = validateFen(fenCastling(d.fen));
        return verdict.ok ? { valid: true } : { valid: false, reason: verdict.error };
      },
      status: (_, d) => {
        const game = board(d.fen);
        return { check: game.inCheck(), checkmate: game.isCheckmate(), stalemate: game.isStalemate() };
      },
      san: (_, d) => {
        const move = find(board(d.fen), d.move);
        if (!move) throw new Error(`${d.move} is not among chess.js's legal moves`);
        return { san: move.san };
      },
      parse_san: (_, d) => {
        const game = board(d.fen);
        try { return { move: uci(game.move(d.san)) }; } catch (e) { return { move: null }; }
      },
      game_end: (_, d) => {
        const game = board(d.fen);
        for (const text of d.moves || []) game.move(parseUciMove(text));
        if (game.isCheckmate()) {
          return { result: game.turn() === 'w' ? '0-1' : '1-0', reason: 'checkmate', claimable: [] };
        }
        if (game.isStalemate()) return { result: '1/2-1/2', reason: 'stalemate', claimable: [] };
        if (game.isInsufficientMaterial()) return { result: '1/2-1/2', reason: 'dead_position', claimable: [] };
        const claimable = [];
        if (game.isThreefoldRepetition()) claimable.push('threefold_repetition');
        if (game.isDrawByFiftyMoves()) claimable.push('fifty_moves');
        return { result: '*', reason: null, claimable };
      },
      dead_position: (_, d) => {
        if (board(d.fen).isInsufficientMaterial()) return { dead: true };
        throw new Skip('material test only');
      },
    },
  };
}

// -- chessops ---------------------------------------------------------------------------

// chessops is an ES module package (its CommonJS build does not load under Node 20).
async function importEsm(prefix, name, sub) {
  const root = path.join(prefix, 'node_modules', name);
  const pattern = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).exports['./*'].import;
  return import(pathToFileURL(path.join(root, pattern.replace('*', sub))).href);
}

async function chessops(prefix) {
  const load = (sub) => importEsm(prefix, 'chessops', sub);
  const { Chess, normalizeMove, castlingSide } = await load('chess');
  const { parseFen, makeFen } = await load('fen');
  const { makeSan, parseSan } = await load('san');
  const { parseUci, makeUci, makeSquare, kingCastlesTo } = await load('util');
  const { perft } = await load('debug');

  const position = (fen) => {
    const setup = parseFen(fen);
    if (setup.isErr) throw new Error(`chessops: ${setup.error.message}`);
    const pos = Chess.fromSetup(setup.value);
    if (pos.isErr) throw new Error(`chessops: ${pos.error.message}`);
    return pos.value;
  };
  // chessops writes castling king-takes-rook (e1h1); the standard rulesets want e1g1.
  const write = (pos, move, ruleset) => {
    const side = castlingSide(pos, move);
    if (side && ruleset !== CHESS960) {
      return makeSquare(move.from) + makeSquare(kingCastlesTo(pos.turn, side));
    }
    return makeUci(move);
  };
  const read = (pos, text, ruleset) => {
    const move = parseUci(text);
    if (!move || !UCI.test(text)) throw new Invalid(`not a UCI move: ${JSON.stringify(text)}`);
    return ruleset === CHESS960 ? move : normalizeMove(pos, move);
  };
  const moves = (pos) => {
    const out = [];
    for (const [from, dests] of pos.allDests()) {
      for (const to of dests) {
        const last = (to >> 3) === 0 || (to >> 3) === 7;
        if (pos.board.pawn.has(from) && last) {
          for (const role of ['queen', 'rook', 'bishop', 'knight']) out.push({ from, to, promotion: role });
        } else {
          out.push({ from, to });
        }
      }
    }
    return out;
  };
  return {
    rulesets: ['fide-2023', CHESS960],
    unclassified: ['parse_san'],
    kinds: {
      legal_moves: (r, d) => {
        const pos = position(d.fen);
        return { moves: moves(pos).map((m) => write(pos, m, r)) };
      },
      perft: (_, d) => ({ nodes: perft(position(d.fen), d.depth, false) }),
      apply_moves: (r, d) => {
        const pos = position(d.fen);
        for (const text of d.moves || []) {
          let move;
          try { move = read(pos, text, r); } catch (e) { return { fen: null, error: 'invalid' }; }
          if (!pos.isLegal(move)) return { fen: null, error: 'illegal' };
          pos.play(move);
        }
        return { fen: makeFen(pos.toSetup()) };
      },
      validate_fen: (_, d) => {
        const setup = parseFen(d.fen);
        if (setup.isErr) return { valid: false, reason: setup.error.message };
        const pos = Chess.fromSetup(setup.value);
        return pos.isErr ? { valid: false, reason: pos.error.message } : { valid: true };
      },
      status: (_, d) => {
        const pos = position(d.fen);
        return { check: pos.isCheck(), checkmate: pos.isCheckmate(), stalemate: pos.isStalemate() };
      },
      san: (r, d) => {
        const pos = position(d.fen);
        const move = read(pos, d.move, r);
        if (!pos.isLegal(move)) throw new Error(`${d.move} is not legal to chessops`);
        return { san: makeSan(pos, move) };
      },
      parse_san: (r, d) => {
        const pos = position(d.fen);
        const move = parseSan(pos, d.san);
        return move ? { move: write(pos, move, r) } : { move: null };
      },
      dead_position: (_, d) => {
        if (position(d.fen).isInsufficientMaterial()) return { dead: true };
        throw new Skip('material test only');
      },
    },
  };
}


// -- kokopu -----------------------------------------------------------------------------

function kokopu(lib) {
  const { Position } = lib;
  const variant = (ruleset) => (ruleset === CHESS960 ? 'chess960' : 'regular');
  // regular chess reads FEN's KQkq only: the corner rooks' Shredder letters are rewritten
  const position = (ruleset, fen) => new Position(variant(ruleset), ruleset === CHESS960 ? fen : fenCastling(fen));
  const perft = (pos, depth) => {
    if (depth === 0) return 1;
    const moves = pos.moves();
    if (depth === 1) return moves.length;
    let total = 0;
    for (const move of moves) {
      const child = new Position(pos);
      child.play(move);
      total += perft(child, depth - 1);
    }
    return total;
  };
  return {
    rulesets: ['fide-2023', CHESS960],
    unclassified: ['parse_san'],
    kinds: {
      legal_moves: (r, d) => {
        const pos = position(r, d.fen);
        return { moves: pos.moves().map((m) => pos.uci(m)) };
      },
      perft: (r, d) => ({ nodes: perft(position(r, d.fen), d.depth) }),
      // A kokopu Position keeps no clocks (fen() writes "0 1" unless told): the adapter
      // counts them from the input FEN and kokopu's own move descriptors, FIDE 9.3 / PGN 16.1.3.5.
      apply_moves: (r, d) => {
        const pos = position(r, d.fen);
        const fields = d.fen.split(' ');
        let fiftyMoveClock = Number(fields[4] || 0);
        let fullMoveNumber = Number(fields[5] || 1);
        for (const text of d.moves || []) {
          if (!UCI.test(text)) return { fen: null, error: 'invalid' };
          let move;
          try { move = pos.uci(text, true); } catch (e) { return { fen: null, error: 'illegal' }; }
          fiftyMoveClock = move.isCapture() || move.movingPiece() === 'p' ? 0 : fiftyMoveClock + 1;
          if (pos.turn() === 'b') fullMoveNumber += 1;
          pos.play(move);
        }
        return { fen: pos.fen({ fiftyMoveClock, fullMoveNumber }) };
      },
      validate_fen: (r, d) => {
        let pos;
        try { pos = position(r, d.fen); } catch (e) { return { valid: false, reason: e.message }; }
        return pos.isLegal() ? { valid: true } : { valid: false, reason: 'isLegal() is false' };
      },
      status: (r, d) => {
        const pos = position(r, d.fen);
        return { check: pos.isCheck(), checkmate: pos.isCheckmate(), stalemate: pos.isStalemate() };
      },
      san: (r, d) => {
        const pos = position(r, d.fen);
        return { san: pos.notation(pos.uci(d.move, true)) };
      },
      parse_san: (r, d) => {
        const pos = position(r, d.fen);
        try { return { move: pos.uci(pos.notation(d.san)) }; } catch (e) {
          if (!(e instanceof lib.exception.InvalidNotation)) throw e;
          return { move: null };
        }
      },
      dead_position: (r, d) => {
        if (position(r, d.fen).isDead()) return { dead: true };
        throw new Skip('material test only');
      },
      start_position: (_, d) => ({ fen: new Position('chess960', d.number).fen() }),
    },
  };
}

// -- chess (npm) -----------------------------------------------------------------------

function nodeChess(lib) {
  // The algebraic client: fromFEN(fen, {PGN: true}) and its notatedMoves, keyed by SAN.
  const client = (fen) => lib.fromFEN(fenCastling(fen), { PGN: true });
  // A promotion's key is "g8=Q" or, for some moves, "g8Q": the piece after the last-rank square.
  const PROMOTION = /[a-h][18]=?([QRBN])/;
  const uciOf = (san, entry) => {
    const promotion = PROMOTION.exec(san);
    return entry.src.file + entry.src.rank + entry.dest.file + entry.dest.rank
      + (promotion ? promotion[1].toLowerCase() : '');
  };
  const moves = (game) => Object.entries(game.getStatus().notatedMoves).map(([san, entry]) => [uciOf(san, entry), san]);
  const find = (game, text) => {
    const found = moves(game).find(([uci]) => uci === text);
    return found ? found[1] : null;
  };
  const perft = (game, depth) => {
    const list = Object.keys(game.getStatus().notatedMoves);
    if (depth <= 1) return depth === 1 ? list.length : 1;
    let total = 0;
    for (const san of list) {
      const played = game.move(san);
      total += perft(game, depth - 1);
      played.undo();
    }
    return total;
  };
  return {
    rulesets: ['fide-2023'],
    unclassified: ['parse_san'],
    kinds: {
      legal_moves: (_, d) => ({ moves: moves(client(d.fen)).map(([uci]) => uci) }),
      perft: (_, d) => ({ nodes: perft(client(d.fen), d.depth) }),
      validate_fen: (_, d) => {
        try { client(d.fen); } catch (e) { return { valid: false, reason: String(e.message || e) }; }
        return { valid: true };
      },
      status: (_, d) => {
        const status = client(d.fen).getStatus();
        return { check: status.isCheck, checkmate: status.isCheckmate, stalemate: status.isStalemate };
      },
      san: (_, d) => {
        const san = find(client(d.fen), d.move);
        if (san === null) throw new Error(`${d.move} is not among chess's notatedMoves`);
        return { san };
      },
      parse_san: (_, d) => {
        const game = client(d.fen);
        let played;
        // a refusal is an Error ("Notation is invalid", "Invalid move"); a TypeError is the
        // library crashing, reported as such (errored), not as a refusal
        try { played = game.move(d.san); } catch (e) { if (e instanceof TypeError) throw e; return { move: null }; }
        const m = played.move;
        const promotion = PROMOTION.exec(m.algebraic || '');
        return { move: m.prevSquare.file + m.prevSquare.rank + m.postSquare.file + m.postSquare.rank
          + (promotion ? promotion[1].toLowerCase() : '') };
      },
      game_end: (_, d) => {
        const game = client(d.fen);
        for (const text of d.moves || []) {
          const san = find(game, text);
          if (san === null) throw new Error(`${text} is not among chess's notatedMoves`);
          game.move(san);
        }
        const status = game.getStatus();
        const white = d.fen.split(' ')[1] === 'w';
        const toMoveWhite = (d.moves || []).length % 2 === 0 ? white : !white;
        if (status.isCheckmate) return { result: toMoveWhite ? '0-1' : '1-0', reason: 'checkmate', claimable: [] };
        if (status.isStalemate) return { result: '1/2-1/2', reason: 'stalemate', claimable: [] };
        return { result: '*', reason: null, claimable: status.isRepetition ? ['threefold_repetition'] : [] };
      },
    },
  };
}

// -- the protocol loop --------------------------------------------------------------------

// The npm package "chess" is reported as "chess (npm)", not to be read as python-chess.
const DISPLAY = { chess: 'chess (npm)' };

const LIBRARIES = {
  'chess.js': async (prefix) =>
    chessjs(createRequire(path.join(prefix, 'node_modules', '.arbiter.js'))('chess.js')),
  chessops: async (prefix) => chessops(prefix),
  kokopu: async (prefix) => kokopu(createRequire(path.join(prefix, 'node_modules', '.arbiter.js'))('kokopu')),
  chess: async (prefix) => nodeChess(createRequire(path.join(prefix, 'node_modules', '.arbiter.js'))('chess')),
};

async function main() {
  const [name, prefix, adapterName] = process.argv.slice(2);
  const spec = adapterName || name;
  let library = null;
  let problem = null;
  if (!LIBRARIES[name] || !prefix) {
    problem = `usage: node adapter.cjs {${Object.keys(LIBRARIES).join('|')}} PREFIX`;
  } else {
    try {
      library = await LIBRARIES[name](path.resolve(prefix));
      library.version = version(prefix, name);
    } catch (e) {
      problem = `${name} is not installed in ${prefix} (${e.message.split('\n')[0]}); run: arbiter adapters install ${spec}`;
    }
  }
  const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let msg;
    try { msg = JSON.parse(line); } catch (e) { send({ ok: false, error: `not JSON: ${e.message}` }); return; }
    if (msg.cmd === 'start') {
      if (problem) { send({ ok: false, error: problem }); return; }
      send({ ok: true, protocol: 1, implementation: { name: DISPLAY[name] || name, version: library.version },
        capabilities: Object.keys(library.kinds), rulesets: library.rulesets,
        unclassified_errors: library.unclassified });
    } else if (msg.cmd === 'run') {
      try {
        if (!library) throw new Error(problem);
        send({ id: msg.id, result: library.kinds[msg.kind](msg.ruleset, msg.input) });
      } catch (e) {
        if (e instanceof Skip) send({ id: msg.id, skipped: e.message });
        else send({ id: msg.id, errored: String(e && e.message ? e.message : e).split('\n')[0] });
      }
    } else {
      lines.close();
      process.stdout.write(JSON.stringify({ ok: true }) + '\n', () => process.exit(0));
    }
  });
  lines.on('close', () => process.stdout.write('', () => process.exit(0)));
}

main();
