"""How the harness talks to an implementation that runs as a program.

* :mod:`.child` -- one child process on pipes (own process group, bounded lines read
  against a deadline, the stderr tail, kill), shared by the three transports;
* :mod:`.process` -- ``cmd:COMMAND``, a program speaking protocol v1 (docs/protocol.md);
* :mod:`.uci` -- ``uci:PATH``, a UCI engine (``go perft``, or MultiPV root moves);
* :mod:`.xboard` -- ``xboard:PATH``, an XBoard (CECP) engine in force mode.
"""
