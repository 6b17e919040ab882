"""A protocol v1 adapter for tests that answers every ``run`` with one given result.

Options: ``--result JSON`` (the result object, default ``{}``), ``--capabilities a,b``
(default ``parse_san``), ``--unclassified a,b`` (declared as ``unclassified_errors``;
left out of the answer to ``start`` when not given).
"""

import json
import sys

ARGS = sys.argv[1:]


def option(name, default=None):
    return ARGS[ARGS.index(name) + 1] if name in ARGS else default


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    result = json.loads(option("--result", "{}"))
    for line in sys.stdin:
        message = json.loads(line)
        cmd = message.get("cmd")
        if cmd == "start":
            answer = {"ok": True, "protocol": 1, "implementation": {"name": "scripted", "version": "1"},
                      "capabilities": option("--capabilities", "parse_san").split(","), "rulesets": ["*"]}
            if "--unclassified" in ARGS:
                answer["unclassified_errors"] = option("--unclassified").split(",")
            send(answer)
        elif cmd == "run":
            send({"id": message["id"], "result": result})
        else:
            send({"ok": True})
            return


if __name__ == "__main__":
    main()
