# shellcheck shell=bash
# Sourced by make-base-images.sh, smoke.sh and multiarch.sh: rootful podman from Debian, configured for
# CI machines that have neither a Docker engine nor a reachable container registry (only Debian's
# mirror and the npm registry). Sets CONTAINERS_CONF; call podman_env_cleanup when done.

if [ "$(id -u)" != 0 ]; then
  echo 'container smoke: needs root (rootful podman builds and runs the image)' >&2
  exit 2
fi

if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v mmdebstrap >/dev/null; then
  echo '--- installing podman, runc, mmdebstrap from Debian'
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc mmdebstrap >/dev/null
fi

# Container rlimits may not exceed the host's hard limits; nproc above 32768 is refused as well.
podman_nofile=$(ulimit -Hn)
podman_nproc=$(ulimit -Hu)
if [ "$podman_nproc" = unlimited ] || [ "$podman_nproc" -gt 32768 ]; then podman_nproc=32768; fi
if [ -z "${CONTAINERS_CONF:-}" ]; then
  CONTAINERS_CONF=$(mktemp --suffix=.containers.conf)
  podman_env_own_conf=1
  sed -e "s/@NOFILE@/$podman_nofile/g" -e "s/@NPROC@/$podman_nproc/g" \
    "$(dirname "${BASH_SOURCE[0]}")/containers.conf.in" >"$CONTAINERS_CONF"
fi
export CONTAINERS_CONF

podman_env_cleanup() {
  if [ "${podman_env_own_conf:-}" = 1 ]; then rm -f "$CONTAINERS_CONF"; fi
}
