#!/usr/bin/env bash
# Plays many games at once through the API against the release build, at 16
# and 64 connections, with GET /healthz as the ceiling.
#   scripts/loadtest.sh [seconds-per-phase]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
port="${GOBANG_LOAD_PORT:-18181}"
dir="$(mktemp -d)"
cargo build --release --quiet --bin gobang --example loadgen
RUST_LOG=warn target/release/gobang serve --port "$port" --database-url "sqlite:$dir/load.db" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 50); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
  sleep 0.1
done
for connections in 16 64; do
  target/release/examples/loadgen --url "http://127.0.0.1:$port" --connections "$connections" --seconds "$seconds"
done
