#!/usr/bin/env bash
# A release tag must be exactly "v" + package.json's version: the npm package, the image tags and the
# action's major tag all come from it. Writes version=X.Y.Z to $GITHUB_OUTPUT when that is set.
#   TAG=v0.1.0 .ci/release/check-tag.sh      (the workflow passes github.ref_name)
# Exit 0 equal, 1 different, 2 usage error (no TAG, or not a vMAJOR.MINOR.PATCH[-PRERELEASE] tag).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$#" -ne 0 ] || [ -z "${TAG:-}" ]; then
  echo 'check-tag: usage: TAG=vX.Y.Z .ci/release/check-tag.sh' >&2
  exit 2
fi
if ! [[ $TAG =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "check-tag: $TAG is not a release tag (vMAJOR.MINOR.PATCH or vMAJOR.MINOR.PATCH-PRERELEASE)" >&2
  exit 2
fi
version=$(node -p 'require("./package.json").version')
if [ "$TAG" != "v$version" ]; then
  echo "check-tag: tag $TAG is not package.json's version $version: tag v$version, or bump the version and tag again" >&2
  exit 1
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "version=$version" >>"$GITHUB_OUTPUT"
fi
echo "check-tag: $TAG is package.json's version"
