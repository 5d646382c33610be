"""The `kikimimi` command: demo, local, replay, timeline, eval, links, train-links, memory, bench, cost
(each in its module).

A user's mistake or a missing dependency ends in one line on stderr and exit code 2 (tools/errors.py);
a closed pipe ends quietly; Ctrl-C ends with 130, SIGTERM with 143 and SIGHUP (the terminal closed)
with 129, each after every `with` stopped what it started (the local stack's emulators and processes).
Anything else is a bug and shows its traceback, as does every failure with KIKIMIMI_DEBUG=1.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import textwrap
import threading
from collections.abc import Iterator, Sequence
from importlib import metadata
from typing import Any

from kikimimi.settings import Settings, SettingsError
from kikimimi_dev.tools.commands_cli import add_commands_parser
from kikimimi_dev.tools.discord_import import add_import_parser
from kikimimi_dev.tools.errors import UsageError, explain
from kikimimi_dev.tools.help_set import add_help_set_parser
from kikimimi_dev.tools.links_cli import add_links_parsers
from kikimimi_dev.tools.memory_report import add_memory_parser
from kikimimi_dev.tools.options import add_common, positive, require_llm, settings_from
from kikimimi_dev.tools.settings_doc import add_settings_parser
from kikimimi_dev.tools.timeline import add_timeline_parser

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a program stopped by Ctrl-C
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE, what `grep … | head -1` reports for grep
DEMO = "examples/demo_conversation.jsonl"
EXAMPLES = {
    "replay": f"""  kikimimi replay {DEMO}
  kikimimi replay {DEMO} --json --messages > events.jsonl
  kikimimi replay chat.jsonl --bot-name kiki --config MIN_MESSAGES=2 --config BOT_LANGUAGE=en
  kikimimi replay chat.jsonl --state kept.json   # every document the bot keeps at the end""",
    "eval": """  kikimimi eval cases.jsonl
  kikimimi eval cases.jsonl --llm gemini --limit 200 --json > report.json""",
    "bench": """  kikimimi bench --quick
  kikimimi bench --only llm_calls replay_speed --json
  kikimimi bench --check          # exit 1 when a figure misses its target""",
    "cost": """  kikimimi cost
  kikimimi cost --messages-per-day 1000 50000 --json""",
    "demo": """  kikimimi demo
  kikimimi demo --llm offline --speed 2""",
    "local": """  kikimimi local
  DISCORD_TOKEN=… kikimimi local   # the gateway and REST talk to real Discord""",
    "links": """  kikimimi links ../shared/eval/help/dev_transcript.jsonl
  kikimimi links chat.jsonl --json > links.jsonl   # {"id", "reply_to", "confidence", "answers"} a line
  kikimimi links ../shared/eval/help/dev_transcript.jsonl --strip-addresses --json   # without `nick:`""",
    "train-links": """  kikimimi train-links
  kikimimi train-links --table named --holdout 30 --out /tmp/reply_links.json""",
    "help-set": """  kikimimi help-set ../shared/eval/links/train_transcript.jsonl \\
      ../shared/eval/links/train_links.jsonl --out /tmp/help   # the 153 training logs, in 2 parts
  kikimimi replay /tmp/help/part0_transcript.jsonl --json --llm none > /tmp/help/part0_events.jsonl
  python3 ../shared/eval/help_score.py /tmp/help/part0_questions.jsonl /tmp/help/part0_events.jsonl""",
    "memory": """  FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 kikimimi memory 1234567890 --guild 42
  KIKIMIMI_MODE=gcp GOOGLE_CLOUD_PROJECT=my-project kikimimi memory forget-user 42 1001""",
}


def cmd_replay(args: argparse.Namespace) -> int:
    from kikimimi.bootstrap import build_embedder, build_llms, build_memory_llm
    from kikimimi_dev.tools.replay import replay, write_json, write_state, write_text
    from kikimimi_dev.tools.transcript import EmptyTranscript, TranscriptError

    if args.messages and not args.json:  # the plain output prints every message already
        args.replay_parser.error("--messages adds the messages to the --json output: give --json too")
    settings = settings_from(args)
    require_llm(settings)
    with open(args.transcript, encoding="utf-8") as fh:  # before the LLMs: a wrong path fails at once
        judge_llm, writer = build_llms(settings)
        memory_llm = writer if settings.llm_backend == "offline" else build_memory_llm(settings)
        embedder = None  # Simulation's default: the hashing twin (fast, deterministic) for --llm none
        if settings.memory_enabled and settings.llm_backend != "none":
            embedder = build_embedder(settings)
        try:
            sim = replay(
                fh,
                settings,
                judge_llm=judge_llm,
                writer=writer,
                embedder=embedder,
                memory_llm=memory_llm,
                prompts=args.prompts,
            )
        except (TranscriptError, EmptyTranscript) as exc:
            raise UsageError(f"{args.transcript}: {exc}") from exc
        except UnicodeDecodeError as exc:
            raise UsageError(
                f"{args.transcript}: not UTF-8 text ({exc.reason}); give a JSONL transcript"
            ) from exc
    if args.state:
        try:
            with open(args.state, "w", encoding="utf-8") as out:
                write_state(sim, out)
        except OSError as exc:
            raise UsageError(f"--state {args.state}: {exc.strerror or exc}") from exc
    if args.json:
        write_json(sim, sys.stdout, messages=args.messages)
    else:
        write_text(sim, sys.stdout)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from kikimimi_dev.tools.evaluation import run_eval_command

    settings = settings_from(args)
    require_llm(settings)
    return run_eval_command(args, settings)


def cmd_bench(args: argparse.Namespace) -> int:
    from kikimimi_dev.tools.bench import run_bench_command

    return run_bench_command(args, settings_from(args))


def cmd_cost(args: argparse.Namespace) -> int:
    from kikimimi_dev.tools.cost import run_cost_command

    return run_cost_command(args, settings_from(args))


def cmd_demo(args: argparse.Namespace) -> int:
    from kikimimi_dev.tools.demo import choose_backend, run_demo

    requested, args.llm = args.llm, None
    args.llm = choose_backend(requested, settings_from(args))
    settings = settings_from(args)
    require_llm(settings, stack=True)
    return run_demo(settings, speed=args.speed)


def cmd_local(args: argparse.Namespace) -> int:
    from kikimimi_dev.tools.console import run_local

    settings = settings_from(args)
    require_llm(settings, stack=True)
    return run_local(settings)


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Terminated(BaseException):
    """SIGTERM or SIGHUP, raised in the main thread: it unwinds like Ctrl-C, so the local stack's `with`
    stops the emulators, the functions and the gateway (they run in their own sessions, which a signal
    to this process alone never reaches)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _terminate(signum: int, frame: object) -> None:
    for sig in STOP_SIGNALS:  # the clean-up runs once, not cut short by a second signal
        signal.signal(sig, signal.SIG_IGN)
    raise Terminated(signum)


@contextlib.contextmanager
def _stop_on_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP raise Terminated while a command runs (main thread only; restored after)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {sig: signal.signal(sig, _terminate) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def version() -> str:
    try:
        return metadata.version("kikimimi")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _command(sub: Any, name: str, help: str, description: str = "") -> argparse.ArgumentParser:
    """A subcommand: `help` is its line in `kikimimi --help`, `description` heads its own help."""
    text = description or help[0].upper() + help[1:] + "."
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help, description=textwrap.fill(text, 100))
    return parser


class _RootHelp(argparse.RawDescriptionHelpFormatter):
    """Counts the commands' own indent, so the longest name (train-links) keeps its summary beside it."""

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if isinstance(action, argparse._SubParsersAction):
            self._action_max_length += self._indent_increment


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(
        prog="kikimimi",
        description="聞き耳 (kikimimi): a Discord bot that reads the room and decides by itself when to "
        "speak.",
        epilog=f"See the bot at work in a second, with nothing but the package:\n  kikimimi replay {DEMO}\n"
        "`kikimimi COMMAND --help` shows a command's options and examples.",
        formatter_class=_RootHelp,
    )
    root.add_argument("--version", action="version", version=f"kikimimi {version()}", help="show the version")
    sub = root.add_subparsers(dest="command", required=True, title="commands", metavar="COMMAND")
    _add_stack_commands(sub)
    _add_replay(sub)
    add_import_parser(sub)
    add_timeline_parser(sub)
    _add_eval(sub)
    add_links_parsers(sub)
    add_help_set_parser(sub)
    add_memory_parser(sub)
    add_settings_parser(sub)
    add_commands_parser(sub)
    _add_bench(sub)
    _add_cost(sub)
    _add_examples(sub)
    return root


def _add_stack_commands(sub: Any) -> None:
    """demo and local: the bot on the local stack."""
    p = _command(sub, "demo", "run the bundled conversation through the local stack in real time")
    p.add_argument(
        "--speed",
        type=positive,
        default=1.0,
        help="play the conversation faster (2 = twice as fast; default 1)",
    )
    add_common(p, auto=True)
    p.set_defaults(run=cmd_demo)

    p = _command(sub, "local", "start the local stack and chat with the bot from the terminal")
    add_common(p)
    p.set_defaults(run=cmd_local)


def _add_replay(sub: Any) -> None:
    """replay: a transcript through the pipeline on the twins."""
    p = _command(
        sub,
        "replay",
        "run a transcript through the pipeline on a simulated clock (in-process, seconds)",
        "Run a transcript through the real use cases on in-memory twins and a simulated clock: every "
        "judgment, cancellation, watch and post with its reason. Deterministic; needs no emulator.",
    )
    p.add_argument(
        "transcript", metavar="TRANSCRIPT", help="a JSONL transcript: one message a line (docs/formats.md)"
    )
    p.add_argument("--bot-name", metavar="NAME", help="the bot's name in the transcript (default: BOT_NAME)")
    p.add_argument("--json", action="store_true", help="one JSON event per line")
    p.add_argument(
        "--prompts", action="store_true", help="add every judge, writer and memory LLM request (llm_request)"
    )
    p.add_argument(
        "--messages",
        action="store_true",
        help="with --json (required), add each message (author, content) for `timeline`",
    )
    p.add_argument(
        "--state",
        metavar="FILE",
        help="write every document the bot keeps at the end to FILE (JSON: collection path → id → document)",
    )
    add_common(p)
    p.set_defaults(run=cmd_replay, replay_parser=p)


def _add_eval(sub: Any) -> None:
    """eval: the judge scored on decision cases."""
    p = _command(
        sub,
        "eval",
        "score the judge on decision cases (precision, recall, F1, over-talk)",
        "Run the real judgment use case on each decision case and score it against the people's labels.",
    )
    p.add_argument("cases", metavar="CASES", help="a JSONL file of decision cases (messages + label)")
    p.add_argument("--limit", type=int, metavar="N", help="judge only the first N cases")
    p.add_argument("--json", action="store_true", help="one JSON object")
    add_common(p)
    p.set_defaults(run=cmd_eval)


def _add_bench(sub: Any) -> None:
    """bench: the cost and speed figures against their targets."""
    p = _command(sub, "bench", "measure the cost and speed figures against their targets on this machine")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument(
        "--only", nargs="+", metavar="NAME", help="run only these parts (e.g. llm_calls replay_speed)"
    )
    p.add_argument("--quick", action="store_true", help="smaller sizes for a fast smoke run")
    p.add_argument(
        "--check", action="store_true", help="exit 1 when a figure misses its target or a part fails"
    )
    add_common(p)
    p.set_defaults(run=cmd_bench)


def _add_cost(sub: Any) -> None:
    """cost: the monthly bill for a traffic."""
    p = _command(
        sub,
        "cost",
        "estimate the monthly Google Cloud bill for a traffic",
        "Measure operations per message on the twins and price them with prices.toml (dated, with sources).",
    )
    p.add_argument(
        "--messages-per-day",
        type=float,
        nargs="+",
        default=[1000.0],
        metavar="N",
        help="human messages a day over the server (one or more levels; default 1000)",
    )
    p.add_argument("--sample", type=int, default=700, help="messages in the measured run (default 700)")
    p.add_argument("--prices", metavar="FILE", help="another price file (default: the packaged prices.toml)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    add_common(p)
    p.set_defaults(run=cmd_cost)


def _add_examples(sub: Any) -> None:
    """Each command's examples under its help, lines kept."""
    for name, command in sub.choices.items():
        command.formatter_class = argparse.RawDescriptionHelpFormatter  # keeps the examples' lines
        if name in EXAMPLES and not command.epilog:
            command.epilog = "examples:\n" + EXAMPLES[name]


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    where = f"kikimimi {args.command}"
    try:
        with _stop_on_signals():
            code = int(args.run(args))
        sys.stdout.flush()  # a reader that went away shows here when the output was short
        return code
    except BrokenPipeError:
        return _closed_pipe()
    except KeyboardInterrupt:
        print(f"{where}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated as stopped:
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            print(f"{where}: stopped by {stopped}", file=sys.stderr)
        return 128 + stopped.signum
    except Exception as exc:
        message = explain(exc)
        if message is None or _debug():
            raise  # a bug (or KIKIMIMI_DEBUG): the traceback is what helps
        print(f"{where}: {message}", file=sys.stderr)
        return EXIT_USAGE


def _closed_pipe() -> int:
    """The reader (`| head`) closed the pipe: stop quietly, and keep the exit's flush from failing again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a file descriptor (an in-process capture)
        pass
    return EXIT_CLOSED_PIPE


def _debug() -> bool:
    try:
        return Settings.from_env().debug
    except SettingsError:
        return False


if __name__ == "__main__":
    sys.exit(main())
