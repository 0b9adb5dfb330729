#!/usr/bin/env bash
# Live updates under load: 1,000 server-sent-event listeners over 100 online
# games while moves are played, against the release build; reports the
# delay from each move's response to its event and the server's memory.
#   scripts/ssebench.sh [games] [listeners-per-game] [moves-per-game] [ms-between-moves]
# Across instances (moves played on the first, followed on the last):
#   GOBANG_LOAD_POSTGRES=postgres://postgres@127.0.0.1:5432/test GOBANG_LOAD_INSTANCES=2 scripts/ssebench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-100}"
listeners="${2:-10}"
moves="${3:-30}"
interval="${4:-500}"
port="${GOBANG_LOAD_PORT:-18182}"
source scripts/release-server.sh
release_server ssebench
target/release/examples/ssebench --url "${urls%%,*}" --follow-url "${urls##*,}" --games "$games" \
  --listeners "$listeners" --moves "$moves" --interval-ms "$interval" --server-pid "${servers[-1]}"
