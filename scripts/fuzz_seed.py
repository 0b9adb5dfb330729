"""Games for scripts/fuzz-api.sh to fuzz against, in every state an
operation on a game needs.

A fuzzer that knows only the document sends random game ids, which the
server rightly answers 404: joining, accepting, answering an offer or
taking a renju opening step would then be fuzzed against games that do not
exist. This makes a second player and, with it and the fuzzer's player,
games in each state those operations act on (several of each, as the
fuzzer moves them on), and prints their ids one a line, quoted, as a
schemathesis dictionary file.

    python3 scripts/fuzz_seed.py BASE_URL FUZZER_TOKEN > games.dict
"""

import json
import sys
import urllib.error
import urllib.request

COPIES = 3


class Client:
    def __init__(self, base, token=None):
        self.base = base
        self.token = token

    def call(self, method, path, body=None, expect=(200, 201)):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        if self.token:
            request.add_header("authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        if status not in expect:
            sys.exit(f"fuzz_seed: {method} {path} answered {status}: {text[:300]!r}")
        return json.loads(text) if text else None

    def game(self, body):
        return self.call("POST", "/v1/games", body)["game"]["id"]

    def act(self, game, action, body=None):
        return self.call("POST", f"/v1/games/{game}/{action}", body)

    def move(self, game, at):
        return self.act(game, "moves", {"at": at})


def online(me, rival, me_id, **rules):
    """A game between the two, started: the rival invites, the fuzzer's
    player accepts; the fuzzer's player is black."""
    game = rival.game({"black": {"player_id": me_id}, "white": "me", **rules})
    me.act(game, "accept")
    return game


def main():
    base, token = sys.argv[1].rstrip("/"), sys.argv[2]
    me = Client(base, token)
    me_id = me.call("GET", "/v1/players/me")["id"]
    rival = Client(base)
    rival.token = rival.call("POST", "/v1/players", {"name": "fuzz rival"}, expect=(201,))["token"]

    games = []
    for _ in range(COPIES):
        # Against the computer, a few moves in: moves, undo, redo, hints,
        # the computer's move, pictures, records, resign, rematch.
        game = me.game({})
        me.move(game, "h8")
        games.append(game)
        # A renju game under RIF rules, waiting for the fuzzer's opening step.
        games.append(me.game({"rules": "renju", "opening": "rif", "white": {"ai": "beginner"}}))
        # Swap2, waiting for the first player to place three stones.
        games.append(me.game({"opening": "swap2"}))
        # The rival's open game: join.
        games.append(rival.game({"black": "me", "white": "open"}))
        # The fuzzer's own open game: cancel.
        games.append(me.game({"black": "me", "white": "open"}))
        # An invitation to the fuzzer: accept, decline.
        games.append(rival.game({"black": "me", "white": {"player_id": me_id}}))
        # Online, the rival to move: claim (refused until the rival has
        # been idle past the server's abandon limit).
        game = online(me, rival, me_id)
        me.move(game, "h8")
        games.append(game)
        # Online, the rival asks to take its move back: takeback/accept, /decline.
        game = online(me, rival, me_id)
        me.move(game, "h8")
        rival.move(game, "h9")
        rival.act(game, "takeback")
        games.append(game)
        # Online, the rival offers a draw: draw/accept, /decline.
        game = online(me, rival, me_id)
        me.move(game, "h8")
        rival.act(game, "draw")
        games.append(game)
        # Online and finished, the rival proposes a rematch: rematch/accept, /decline.
        game = online(me, rival, me_id)
        rival.act(game, "resign")
        rival.act(game, "rematch")
        games.append(game)
        # Online, the fuzzer to move, with offers of its own to make.
        game = online(me, rival, me_id, rules="standard")
        me.move(game, "h8")
        rival.move(game, "j9")
        games.append(game)
    for game in games:
        print(json.dumps(game))


if __name__ == "__main__":
    main()
