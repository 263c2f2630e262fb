[ "${REVIEW_GATE:-}" = "0" ] || {{command}} hook pre-push "$@" || exit $? # managed-by: review-gate
