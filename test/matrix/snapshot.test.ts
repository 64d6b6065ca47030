/**
 * The committed snapshot of the interop matrix (interop/matrix/, made by `node interop/snapshot.mjs`):
 * a row for every role of every implementation of the registry, each as the registry says it now (a
 * new entry, a renamed one or a changed install line makes the snapshot stale: this test says so);
 * its site is the one its matrix.json renders; and where it played the `ws` client row on the
 * version of the original Autobahn's recorded run (test/fixtures/autobahn/), its verdicts are the
 * original's, case for case.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readRegistry } from '../../src/matrix/registry.js';
import type { MatrixFile } from '../../src/matrix/result.js';
import { installScript, unsupportedOf } from '../../src/matrix/rows.js';
import { renderSite } from '../../src/matrix/site.js';

const at = (p: string): string => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const snapshot = JSON.parse(readFileSync(at('interop/matrix/matrix.json'), 'utf8')) as MatrixFile;
const STALE = 'the snapshot is stale: run node interop/snapshot.mjs';

test('the snapshot has a row for every role of every implementation of the registry, named, titled and installed as the registry says', () => {
  const expected = readRegistry(at('interop/implementations')).flatMap((impl) =>
    (['client', 'server'] as const)
      .filter((role) => impl.roles[role] !== undefined)
      .map((role) => ({
        key: `${impl.name}-${role}`,
        title: impl.title,
        language: impl.language,
        homepage: impl.homepage,
        install: installScript(impl),
        unsupported: unsupportedOf(impl, role),
      })),
  );
  const got = snapshot.rows.map((r) => ({
    key: `${r.name}-${r.role}`,
    title: r.title,
    language: r.language,
    homepage: r.homepage,
    install: r.install,
    unsupported: r.unsupported,
  }));
  assert.deepEqual(got, expected, STALE);
});

test('every installed row of the snapshot ran: counts that add up to its cases, and no row left without its reason', () => {
  for (const r of snapshot.rows) {
    if (!r.installed) continue;
    if (r.error !== null) continue;
    assert.ok(r.counts !== null, `${r.name}-${r.role}: installed, no error, but no counts`);
    const { total, passed, failed, skipped, unsupported } = r.counts;
    assert.equal(passed + failed + skipped + unsupported, total, `${r.name}-${r.role}`);
    assert.equal(r.cases.length, total, `${r.name}-${r.role}`);
  }
  assert.ok(snapshot.rows.filter((r) => r.counts !== null).length >= 20, 'at least 20 rows ran');
});

test('the snapshot’s site is what its matrix.json renders, with no link into a report directory that is not committed', () => {
  const html = readFileSync(at('interop/matrix/index.html'), 'utf8');
  assert.equal(html, renderSite(snapshot, { reports: false }), STALE);
  assert.doesNotMatch(html, /href="[^"]*-(client|server)\/index\.html"/);
});

// The `ws` row runs ws with its defaults, as the original's recorded run did (maxFragments 16384:
// 9.3.1 and 9.4.1 FAILED there too); `ws-bundled` lifts that limit, so it passes them by design.
for (const name of ['ws']) {
  test(`the ${name} client row plays as the original Autobahn played ws (test/fixtures/autobahn/): the same verdict pair on every case of the snapshot`, (t) => {
    const original = JSON.parse(readFileSync(at('test/fixtures/autobahn/autobahn-verdicts-ws.json'), 'utf8')) as {
      version: string;
      cases: Record<string, { behavior: string; behaviorClose: string }>;
    };
    const row = snapshot.rows.find((r) => r.name === name && r.role === 'client');
    assert.ok(row !== undefined, `no ${name} client row`);
    if (row.version !== original.version) {
      t.skip(`the snapshot's ws is ${row.version ?? 'not installed'}, the original's run was of ${original.version}`);
      return;
    }
    const played = row.cases.filter((c) => c.verdict !== 'unsupported');
    assert.ok(played.length > 0);
    const pair = (c: { behavior: string | null; behaviorClose: string | null } | undefined): string => `${c?.behavior}/${c?.behaviorClose}`;
    const differ = played.filter((c) => pair(c) !== pair(original.cases[c.id])).map((c) => `${c.id}: ${pair(c)}, the original ${pair(original.cases[c.id])}`);
    assert.deepEqual(differ, []);
  });
}
