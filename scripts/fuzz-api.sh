#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI document with schemathesis: every
# check, the stateful phase included (links from a new game to its
# actions). Fails on any failure.
#   scripts/fuzz-api.sh [examples-per-operation]
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
release_server
GOBANG_FUZZ_TOKEN="$(curl -sf -X POST "http://127.0.0.1:$port/v1/players" \
  -H 'content-type: application/json' -d '{"name":"fuzz"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')"
export GOBANG_FUZZ_TOKEN
# The WebSocket endpoints are left out: schemathesis speaks HTTP only.
SCHEMATHESIS_HOOKS=fuzz_hooks PYTHONPATH="scripts${PYTHONPATH:+:$PYTHONPATH}" \
st --config-file scripts/fuzz-api.toml run "http://127.0.0.1:$port/openapi.json" \
  --checks all \
  --max-examples "$examples" \
  --exclude-path '/v1/games/{id}/ws' \
  --exclude-path '/v1/players/me/ws' \
  --seed 1 \
  --no-color ${GOBANG_FUZZ_PHASES:+--phases "$GOBANG_FUZZ_PHASES"}
