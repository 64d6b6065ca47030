/**
 * The Dockerfile's static facts: the base image pinned by a digest through BASE_IMAGE (the local
 * stand-in tag the scripts build from is the same image without it), the stage layout that builds
 * on the builder's platform and runs on the target's (and that podman 4.3 builds right), no
 * BuildKit-only instructions, OCI labels fed by build arguments that agree with package.json
 * and that the scripts set, and the drop-in for crossbario/autobahn-testsuite: its user, working
 * directory and CMD, `wstest` where it has it, and the entrypoint's dispatcher (docker/entrypoint.sh,
 * run here with stand-ins). The image itself is built and run by .ci/container/smoke.sh and
 * .ci/container/multiarch.sh.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { chmod, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../support/harness.js';

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
const globalArgs = all
  .slice(
    0,
    all.findIndex((i) => i.keyword === 'FROM'),
  )
  .filter((i) => i.keyword === 'ARG');
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
  const labels = finalStage
    .filter((i) => i.keyword === 'LABEL')
    .map((i) => i.args)
    .join(' ');
  const expected: Record<string, string> = {
    'org.opencontainers.image.version': 'WSGATE_VERSION',
    'org.opencontainers.image.source': 'WSGATE_SOURCE',
    'org.opencontainers.image.revision': 'WSGATE_REVISION',
  };
  for (const [label, arg] of Object.entries(expected)) {
    assert.ok(labels.includes(`${label}="\${${arg}}"`), `${label} is not \${${arg}}`);
    // An ARG declared only before the first FROM would be empty here.
    assert.ok(
      finalStage.some((i) => i.keyword === 'ARG' && (i.args === arg || i.args.startsWith(`${arg}=`))),
      `ARG ${arg} in the final stage`,
    );
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

// ---- The drop-in for crossbario/autobahn-testsuite: the original's CMD, user, paths; the dispatcher ----

const ENTRYPOINT_SCRIPT = 'docker/entrypoint.sh';
/** The final stage's instructions of one keyword, in order. */
const finalOf = (keyword: string): string[] => finalStage.filter((i) => i.keyword === keyword).map((i) => i.args);
/** wsgate's commands, as main.ts wires them. */
const wsgateCommands = (): string[] => {
  const m = /for \(const add of \[([^\]]+)\]\)/.exec(read('src/main.ts'));
  assert.ok(m, 'main.ts lists its commands in one array');
  return (m[1] ?? '').split(',').map((s) => s.trim().replace(/Command$/, ''));
};
/** The Node settings of an executable's shebang (`env -S VAR=… node FLAGS`). */
const shebang = (file: string): string => read(file).split('\n')[0] ?? '';

test("the image's defaults are the original's: root, working directory /, /config and /reports, 9001, its CMD", () => {
  // The original has no USER (root); USER root says so even over a base image that sets another.
  assert.deepEqual(finalOf('USER'), ['root']);
  assert.deepEqual(finalOf('WORKDIR'), ['/']);
  assert.deepEqual(finalOf('VOLUME'), ['["/config", "/reports"]']);
  assert.deepEqual(finalOf('EXPOSE'), ['9001']);
  assert.deepEqual(finalOf('CMD'), ['["wstest", "--mode", "fuzzingserver", "--spec", "/config/fuzzingserver.json"]']);
  // The servers bind every interface of the container (the network namespace is the boundary).
  assert.ok(finalOf('ENV').includes('WSGATE_LISTEN_HOST=0.0.0.0'));
  // Root is the user only with its reason beside it.
  const userLine = dockerfile.indexOf('USER root');
  assert.match(dockerfile.slice(Math.max(0, userLine - 800), userLine), /755/);
});

test('the entrypoint: tini (signals to the process group), then the dispatcher', () => {
  // No -s: tini refuses to start as a subreaper under qemu-user emulation (multiarch.sh's arm64 run).
  assert.deepEqual(finalOf('ENTRYPOINT'), ['["tini", "-g", "--", "/opt/wsgate/entrypoint.sh"]']);
  // Under --init tini is not PID 1: its warning saying so stays out of the logs.
  assert.ok(finalOf('ENV').includes('TINI_VERBOSITY=0'));
  assert.ok(finalOf('COPY').includes(`${ENTRYPOINT_SCRIPT} /opt/wsgate/entrypoint.sh`));
  assert.ok((statSync(path.join(ROOT, ENTRYPOINT_SCRIPT)).mode & 0o111) !== 0, `${ENTRYPOINT_SCRIPT} is executable`);
  // .dockerignore must not leave the script out of the build context.
  assert.doesNotMatch(read('.dockerignore'), /^\/?docker\/?$/m);
});

test('wstest and wsgate where the original has wstest: /usr/local/bin (PATH) and /opt/pypy/bin, executable', () => {
  const run = finalOf('RUN').join(' ');
  for (const link of ['/usr/local/bin/wstest', '/opt/pypy/bin/wstest']) {
    assert.ok(run.includes(`ln -s /opt/wsgate/dist/src/wstest-cli.js ${link}`), `${link} -> wstest-cli.js`);
  }
  assert.ok(run.includes('ln -s /opt/wsgate/dist/src/cli.js /usr/local/bin/wsgate'));
  assert.match(run, /chmod 0755 [^&]*\/opt\/wsgate\/dist\/src\/wstest-cli\.js/);
  assert.match(run, /chown -R node:node \/reports/);
  const pkgBin = (JSON.parse(read('package.json')) as { bin: Record<string, string> }).bin;
  assert.equal(pkgBin.wstest, 'dist/src/wstest-cli.js');
  // wstest's shebang runs node with wsgate's settings, and the dispatcher gives wsgate the same.
  assert.equal(shebang('src/wstest-cli.ts'), shebang('src/cli.ts'));
  const m = /^#!\/usr\/bin\/env -S (.*) node (.*)$/.exec(shebang('src/cli.ts'));
  assert.ok(m, 'cli.ts: #!/usr/bin/env -S VARS node FLAGS');
  const script = read(ENTRYPOINT_SCRIPT);
  assert.ok(script.includes(`export ${m[1] ?? ''}`), `${ENTRYPOINT_SCRIPT} exports ${m[1] ?? ''}`);
  assert.ok(script.includes(`node ${m[2] ?? ''} /opt/wsgate/dist/src/cli.js`), `${ENTRYPOINT_SCRIPT} runs node ${m[2] ?? ''}`);
});

test("the dispatcher's list of wsgate's commands is main.ts's", () => {
  const line = /^\s*([a-z]+(?: \| [a-z]+)*) \| -\*\)/m.exec(read(ENTRYPOINT_SCRIPT));
  assert.ok(line, 'a case pattern: run | serve | … | -*)');
  assert.deepEqual((line[1] ?? '').split(' | ').sort(), wsgateCommands().sort());
});

describe('docker/entrypoint.sh, run by /bin/sh with stand-ins for id, stat, setpriv, node and wstest', () => {
  const stubs: Record<string, string> = {
    // `id -u` is the container's uid, `id -u node` the image's user node (1000).
    id: '[ "$1" = -u ] || exit 1\nif [ "$2" = node ]; then echo 1000; else echo "$FAKE_UID"; fi',
    // The owner of /reports, as `stat -c %u:%g /reports` prints it.
    stat: '[ "$1 $2 $3" = "-c %u:%g /reports" ] && echo "$FAKE_REPORTS_OWNER"',
    // Prints its options, then runs the program after --; the probe (`-- true`) fails without the capabilities.
    setpriv:
      '[ "$FAKE_SETPRIV" = fails ] && exit 1\nopts=""\nwhile [ "$1" != -- ]; do opts="$opts $1"; shift; done\nshift\n[ "$1" = true ] && exit 0\necho "setpriv$opts"\nexec "$@"',
    node: 'printf "node"; printf " [%s]" "$@"; echo " MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX-unset} HOME=${HOME-unset}"',
    wstest: 'printf "wstest"; printf " [%s]" "$@"; echo " MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX-unset} HOME=${HOME-unset}"',
  };
  let bin = '';
  after(async () => {
    if (bin !== '') await rm(bin, { recursive: true, force: true });
  });
  const dispatch = async (uid: number, args: string[], extra: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> => {
    if (bin === '') {
      bin = await tempDir('wsgate-entrypoint-');
      for (const [name, body] of Object.entries(stubs)) {
        await writeFile(path.join(bin, name), `#!/bin/sh\n${body}\n`);
        await chmod(path.join(bin, name), 0o755);
      }
    }
    const result = spawnSync('/bin/sh', [path.join(ROOT, ENTRYPOINT_SCRIPT), ...args], {
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: '/root', FAKE_UID: String(uid), FAKE_REPORTS_OWNER: '1000:1000', ...extra },
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(result.status, 0, result.stderr);
    return { stdout: result.stdout.trim(), stderr: result.stderr.trim() };
  };
  const NODE = 'node [--max-semi-space-size=4] [/opt/wsgate/dist/src/cli.js]';
  const DROP = 'setpriv --reuid=node --regid=node --init-groups --inh-caps=-all';

  test("wsgate's commands and flags: wsgate's CLI as the user node when root, with wsgate's settings", async () => {
    for (const first of [...wsgateCommands(), '--version', '--help', '-h']) {
      assert.equal((await dispatch(0, [first])).stdout, `${DROP}\n${NODE} [${first}] MALLOC_ARENA_MAX=2 HOME=/home/node`);
    }
    // Arguments pass through unchanged, spaces and braces included; `wsgate …` is the same door.
    const args = ['run', '--client', 'my client {url}', '--cases', '1.*'];
    assert.equal((await dispatch(0, args)).stdout, `${DROP}\n${NODE} [run] [--client] [my client {url}] [--cases] [1.*] MALLOC_ARENA_MAX=2 HOME=/home/node`);
    assert.equal(
      (await dispatch(0, ['wsgate', ...args])).stdout,
      `${DROP}\n${NODE} [run] [--client] [my client {url}] [--cases] [1.*] MALLOC_ARENA_MAX=2 HOME=/home/node`,
    );
  });

  test("root drops to the owner of a mounted /reports (a runner's workspace, uid 1001), or to node if root owns it", async () => {
    assert.equal(
      (await dispatch(0, ['run'], { FAKE_REPORTS_OWNER: '1001:121' })).stdout,
      `setpriv --reuid=1001 --regid=121 --clear-groups --inh-caps=-all\n${NODE} [run] MALLOC_ARENA_MAX=2 HOME=/tmp`,
    );
    // A directory the engine made for the mount (root's) is not a reason to keep root.
    assert.equal((await dispatch(0, ['run'], { FAKE_REPORTS_OWNER: '0:0' })).stdout, `${DROP}\n${NODE} [run] MALLOC_ARENA_MAX=2 HOME=/home/node`);
    // wstest's door keeps root (src/wstest/owner.ts hands its files to the directory's owner).
    assert.match((await dispatch(0, ['wstest', '-m', 'echoserver'], { FAKE_REPORTS_OWNER: '1001:121' })).stdout, /^wstest /);
  });

  test("as another user (-u UID:GID) wsgate's commands run as that user", async () => {
    assert.equal((await dispatch(4321, ['list'])).stdout, `${NODE} [list] MALLOC_ARENA_MAX=2 HOME=/root`);
  });

  test('root that cannot change users (--cap-drop=ALL) runs wsgate as root and says so', async () => {
    const { stdout, stderr } = await dispatch(0, ['--version'], { FAKE_SETPRIV: 'fails' });
    assert.equal(stdout, `${NODE} [--version] MALLOC_ARENA_MAX=2 HOME=/root`);
    assert.match(stderr, /^wsgate: cannot switch to the user node .*running as root$/);
  });

  test("anything else is run as given, as the container's user: wstest, sh -c, a path", async () => {
    const wstest = ['wstest', '-m', 'fuzzingserver', '-s', '/config/fuzzingserver.json'];
    assert.equal((await dispatch(0, wstest)).stdout, 'wstest [-m] [fuzzingserver] [-s] [/config/fuzzingserver.json] MALLOC_ARENA_MAX=unset HOME=/root');
    assert.equal((await dispatch(0, ['sh', '-c', 'echo "$0:$1"', 'a', 'b c'])).stdout, 'a:b c');
    assert.equal((await dispatch(4321, ['/bin/echo', 'as given'])).stdout, 'as given');
  });

  test('no arguments (a derived image that clears CMD): wsgate with none', async () => {
    assert.equal((await dispatch(0, [])).stdout, `${DROP}\n${NODE} MALLOC_ARENA_MAX=2 HOME=/home/node`);
  });
});
