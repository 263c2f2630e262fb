# What this hook answers before starting review-gate (it reads git's ref lines into $lines):
# - a push that only deletes refs goes ahead (review-gate reviews no deletion);
# - a push whose every input is byte for byte what it was when review-gate last let it through on
#   cached verdicts alone replays that answer: the ref lines, the remote, the remote-tracking and
#   replace refs, every git config entry git reads (each file of every scope, system ones such as
#   Apple's or Homebrew's included, and the files they include, as `git config --list
#   --show-origin` names them), the attributes, grafts and shallow files, review-gate's config and
#   acks files, the REVIEW_GATE_* and GIT_* variables (hashed by git, with the user's key, into the
#   stamp's name; the files' blob ids are its second line), until the earliest acknowledgement
#   expires, and the stamp's tag (its first line: git's hash of the key, its name and the rest)
#   checks out. No key file, a key that is not 64 hex digits, a tool that is missing or fails
#   (awk, git, date), or anything else runs review-gate: a failure never replays.
# The ref lines' helpers are hooks/pre-push-lines.sh, rendered before this file.

# review_gate <stamp path or ""> <git's arguments…>
review_gate() {
  stamp_to=$1
  shift
  printf '%s\n' "$lines" | REVIEW_GATE_PUSH_STAMP="$stamp_to" {{command}} hook pre-push "$@"
}

# Prints the REVIEW_GATE_*, GIT_*, HOME and XDG_CONFIG_HOME variables, then a last line "end";
# fails when awk is missing, fails or stops short (the environment is then unknown).
review_gate_scan() {
  awk 'BEGIN {
    for (k in ENVIRON) if (k ~ /^(REVIEW_GATE|GIT_)/ || k == "HOME" || k == "XDG_CONFIG_HOME")
      print length(k) ":" k "=" length(ENVIRON[k]) ":" ENVIRON[k]
    print "end"
  }' </dev/null
}

# git as review-gate runs it (lib/git/git.ts): no pager, hardened config, hooks off.
review_gate_git() {
  LC_ALL=C GIT_OPTIONAL_LOCKS=0 GIT_TERMINAL_PROMPT=0 GIT_PAGER=cat GIT_CONFIG_PARAMETERS='' \
    GIT_CONFIG_COUNT=0 git --no-pager \
    -c core.quotepath=off -c color.ui=false -c core.fsmonitor=false -c diff.external= \
    -c log.showSignature=false -c core.askPass= -c gc.auto=0 -c maintenance.auto=false \
    -c submodule.recurse=false -c protocol.ext.allow=never -c core.checkStat=default \
    -c core.trustctime=true -c core.bigFileThreshold=512m -c core.hooksPath=/dev/null "$@"
}

# Sets secret (the user's key, 64 hex digits), or fails: a stamp is then neither read nor written.
review_gate_secret() {
  secret=
  state=${XDG_STATE_HOME:-}
  [ -n "$state" ] || state=${HOME:-/nonexistent}/.local/state
  [ -f "$state/review-gate/key" ] && [ -r "$state/review-gate/key" ] || return 1
  read -r secret <"$state/review-gate/key"
  case ${#secret}:$secret in 64:*[!0-9a-f]*) return 1 ;; 64:*) ;; *) return 1 ;; esac
}

# Prints the tag of $1 (git's blob id of the key, a newline, $1 and a newline).
review_gate_tag() {
  printf '%s\n%s\n' "$secret" "$1" | review_gate_git hash-object --no-filters --stdin
}

# Sets key (the stamp's name), ids (the files' blob ids) and stamp; fails when it cannot.
review_gate_key() {
  [ -z "${GIT_DIR:-}" ] && [ -d .git ] && [ ! -f .git/commondir ] || return 1
  review_gate_secret || return 1
  root=$(pwd -P) && common=$root/.git && [ -d "$common/review-gate/cache" ] || return 1
  refs=$(review_gate_git for-each-ref --format='%(objectname) %(refname)' refs/remotes \
    refs/replace) || return 1
  # every entry of every config file git reads, named by its file (includes followed)
  config=$(review_gate_git config --list --show-origin) || return 1
  cfg=${XDG_CONFIG_HOME:-}
  [ -n "$cfg" ] || cfg=${HOME:-/nonexistent}/.config
  text="$secret
review-gate push key 3
$1
$2
$lines
$refs
$3
$config"
  remote=$1 url=$2
  set --
  for file in "$common/info/grafts" "$common/info/attributes" "$common/shallow" \
    "$root/.review-gate.json" "$root/.review-gate/acks.json" "$cfg/review-gate/config.json" \
    "$cfg/git/attributes"; do
    if [ -f "$file" ]; then
      set -- "$@" "$file"
      text="$text
+$file"
    elif [ -e "$file" ] || [ -L "$file" ]; then
      return 1 # not a regular file: review-gate says what is wrong with it
    else
      text="$text
-$file"
    fi
  done
  all=$(printf '%s' "$text" | review_gate_git hash-object --no-filters --stdin -- "$@") ||
    return 1
  set -f
  # shellcheck disable=SC2086 # the ids are hex words, one a line
  set -- $all
  set +f
  key=$1
  shift
  ids="$*"
  stamp=$common/review-gate/cache/push/$key
  set -- "$remote" "$url"
}

# Copies stdin to stdout line by line (builtins; a last line without its newline gets one).
review_gate_copy() {
  while IFS= read -r copied || [ -n "$copied" ]; do
    printf '%s\n' "$copied"
  done
}

# Prints the stamp's answer on stderr when it holds and its tag checks out.
review_gate_replay() {
  [ -f "$stamp" ] || return 1
  { read -r mac && read -r got && rest=$(review_gate_copy); } <"$stamp" || return 1
  [ "$got" = "$ids" ] || return 1
  nl='
'
  case $rest in *"$nl"*"$nl"*) ;; *) return 1 ;; esac
  header=${rest%%"$nl"*}
  body=${rest#*"$nl"}
  until=${body%%"$nl"*}
  body=${body#*"$nl"}
  [ "$header" = "review-gate push stamp 2" ] || return 1
  case $until in
  -) ;;
  '' | *[!0-9]*) return 1 ;;
  *) [ "$(date +%s)" -lt "$until" ] || return 1 ;;
  esac
  sum=$(review_gate_tag "review-gate push replay 2
$key
$ids
$rest") && [ "$sum" = "$mac" ] || return 1
  printf '%s\n' "$body" >&2
}

# Seals the pending stamp review-gate wrote ($1) when its tag checks out: prints the stamp.
review_gate_seal() {
  { read -r inner && rest=$(review_gate_copy); } <"$1" || return 1
  sum=$(review_gate_tag "review-gate push pending 2
$key
$lines
$rest") && [ "$sum" = "$inner" ] || return 1
  sum=$(review_gate_tag "review-gate push replay 2
$key
$ids
$rest") || return 1
  printf '%s\n%s\n%s\n' "$sum" "$ids" "$rest"
}

review_gate_push() {
  review_gate_deletes_only && exit 0
  nl='
'
  scan=$(review_gate_scan) || scan=
  case $nl$scan in *"${nl}end") ;; *) scan= ;; esac
  if [ -z "$scan" ] || ! review_gate_key "$1" "$2" "$scan"; then
    review_gate "" "$1" "$2"
    exit $?
  fi
  review_gate_replay && exit 0
  pending=$stamp.pending.$$
  review_gate "$pending" "$1" "$2"
  code=$?
  if [ "$code" = 0 ] && [ -f "$pending" ]; then
    first=$key:$ids
    if review_gate_key "$1" "$2" "$scan" && [ "$key:$ids" = "$first" ]; then
      review_gate_seal "$pending" >"$pending.new" && mv -f "$pending.new" "$stamp"
    fi
  fi
  rm -f "$pending" "$pending.new"
  exit "$code"
}
