#!/bin/sh
# The image's entrypoint, behind tini (Dockerfile): two doors into one image.
#
#   wsgate's own command line   run, serve, judge, merge, list, repro, matrix, --version, --help, -h, any first
#                               argument starting with "-", or "wsgate ..." : wsgate's CLI, as the
#                               owner of /reports (the user node, uid 1000, if root owns it) when the
#                               container runs as root (the image's default), as the container's user
#                               otherwise (-u UID:GID).
#   anything else               wstest ..., sh -c ..., bash -c ..., any program: run as given, as the
#                               container's user. That is root by default, as in
#                               crossbario/autobahn-testsuite, whose scripts write reports into bind-
#                               mounted directories that belong to the CI runner's user.
#
# exec throughout: the program is tini's child, so tini -g's signals reach it and its exit status is
# the container's.
set -eu

wsgate() {
  # The same settings as the wsgate executable's shebang (src/cli.ts): a 4 MiB V8 semi-space and fixed
  # glibc malloc settings for wsgate's process only (clients it starts do not get them:
  # src/util/launch-env.ts).
  export WSGATE_MALLOC_TUNING=1 MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072
  set -- node --max-semi-space-size=4 /opt/wsgate/dist/src/cli.js "$@"
  if [ "$(id -u)" = 0 ]; then
    # Root gives up root for wsgate's commands, to the owner of /reports: a directory bind-mounted
    # there keeps its owner on the host, a CI runner's workspace (uid 1001, mode 755) included, so the
    # reports are written as, and belong to, that user. The image's own /reports (no mount) belongs to
    # node (uid 1000); a directory the engine made for the mount belongs to root, and root is not kept:
    # node then. setpriv (util-linux, in Debian's essential set) takes numeric ids, no passwd entry
    # needed; the kernel clears the permitted and effective capabilities as the uids leave 0, and
    # --inh-caps the inheritable ones. A container started without CAP_SETUID/CAP_SETGID
    # (--cap-drop=ALL) cannot change users: then it runs on as root, and says so.
    owner=$(stat -c '%u:%g' /reports 2>/dev/null || echo 0:0)
    if [ "${owner%%:*}" = 0 ] || [ "${owner%%:*}" = "$(id -u node 2>/dev/null)" ]; then
      user="the user node"
      drop='--reuid=node --regid=node --init-groups'
      home=/home/node
    else
      user="uid ${owner%%:*}"
      drop="--reuid=${owner%%:*} --regid=${owner#*:} --clear-groups"
      # No home of its own (no passwd entry): one it can write to.
      home=/tmp
    fi
    # shellcheck disable=SC2086 # $drop is three options
    if setpriv $drop --inh-caps=-all -- true 2>/dev/null; then
      # shellcheck disable=SC2086
      HOME=$home exec setpriv $drop --inh-caps=-all -- "$@"
    fi
    echo "wsgate: cannot switch to $user (no CAP_SETUID/CAP_SETGID?): running as root" >&2
  fi
  exec "$@"
}

case "${1-}" in
  run | serve | judge | merge | list | repro | matrix | -*) wsgate "$@" ;;
  wsgate)
    shift
    wsgate "$@"
    ;;
  # No arguments (a derived image that clears CMD): wsgate's usage line, exit 2.
  '') [ "$#" -gt 0 ] || wsgate ;;
esac
exec "$@"
