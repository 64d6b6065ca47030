/**
 * GitHub renderings: workflow-command escaping (properties), annotation limits, the job summary's
 * content, cell escaping and size limit, and the heredoc form of $GITHUB_OUTPUT.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { annotations, escapeData, escapeProperty, jobSummary, outputLines, runCounts, SUMMARY_LIMIT_BYTES } from '../../src/report/github/markdown.js';
import { publishToGithub, shownPaths } from '../../src/report/github/publish.js';
import type { GateCase, GateRun } from '../../src/model/report.js';
import { gateCase, referenceResult, sampleRun } from './helpers.js';

/** GitHub's unescaping of a property (the runner's ActionCommand parser, in reverse order of escaping). */
function unescapeProperty(s: string): string {
  return s.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%3A', ':').replaceAll('%2C', ',').replaceAll('%25', '%');
}

function unescapeData(s: string): string {
  return s.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%25', '%');
}

const paths = { outdir: '/w/reports', junit: '/w/reports/junit.xml', json: '/w/reports/summary.json' };

function failing(n: number): GateRun {
  const cases: GateCase[] = [];
  for (let i = 1; i <= n; i++) {
    cases.push(
      gateCase({ index: i, id: `6.4.${i}`, status: 'failed', reason: `reason ${i}: a, b: c %`, result: { ...referenceResult('6.12.7'), behavior: 'FAILED' } }),
    );
  }
  return { ...sampleRun(), cases };
}

describe('workflow-command escaping', () => {
  test('the table of escapes', () => {
    assert.equal(escapeData('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext: a, b');
    assert.equal(escapeProperty('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext%3A a%2C b');
    assert.equal(escapeProperty('%0A'), '%250A');
  });

  test('escaped text has no line break, a property no ":" or ","; unescaping gives the text back', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const data = escapeData(s);
        const prop = escapeProperty(s);
        assert.ok(!/[\r\n]/.test(data));
        assert.ok(!/[\r\n:,]/.test(prop));
        assert.equal(unescapeData(data), s);
        assert.equal(unescapeProperty(prop), s);
      }),
      { numRuns: 500 },
    );
  });
});

describe('annotations', () => {
  test('one ::error per cause, with escaped title and message', () => {
    const lines = annotations(sampleRun());
    // sampleRun has two failed cases of two causes: one with verdicts, one without a result.
    assert.equal(lines.length, 2);
    // The message: the case, the requirement, then wsgate's explanation and the case's report.
    assert.match(
      lines[0] ?? '',
      /^::error title=wsgate%3A invalid UTF-8 in a text message%3A unexpected message::Case 6\.12\.7 failed for agent My Agent\/1\.0%0ARFC 6455 §8\.1, §7\.4\.1: [^%]*%0AInvalid UTF-8 in a text message: unexpected message\. wsgate sent a text message [^%]*The peer sent a text message 0x80bf80bf80bf, which the case does not expect\. Ending: the peer closed first[^%]*%0AReport: my_agent_1_0_x_case_6_12_7\.html$/,
    );
    assert.match(lines[1] ?? '', /^::error title=wsgate%3A no result[^:]*::Case 1\.1\.2 failed for agent My Agent\/1\.0%0A/);
  });

  test('one cause of many cases is one annotation, naming them', () => {
    const lines = annotations(failing(25));
    assert.equal(lines.length, 1);
    assert.match(
      lines[0] ?? '',
      /^::error title=wsgate%3A [^:]+ \(25 cases\)::25 cases failed for agent My Agent\/1\.0: 6\.4\.1–6\.4\.25%0A.*%0AFirst, 6\.4\.1: /,
    );
  });

  test('at most 10 errors, the largest causes first, then one notice with the causes left', () => {
    // One cause of 5 cases, and 11 failing cases no cause explains (each its own): 12 in all.
    const run = failing(5);
    for (let i = 1; i <= 11; i++) {
      run.cases.push(
        gateCase({ index: 5 + i, id: `9.1.${i}`, status: 'failed', reason: `slow ${i}`, result: { ...referenceResult('6.12.7'), id: `9.1.${i}` } }),
      );
    }
    const lines = annotations(run);
    const errors = lines.filter((l) => l.startsWith('::error '));
    assert.equal(errors.length, 10);
    assert.match(errors[0] ?? '', /\(5 cases\)::5 cases failed for agent My Agent\/1\.0: 6\.4\.1–6\.4\.5/);
    assert.match(errors[1] ?? '', /^::error title=wsgate%3A 9\.1\.1%3A OK \/ OK::Case 9\.1\.1 failed for agent My Agent\/1\.0%0Aslow 1/);
    const more = lines.filter((l) => l.startsWith('::notice '));
    assert.equal(more.length, 1);
    assert.match(more[0] ?? '', /::and 2 more causes \(2 failing cases\): 9\.1\.10: OK \/ OK \(1\); 9\.1\.11: OK \/ OK \(1\)/);
    for (const l of lines) assert.ok(!l.includes('\n'));
    assert.deepEqual(annotations(failing(0)), []);
  });

  test('any reason stays one command line (property test)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (reason, agent) => {
        const run = { ...failing(1), agent };
        const c = run.cases[0];
        if (c !== undefined) c.reason = reason;
        for (const l of annotations(run)) {
          assert.ok(!/[\r\n]/.test(l));
          const title = /^::error title=([^:]*)::/.exec(l);
          assert.ok(title !== null, l);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('job summary', () => {
  test('totals, failing cases with reasons, a table per group', () => {
    const md = jobSummary(sampleRun(), paths);
    assert.match(md, /^## ❌ wsgate: My Agent\/1\.0 failed\n/);
    assert.match(md, /\*\*4 cases: 1 passed, 2 failed, 1 skipped\*\*/);
    assert.match(
      md,
      /### Failing cases \(2\)\n\n\| Case \| Verdicts \| Why \|\n\| --- \| --- \| --- \|\n\| 6\.12\.7 \| FAILED \/ OK \| the peer sent a text message 0x80bf80bf80bf, which the case does not expect — RFC 6455 §8\.1, §7\.4\.1 \|\n\| 1\.1\.2 \| no result \| the client did not connect within 30 s; it was killed — no RFC requirement \(a fault of the run\) \|/,
    );
    // The causes come first, each once, with its cases and the requirement it breaks.
    assert.match(
      md,
      /### Failures by cause \(2\)\n\n\| Cause \| Cases \| Requirement \|\n\| --- \| --- \| --- \|\n\| invalid UTF-8 in a text message: unexpected message \| 1: 6\.12\.7 \| RFC 6455 §8\.1, §7\.4\.1: [^|]+\|\n\| no result: the client never connected \| 1: 1\.1\.2 \|/,
    );
    assert.match(md, /<details open><summary>6 UTF-8 Handling: 1\/2 passed, 1 failed<\/summary>/);
    assert.match(md, /<details open><summary>1 Framing: 0\/2 passed, 1 failed<\/summary>/);
    assert.match(md, /\| 6\.9\.2 \| ✅ pass \| OK \/ OK \|/);
    assert.match(md, /`\/w\/reports\/index\.html`/);
  });

  test('a passing run says so and opens no group', () => {
    const run = { ...sampleRun(), cases: [gateCase({ id: '6.9.2', result: referenceResult('6.9.2') })] };
    const md = jobSummary(run, paths);
    assert.match(md, /^## ✅ wsgate: My Agent\/1\.0 passed/);
    assert.doesNotMatch(md, /Failing cases/);
    assert.doesNotMatch(md, /<details open>/);
  });

  test('baseline notes: accepted failures with both reasons, removable entries', () => {
    const run = sampleRun();
    run.cases.push(
      gateCase({
        id: '7.1.1',
        status: 'skipped',
        reason: 'accepted',
        baseline: { state: 'accepted', pattern: '7.*', reason: 'known: close codes', failure: 'closing WRONG CODE: x' },
      }),
      gateCase({ id: '7.1.2', status: 'passed', baseline: { state: 'passing', pattern: '7.*', reason: 'known: close codes', failure: null } }),
    );
    const md = jobSummary(run, paths);
    assert.match(md, /1 accepted by the baseline, 1 baselined but passing/);
    assert.match(md, /### Accepted failures \(baseline, 1\)[\s\S]*\| 7\.1\.1 \| no result \| known: close codes \| closing WRONG CODE: x \|/);
    assert.match(md, /### Can be removed from the baseline \(1\)\n\n- 7\.1\.2 passes now \(baseline entry `7\.\*`: known: close codes\)/);
    assert.match(md, /\| 7\.1\.1 \| ⚠️ accepted \|/);
  });

  test('cells cannot break the table or inject HTML', () => {
    const run = failing(1);
    const c = run.cases[0];
    if (c !== undefined) c.reason = 'a | b <script>alert(1)</script>\nnext & line';
    const md = jobSummary(run, paths);
    assert.match(md, /\| a \\\| b &lt;script&gt;alert\(1\)&lt;\/script&gt; next &amp; line \|/);
    assert.doesNotMatch(md, /<script>/);
  });

  test('cut under the size limit with a note, and every group still closed', () => {
    const big = failing(517);
    for (const c of big.cases) c.reason = 'x'.repeat(280);
    const full = jobSummary(big, paths);
    assert.ok(Buffer.byteLength(full) < SUMMARY_LIMIT_BYTES);
    assert.doesNotMatch(full, /The summary was cut/);
    for (const limit of [2000, 20_000, 100_000]) {
      const md = jobSummary(big, paths, limit);
      assert.ok(Buffer.byteLength(md) <= limit, `${Buffer.byteLength(md)} > ${limit}`);
      assert.match(md, /The summary was cut to stay under GitHub's \d+ KiB limit/);
      assert.equal((md.match(/<details/g) ?? []).length, (md.match(/<\/details>/g) ?? []).length);
    }
  });

  test('runCounts agrees with the summary line', () => {
    const k = runCounts(sampleRun());
    assert.deepEqual(k, { total: 4, passed: 1, failed: 2, skipped: 1, accepted: 0, baselinePassing: 0, result: 'fail' });
  });
});

describe('$GITHUB_OUTPUT', () => {
  /** The runner's reading of the file (name<<DELIM ... DELIM). */
  function parseOutputs(text: string): Record<string, string> {
    const out: Record<string, string> = {};
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? '');
      if (m === null) continue;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i] ?? '');
      out[m[1] ?? ''] = value.join('\n');
    }
    return out;
  }

  test('every value in the heredoc form, read back unchanged, even one holding the delimiter', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z][a-z-]{0,10}$/), fc.string()), (values) => {
        assert.deepEqual(parseOutputs(outputLines(values)), { ...values });
      }),
      { numRuns: 200 },
    );
    let n = 0;
    const text = outputLines({ tricky: 'a\nDELIM\nb' }, () => (n++ === 0 ? 'DELIM' : `D${n}`));
    assert.deepEqual(parseOutputs(text), { tricky: 'a\nDELIM\nb' });
  });
});

describe('paths in the job summary', () => {
  test('relative to the workspace when inside it, as given otherwise; the step outputs keep them whole', async () => {
    const inside = { outdir: '/w/lib/reports', junit: '/w/lib/reports/junit.xml', json: '/elsewhere/summary.json' };
    assert.deepEqual(shownPaths(inside, '/w/lib'), { outdir: 'reports', junit: 'reports/junit.xml', json: '/elsewhere/summary.json' });
    assert.deepEqual(shownPaths(inside, undefined), inside);
    assert.deepEqual(shownPaths({ ...inside, outdir: 'reports' }, '/w/lib').outdir, 'reports');
    const dir = await mkdtemp(path.join(tmpdir(), 'wsgate-test-'));
    try {
      const env = { GITHUB_WORKSPACE: '/w/lib', GITHUB_STEP_SUMMARY: path.join(dir, 'summary.md'), GITHUB_OUTPUT: path.join(dir, 'out') };
      await publishToGithub(sampleRun(), inside, env, new PassThrough());
      const md = await readFile(env.GITHUB_STEP_SUMMARY, 'utf8');
      assert.match(md, /Reports: `reports\/index\.html`, JUnit `reports\/junit\.xml`, summary `\/elsewhere\/summary\.json`/);
      assert.doesNotMatch(md, /\/w\/lib/);
      assert.match(await readFile(env.GITHUB_OUTPUT, 'utf8'), /reports-directory<<[^\n]+\n\/w\/lib\/reports\n/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
