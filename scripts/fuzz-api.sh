#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI document with schemathesis: every
# check, the stateful phase included (links from a new game to its
# actions). The operations on a game are fuzzed against real games in the
# states they act on (scripts/fuzz_seed.py) as well as random ids. Fails on
# any failure.
#   scripts/fuzz-api.sh [examples-per-operation]
# GOBANG_FUZZ_PHASES picks phases (default all four); GOBANG_FUZZ_STATEFUL_S
# is the stateful phase's time budget in seconds (default 180).
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-25}"
port="${GOBANG_FUZZ_PORT:-18182}"
if ! command -v st >/dev/null; then
  python3 -m pip install --quiet "schemathesis>=4.3,<5"
  # pip's scripts directory may not be on PATH (or a shim not refreshed).
  PATH="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"
  command -v st >/dev/null || { echo "schemathesis installed, but its st command is not found" >&2; exit 1; }
fi
source scripts/release-server.sh
# The computer's moves, hints and analyses think 100 ms unless a request
# asks for more, and at most 200 ms (a request asking more is capped, as
# the document says): its thinking is not what is fuzzed, and against real
# games the fuzzer asks for many of them.
export GOBANG_ENGINE_DEFAULT_MS=100 GOBANG_ENGINE_MAX_MS=200
# A player idle for a second may be claimed against, so that the seeded
# games where the other player is to move can be claimed.
export GOBANG_ABANDON_AFTER_S=1
release_server
GOBANG_FUZZ_TOKEN="$(curl -sf -X POST "http://127.0.0.1:$port/v1/players" \
  -H 'content-type: application/json' -d '{"name":"fuzz"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')"
export GOBANG_FUZZ_TOKEN
# The seeded games, as dictionaries that the operations on a game draw
# their id from four times in five: each operation that needs its game in
# a state (an offer to answer, an invitation to accept) from the games in
# that state, the others from all of them (scripts/fuzz_seed.py). The
# stateful phase runs on its own without them: it takes its ids from the
# games it makes (the document's links), and with the dictionary bound it
# gave up after a few scenarios.
seeded="$dir/fuzz-api.toml"
cp scripts/fuzz-api.toml "$seeded"
python3 scripts/fuzz_seed.py "http://127.0.0.1:$port" "$GOBANG_FUZZ_TOKEN" "$dir" >> "$seeded"
phases="${GOBANG_FUZZ_PHASES:-examples,coverage,fuzzing,stateful}"
# The WebSocket endpoints are left out: schemathesis speaks HTTP only.
fuzz() {
  SCHEMATHESIS_HOOKS=fuzz_hooks PYTHONPATH="scripts${PYTHONPATH:+:$PYTHONPATH}" \
  st --config-file "$1" run "http://127.0.0.1:$port/openapi.json" \
    --checks all \
    --max-examples "$examples" \
    --exclude-path '/v1/games/{id}/ws' \
    --exclude-path '/v1/players/me/ws' \
    --seed 1 \
    --no-color --phases "$2" "${@:3}"
}
status=0
stateless="$(tr , '\n' <<< "$phases" | grep -vx stateful | paste -sd, -)" || true
if [ -n "$stateless" ]; then fuzz "$seeded" "$stateless" || status=1; fi
if grep -qx stateful <<< "$(tr , '\n' <<< "$phases")"; then
  # DELETE on a seek cancels it (or, once paired, says so with the game):
  # the seek stays readable, as `status: cancelled`, so that a client
  # waiting on it (`GET ?wait=`) learns how it ended, as the document
  # says. A 200 after DELETE is what the server means; a seek is the only
  # resource with a DELETE, so the use-after-free check is left out.
  fuzz scripts/fuzz-api.toml stateful --exclude-checks use_after_free \
    --max-time "${GOBANG_FUZZ_STATEFUL_S:-180}" || status=1
fi
exit "$status"
