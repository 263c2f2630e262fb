#!/bin/sh
set -eu

# Deploy the build in ./dist to the host named by DEPLOY_HOST.
# DRY_RUN=1 only says what would be synced.
if [ -z "${DEPLOY_HOST:-}" ]; then
  echo "DEPLOY_HOST is not set" >&2
  exit 1
fi

if [ "${DRY_RUN:-0}" != "1" ]; then
  echo "would sync dist/ to $DEPLOY_HOST:/srv/app/"
  exit 0
fi

rsync -a --delete dist/ "$DEPLOY_HOST:/srv/app/"
echo "deployed to $DEPLOY_HOST"
