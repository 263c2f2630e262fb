#!/bin/sh
set -eu

# Remove the build cache under $CACHE_DIR (default ./.cache).
dir="${CACHE_DIR:-./.cache}"
if [ ! -d "$dir" ]; then
  echo "no cache at $dir" >&2
  exit 0
fi
case "$dir" in
  /|"$HOME") echo "refusing to clear $dir" >&2; exit 1 ;;
esac
rm -rf "$dir"/*
echo "cleared $dir"
