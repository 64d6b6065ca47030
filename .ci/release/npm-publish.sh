#!/usr/bin/env bash
# Publishes the package with provenance from the checkout (npm runs its prepack script, which builds
# dist/). Refuses before publishing what the registry would reject or regret: no prepack script (a
# package without dist/), or a repository.url that is not this GitHub repository (provenance names
# it, and the registry compares the two). A prerelease version goes to the "next" dist-tag, not
# "latest". The token goes into a throwaway npm user config for the registry npm is configured with.
#   NODE_AUTH_TOKEN=... GITHUB_REPOSITORY=owner/name .ci/release/npm-publish.sh
# Exit 0 published, 1 refused or npm failed, 2 usage error.
set -euo pipefail
if [ "$#" -ne 0 ] || [ -z "${NODE_AUTH_TOKEN:-}" ] || [ -z "${GITHUB_REPOSITORY:-}" ]; then
  echo 'npm-publish: usage: NODE_AUTH_TOKEN=TOKEN GITHUB_REPOSITORY=OWNER/NAME .ci/release/npm-publish.sh (in the package directory)' >&2
  exit 2
fi
# One line of "version prepack repository-url" from package.json.
read -r version prepack url < <(node -e '
  const p = require(require("node:path").resolve("package.json"));
  const url = typeof p.repository === "string" ? p.repository : (p.repository?.url ?? "");
  console.log(p.version, p.scripts?.prepack ? "yes" : "no", url || "-");
')
if [ "$prepack" != yes ]; then
  echo 'npm-publish: package.json has no prepack script: the package would be published without its build' >&2
  exit 1
fi
# git+https://github.com/OWNER/NAME.git, https://github.com/OWNER/NAME, github:OWNER/NAME ...
named=$(printf '%s' "$url" | sed -E 's#^(git\+)?(https?://|ssh://git@|git@)?github\.com[:/]##; s#^github:##; s#\.git$##')
if [ "${named,,}" != "${GITHUB_REPOSITORY,,}" ]; then
  echo "npm-publish: package.json's repository.url ($url) must name $GITHUB_REPOSITORY for a provenance statement the registry accepts" >&2
  exit 1
fi
registry=$(npm config get registry)
userconfig=$(mktemp)
trap 'rm -f "$userconfig"' EXIT
# The token stays in the environment: the config names the variable, npm expands it.
# shellcheck disable=SC2016
printf 'registry=%s\n//%s:_authToken=${NODE_AUTH_TOKEN}\n' "$registry" "$(printf '%s' "$registry" | sed -E 's#^[a-z]+://##; s#/*$#/#')" >"$userconfig"
tag=()
if [[ $version == *-* ]]; then tag=(--tag next); fi
NPM_CONFIG_USERCONFIG=$userconfig npm publish --provenance --access public "${tag[@]}"
