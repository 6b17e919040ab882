"""A protocol v1 adapter for tests that dies on chosen requests.

It answers ``perft`` with ``{"nodes": input["answer"]}`` at once. ``--crash-at 3,17,40``
makes it die the moment it has read a request whose ``input["answer"]`` is one of those
numbers, without answering it; ``--how`` says how: ``exit`` (exit status 7 straight
away, no clean-up), ``kill`` (SIGKILL to itself) or ``half`` (half an answer line, then
exit status 7). Every request before the fatal one has been answered in full, so a
harness must blame exactly the request with a number in ``--crash-at``.
"""

import json
import os
import signal
import sys

ARGS = sys.argv[1:]


def option(name, default=None):
    return ARGS[ARGS.index(name) + 1] if name in ARGS else default


CRASH_AT = {int(n) for n in option("--crash-at", "").split(",") if n}
HOW = option("--how", "exit")


def send(text):
    os.write(1, text.encode("utf-8"))


def die(ident):
    if HOW == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if HOW == "half":
        send('{"id": "' + ident + '", "res')
    os._exit(7)


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            send(json.dumps({"ok": True, "protocol": 1, "implementation": {"name": "crasher", "version": "1"},
                             "capabilities": ["perft"], "rulesets": ["*"]}) + "\n")
        elif message["cmd"] == "stop":
            send('{"ok": true}\n')
            return
        else:
            number = message["input"]["answer"]
            if number in CRASH_AT:
                die(message["id"])
            send(json.dumps({"id": message["id"], "result": {"nodes": number}}) + "\n")


if __name__ == "__main__":
    main()
