#!/usr/bin/env bash
# Nightly incremental export: each run writes only the answers that arrived since the last
# successful run into a new file in an outbox directory, then hands every file of the outbox to a
# loader. Each answer reaches the loader exactly once, also when a run is killed or rerun
# (docs/submission-update.md, "Incremental exports"): the state file advances only once a file is
# complete, and a rerun removes the file of a run that did not finish (its rows are in the new one).
#
# Needs, as CI secrets/variables:
#   FORMCTL_TOKEN      a token with the forms-read ability (never a flag)
#   FORMCTL_BASE_URL   your service, e.g. https://api.opnform.com (optional)
#   FORM               the form's id or slug
#   STATE              the state file, kept between runs (default: export-state.json)
#   LOAD               the loader, called with each CSV (default: print its name)
# Usage: FORM=contact-us bash examples/nightly-incremental.sh [outbox-dir]
set -euo pipefail

outbox=${1:-outbox}
state=${STATE:-export-state.json}
: "${FORMCTL_TOKEN:?set FORMCTL_TOKEN as a CI secret}"
: "${FORM:?set FORM to the form id or slug}"
mkdir -p "$outbox" "$outbox/done"

# A new name per run: a file never replaces one the loader has not taken yet.
file="$outbox/answers-$(date -u +%Y%m%dT%H%M%SZ)-$$.csv"
# --json reports the counts: {"rows": …, "known": …, "first_run": …, …}.
formctl --no-input submission export "$FORM" --incremental "$state" -o "$file" --json > "$outbox/last-run.json"

load() { if [ -n "${LOAD:-}" ]; then "$LOAD" "$1"; else echo "loaded $1"; fi; }
# Every finished file, oldest first (the names sort by time), moved aside once loaded.
for f in "$outbox"/answers-*.csv; do
  [ -e "$f" ] || continue
  load "$f"
  mv "$f" "$outbox/done/"
done
