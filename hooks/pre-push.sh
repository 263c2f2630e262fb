#!/bin/sh
# managed-by: review-gate
# Reviews the pushed commits with "review-gate hook pre-push" before every push.
# Skip once: REVIEW_GATE=0 git push (recorded as a skip: review-gate stats), or
# git push --no-verify (git runs no hook: nothing is recorded).
# Remove with "review-gate uninstall --git".
{{fast_path}}
review_gate_read_lines
if review_gate_switched_off; then
  review_gate_deletes_only || review_gate_skip_push "${1:-}"
  exit 0
fi
review_gate_push "$@"
