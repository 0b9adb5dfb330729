#!/usr/bin/env bash
# Kills the release server with SIGKILL under load, again and again, and
# checks after each restart that no acknowledged move was lost and none
# was stored beyond the one each client had in flight.
#   scripts/crashtest.sh [rounds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin gobang --example crashtest
target/release/examples/crashtest --rounds "${1:-8}" --connections "${2:-16}"
