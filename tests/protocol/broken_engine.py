"""A deliberately broken engine program for the match tests: it speaks the protocol and plays
the first legal move, until its ``--at``-th ``go``, where it misbehaves as ``mode`` says.

    python broken_engine.py illegal|crash|timeout|malformed|refuse|silent [--at N]
                            [--variants V ...]

``illegal`` plays a move that is not legal; ``crash`` writes to stderr and exits with code 3;
``timeout`` stops answering (it reads on, and exits at the end of its input); ``malformed``
answers ``bestmove banana``; ``refuse`` answers ``error ...``; ``silent`` never completes the
handshake.
"""

from __future__ import annotations

import argparse
import sys

from senet.engine import VARIANTS, Move, parse_position

parser = argparse.ArgumentParser()
parser.add_argument("mode")
parser.add_argument("--at", type=int, default=1)
parser.add_argument("--variants", nargs="*", default=list(VARIANTS), help="the variants it plays")
args = parser.parse_args()


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


position = None
goes = 0
for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    command = words[0]
    if command == "senet":
        if args.mode == "silent":
            continue
        say("id name broken-" + args.mode)
        say("variants " + " ".join(args.variants))
        say("senetok")
    elif command == "isready":
        say("readyok")
    elif command == "position":
        position = parse_position(raw.split(" ", 1)[1].strip())
    elif command == "throw":
        position = position.apply_throw(int(words[1]))
    elif command == "go":
        goes += 1
        legal = position.legal_moves()
        if goes < args.at:
            say(f"bestmove {legal[0].text()}")
            continue
        if args.mode == "illegal":
            wrong = next(
                Move.step(o, t)
                for o in range(1, 30)
                for t in range(o + 1, 31)
                if Move.step(o, t) not in legal
            )
            say(f"bestmove {wrong.text()}")
        elif args.mode == "crash":
            sys.stderr.write("broken engine: deliberate crash\n")
            sys.exit(3)
        elif args.mode == "timeout":
            pass  # never answers this go; the controller's clock runs out
        elif args.mode == "malformed":
            say("bestmove banana")
        elif args.mode == "refuse":
            say("error I will not move")
    elif command == "quit":
        break
