/** The JUnit file against a JUnit XML schema (test/fixtures/schemas/junit.xsd, libxml2 via xmllint-wasm). */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';
import { junitXml } from '../../src/report/junit.js';
import { fixtureCommand, runCli, tempDir } from '../support/harness.js';
import { sampleRun } from './helpers.js';

const XSD = fileURLToPath(new URL('../../../test/fixtures/schemas/junit.xsd', import.meta.url));

async function validate(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const schema = await readFile(XSD, 'utf8');
  const r = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: schema }] });
  return { valid: r.valid, errors: r.errors.map((e) => e.rawMessage) };
}

test('the schema check can fail: a testcase without a name, a count that is not a number', async () => {
  const good = junitXml(sampleRun());
  assert.deepEqual(await validate(good), { valid: true, errors: [] });
  assert.equal((await validate(good.replace(/(<testcase[^>]*?) name="[^"]*"/, '$1'))).valid, false);
  assert.equal((await validate(good.replace(/tests="\d+"/, 'tests="many"'))).valid, false);
});

test("a real run's junit.xml (passes and failures) is valid JUnit XML, each failure naming case, verdicts and reason", async () => {
  const outdir = await tempDir();
  const res = await runCli([
    'run',
    '--client',
    fixtureCommand('wrong-pong'),
    '--url',
    'ws://127.0.0.1:0',
    '--outdir',
    outdir,
    '--cases',
    '1.1.1',
    '2.3',
    '2.4',
  ]);
  assert.equal(res.code, 1, res.stderr);
  const xml = await readFile(path.join(outdir, 'junit.xml'), 'utf8');
  assert.deepEqual(await validate(xml), { valid: true, errors: [] });
  // Each <testcase>…</testcase> on its own, so a match never runs from one case into the next.
  const failures = [...xml.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*>((?:(?!<\/testcase>)[\s\S])*)<\/testcase>/g)]
    .map((m) => [m[0], m[1], ...(/<failure message="([^"]*)" type="([^"]*)"/.exec(m[2] ?? '')?.slice(1) ?? [])])
    .filter((m) => m.length > 2)
    .map((m) => [m[0], m[1], m[2], m[3]]);
  assert.deepEqual(
    failures.map((m) => (m[1] ?? '').split(' ')[0]),
    ['2.3', '2.4'],
  );
  for (const m of failures) {
    assert.equal(m[3], 'FAILED/OK');
    // The message explains: this client inverts every ping's bytes in its pong (its first frame).
    assert.match(
      m[2] ?? '',
      /^A ping: pong differs\. wsgate sent a ping .*RFC 6455 §5\.5\.2, §5\.5\.3: .*The peer sent a pong 0xff0001020304ff00 where the case expects a pong 0x00fffefdfcfb00ff \(its frame 1, stream offset 0, at [\d.]+ ms\)|^A ping: pong differs\. .*The peer sent a pong 0x0101010101.* where the case expects a pong 0xfefefefefe.* \(its frame 1, stream offset 0, at [\d.]+ ms\)/,
    );
    assert.match(m[0] ?? '', /Case 2\.[34]: outcome FAILED: Actual events differ from any expected\./);
  }
});
