# wsgate: Autobahn|Testsuite's fuzzing server and a CI gate, as a drop-in for Autobahn's image.
#
#   docker build -t wsgate .
#   docker run -v "$PWD/config:/config" -v "$PWD/reports:/reports" -p 9001:9001 wsgate
#   docker run -v "$PWD/reports:/reports" wsgate run --cases '1.*'
#
# Classic Dockerfile syntax only (no BuildKit-only features), so plain `docker build` and
# `podman build` both take it. The base is a build argument so that a pinned digest or a
# mirror can be swapped in: --build-arg BASE_IMAGE=node:24-bookworm-slim@sha256:...
# Debian slim, not Alpine: users' client binaries are linked against glibc, and client
# commands run in /bin/sh.
ARG BASE_IMAGE=node:24-bookworm-slim

# ---- build: install, compile, test, then keep only the runtime dependencies ----
FROM ${BASE_IMAGE} AS build
WORKDIR /src
# The lock file first, so that the dependency layer is reused while only the sources change.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --no-update-notifier
COPY tsconfig.json ./
COPY src ./src
COPY test ./test
# The protocol tests are pure (no sockets) and take seconds: a compiler or Node that breaks the
# frame codec, UTF-8 validator or deflate framing stops the build here. The whole suite runs in CI.
RUN npm run build \
 && node --test dist/test/protocol/*.test.js \
 && npm prune --omit=dev --no-audit --no-fund --no-update-notifier

# ---- runtime: Node, tini, the compiled CLI and its production dependencies ----
FROM ${BASE_IMAGE}
# tini as PID 1: with -g it forwards SIGTERM/SIGINT to wsgate's whole process group (a bare
# `node` as PID 1 ignores SIGTERM unless it handles it), and it reaps orphaned client processes.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*

COPY --from=build /src/package.json /opt/wsgate/package.json
COPY --from=build /src/node_modules /opt/wsgate/node_modules
COPY --from=build /src/dist/src /opt/wsgate/dist/src
# `wsgate` on PATH, for `docker run --entrypoint sh` sessions and client scripts. /reports is
# writable by the unprivileged user the container runs as; /config is only read.
RUN chmod 0755 /opt/wsgate/dist/src/cli.js \
 && ln -s /opt/wsgate/dist/src/cli.js /usr/local/bin/wsgate \
 && mkdir -p /config /reports/clients \
 && chown -R node:node /reports

# Inside the container the network namespace is the isolation: the server listens on every
# interface so that `-p 9001:9001` reaches it, as Autobahn's server does. The url's port is kept.
ENV WSGATE_LISTEN_HOST=0.0.0.0
USER node
# Autobahn's spec files say "outdir": "./reports/clients", relative to the working directory:
# from / that is the /reports volume.
WORKDIR /
VOLUME ["/config", "/reports"]
EXPOSE 9001

# The package version and the repository the image is built from (kept equal to package.json:
# .ci/container/smoke.sh checks it).
ARG WSGATE_VERSION=0.1.0
ARG WSGATE_SOURCE=https://github.com/wsgate/wsgate
LABEL org.opencontainers.image.title="wsgate" \
      org.opencontainers.image.description="WebSocket client conformance gate: Autobahn|Testsuite's fuzzing server and case catalogue, with JUnit/JSON/HTML reports and CI exit statuses" \
      org.opencontainers.image.source="${WSGATE_SOURCE}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${WSGATE_VERSION}"
# The same settings as the wsgate executable's shebang (src/cli.ts): a 4 MiB V8 semi-space and fixed
# glibc malloc settings for wsgate's process only (clients it starts do not get them: util/launch-env.ts).
ENTRYPOINT ["tini", "-g", "--", "env", "WSGATE_MALLOC_TUNING=1", "MALLOC_ARENA_MAX=2", "MALLOC_MMAP_THRESHOLD_=131072", \
            "node", "--max-semi-space-size=4", "/opt/wsgate/dist/src/cli.js"]
# The Autobahn drop-in: the fuzzing server on :9001 configured by /config/fuzzingserver.json.
CMD ["serve", "--spec", "/config/fuzzingserver.json"]
