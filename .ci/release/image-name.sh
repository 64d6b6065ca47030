#!/usr/bin/env bash
# The container image's name: REGISTRY/OWNER/REPOSITORY in lower case (OCI names allow no capitals,
# GitHub's owner and repository names do). Writes image=NAME to $GITHUB_OUTPUT when that is set.
#   REGISTRY=... GITHUB_REPOSITORY=owner/name .ci/release/image-name.sh
# Exit 0 done, 2 usage error.
set -euo pipefail
if [ "$#" -ne 0 ] || [ -z "${REGISTRY:-}" ] || [ -z "${GITHUB_REPOSITORY:-}" ]; then
  echo 'image-name: usage: REGISTRY=HOST GITHUB_REPOSITORY=OWNER/NAME .ci/release/image-name.sh' >&2
  exit 2
fi
if ! [[ $GITHUB_REPOSITORY =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]]; then
  echo "image-name: GITHUB_REPOSITORY $GITHUB_REPOSITORY is not OWNER/NAME" >&2
  exit 2
fi
image=$(printf '%s/%s' "$REGISTRY" "$GITHUB_REPOSITORY" | tr '[:upper:]' '[:lower:]')
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "image=$image" >>"$GITHUB_OUTPUT"
fi
echo "$image"
