"""``python -m engine replay FILE.jsonl [--json] [--assist notes|hints|full]``"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import RuleViolation
from .game import Assist
from .replay import LogError, format_journals, outcome_json, replay, run
from .store import StoreError


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
            print(json.dumps(outcome_json(result, assist), indent=2, ensure_ascii=False))
            return 0
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


if __name__ == "__main__":
    sys.exit(main())
