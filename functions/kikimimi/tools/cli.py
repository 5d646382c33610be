"""The `kikimimi` command: demo | local | replay | eval | memory (each subcommand in its own module)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from kikimimi.settings import SettingsError
from kikimimi.tools.memory_report import add_memory_parser
from kikimimi.tools.options import add_common, settings_from


def cmd_replay(args: argparse.Namespace) -> int:
    from kikimimi.bootstrap import build_embedder, build_llms, build_memory_llm
    from kikimimi.tools.replay import replay, write_json, write_text
    from kikimimi.tools.transcript import TranscriptError

    settings = settings_from(args)
    judge_llm, writer = build_llms(settings)
    memory_llm = writer if settings.llm_backend == "offline" else build_memory_llm(settings)
    embedder = None  # Simulation's default: the hashing twin (fast, deterministic) for --llm none
    if settings.memory_enabled and settings.llm_backend != "none":
        embedder = build_embedder(settings)
    try:
        with open(args.transcript, encoding="utf-8") as fh:
            sim = replay(fh, settings, judge_llm=judge_llm, writer=writer, embedder=embedder,
                         memory_llm=memory_llm)  # fmt: skip
    except (TranscriptError, OSError) as exc:
        print(f"kikimimi replay: {args.transcript}: {exc}", file=sys.stderr)
        return 2
    (write_json if args.json else write_text)(sim, sys.stdout)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from kikimimi.tools.evaluation import run_eval_command

    return run_eval_command(args, settings_from(args))


def cmd_bench(args: argparse.Namespace) -> int:
    from kikimimi.tools.bench import run_bench_command

    return run_bench_command(args, settings_from(args))


def cmd_demo(args: argparse.Namespace) -> int:
    from kikimimi.tools.demo import run_demo

    return run_demo(settings_from(args), speed=args.speed)


def cmd_local(args: argparse.Namespace) -> int:
    from kikimimi.tools.console import run_local

    return run_local(settings_from(args))


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="kikimimi", description=__doc__)
    sub = root.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="run a transcript through the pipeline on a simulated clock")
    p.add_argument("transcript")
    p.add_argument("--bot-name")
    p.add_argument("--json", action="store_true", help="one JSON event per line")
    add_common(p)
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("eval", help="score the judge on decision cases")
    p.add_argument("cases")
    p.add_argument("--limit", type=int)
    p.add_argument("--json", action="store_true")
    add_common(p)
    p.set_defaults(run=cmd_eval)

    p = sub.add_parser("bench", help="measure the issue's figures against their targets")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these parts")
    p.add_argument("--quick", action="store_true", help="smaller sizes for a fast smoke run")
    add_common(p)
    p.set_defaults(run=cmd_bench)

    p = sub.add_parser("demo", help="run the bundled conversation through the local stack")
    p.add_argument(
        "--speed", type=float, default=1.0, help="play the conversation faster (2 = twice as fast)"
    )
    add_common(p)
    p.set_defaults(run=cmd_demo)

    p = sub.add_parser("local", help="start the local stack and chat with the bot from the terminal")
    add_common(p)
    p.set_defaults(run=cmd_local)

    add_memory_parser(sub)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except SettingsError as exc:
        print(f"kikimimi: configuration error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
