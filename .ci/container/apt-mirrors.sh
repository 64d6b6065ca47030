#!/usr/bin/env bash
# Prints the Debian mirrors this machine's apt uses, as two lines for the base image:
#   MIRROR=<URI of the first source with a release suite>
#   SECURITY_MIRROR=<URI of the first source with a -security suite>   (left out when there is none)
# Read from deb822 sources (sources.list.d/*.sources) and one-line sources (sources.list,
# sources.list.d/*.list) under APT_DIR (default /etc/apt). No mirror there: one line on stderr, exit 2.
# The repository names no mirror of its own: the machine's apt configuration is the only source.
set -euo pipefail
APT_DIR=${APT_DIR:-/etc/apt}
shopt -s nullglob
deb822=("$APT_DIR"/sources.list.d/*.sources)
oneline=()
[ -f "$APT_DIR/sources.list" ] && oneline+=("$APT_DIR/sources.list")
oneline+=("$APT_DIR"/sources.list.d/*.list)

# "uri suite" per enabled deb source, in file order.
pairs() {
  local f
  for f in "${deb822[@]}"; do
    awk '
      function flush() { if (deb && enabled) for (i = 1; i <= nu; i++) for (j = 1; j <= ns; j++) print uris[i], suites[j]; deb = 0; enabled = 1; nu = 0; ns = 0 }
      BEGIN { enabled = 1 }
      /^[ \t]*$/ { flush(); next }
      /^[ \t]*#/ { next }
      tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
      tolower($1) == "enabled:" { enabled = (tolower($2) != "no") }
      tolower($1) == "uris:" { for (i = 2; i <= NF; i++) uris[++nu] = $i }
      tolower($1) == "suites:" { for (i = 2; i <= NF; i++) suites[++ns] = $i }
      END { flush() }
    ' "$f"
  done
  if [ ${#oneline[@]} -gt 0 ]; then
    # deb [options] uri suite components...
    awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ } if (i + 1 <= NF) print $i, $(i + 1) }' "${oneline[@]}"
  fi
}

all=$(pairs)
mirror=$(awk '$2 !~ /-security$/ { print $1; exit }' <<<"$all")
security=$(awk '$2 ~ /-security$/ { print $1; exit }' <<<"$all")
if [ -z "$mirror" ]; then
  echo "apt-mirrors: no Debian mirror in this machine's apt sources ($APT_DIR/sources.list, $APT_DIR/sources.list.d/): configure apt, or set MIRROR" >&2
  exit 2
fi
echo "MIRROR=$mirror"
[ -z "$security" ] || echo "SECURITY_MIRROR=$security"
