#!/bin/sh
# managed-by: review-gate
# The turn gate's Stop hook, in front of review-gate: sh turn-stop.sh <review-gate command> hook <name>
# It answers "allow" itself, without starting review-gate, only when this turn changed nothing: the
# stamp the turn's start left beside the session's anchor (tagged with the user's key, which this
# script reads: a stamp whose tag it cannot recompute is not trusted) names the repository, the
# bytes of its index, the worktree as a tree, the ignored untracked entries (a turn can hide files
# behind a .gitignore it writes), every ref (a turn can commit and then restore the worktree)
# and the contents of the files that control the gate; the worktree is recorded again exactly as
# review-gate records it (git add -A into a copy of the index), the ignored entries and the refs
# listed again as it lists them, and every one of them must match. Anything else
# (no stamp, a difference, a word from git, an id it cannot read plainly) runs review-gate with the
# same input, which decides as always. A Stop the user's switch skips (REVIEW_GATE=0, false, off
# or no) leaves its skip record (hooks/skip-record.sh, README "Skips") and allows by itself.
payload=$(cat)
sid=
cwd=

# One line each, or nothing: the payload's session_id (a plain token) and cwd (no escapes).
fields() {
  printf '%s\n' "$payload" | awk '
    { s = s $0 "\n" }
    function one(key,   rest, n, v, p) {
      rest = s; n = 0
      while (match(rest, "\"" key "\"[ \t\r\n]*:[ \t\r\n]*\"")) {
        rest = substr(rest, RSTART + RLENGTH); n++
        p = index(rest, "\""); if (p == 0) return ""
        v = substr(rest, 1, p - 1)
      }
      return n == 1 ? v : ""
    }
    END {
      sid = one("session_id"); cwd = one("cwd")
      if (sid !~ /^[A-Za-z0-9_-]+$/ || length(sid) > 128) exit 1
      if (cwd !~ /^\// || index(cwd, "\\") > 0) exit 1
      print sid; print cwd
    }'
}

# Exit status 0 when the stamp proves the turn changed nothing.
unchanged() {
  [ "${REVIEW_GATE_CHILD:-}" = "1" ] && return 1
  [ -n "${GIT_DIR:-}${GIT_WORK_TREE:-}${GIT_INDEX_FILE:-}${GIT_COMMON_DIR:-}" ] && return 1
  [ -n "${GIT_OBJECT_DIRECTORY:-}${GIT_ALTERNATE_OBJECT_DIRECTORIES:-}" ] && return 1
  got=$(fields) || return 1
  sid=${got%%
*}
  cwd=${got#*
}
  base=${XDG_STATE_HOME:-}
  if [ -z "$base" ]; then
    [ -n "${HOME:-}" ] || return 1
    base=$HOME/.local/state
  fi
  stamp=$base/review-gate/anchors/$sid.stop
  key=$base/review-gate/key
  [ -f "$stamp" ] && [ -f "$key" ] && [ -r "$key" ] || return 1
  secret=
  read -r secret <"$key"
  case ${#secret}:$secret in 64:*[!0-9a-f]*) return 1 ;; 64:*) ;; *) return 1 ;; esac
  # What the stamp's tag covers (the key, the header, the session id, every line after the tag),
  # copied once into the private folder of the key: the lines checked are read from that copy, and
  # gitfast's one hash-object call hashes it.
  tagged=$base/review-gate/anchors/.$sid.$$.tag
  copy=
  {
    read -r header && [ "$header" = "review-gate stop stamp 4" ] && read -r tag &&
      printf '%s\n%s\n%s\n' "$secret" "$header" "$sid" && copy_lines
  } <"$stamp" >"$tagged" &&
    {
      read -r _ && read -r _ && read -r _ && read -r root && read -r gitdir && read -r session &&
        read -r index && read -r tree && read -r ignored && read -r refs && guarded "$cwd"
    } <"$tagged"
  ok=$?
  rm -f "$tagged" ${copy:+"$copy" "$copy.lock" "$copy.ignored" "$copy.refs"}
  return "$ok"
}

# Copies stdin to stdout line by line (builtins; a last line without its newline gets one).
copy_lines() {
  while IFS= read -r line || [ -n "$line" ]; do
    printf '%s\n' "$line"
  done
}

# Reads the stamp's guarded files ("<blob id> <path>", "-" for a file recorded absent) from stdin,
# then checks the cwd, the session, and hands the rest to gitfast.
guarded() {
  paths=
  expect=
  while read -r id path; do
    if [ "$id" = "-" ]; then
      { [ -e "$path" ] || [ -L "$path" ]; } && return 1
    else
      [ -f "$path" ] || return 1 # only regular files are read (never a /dev/zero link)
      paths="$paths
$path"
      expect="$expect
$id"
    fi
  done
  [ -f "$session" ] || return 1
  # The agent's cwd must be the anchored checkout (or below it, in no other repository).
  if [ "$1" != "$root" ]; then
    case $1 in "$root"/*) ;; *) return 1 ;; esac
    dir=$1
    while [ "$dir" != "$root" ]; do
      [ -e "$dir/.git" ] && return 1
      dir=${dir%/*}
    done
  fi
  [ -f "$gitdir/index" ] || return 1
  copy=$(mktemp) || return 1
  cp -p "$gitdir/index" "$copy" 2>/dev/null || return 1
  gitfast "$copy$paths" "$index$expect"
}

# git as review-gate runs it (lib/git/git.ts): no pager, hardened config, hooks off.
g() {
  LC_ALL=C GIT_OPTIONAL_LOCKS=0 GIT_TERMINAL_PROMPT=0 GIT_PAGER=cat GIT_CONFIG_PARAMETERS='' \
    GIT_CONFIG_COUNT=0 git --no-pager \
    -c core.quotepath=off -c color.ui=false -c core.fsmonitor=false -c diff.external= \
    -c log.showSignature=false -c core.askPass= -c gc.auto=0 -c maintenance.auto=false \
    -c submodule.recurse=false -c protocol.ext.allow=never -c core.checkStat=default \
    -c core.trustctime=true -c core.bigFileThreshold=512m -c core.hooksPath=/dev/null \
    -C "$root" "$@"
}

# The index copy, the guarded files ($1: paths, one a line), the ignored entries (listed as
# lib/gates/turn/ignored.ts lists them) and the refs (as lib/gates/turn/refs.ts lists them; exit 1:
# no ref at all) hash ($2: ids) to what was recorded, the tagged text hashes to the stamp's tag,
# and the worktree is the same tree.
gitfast() {
  g ls-files -z --others --ignored --exclude-standard --directory >"$copy.ignored" 2>/dev/null ||
    return 1
  g show-ref --head >"$copy.refs" 2>/dev/null
  [ $? -le 1 ] || return 1
  ids=$(printf '%s\n' "$1" "$copy.ignored" "$copy.refs" "$tagged" |
    g hash-object --no-filters --stdin-paths 2>/dev/null) || return 1
  [ "$ids" = "$2
$ignored
$refs
$tag" ] || return 1
  err=$(GIT_INDEX_FILE=$copy g -c advice.addEmbeddedRepo=false add -A --ignore-errors 2>&1) ||
    return 1
  [ -z "$err" ] || return 1
  now=$(GIT_INDEX_FILE=$copy g write-tree 2>/dev/null) || return 1
  [ "$now" = "$tree" ]
}

# skipped <changed: false or null> <review-gate command…>: when the user's switch is on, leave the
# Stop's skip record (its gate is the word after "hook"; whether the turn changed anything: false
# when the stamp proved it did not, else unknown) and succeed. Under REVIEW_GATE_CHILD=1 it leaves
# the Stop to review-gate, which records it as a child skip and returns at once. The switch is read
# here, as hooks/skip-record.sh reads it, before that file is sourced: its code runs only when the
# gate is off anyway.
skipped() {
  [ "${REVIEW_GATE_CHILD:-}" != "1" ] || return 1
  value=${REVIEW_GATE:-}
  value=${value#"${value%%[![:space:]]*}"}
  value=${value%"${value##*[![:space:]]}"}
  case $value in
  0 | [Ff][Aa][Ll][Ss][Ee] | [Oo][Ff][Ff] | [Nn][Oo]) ;;
  *) return 1 ;;
  esac
  case $0 in
  */*) here=${0%/*} ;;
  *) here=. ;;
  esac
  [ -f "$here/skip-record.sh" ] && [ -r "$here/skip-record.sh" ] || return 1
  # shellcheck source=/dev/null # hooks/skip-record.sh, beside this script
  . "$here/skip-record.sh"
  changed=$1
  shift
  gate=
  prev=
  for word in "$@"; do
    [ "$prev" = hook ] && gate=$word
    prev=$word
  done
  case $gate in claude-stop | codex-stop) ;; *) return 1 ;; esac
  if [ -z "$sid" ]; then
    got=$(fields) || return 1
    sid=${got%%
*}
    cwd=${got#*
}
  fi
  review_gate_skip_stop "$gate" "$sid" "$cwd" "$changed"
}

# review_gate_skip_stop <gate> <session id> <cwd> <changed: true, false or null>: the skip record
# of a Stop.
# shellcheck disable=SC2154 # review_gate_json is set by review_gate_json (hooks/skip-record.sh)
review_gate_skip_stop() {
  review_gate_json "$3"
  rgt_members=",\"dir\":$review_gate_json"
  review_gate_json "$2"
  # a record that could not be written is said by review_gate_skip; the Stop still succeeds
  review_gate_skip "$1" "$rgt_members,\"session\":$review_gate_json,\"changed\":$4" || :
}

# A Stop answered here ends the turn as one review-gate answered does: the stamp it allowed on is
# copied to <session>.stopped (text and tag unchanged; by builtins, no process), which a push reads to know the turn is no
# longer open (lib/store/stop_stamps.ts); the next prompt removes both. The stamp stays: a later
# Stop of the same turn that still changed nothing is answered here again.
if unchanged; then
  copy_lines <"$stamp" >"${stamp%.stop}.stopped" 2>/dev/null
  skipped false "$@"
  exit 0
fi
skipped null "$@" && exit 0
printf '%s\n' "$payload" | "$@"
