"""A bot for the site: the built-in expert's moves over the bot API (docs/bots.md).

    .venv/bin/python examples/bot.py http://127.0.0.1:8000 senet_TOKEN [--seek] [--games N]

It follows its event stream, lists a rated seek if asked, accepts every challenge, and plays
every game that starts (its seed, then a move whenever the game's stream lists legal moves
for it), one thread a game.  It says what it does on stderr, a line each (connected, a game
started, a move played); stdout has one JSON line per finished game.
"""

import json
import random
import sys
import threading
import urllib.error
import urllib.request

from senet.engine import Position
from senet.service.computer.players import choose_move

BASE, TOKEN, ARGS = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3:]


def call(method, path, body=None):
    request = urllib.request.Request(
        BASE + path,
        json.dumps(body).encode() if body is not None else None,
        {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
        method=method,
    )
    return urllib.request.urlopen(request, timeout=None if method == "GET" else 30)


def say(*words):  # what the bot does, for the person watching it
    print(*words, file=sys.stderr, flush=True)


def stream(path, opened=None):  # NDJSON: one JSON object a line; empty lines keep it alive
    with call("GET", path) as response:
        if opened:  # the server has accepted the token and holds the stream open
            say(opened)
        yield from (json.loads(line) for line in response if line.strip())


def play(game_id):
    rng, seeded = random.Random(), False
    for message in stream(f"/api/bot/game/stream/{game_id}"):  # the state, then each change
        needed = message.get("seed_needed") or message.get("fairness", {}).get("seed_needed")
        if needed and needed[message["you"][0]] and not seeded:  # before the first throw
            call("POST", f"/api/bot/game/{game_id}/seed", {"seed": f"{rng.random()}"}).close()
            seeded = True
        if message.get("legal"):  # listed only when this bot decides now
            position = Position.from_fen(message["fen"])
            move = position.move_text(choose_move(position, "expert", rng))
            try:
                call("POST", f"/api/bot/game/{game_id}/move/{move}?ply={message['ply']}").close()
                say(game_id, f"ply {message['ply']}:", move)
            except urllib.error.HTTPError as refused:  # stale: the next line says what changed
                say(game_id, move, json.load(refused)["code"])


def main():
    finished, wanted = 0, int(ARGS[ARGS.index("--games") + 1]) if "--games" in ARGS else None
    if "--seek" in ARGS:
        call("POST", "/api/bot/seek", {"variant": "standard", "rated": True}).close()
        say("seek listed: standard, rated")
    for event in stream("/api/bot/stream/event", f"connected to {BASE}"):
        if event["type"] == "challenge":  # a challenge made to this bot: take it
            call("POST", f"/api/challenge/{event['challenge']['id']}/accept").close()
        elif event["type"] == "gameStart":
            game = event["game"]
            opponent = game["opponent"]["name"] or "an anonymous player"
            say(game["id"], "started:", game["variant"], "as", game["seat"], "against", opponent)
            threading.Thread(target=play, args=(game["id"],), daemon=True).start()
        elif event["type"] == "gameFinish":
            print(json.dumps(event["game"]), flush=True)
            finished += 1
            if finished == wanted:
                return


if __name__ == "__main__":
    main()
