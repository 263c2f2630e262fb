#!/bin/sh
set -eu

# Archive the directory given as $1 into backups/<name>-<date>.tar.gz, leaving out what matches $2.
src="$1"
exclude="${2:-}"
name="$(basename "$src")"
mkdir -p backups
cmd="tar -czf backups/$name-$(date +%Y%m%d).tar.gz -C $(dirname "$src")"
if [ -n "$exclude" ]; then
  cmd="$cmd --exclude=$exclude"
fi
eval "$cmd $name"
echo "archived $src"
