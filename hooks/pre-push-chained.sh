#!/bin/sh
# managed-by: review-gate
# Runs the pre-push hook that was here before (kept as {{chained_name}}), then reviews the
# pushed commits with "review-gate hook pre-push"; both get the same arguments and stdin bytes.
# Skip review-gate once: REVIEW_GATE=0 git push (recorded as a skip: review-gate stats);
# git push --no-verify skips both hooks (git runs none: nothing is recorded).
# Remove with "review-gate uninstall --git": the previous hook is put back as it was.
chained="$(dirname "$0")/{{chained_name}}"
input="$(mktemp)" || exit 1
trap 'rm -f "$input"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cat >"$input" || exit 1
if [ -x "$chained" ]; then
  "$chained" "$@" <"$input" || exit $?
fi
{{fast_path}}
review_gate_read_lines <"$input"
if review_gate_switched_off; then
  review_gate_deletes_only || review_gate_skip_push "${1:-}"
  exit 0
fi
review_gate_push "$@"
