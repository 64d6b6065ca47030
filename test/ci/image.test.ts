/**
 * The Dockerfile's static facts: the base image pinned by a digest through BASE_IMAGE (the local
 * stand-in tag the scripts build from is the same image without it), the stage layout that builds
 * on the builder's platform and runs on the target's (and that podman 4.3 builds right), no
 * BuildKit-only instructions, and OCI labels fed by build arguments that agree with package.json
 * and that the scripts set. The image itself is built and run by .ci/container/smoke.sh and
 * .ci/container/multiarch.sh.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string; repository?: { url: string } };
const dockerfile = read('Dockerfile');

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions: comments dropped, continuation lines joined. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const m = /^\s*(\S+)\s*(.*)$/.exec(line);
      return { keyword: (m?.[1] ?? '').toUpperCase(), args: (m?.[2] ?? '').trim() };
    });
}

const all = instructions(dockerfile);
const froms = all.filter((i) => i.keyword === 'FROM').map((i) => i.args);
const globalArgs = all.slice(0, all.findIndex((i) => i.keyword === 'FROM')).filter((i) => i.keyword === 'ARG');
const finalStage = all.slice(all.map((i) => i.keyword).lastIndexOf('FROM'));

/** The default of `ARG name=value` in `list`, or undefined. */
function argDefault(list: Instruction[], name: string): string | undefined {
  for (const i of list) {
    const m = new RegExp(`^${name}=(.*)$`).exec(i.args);
    if (i.keyword === 'ARG' && m) return m[1];
  }
  return undefined;
}

test('BASE_IMAGE defaults to the node:<major>-bookworm-slim index pinned by digest; the scripts build from that tag', () => {
  const base = argDefault(globalArgs, 'BASE_IMAGE');
  const m = /^node:(\d+)-bookworm-slim@sha256:[0-9a-f]{64}$/.exec(base ?? '');
  assert.ok(m, `BASE_IMAGE's default is ${base}`);
  const tag = `node:${m[1]}-bookworm-slim`;
  // The stand-ins are made for the same Node major, and the scripts name the tag without the digest.
  assert.match(read('.ci/container/make-base-images.sh'), new RegExp(`^NODE_MAJOR=\\$\\{NODE_MAJOR:-${m[1]}\\}`, 'm'));
  for (const script of ['.ci/container/smoke.sh', '.ci/container/multiarch.sh']) {
    assert.ok(read(script).includes(`BASE_IMAGE=${tag}`), `${script} builds from ${tag}`);
  }
});

test('stages: the runtime base (target platform) first, the build on $BUILDPLATFORM, the image FROM runtime', () => {
  assert.deepEqual(froms, ['${BASE_IMAGE} AS runtime', '--platform=$BUILDPLATFORM ${BASE_IMAGE} AS build', 'runtime']);
  // apt-get (tini) is the runtime base's; the build stage installs without install scripts (no addon is
  // compiled on any platform) and prunes the dev dependencies.
  const stages = dockerfile.split(/^FROM /m);
  assert.match(stages[1] ?? '', /apt-get install -y --no-install-recommends tini/);
  assert.match(stages[2] ?? '', /^RUN npm ci --ignore-scripts /m);
  assert.match(stages[2] ?? '', /npm prune --omit=dev/);
  assert.doesNotMatch(stages[3] ?? '', /apt-get|npm ci/);
});

test('no BuildKit-only syntax: no syntax directive, RUN --mount or heredoc', () => {
  assert.doesNotMatch(dockerfile, /^#\s*syntax=/im);
  for (const i of all) {
    assert.doesNotMatch(`${i.keyword} ${i.args}`, /^RUN --mount|<<-?["']?[A-Z]/, `${i.keyword} ${i.args}`);
  }
});

test('OCI labels: version (= package.json), source and revision from build arguments of the final stage', () => {
  const labels = finalStage.filter((i) => i.keyword === 'LABEL').map((i) => i.args).join(' ');
  const expected: Record<string, string> = {
    'org.opencontainers.image.version': 'WSGATE_VERSION',
    'org.opencontainers.image.source': 'WSGATE_SOURCE',
    'org.opencontainers.image.revision': 'WSGATE_REVISION',
  };
  for (const [label, arg] of Object.entries(expected)) {
    assert.ok(labels.includes(`${label}="\${${arg}}"`), `${label} is not \${${arg}}`);
    // An ARG declared only before the first FROM would be empty here.
    assert.ok(finalStage.some((i) => i.keyword === 'ARG' && (i.args === arg || i.args.startsWith(`${arg}=`))), `ARG ${arg} in the final stage`);
  }
  assert.equal(argDefault(finalStage, 'WSGATE_VERSION'), pkg.version);
  // No default revision and no creation time: a build names its commit, and the same commit builds the same image.
  assert.equal(argDefault(finalStage, 'WSGATE_REVISION'), '');
  assert.doesNotMatch(labels, /org\.opencontainers\.image\.created/);
  const source = argDefault(finalStage, 'WSGATE_SOURCE') ?? '';
  assert.match(source, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
  if (pkg.repository) assert.equal(pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, ''), source);
});

test('the scripts label the image with the commit they build, and the smoke checks it', () => {
  for (const script of ['.ci/container/smoke.sh', '.ci/container/multiarch.sh']) {
    const text = read(script);
    assert.ok(text.includes('"WSGATE_REVISION=$REVISION"'), `${script} passes WSGATE_REVISION`);
    assert.match(text, /REVISION=\$\{WSGATE_REVISION:-\$\(git -c safe\.directory="\$ROOT" rev-parse HEAD/);
    assert.ok(text.includes('org.opencontainers.image.revision'), `${script} checks the revision label`);
  }
});
