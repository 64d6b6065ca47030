#!/usr/bin/env bash
# Lets this machine run other architectures' Linux binaries, in containers too: Debian's
# qemu-user-static registered with the kernel's binfmt_misc, with the F (fix binary) flag, so that the
# emulator is opened once at registration and found from inside any container's file system.
#   binfmt.sh ARCH...      ARCH in Debian's names: arm64, amd64 (the machine's own is skipped)
# Installs qemu-user-static and binfmt-support from Debian when missing and mounts binfmt_misc when it
# is not mounted. Needs root. Anything impossible stops it with one line on stderr and exit 2.
set -euo pipefail
fail() {
  echo "binfmt: $*" >&2
  exit 2
}
[ "$#" -gt 0 ] || fail 'usage: binfmt.sh ARCH...'
[ "$(id -u)" = 0 ] || fail 'needs root (it registers an emulator with the kernel)'
native=$(dpkg --print-architecture)

qemu_name() {
  case "$1" in
    arm64) echo aarch64 ;;
    amd64) echo x86_64 ;;
    *) fail "no emulator known for architecture '$1' (known: arm64, amd64)" ;;
  esac
}

for arch in "$@"; do
  [ "$arch" != "$native" ] || continue
  q=$(qemu_name "$arch")
  if [ ! -f "/usr/share/binfmts/qemu-$q" ] || ! command -v update-binfmts >/dev/null; then
    echo "--- installing qemu-user-static and binfmt-support from Debian (to run $arch binaries)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static binfmt-support >/dev/null
    [ -f "/usr/share/binfmts/qemu-$q" ] || fail "qemu-user-static has no binfmt entry qemu-$q"
  fi
  if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    grep -qw binfmt_misc /proc/filesystems || fail 'this kernel has no binfmt_misc file system'
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null ||
      fail 'cannot mount binfmt_misc on /proc/sys/fs/binfmt_misc (a container without the right to mount it?)'
  fi
  entry=/proc/sys/fs/binfmt_misc/qemu-$q
  if [ ! -e "$entry" ]; then
    update-binfmts --enable "qemu-$q" >/dev/null 2>&1 || update-binfmts --import "qemu-$q" >/dev/null 2>&1 ||
      fail "update-binfmts could not register qemu-$q"
  fi
  [ -e "$entry" ] || fail "qemu-$q is not registered in /proc/sys/fs/binfmt_misc"
  grep -qx enabled "$entry" || fail "$entry is registered but disabled"
  # Without F the kernel looks the emulator up inside each container, where it is not.
  grep -q '^flags: .*F' "$entry" || fail "$entry lacks the F flag: $(grep '^flags' "$entry"); re-register it with update-binfmts"
  echo "$arch binaries run through $(sed -n 's/^interpreter //p' "$entry") ($(sed -n 's/^flags: //p' "$entry"))"
done
