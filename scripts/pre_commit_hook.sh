#!/bin/sh
# Entry of the pre-commit framework's hook (.pre-commit-hooks.yaml, language: script): runs the
# review-gate pre-push gate from the clone pre-commit made of this repository. pre-commit gives the
# hook no stdin and no arguments; review-gate reads the push from its PRE_COMMIT_* variables.
# Uses a review-gate on PATH (the compiled binary) when there is one, else Deno on PATH.
set -eu
if command -v review-gate >/dev/null 2>&1; then
  exec review-gate hook pre-push "$@"
fi
if ! command -v deno >/dev/null 2>&1; then
  echo "review-gate: neither review-gate nor deno is on PATH (npm i -g deno@2.9.6): this push was NOT reviewed" >&2
  exit 1
fi
here=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
exec deno run --allow-read --allow-write --allow-env --allow-run "$here/main.ts" hook pre-push "$@"
