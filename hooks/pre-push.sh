#!/bin/sh
# managed-by: review-gate
# Reviews the pushed commits with "review-gate hook pre-push" before every push.
# Skip once: git push --no-verify, or REVIEW_GATE=0 git push.
# Remove with "review-gate uninstall --git".
[ "${REVIEW_GATE:-}" = "0" ] && exit 0
{{fast_path}}
review_gate_read_lines
review_gate_push "$@"
