/**
 * Every report byte, pinned, in both roles: a fixed selection across all groups (and group 14)
 * against a ws client with a fixed masking key, and the same selection (with group 15) against the
 * bundled ws server with wsgate's masks and keys from a fixed seed, one case at a time; each report
 * file, with what differs between any two runs taken out (test/support/normalise-reports.ts), must
 * hash to what test/fixtures/golden/report-digests.json (client role) and
 * report-digests-server.json (server role) hold. Engine and renderer refactors must keep them; a
 * deliberate change of a report regenerates the file (WSGATE_UPDATE_GOLDEN=1 npm test) and says why
 * in its commit.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { reportDigests } from '../support/normalise-reports.js';
import { fixtureCommand, runCli, tempDir } from '../support/harness.js';

const GOLDEN = fileURLToPath(new URL('../../../test/fixtures/golden/report-digests.json', import.meta.url));
const GOLDEN_SERVER = fileURLToPath(new URL('../../../test/fixtures/golden/report-digests-server.json', import.meta.url));

/** Two or more cases of every group, chosen among those whose frames do not depend on timing. */
const SELECTION = [
  ...['1.1.1', '1.1.8', '1.2.6', '2.1', '2.4', '2.10', '3.1', '3.7', '4.1.1', '4.2.3', '5.1', '5.6', '5.9', '5.15', '5.19'],
  ...['6.1.3', '6.3.1', '6.4.2', '6.9.2', '6.12.7', '6.20.3', '6.22.1', '7.1.1', '7.1.6', '7.3.2', '7.5.1', '7.7.1', '7.9.1', '7.13.2'],
  ...['9.1.1', '9.6.1', '9.8.1', '10.1.1', '12.1.1', '12.2.3', '12.5.5', '13.1.1', '13.3.2', '13.5.1', '13.7.3'],
  ...['14.1.1', '14.1.5', '14.2.1', '14.3.2', '14.4.3', '14.4.5', '14.5.1', '14.6.2'],
];

/** The digests of a run's reports against the golden file (rewritten first when WSGATE_UPDATE_GOLDEN=1). */
function assertGolden(file: string, outdir: string, expectedFiles: number): void {
  const digests = reportDigests(outdir);
  assert.equal(Object.keys(digests).length, expectedFiles, Object.keys(digests).join(' '));
  if (process.env.WSGATE_UPDATE_GOLDEN === '1') writeFileSync(file, `${JSON.stringify(digests, null, 2)}\n`);
  const golden = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const changed = Object.keys({ ...golden, ...digests }).filter((name) => golden[name] !== digests[name]);
  assert.deepEqual(changed, [], `report files whose bytes changed (reports kept in ${outdir})`);
}

test('a fixed selection gives the same report bytes as when the golden digests were taken', async () => {
  const outdir = await tempDir();
  const res = await runCli(
    [
      'run',
      '--extended',
      '--client-loops',
      '--client',
      fixtureCommand('golden-ws', '{url} golden'),
      '--agent',
      'golden',
      '--jobs',
      '1',
      '--url',
      'ws://127.0.0.1:0',
      '--outdir',
      outdir,
      '--cases',
      ...SELECTION,
    ],
    120_000,
  );
  // ws fails 14.4.5 (a tab around header values), as docs/extended-groups.md says: exit 1, every report written.
  assert.equal(res.code, 1, res.stdout + res.stderr);
  assertGolden(GOLDEN, outdir, 2 * SELECTION.length + 4);
});

/** The server role's selection: the client role's without group 14, with group 15 (a server's own). */
const SERVER_SELECTION = [...SELECTION.filter((id) => !id.startsWith('14.')), '15.1.1', '15.2.1', '15.3.1'];

test('the server role: a fixed selection and seed give the same report bytes as when the golden digests were taken', async () => {
  const outdir = await tempDir();
  const res = await runCli(
    ['run', '--role', 'server', '--extended', '--seed', '7', '--jobs', '1', '--outdir', outdir, '--cases', ...SERVER_SELECTION],
    120_000,
  );
  assert.equal(res.code, 0, res.stdout + res.stderr);
  assertGolden(GOLDEN_SERVER, outdir, 2 * SERVER_SELECTION.length + 4);
});
