#!/usr/bin/env bash
# Checks that cubedb's FTO scrambles name the faces as cubing.js does: random words in
# those names get the same order as elements of cubedb's FTO (fto_names.py, from the
# definition's geometry) and of cubing.js's (fto-names.mjs). Runs an already-installed
# peer; installs and fetches nothing.
#
#   CUBING_DIR=/path/to/folder   the folder whose node_modules holds cubing
#   bash bench/peers/fto-names.sh [COUNT] [SEED]      (default 500 words, seed 1)
#
# Exit 0 when every order agrees.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${CUBING_DIR:?set CUBING_DIR to the folder whose node_modules holds cubing}"
count=${1:-500}
seed=${2:-1}
python3 "$here/fto_names.py" "$count" "$seed" | node "$here/fto-names.mjs" "$(realpath "$CUBING_DIR")"
