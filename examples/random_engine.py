"""A complete engine program in 40 lines: it speaks the engine protocol on standard input and
output and plays a random legal move (docs/engine-protocol.md).  Try it:

    senet match "python examples/random_engine.py" "senet engine --level beginner" --games 2
"""

from __future__ import annotations

import random
import sys

from senet.engine import VARIANTS, parse_move, parse_position

rng = random.Random()
position = None


def say(line: str) -> None:
    print(line, flush=True)


for line in sys.stdin:
    command, _, rest = line.strip().partition(" ")
    if command == "senet":
        say("id name random-example")
        say("id author the senet examples")
        say("variants " + " ".join(VARIANTS))
        say("senetok")
    elif command == "isready":
        say("readyok")
    elif command == "position":
        position = parse_position(rest)
    elif command == "throw" and position is not None:
        position = position.apply_throw(int(rest))
    elif command == "move" and position is not None:
        position = position.apply(parse_move(rest))
    elif command == "go" and position is not None:
        say("bestmove " + rng.choice(position.legal_moves()).text())
    elif command == "quit":
        break
