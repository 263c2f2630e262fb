#!/bin/sh
set -eu

# Show what the build directory holds.
: "${BUILD_DIR:?BUILD_DIR is not set}"
ls -la "$BUILD_DIR"
