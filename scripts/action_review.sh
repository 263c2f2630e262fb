#!/bin/sh
# The review step of the composite GitHub action (action.yml): runs `review-gate ci` with the
# action's inputs (passed as RG_* variables, never interpolated into the script), writes the SARIF
# file and the annotations, and records the exit code in $GITHUB_OUTPUT as `exit-code` without
# failing the step, so the SARIF upload still runs when the gate blocks. The action's last step
# exits with that code. With RG_SHARD (a matrix job) it runs `ci --shard` and writes the shard's
# result to RG_SHARD_OUTPUT instead (no formats: a shard never gates); with RG_MERGE (the
# aggregator) it runs `merge` on that file or folder with the formats and the policy of `ci`.
set -u
here=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
if [ -n "${RG_MERGE:-}" ]; then
  set -- merge "$RG_MERGE" --format github --format sarif --output "${RG_SARIF:-review-gate.sarif}" \
    --on-error "${RG_ON_ERROR:-block}" --on-partial "${RG_ON_PARTIAL:-allow}"
elif [ -n "${RG_SHARD:-}" ]; then
  set -- ci --shard "$RG_SHARD" --shard-output "${RG_SHARD_OUTPUT:-review-gate-shard.json}"
else
  set -- ci --format github --format sarif --output "${RG_SARIF:-review-gate.sarif}" \
    --on-error "${RG_ON_ERROR:-block}" --on-partial "${RG_ON_PARTIAL:-allow}"
fi
[ -n "${RG_PROVIDER:-}" ] && set -- "$@" --provider "$RG_PROVIDER"
[ -n "${RG_MODEL:-}" ] && set -- "$@" --model "$RG_MODEL"
[ -n "${RG_FAIL_ON:-}" ] && set -- "$@" --fail-on "$RG_FAIL_ON"
[ -n "${RG_MIN_CONFIDENCE:-}" ] && set -- "$@" --min-confidence "$RG_MIN_CONFIDENCE"
[ -n "${RG_BASE:-}" ] && set -- "$@" --base "$RG_BASE"
[ "${RG_UNTRUSTED:-false}" = "true" ] && set -- "$@" --untrusted
[ -n "${RG_MAX_CALLS:-}" ] && set -- "$@" --max-calls "$RG_MAX_CALLS"
deno run --allow-read --allow-write --allow-env --allow-run "$here/main.ts" "$@"
code=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "exit-code=$code" >>"$GITHUB_OUTPUT"
fi
exit 0
