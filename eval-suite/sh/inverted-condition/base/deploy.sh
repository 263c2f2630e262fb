#!/bin/sh
set -eu

# Deploy the build in ./dist to the host named by DEPLOY_HOST.
if [ -z "${DEPLOY_HOST:-}" ]; then
  echo "DEPLOY_HOST is not set" >&2
  exit 1
fi

rsync -a --delete dist/ "$DEPLOY_HOST:/srv/app/"
echo "deployed to $DEPLOY_HOST"
