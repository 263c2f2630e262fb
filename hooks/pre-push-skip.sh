#!/bin/sh
# The skip record of a push that REVIEW_GATE=0 let through review-gate's line in a hook file it
# does not own (husky's .husky/pre-push; lib/install/git/stub.ts renderHookLine), as the stub
# leaves it (hooks/skip-record.sh, README "Skips"): sh pre-push-skip.sh <remote> <url>, git's ref
# lines on stdin. Always exits 0: the push goes ahead, recorded or not.
case $0 in
*/*) review_gate_here=${0%/*} ;;
*) review_gate_here=. ;;
esac
# shellcheck source=/dev/null # hooks/pre-push-lines.sh, beside this script
. "$review_gate_here/pre-push-lines.sh"
# shellcheck source=/dev/null # hooks/skip-record.sh, beside this script
. "$review_gate_here/skip-record.sh"
review_gate_read_lines
review_gate_deletes_only || review_gate_skip_push "${1:-}"
exit 0
