#!/usr/bin/env bash
# Moves the action's major tag (v0 for v0.1.0) to the released commit and force-pushes it, so that
# `uses: wsgate/wsgate@v0` gets the newest v0.x.y. Only for the newest stable release of that major:
# a prerelease (v1.0.0-rc.1), or a patch to an older line (v0.1.1 after v0.2.0), leaves it alone.
#   TAG=v0.1.0 REVISION=<commit> [REMOTE=origin] .ci/release/move-major-tag.sh
# Run in a clone whose REMOTE accepts the push (actions/checkout leaves the job's token configured).
# Exit 0 moved or left alone, 1 git failed, 2 usage error.
set -euo pipefail
if [ "$#" -ne 0 ] || [ -z "${TAG:-}" ] || [ -z "${REVISION:-}" ]; then
  echo 'move-major-tag: usage: TAG=vX.Y.Z REVISION=COMMIT [REMOTE=origin] .ci/release/move-major-tag.sh' >&2
  exit 2
fi
remote=${REMOTE:-origin}
if ! [[ $TAG =~ ^v([0-9]+)\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "move-major-tag: $TAG is not a release tag (vMAJOR.MINOR.PATCH[-PRERELEASE])" >&2
  exit 2
fi
major=v${BASH_REMATCH[1]}
if [ -n "${BASH_REMATCH[2]}" ]; then
  echo "move-major-tag: $TAG is a prerelease: $major stays where it is"
  exit 0
fi
commit=$(git rev-parse --verify --quiet "$REVISION^{commit}") || {
  echo "move-major-tag: $REVISION is not a commit of this clone" >&2
  exit 1
}
# The newest stable vMAJOR.x.y on the remote (the tag being released is pushed already).
newest=$(git ls-remote --tags --refs "$remote" | sed -n 's#^[0-9a-f]*[[:space:]]*refs/tags/##p' |
  grep -E "^$major\.[0-9]+\.[0-9]+$" | sort -V | tail -n 1 || true)
if [ -n "$newest" ] && [ "$newest" != "$TAG" ]; then
  echo "move-major-tag: $newest is newer than $TAG: $major stays where it is"
  exit 0
fi
git tag -f "$major" "$commit" >/dev/null
git push --force "$remote" "refs/tags/$major:refs/tags/$major"
echo "move-major-tag: $major -> $commit ($TAG)"
