#!/bin/sh
set -eu

# Archive the directory given as $1 into backups/<name>-<date>.tar.gz.
src="$1"
name="$(basename "$src")"
mkdir -p backups
tar -czf "backups/$name-$(date +%Y%m%d).tar.gz" -C "$(dirname "$src")" "$name"
echo "archived $src"
