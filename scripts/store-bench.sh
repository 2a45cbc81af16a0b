#!/usr/bin/env bash
# Times one `tomo follow` on a store of 10,000 users, 200,000 follows and 500,000 likes
# (release build). Usage: scripts/store-bench.sh [DIR]   (default: a fresh temporary folder)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product tomo
swift build -c release --product tomo-store-bench
site="${1:-$(mktemp -d)}"
.build/release/tomo-store-bench generate "$site"
.build/release/tomo-store-bench time "$site" "$PWD/.build/release/tomo" 11
ls -l "$site/content/store.json"
