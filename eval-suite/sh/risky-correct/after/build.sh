#!/bin/sh
set -eu

# Show what the build directory holds; with --clean, empty it first.
: "${BUILD_DIR:?BUILD_DIR is not set}"
if [ "${1:-}" = "--clean" ]; then
  case "$BUILD_DIR" in
    "" | / | "$HOME") echo "refusing to clean $BUILD_DIR" >&2; exit 1 ;;
  esac
  rm -rf -- "${BUILD_DIR:?}"/*
fi
ls -la "$BUILD_DIR"
