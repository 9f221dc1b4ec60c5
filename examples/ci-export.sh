#!/usr/bin/env bash
# Nightly export in CI: download every answer of a form as CSV and fail the job loudly when
# something is wrong. Nothing here prompts: CI=true (set by every CI service) turns prompts off,
# and --no-input makes that explicit for any other runner.
#
# Needs, as CI secrets/variables:
#   FORMCTL_TOKEN      a token with the forms-read ability (never a flag); exports need no other
#   FORMCTL_BASE_URL   your service, e.g. https://api.opnform.com (optional)
#   FORM               the form's id or slug
# Usage: FORM=contact-us bash examples/ci-export.sh [out.csv]
# pipefail: a failed formctl in a pipeline (a wrong FORM) stops the job with its exit code, instead
# of running on with an empty title.
set -euo pipefail

out=${1:-answers.csv}
: "${FORMCTL_TOKEN:?set FORMCTL_TOKEN as a CI secret}"
: "${FORM:?set FORM to the form id or slug}"

# Piped output is tab-separated with no header: easy for cut/awk. `--json` + jq works too.
title=$(formctl --no-input form get "$FORM" --json title | sed -n 's/.*"title": *"\(.*\)".*/\1/p')
echo "Exporting answers of \"$title\" to $out"

# Exit codes are a contract (formctl help exit-codes): 4 = bad token, 5 = missing ability,
# 6 = no such form, 8 = rate limited past --max-wait, 11 = network. Report them, then fail.
code=0
formctl --no-input submission export "$FORM" -o "$out" --clobber || code=$?
if [ "$code" -ne 0 ]; then
  echo "export failed with exit code $code (see: formctl help exit-codes)" >&2
  exit "$code"
fi
echo "Saved $out ($(wc -l < "$out") lines including the header)"
