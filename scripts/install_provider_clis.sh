#!/usr/bin/env bash
# Installs the pinned provider CLIs (Claude Code, Codex, Qwen Code, Gemini CLI, GitHub Copilot CLI,
# OpenCode)
# used by the contract tests (test/contract/) into a cache directory outside the repo and prints
# their bin paths.
#
# Pins: test/contract/versions.ts (keep both in sync; the version guard test fails otherwise).
# Facts: docs/providers.md "Loopback mock models".
#
# Usage: scripts/install_provider_clis.sh [--quiet]
#   env REVIEW_GATE_CLI_CACHE  cache root (default $HOME/.cache/review-gate-clis)
# Output (stdout), one line per CLI:  claude=<abs bin path>  codex=<…>  qwen=<…>  gemini=<…>  copilot=<…>
#   opencode=<…>
# Exit: 0 installed and `--version` ran; 1 install or verification failed.
set -euo pipefail

CLAUDE_VERSION="2.1.332"
CODEX_VERSION="0.171.0"
# the 0.15 line is the newest that runs on Node 20
QWEN_VERSION="0.15.10"
# engines node >=20
GEMINI_VERSION="0.61.0"
COPILOT_VERSION="1.0.102"
# its bin is a stub until its postinstall script copies the platform package's binary over it
OPENCODE_VERSION="1.18.33"
CACHE="${REVIEW_GATE_CLI_CACHE:-$HOME/.cache/review-gate-clis}"
mkdir -p "$CACHE"
CACHE="$(cd "$CACHE" && pwd)"
# copilot unpacks its ~235 MB runtime on first run into this package cache (never the repo or a
# throwaway HOME); the contract tests point the CLI at it too (test/contract/env.ts)
export COPILOT_PKG_CACHE_HOME="${COPILOT_PKG_CACHE_HOME:-$CACHE/copilot-pkg}"

log() { echo "install_provider_clis: $*" >&2; }

# run_skipped_postinstall <package dir> <bin path>: an npm that skips install scripts (npm 11
# asks for them to be allowed) leaves opencode-ai's bin a stub that exits 1; its postinstall copies
# the platform package's binary (an optional dependency npm did install) over it.
run_skipped_postinstall() {
  local pkgdir="$1" path="$2"
  if [[ -f "$pkgdir/postinstall.mjs" ]] && ! "$path" --version >/dev/null 2>&1; then
    log "$path is a stub (its install script did not run): running $pkgdir/postinstall.mjs"
    (cd "$pkgdir" && node postinstall.mjs) >&2
  fi
}

# install_one <package> <version> <bin name> -> prints the bin path
install_one() {
  local pkg="$1" ver="$2" bin="$3"
  local dir="$CACHE/${pkg//\//+}@$ver"
  local path="$dir/node_modules/.bin/$bin"
  if [[ -x "$path" && -f "$dir/.complete" ]]; then
    log "reusing $pkg@$ver in $dir"
  else
    log "installing $pkg@$ver into $dir"
    rm -rf "$dir"
    mkdir -p "$dir"
    local start=$SECONDS
    # Optional dependencies carry the native binaries, npm picks the one for this os and cpu
    # (codex: the @openai/codex-linux-x64 or -darwin-arm64 alias; claude: the matching
    # @anthropic-ai/claude-code-<os>-<cpu> + postinstall; opencode: opencode-<os>-<cpu> copied
    # into bin/ by its postinstall). Never --omit=optional. Run from / so that a spec cannot name
    # a folder of the working directory (npm takes "opencode-ai@1.18.33" there for a local path).
    (cd / && npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error \
      --include=optional "$pkg@$ver") >&2
    run_skipped_postinstall "$dir/node_modules/$pkg" "$path"
    log "installed $pkg@$ver in $((SECONDS - start)) s"
    touch "$dir/.complete"
  fi
  echo "$path"
}

# with_timeout <seconds> <command…>: runs the command, killed by SIGALRM after that many seconds
# (perl's alarm survives exec; GNU timeout is not on macOS).
with_timeout() {
  perl -e 'alarm shift; exec @ARGV or die "exec $ARGV[0]: $!\n"' "$@"
}

# verify <bin path> <expected version substring>: runs `--version` offline-safe.
verify() {
  local path="$1" ver="$2" out
  if ! out="$(DISABLE_AUTOUPDATER=1 HOME="$(mktemp -d)" with_timeout 30 "$path" --version 2>&1)"; then
    log "'$path --version' failed: $out"
    return 1
  fi
  if [[ "$out" != *"$ver"* ]]; then
    log "'$path --version' printed '$out', expected version '$ver'"
    return 1
  fi
  log "$path --version: $out"
}

claude_bin="$(install_one @anthropic-ai/claude-code "$CLAUDE_VERSION" claude)"
codex_bin="$(install_one @openai/codex "$CODEX_VERSION" codex)"
qwen_bin="$(install_one @qwen-code/qwen-code "$QWEN_VERSION" qwen)"
gemini_bin="$(install_one @google/gemini-cli "$GEMINI_VERSION" gemini)"
copilot_bin="$(install_one @github/copilot "$COPILOT_VERSION" copilot)"
opencode_bin="$(install_one opencode-ai "$OPENCODE_VERSION" opencode)"
verify "$claude_bin" "$CLAUDE_VERSION"
verify "$codex_bin" "$CODEX_VERSION"
verify "$qwen_bin" "$QWEN_VERSION"
verify "$gemini_bin" "$GEMINI_VERSION"
verify "$copilot_bin" "$COPILOT_VERSION"
verify "$opencode_bin" "$OPENCODE_VERSION"
echo "claude=$claude_bin"
echo "codex=$codex_bin"
echo "qwen=$qwen_bin"
echo "gemini=$gemini_bin"
echo "copilot=$copilot_bin"
echo "opencode=$opencode_bin"
