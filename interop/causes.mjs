#!/usr/bin/env node
/**
 * The causes of every non-OK verdict of the interop runs, one table per run directory, from the
 * explanations wsgate wrote into each peer's summary.json (failing cases and warnings alike:
 * NON-STRICT, INFORMATIONAL, UNIMPLEMENTED). Prints Markdown for interop/README.md.
 *
 *   node interop/causes.mjs reports/interop reports/interop-servers
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
// wsgate's own ranges (npm run build first, as interop/run.sh does).
import { idRanges as ranges } from '../dist/src/explain/causes.js';

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  process.stderr.write('usage: node interop/causes.mjs REPORT-DIR...  (each holding <peer>/summary.json)\n');
  process.exit(2);
}

for (const dir of dirs) {
  const peers = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'summary.json')));
  process.stdout.write(`\n### ${dir}\n\n| peer | cases | not OK | cause | which cases | requirement |\n|---|---:|---:|---|---|---|\n`);
  for (const peer of peers.map((e) => e.name).sort()) {
    const summary = JSON.parse(readFileSync(path.join(dir, peer, 'summary.json'), 'utf8'));
    const groups = new Map();
    let notOk = 0;
    for (const c of summary.cases) {
      const e = c.explanation;
      if (e === null || e === undefined) continue;
      notOk++;
      const verdict =
        c.status === 'failed'
          ? 'FAIL'
          : e.verdict.includes('NON-STRICT')
            ? 'non-strict'
            : e.verdict.includes('INFORMATIONAL')
              ? 'info'
              : e.verdict.includes('UNIMPLEMENTED')
                ? 'n/a'
                : c.status;
      const key = `${e.cause.key}\u0000${verdict}`;
      const g = groups.get(key) ?? { title: e.cause.title, verdict, requirement: e.requirement.rfc, ids: [] };
      g.ids.push(c.id);
      groups.set(key, g);
    }
    const rows = [...groups.values()].sort((a, b) => b.ids.length - a.ids.length);
    if (rows.length === 0) process.stdout.write(`| ${peer} | ${summary.cases.length} | 0 | – | | |\n`);
    rows.forEach((g, i) => {
      const head = i === 0 ? `| ${peer} | ${summary.cases.length} | ${notOk} ` : '| | | ';
      process.stdout.write(`${head}| ${g.verdict}: ${g.title} | ${g.ids.length}: ${ranges(g.ids)} | ${g.requirement} |\n`);
    });
  }
}
