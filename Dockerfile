# wsgate: Autobahn|Testsuite's fuzzing server and a CI gate, as a drop-in for Autobahn's image
# (crossbario/autobahn-testsuite): the same default command, `wstest` on PATH, working directory /.
#
#   docker build -t wsgate .
#   docker run -v "$PWD/config:/config" -v "$PWD/reports:/reports" -p 9001:9001 wsgate
#   docker run -v "$PWD/autobahn:/autobahn" --network=host wsgate wstest -m fuzzingclient -s autobahn/fuzzingclient.json
#   docker run -v "$PWD/reports:/reports" wsgate run --cases '1.*'
#   docker buildx build --platform linux/amd64,linux/arm64 -t wsgate .    # both architectures
#
# No BuildKit-only instructions (no RUN --mount, no heredocs), so `docker build` (BuildKit, the default
# since Docker 23) and `podman build` both take it. Debian slim, not Alpine: users' client binaries
# are linked against glibc, and client commands run in /bin/sh.
#
# Multi-platform: the build stage runs on the builder's own platform (FROM --platform=$BUILDPLATFORM)
# and makes plain JavaScript; only the runtime stage, for the target platform, runs anything else
# (apt-get, emulated on a foreign builder). node_modules holds no native code that must match: the
# optional bufferutil addon is prebuilt for some platforms only and falls back to JavaScript elsewhere.
# BuildKit sets BUILDPLATFORM itself. podman 4.3 (buildah 1.28) does not expand it in FROM, so there
# the build stage is emulated too unless --build-arg BUILDPLATFORM=linux/<the machine's arch> is given
# (.ci/container/multiarch.sh does); and buildah 1.28 keeps a FROM --platform for the stages after it,
# which is why the runtime stage's base comes first and the final stage starts FROM runtime.
#
# The base image, pinned to the digest of the official node:24-bookworm-slim multi-platform index
# (linux/amd64, linux/arm64/v8, linux/ppc64le). A build argument, so that a mirror or a local image
# can be swapped in: --build-arg BASE_IMAGE=node:24-bookworm-slim (what the CI scripts build from).
ARG BASE_IMAGE=node:24-bookworm-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df

# ---- runtime base (the target platform): Node and tini ----
FROM ${BASE_IMAGE} AS runtime
# tini: PID 1 (the ENTRYPOINT says why).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*

# ---- build (the builder's platform): install, compile, test, then keep only the runtime dependencies ----
FROM --platform=$BUILDPLATFORM ${BASE_IMAGE} AS build
WORKDIR /src
# The lock file first, so that the dependency layer is reused while only the sources change.
# --ignore-scripts: no package's install script is needed to compile and test, and bufferutil's would
# compile its addon (python3, make, g++, none in the image) on a platform it has no prebuilt one for,
# such as linux/arm64; at run time it loads its prebuilt addon or its JavaScript fallback.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund --no-update-notifier
COPY tsconfig.json ./
# npm run build's second step: the repro scripts' runtime, bundled from src/.
COPY .ci/build-repro-runtime.mjs ./.ci/
COPY src ./src
COPY test ./test
# The protocol tests are pure (no sockets) and take seconds: a compiler or Node that breaks the
# frame codec, UTF-8 validator or deflate framing stops the build here. The whole suite runs in CI.
RUN npm run build \
 && node --test dist/test/protocol/*.test.js \
 && npm prune --omit=dev --no-audit --no-fund --no-update-notifier

# ---- the image: the runtime base, the compiled CLI and its production dependencies ----
FROM runtime
COPY --from=build /src/package.json /opt/wsgate/package.json
COPY --from=build /src/node_modules /opt/wsgate/node_modules
COPY --from=build /src/dist/src /opt/wsgate/dist/src
COPY docker/entrypoint.sh /opt/wsgate/entrypoint.sh
# `wsgate` on PATH, for `sh -c` sessions and client scripts. `wstest` where the original image has it:
# on PATH (/usr/local/bin) and at /opt/pypy/bin/wstest, which some scripts call by that path; its
# shebang runs node with wsgate's settings (src/wstest-cli.ts). The image's own /reports (nothing
# mounted there) belongs to the user node, whom wsgate's commands then run as; /config is only read.
RUN chmod 0755 /opt/wsgate/dist/src/cli.js /opt/wsgate/dist/src/wstest-cli.js /opt/wsgate/entrypoint.sh \
 && ln -s /opt/wsgate/dist/src/cli.js /usr/local/bin/wsgate \
 && ln -s /opt/wsgate/dist/src/wstest-cli.js /usr/local/bin/wstest \
 && mkdir -p /opt/pypy/bin /config /reports/clients \
 && ln -s /opt/wsgate/dist/src/wstest-cli.js /opt/pypy/bin/wstest \
 && chown -R node:node /reports

# Inside the container the network namespace is the isolation: the server listens on every
# interface so that `-p 9001:9001` reaches it, as Autobahn's server does. The url's port is kept.
ENV WSGATE_LISTEN_HOST=0.0.0.0
# Root, as the original image: only for its door, `wstest` (and whatever program `docker run IMAGE
# PROGRAM` names). Projects' CI scripts bind-mount a directory of the runner's workspace (another uid,
# mode 755) and have wstest write its reports there; only root can, short of asking every project to
# add `-u` or a chmod to its script. wsgate's own commands (run, serve, judge, merge, list) do not
# keep root: the entrypoint runs them as the owner of /reports (a mounted directory keeps its owner on
# the host, the runner's user for a workspace), or as the user node (uid 1000) when root owns it.
# `-u UID:GID` runs either door as that user (no passwd entry or HOME needed).
USER root
# Autobahn's spec files say "outdir": "./reports/clients", relative to the working directory:
# from / that is the /reports volume.
WORKDIR /
VOLUME ["/config", "/reports"]
EXPOSE 9001

# The package version, the repository and the commit the image is built from (OCI annotations). The
# version is kept equal to package.json's (test/ci/image.test.ts); the revision is given by the build:
# `git rev-parse HEAD` in .ci/container/*.sh, the workflow's commit in a release build, empty otherwise.
# No creation time here, so that the same commit builds the same image; a release build may add one
# with --label org.opencontainers.image.created=....
ARG WSGATE_VERSION=0.1.0
ARG WSGATE_SOURCE=https://github.com/wsgate/wsgate
ARG WSGATE_REVISION=
LABEL org.opencontainers.image.title="wsgate" \
      org.opencontainers.image.description="WebSocket conformance gate for clients and servers: Autobahn|Testsuite's case catalogue as its fuzzing server and fuzzing client, with JUnit/JSON/HTML reports and CI exit statuses" \
      org.opencontainers.image.source="${WSGATE_SOURCE}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${WSGATE_VERSION}" \
      org.opencontainers.image.revision="${WSGATE_REVISION}"
# tini as PID 1: with -g it forwards SIGTERM/SIGINT to the program's whole process group (a bare
# `node` as PID 1 ignores SIGTERM unless it handles it) and reaps orphaned processes. Under
# `docker run --init` the engine's init is PID 1 and reaps them; tini then only forwards signals, and
# TINI_VERBOSITY=0 keeps its warning about not being PID 1 out of the logs. (Not -s, a subreaper:
# under qemu-user emulation, an image of another architecture, prctl(PR_SET_CHILD_SUBREAPER) fails
# and tini -s refuses to start.) Then the dispatcher (docker/entrypoint.sh): wsgate's commands and
# flags go to wsgate's CLI as the user node; anything else (wstest, sh, bash, any program) is exec'd
# as given, as the original image runs it.
ENV TINI_VERBOSITY=0
ENTRYPOINT ["tini", "-g", "--", "/opt/wsgate/entrypoint.sh"]
# The original image's default command: the fuzzing server configured by /config/fuzzingserver.json
# (its url's port, 9001 in Autobahn's example; web pages on 8080).
CMD ["wstest", "--mode", "fuzzingserver", "--spec", "/config/fuzzingserver.json"]
