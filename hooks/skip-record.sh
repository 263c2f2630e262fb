# Skip records (README "Skips"): a hook that a switch lets through without a review appends one
# JSON line to skips.jsonl in the per-user state folder ($XDG_STATE_HOME/review-gate, else
# ~/.local/state/review-gate), which `review-gate stats` counts. One printf onto a file opened
# O_APPEND (a line of a few hundred bytes: one write), shell builtins only but for one `date`
# (and `mkdir` the first time). A record is an audit aid, never an input of a decision; a record
# that cannot be written is said on stderr and never stops the hook.

# Sets review_gate_json to $1 as a JSON string: quote, backslash and control characters escaped
# (builtins; each control character costs one subshell, as printf gives its code).
review_gate_json() {
  rgj_rest=$1
  rgj_out=
  while :; do
    case $rgj_rest in
    *[\"\\[:cntrl:]]*) ;;
    *) break ;;
    esac
    rgj_head=${rgj_rest%%[\"\\[:cntrl:]]*}
    rgj_rest=${rgj_rest#"$rgj_head"}
    rgj_char=${rgj_rest%"${rgj_rest#?}"}
    rgj_rest=${rgj_rest#?}
    case $rgj_char in
    \" | \\) rgj_out=$rgj_out$rgj_head\\$rgj_char ;;
    *) rgj_out=$rgj_out$rgj_head$(printf '\\u%04x' "'$rgj_char") ;;
    esac
  done
  review_gate_json="\"$rgj_out$rgj_rest\""
}

# True when REVIEW_GATE is the user's skip switch: 0, false, off or no, in any case, spaces around
# ignored (as lib/gates/hook_io.ts reads it).
review_gate_switched_off() {
  rgo=${REVIEW_GATE:-}
  rgo=${rgo#"${rgo%%[![:space:]]*}"}
  rgo=${rgo%"${rgo##*[![:space:]]}"}
  case $rgo in
  0 | [Ff][Aa][Ll][Ss][Ee] | [Oo][Ff][Ff] | [Nn][Oo]) return 0 ;;
  esac
  return 1
}

# review_gate_skip <gate> <members>: appends {"at":…,"gate":…,"reason":"env","value":…,<members>,
# "user":…,"via":"hook"} — <members> are JSON members, each with its comma before it. Returns 0
# when the line was written, 1 when it was not (no state folder, or it cannot be written).
review_gate_skip() {
  rgs_dir=${XDG_STATE_HOME:-}
  if [ -z "$rgs_dir" ]; then
    if [ -z "${HOME:-}" ]; then
      printf 'review-gate: could not record this skip: neither XDG_STATE_HOME nor HOME is set\n' >&2
      return 1
    fi
    rgs_dir=$HOME/.local/state
  fi
  rgs_dir=$rgs_dir/review-gate
  rgs_at=$(date -u +%Y-%m-%dT%H:%M:%SZ 2>/dev/null) || rgs_at=
  case $rgs_at in
  [0-9][0-9][0-9][0-9]-*Z) rgs_at="\"$rgs_at\"" ;;
  *) rgs_at=null ;;
  esac
  review_gate_json "${REVIEW_GATE:-}"
  rgs_line="{\"at\":$rgs_at,\"gate\":\"$1\",\"reason\":\"env\",\"value\":$review_gate_json$2"
  review_gate_json "${USER:-${LOGNAME:-}}"
  rgs_line="$rgs_line,\"user\":$review_gate_json,\"via\":\"hook\"}"
  umask 077
  if { [ -d "$rgs_dir" ] || mkdir -p "$rgs_dir"; } 2>/dev/null &&
    { printf '%s\n' "$rgs_line" >>"$rgs_dir/skips.jsonl"; } 2>/dev/null; then
    return 0
  fi
  printf 'review-gate: could not record this skip in %s\n' "$rgs_dir/skips.jsonl" >&2
  return 1
}
