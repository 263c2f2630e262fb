#!/bin/sh
# managed-by: review-gate
# Runs the pre-push hook that was here before (kept as {{chained_name}}), then reviews the
# pushed commits with "review-gate hook pre-push"; both get the same arguments and stdin bytes.
# Skip review-gate once: REVIEW_GATE=0 git push (git push --no-verify skips both hooks).
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
[ "${REVIEW_GATE:-}" = "0" ] && exit 0
{{fast_path}}
review_gate_read_lines <"$input"
review_gate_push "$@"
