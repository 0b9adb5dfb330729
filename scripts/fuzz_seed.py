"""Games for scripts/fuzz-api.sh to fuzz against, in every state an
operation on a game needs.

A fuzzer that knows only the document sends random game ids, which the
server rightly answers 404: joining, accepting, answering an offer or
taking a renju opening step would then be fuzzed against games that do not
exist. This makes a second player and, with it and the fuzzer's player,
games in each state those operations act on (several of each, as the
fuzzer moves them on), and writes their ids, one a line and quoted, as
schemathesis dictionary files in DIR: `games.dict` with every game, and
one file for each operation that needs its game in a state, with games of
its own. It prints the settings that bind each such operation to its
games (an operation answered with a conflict on every game it is sent
would be fuzzed only for its refusals), the others to every game.

    python3 scripts/fuzz_seed.py BASE_URL FUZZER_TOKEN DIR >> fuzz.toml
"""

import json
import os
import sys
import urllib.error
import urllib.request


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

    def flip(self):
        """True and False in turn."""
        self.flipped = not getattr(self, "flipped", False)
        return self.flipped


def online(me, rival, me_id, **rules):
    """A game between the two, started: the rival invites, the fuzzer's
    player accepts; the fuzzer's player is black."""
    game = rival.game({"black": {"player_id": me_id}, "white": "me", **rules})
    me.act(game, "accept")
    return game


# Games of each state: a few of those no operation uses up, more of those
# one does (an accepted offer is gone), and those apart for each operation
# that uses them up (a game one operation ends is no use to the next).
COPIES = 3
USED_UP = 8


def states(me, rival, me_id):
    """Each state an operation needs, as a function making a game in it."""

    def redo():
        # Against the computer, its move undone.
        game = me.game({})
        me.move(game, "h8")
        me.act(game, "undo")
        return game

    def rival_to_move():
        # Online, the rival to move (claimable once the rival has been idle
        # past the server's abandon limit).
        game = online(me, rival, me_id)
        me.move(game, "h8")
        return game

    def my_turn():
        # Online, the fuzzer to move, with offers of its own to make.
        game = online(me, rival, me_id, rules="standard")
        me.move(game, "h8")
        rival.move(game, "j9")
        return game

    def takeback_offer():
        # Online, the rival asks to take its move back.
        game = online(me, rival, me_id)
        me.move(game, "h8")
        rival.move(game, "h9")
        rival.act(game, "takeback")
        return game

    def draw_offer():
        game = online(me, rival, me_id)
        me.move(game, "h8")
        rival.act(game, "draw")
        return game

    def finished():
        game = online(me, rival, me_id)
        rival.act(game, "resign")
        return game

    def rematch_offer():
        game = finished()
        rival.act(game, "rematch")
        return game

    def open_rival():
        return rival.game({"black": "me", "white": "open"})

    def invitation():
        return rival.game({"black": "me", "white": {"player_id": me_id}})

    # By operation (its path under /v1/games/{id}): how many games, and how
    # each is made.
    return {
        "redo": (USED_UP, redo),
        "join": (USED_UP, open_rival),
        "accept": (USED_UP, invitation),
        "decline": (USED_UP, invitation),
        "claim": (USED_UP, rival_to_move),
        "takeback": (USED_UP, rival_to_move),
        "takeback/accept": (USED_UP, takeback_offer),
        "takeback/decline": (USED_UP, takeback_offer),
        "draw": (USED_UP, my_turn),
        "draw/accept": (USED_UP, draw_offer),
        "draw/decline": (USED_UP, draw_offer),
        "rematch": (USED_UP, finished),
        "rematch/accept": (USED_UP, rematch_offer),
        "rematch/decline": (USED_UP, rematch_offer),
        # The fuzzer's own open game.
        "cancel": (COPIES, lambda: me.game({"black": "me", "white": "open"})),
        # A renju game under RIF rules waiting for the fuzzer's opening
        # step, and swap2 waiting for the first player's three stones.
        "opening": (
            COPIES,
            lambda: me.game({"rules": "renju", "opening": "rif", "white": {"ai": "beginner"}})
            if me.flip()
            else me.game({"opening": "swap2"}),
        ),
    }


def main():
    base, token, out = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    me = Client(base, token)
    me_id = me.call("GET", "/v1/players/me")["id"]
    rival = Client(base)
    rival.token = rival.call("POST", "/v1/players", {"name": "fuzz rival"}, expect=(201,))["token"]

    def write(name, ids):
        with open(os.path.join(out, f"{name}.dict"), "w") as f:
            for game in ids:
                print(json.dumps(game), file=f)

    # Against the computer, a few moves in: moves, undo, hints, the
    # computer's move, pictures, records, resign.
    every = []
    for _ in range(COPIES):
        game = me.game({})
        me.move(game, "h8")
        every.append(game)
    for operation, (copies, make) in states(me, rival, me_id).items():
        games = [make() for _ in range(copies)]
        every.extend(games)
        name = operation.replace("/", "_")
        write(name, games)
        # The more particular settings first: the first that sets an option
        # decides it.
        print(
            f'\n[dictionaries.{name}]\nfrom-file = "{name}.dict"\n\n'
            f'[[operations]]\ninclude-name = "POST /v1/games/{{id}}/{operation}"\n'
            f'parameters = {{ "path.id" = {{ dictionary = "{name}", probability = 0.8 }} }}'
        )
    write("games", every)
    print(
        '\n[dictionaries.games]\nfrom-file = "games.dict"\n\n[[operations]]\n'
        'include-path-regex = "^/v1/games/\\\\{id\\\\}"\n'
        'parameters = { "path.id" = { dictionary = "games", probability = 0.8 } }'
    )


if __name__ == "__main__":
    main()
