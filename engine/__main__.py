"""``python -m engine replay FILE.jsonl [--json] [--assist notes|hints|full]``"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any

from .errors import RuleViolation
from .game import Assist
from .replay import LogError, format_journals, outcome_json, replay, run
from .store import StoreError


# A lone surrogate escape (\ud800) is valid JSON syntax in a log but no character: it cannot be
# written as UTF-8, and a refused line is echoed in the output's "violations". In the JSON text
# it can only stand inside a string, so it is replaced there (no walk of the value: an echoed
# line may be nested hundreds deep).
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _print_json(value: Any) -> None:
    text = _LONE_SURROGATE.sub("\ufffd", json.dumps(value, indent=2, ensure_ascii=False))
    try:
        print(text)
    except UnicodeEncodeError:
        # Standard output that cannot take every character (not UTF-8): the same JSON, escaped.
        print(json.dumps(json.loads(text), indent=2, ensure_ascii=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Gumshoe rules engine tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay an action log and print each player's journal after each step")
    rp.add_argument("log", help="a JSON Lines action log (docs/replay-format.md)")
    rp.add_argument("--json", action="store_true", help="print only the final outcome as one JSON object")
    rp.add_argument("--assist", choices=[a.value for a in Assist], default="notes",
                    help="how much deduction to print (default: notes)")
    args = parser.parse_args(argv)
    assist = Assist(args.assist)
    try:
        if args.json:
            result = run(args.log)
            for warning in result.session.warnings:
                print(f"warning: {warning}", file=sys.stderr)
            _print_json(outcome_json(result, assist))
            return 0
        if hasattr(sys.stdout, "reconfigure"):
            # A terminal that is not UTF-8 shows an escape for a character it cannot show,
            # rather than the replay stopping with a traceback.
            sys.stdout.reconfigure(errors="backslashreplace")
        warned = False
        for session, step in replay(args.log):
            if not warned:
                for warning in session.warnings:
                    print(f"warning: {warning}", file=sys.stderr)
                warned = True
            print(f"[line {step.line}] {step.words}")
            for text in step.verdicts:
                print(f"  > {text}")
            print(format_journals(session, assist))
        return 0
    except (LogError, StoreError, RuleViolation) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader stopped reading (`... | head`): nothing is wrong with the log. Python would
        # report the pipe again when it flushes standard output on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
