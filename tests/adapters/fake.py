"""A protocol v1 adapter for tests that misbehaves on request.

It answers ``perft`` with ``{"nodes": input["answer"]}`` (after ``input["sleep"]`` seconds). ``input["act"]`` makes it
misbehave on that request: crash, hang, garbage, wrong_id, twice, late_twice, flood
(a 3 MB line), big (a 200 kB answer), stderr_flood (5 MB on stderr, then a good answer), skip, error,
not_object, answer_and_exit (close stdin, answer correctly, exit 9: the next request is never read),
notify (write a line to the named pipe ``input["fifo"]``, then answer: tells a test how far a run got). Options: ``--version V``, ``--rulesets a,b``, ``--start MODE`` where MODE is
exit, protocol2, garbage, hang or refuse. Each start is logged on stderr.
"""

import json
import os
import sys
import time

ARGS = sys.argv[1:]


def option(name, default=None):
    return ARGS[ARGS.index(name) + 1] if name in ARGS else default


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    started = False
    start_mode = option("--start")
    for line in sys.stdin:
        message = json.loads(line)
        cmd = message.get("cmd")
        if cmd == "start":
            sys.stderr.write("fake: start\n")
            sys.stderr.flush()
            if start_mode == "exit":
                sys.stderr.write("fake: cannot start, exiting\n")
                sys.exit(2)
            if start_mode == "hang":
                time.sleep(60)
            if start_mode == "garbage":
                print("hello, I am not JSON", flush=True)
                continue
            if start_mode == "refuse":
                send({"ok": False, "error": "licence expired"})
                continue
            protocol = 2 if start_mode == "protocol2" else 1
            started = True
            send({"ok": True, "protocol": protocol,
                  "implementation": {"name": "fake", "version": option("--version", "1.0")},
                  "capabilities": ["perft"],
                  "rulesets": option("--rulesets", "*").split(",")})
        elif cmd == "stop":
            send({"ok": True})
            return
        elif cmd == "run":
            ident = message["id"]
            if not started:
                send({"id": ident, "errored": "run before start"})
                continue
            data = message["input"]
            time.sleep(data.get("sleep", 0))
            act = data.get("act")
            answer = {"id": ident, "result": {"nodes": data.get("answer", 0)}}
            if act == "crash":
                sys.stderr.write("fake: crashing on purpose\n")
                sys.stderr.flush()
                sys.exit(7)
            elif act == "hang":
                time.sleep(60)
            elif act == "garbage":
                print("Segmentation fault (core dumped) -- just kidding", flush=True)
            elif act == "wrong_id":
                answer["id"] = "bogus"
                send(answer)
            elif act == "twice":
                sys.stdout.write(json.dumps(answer) + "\n" + json.dumps(answer) + "\n")
                sys.stdout.flush()
            elif act == "late_twice":
                send(answer)
                time.sleep(0.3)
                send(answer)
            elif act == "flood":
                sys.stdout.write('{"id": "' + ident + '", "pad": "' + "x" * 3_000_000 + '"}\n')
                sys.stdout.flush()
            elif act == "stderr_flood":
                sys.stderr.write("e" * 5_000_000 + "\n")
                sys.stderr.flush()
                send(answer)
            elif act == "big":
                answer["result"]["pad"] = "y" * 200_000
                send(answer)
            elif act == "skip":
                send({"id": ident, "skipped": "not today"})
            elif act == "error":
                send({"id": ident, "errored": "division by zero in movegen"})
            elif act == "answer_and_exit":
                os.close(0)  # from here on the harness cannot write: its next write fails
                send(answer)
                sys.exit(9)
            elif act == "notify":
                with open(data["fifo"], "w") as fifo:
                    fifo.write("reached\n")
                send(answer)
            elif act == "not_object":
                send({"id": ident, "result": [1, 2, 3]})
            else:
                send(answer)


if __name__ == "__main__":
    main()
