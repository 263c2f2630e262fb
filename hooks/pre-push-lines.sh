# git's ref lines, read by every shape of the pre-push hook (the stub and the skip record of
# review-gate's line in a hook it does not own): shell builtins only. review_gate_skip_push needs
# hooks/skip-record.sh.
# Reads git's ref lines on stdin into $lines, as lines=$(cat) would (trailing newlines dropped),
# with shell builtins only.
review_gate_read_lines() {
  lines=
  while IFS= read -r line || [ -n "$line" ]; do
    lines="$lines$line
"
  done
  while :; do
    case $lines in
    *'
') lines=${lines%?} ;;
    *) break ;;
    esac
  done
}

# True when every ref line is a deletion: four fields, the local id all zeros and the remote id
# hex, each 40 or 64 digits long (a trailing CR is ignored, blank lines skipped). Shell builtins
# only: answering a deletion starts no program.
review_gate_deletes_only() {
  review_gate_cr=$(printf '\r') old_ifs=$IFS deletes=0
  set -f
  IFS='
'
  # shellcheck disable=SC2086 # split into lines on purpose
  set -- $lines
  IFS=$old_ifs
  for line in "$@"; do
    # shellcheck disable=SC2086 # split into fields on purpose, as git's ref lines are
    review_gate_deletion ${line%"$review_gate_cr"}
    case $? in 0) deletes=1 ;; 1) deletes=2 && break ;; esac
  done
  set +f
  [ "$deletes" = 1 ]
}

# The fields of one ref line: status 0 for a deletion, 2 for a blank line, 1 otherwise.
review_gate_deletion() {
  [ $# = 0 ] && return 2
  [ $# = 4 ] || return 1
  case ${#2}:$2 in 40:*[!0]* | 64:*[!0]*) return 1 ;; 40:?* | 64:?*) ;; *) return 1 ;; esac
  case ${#4}:$4 in 40:*[!0-9a-f]* | 64:*[!0-9a-f]*) return 1 ;; 40:?* | 64:?*) ;; *) return 1 ;; esac
}

# review_gate_skip_push <remote>: the skip record of a push whose ref lines are in $lines (git
# runs the hook in the worktree's root: its directory, and GIT_DIR when git set it, name the
# repository; `stats` resolves them), and one stderr line saying the push was NOT reviewed.
# shellcheck disable=SC2154 # review_gate_json is set by review_gate_json (hooks/skip-record.sh)
review_gate_skip_push() {
  rgp_members=
  rgp_dir=${PWD:-}
  [ -n "$rgp_dir" ] || rgp_dir=$(pwd -P)
  review_gate_json "$rgp_dir"
  rgp_members=",\"dir\":$review_gate_json"
  if [ -n "${GIT_DIR:-}" ]; then
    review_gate_json "$GIT_DIR"
    rgp_members="$rgp_members,\"gitDir\":$review_gate_json"
  fi
  for rgp_marker in CLAUDECODE CODEX_SANDBOX CODEX_SANDBOX_NETWORK_DISABLED REVIEW_GATE_CHILD; do
    eval "rgp_value=\${$rgp_marker:-}"
    if [ -n "$rgp_value" ]; then
      rgp_members="$rgp_members,\"agent\":\"$rgp_marker\""
      break
    fi
  done
  # a URL's user and password never go into the record
  rgp_remote=$1
  case $rgp_remote in
  *://*@*)
    rgp_scheme=${rgp_remote%%://*}
    rgp_rest=${rgp_remote#*://}
    rgp_auth=${rgp_rest%%/*}
    case $rgp_auth in *@*) rgp_remote="$rgp_scheme://${rgp_rest#"${rgp_auth%@*}@"}" ;; esac
    ;;
  esac
  review_gate_json "$rgp_remote"
  rgp_members="$rgp_members,\"remote\":$review_gate_json,\"refs\":["
  rgp_count=0
  rgp_nl='
'
  rgp_rest=$lines
  while [ -n "$rgp_rest" ]; do
    rgp_ref=${rgp_rest%%"$rgp_nl"*}
    rgp_rest=${rgp_rest#"$rgp_ref"}
    rgp_rest=${rgp_rest#"$rgp_nl"}
    [ -n "$rgp_ref" ] || continue
    rgp_count=$((rgp_count + 1))
    [ "$rgp_count" -le 20 ] || continue
    review_gate_json "$rgp_ref"
    [ "$rgp_count" = 1 ] || rgp_members="$rgp_members,"
    rgp_members="$rgp_members$review_gate_json"
  done
  rgp_members="$rgp_members]"
  [ "$rgp_count" -le 20 ] || rgp_members="$rgp_members,\"moreRefs\":$((rgp_count - 20))"
  # one line on stderr (printf only: the shell path stays fast), never silence on a skipped push
  if review_gate_skip pre-push "$rgp_members"; then
    printf 'review-gate: REVIEW_GATE is off: this push was NOT reviewed; the skip is recorded (review-gate stats)\n' >&2
  else
    printf 'review-gate: REVIEW_GATE is off: this push was NOT reviewed; the skip could not be recorded\n' >&2
  fi
}
