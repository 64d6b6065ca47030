#!/usr/bin/env bash
# Installs one implementation of the registry for its matrix job: interop/install.sh NAME. What
# cannot be installed is said (install.sh's last lines) and is no failure here: the matrix lists
# its rows as not installed, with the lines that install them. An unknown name is (exit 2).
#
#   .ci/matrix/install.sh NAME
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ "$#" -ne 1 ]; then
  echo "usage: .ci/matrix/install.sh NAME" >&2
  exit 2
fi
interop/install.sh "$1"
status=$?
if [ "$status" -eq 1 ]; then
  echo "matrix-install: $1 is not installed: the matrix lists its rows as not installed"
  exit 0
fi
exit "$status"
