#!/usr/bin/env bash
# Plays many games at once through the API against the release build, at 16
# and 64 connections, with GET /healthz as the ceiling.
#   scripts/loadtest.sh [seconds-per-phase] [board-size]
# Prints moves/s, GET /healthz/s and their ratio, with p50/p99 latencies.
# On PostgreSQL, and across several instances (each request to the next
# one, as a load balancer without sticky sessions would):
#   GOBANG_LOAD_POSTGRES=postgres://postgres@127.0.0.1:5432/test GOBANG_LOAD_INSTANCES=2 scripts/loadtest.sh
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
size="${2:-19}"
port="${GOBANG_LOAD_PORT:-18181}"
source scripts/release-server.sh
release_server loadgen
for connections in 16 64; do
  target/release/examples/loadgen --url "$urls" --connections "$connections" --seconds "$seconds" --size "$size"
done
