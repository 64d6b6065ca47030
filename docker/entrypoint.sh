#!/bin/sh
# The image's entrypoint, behind tini (Dockerfile): two doors into one image.
#
#   wsgate's own command line   run, serve, judge, merge, list, repro, --version, --help, -h, any first
#                               argument starting with "-", or "wsgate ..." : wsgate's CLI, as the
#                               unprivileged user node (uid 1000) when the container runs as root (the
#                               image's default), as the container's user otherwise (-u UID:GID).
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
    # Root gives up root for wsgate's commands: uid/gid node and its groups; the kernel clears the
    # permitted and effective capabilities as the uids leave 0, and --inh-caps the inheritable ones
    # (setpriv is util-linux's, in Debian's essential set). A container started without
    # CAP_SETUID/CAP_SETGID (--cap-drop=ALL) cannot change users: then it runs on as root, and says so.
    if setpriv --reuid=node --regid=node --init-groups --inh-caps=-all -- true 2>/dev/null; then
      HOME=/home/node USER=node exec setpriv --reuid=node --regid=node --init-groups --inh-caps=-all -- "$@"
    fi
    echo 'wsgate: cannot switch to the user node (no CAP_SETUID/CAP_SETGID?): running as root' >&2
  fi
  exec "$@"
}

case "${1-}" in
  run | serve | judge | merge | list | repro | -*) wsgate "$@" ;;
  wsgate)
    shift
    wsgate "$@"
    ;;
  # No arguments (a derived image that clears CMD): wsgate's usage line, exit 2.
  '') [ "$#" -gt 0 ] || wsgate ;;
esac
exec "$@"
