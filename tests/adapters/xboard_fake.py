"""A scripted XBoard (CECP) engine for the ``xboard:`` transport's tests; python-chess judges moves.

Options: ``--usermove`` (announce ``usermove=1`` and read only ``usermove X``),
``--no-ping``, ``--no-setboard``, ``--protover1`` (features without ``done``),
``--no-announce`` (never print a result), ``--drawn-game`` (every draw announced as
``1/2-1/2 {Drawn game}``), ``--die-on-illegal`` (exit 1 after refusing a move),
``--hang-on MOVE`` (stop answering after that move).
"""

import sys

ARGS = sys.argv[1:]


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def announce(board) -> None:
    import chess

    if "--no-announce" in ARGS:
        return
    drawn = "1/2-1/2 {Drawn game}" if "--drawn-game" in ARGS else None
    if board.is_checkmate():
        say("0-1 {Black mates}" if board.turn == chess.WHITE else "1-0 {White mates}")
    elif board.is_stalemate():
        say(drawn or "1/2-1/2 {Stalemate}")
    elif board.is_insufficient_material():
        say(drawn or "1/2-1/2 {Insufficient material}")
    elif board.can_claim_threefold_repetition():
        say(drawn or "1/2-1/2 {Draw by repetition}")
    elif board.can_claim_fifty_moves():
        say(drawn or "1/2-1/2 {50 move rule}")


def main() -> None:
    board = None  # python-chess is imported after the handshake: the features come at once
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "protover":
            features = ['myname="Fake XB 1.0"', f"setboard={0 if '--no-setboard' in ARGS else 1}",
                        f"ping={0 if '--no-ping' in ARGS else 1}", f"usermove={1 if '--usermove' in ARGS else 0}"]
            if "--protover1" not in ARGS:
                say("feature done=0")
            say("feature " + " ".join(features))
            if "--protover1" not in ARGS:
                say("feature done=1")
        elif cmd == "ping":
            say(f"pong {words[1]}")
        elif cmd == "new":
            import chess
            board = chess.Board()
        elif cmd == "setboard":
            import chess
            board = chess.Board(" ".join(words[1:]))
        elif cmd in ("xboard", "force", "accepted", "rejected"):
            pass
        elif cmd == "quit":
            return
        else:
            text = words[1] if cmd == "usermove" and len(words) > 1 else cmd
            if ("--usermove" in ARGS) != (cmd == "usermove"):
                say(f"Error (unknown command): {cmd}")
                continue
            if "--hang-on" in ARGS and text == ARGS[ARGS.index("--hang-on") + 1]:
                sys.stdin.read()
                return
            try:
                move = board.parse_uci(text)
            except ValueError:
                say(f"Illegal move: {text}")
                if "--die-on-illegal" in ARGS:
                    sys.exit(1)
                continue
            board.push(move)
            announce(board)


if __name__ == "__main__":
    main()
