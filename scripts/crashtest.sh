#!/usr/bin/env bash
# Kills the release server with SIGKILL under load, again and again, and
# checks after each restart that no acknowledged move was lost and none
# was stored beyond the one each client had in flight.
#   scripts/crashtest.sh [rounds] [connections]
# On a fresh PostgreSQL database instead of a SQLite file:
#   GOBANG_LOAD_POSTGRES=postgres://postgres@127.0.0.1:5432/test scripts/crashtest.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin gobang --example crashtest
database=()
if [ -n "${GOBANG_LOAD_POSTGRES:-}" ]; then
  name="gobang_crash_$$"
  psql "$GOBANG_LOAD_POSTGRES" -qc "CREATE DATABASE $name"
  trap 'psql "$GOBANG_LOAD_POSTGRES" -qc "DROP DATABASE IF EXISTS $name WITH (FORCE)"' EXIT
  database=(--database-url "${GOBANG_LOAD_POSTGRES%/*}/$name")
fi
target/release/examples/crashtest --rounds "${1:-8}" --connections "${2:-16}" "${database[@]}"
