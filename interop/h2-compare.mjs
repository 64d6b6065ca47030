#!/usr/bin/env node
/**
 * Case-by-case comparison of a run over HTTP/2 through a proxy with the same peer over HTTP/1.1:
 * counts by verdict pair on each side, then one line per case whose verdicts differ, with what its
 * report says about the ending (wasClean, wasNotCleanReason) and wsgate's explanation. Markdown, for
 * interop/README.md.
 *
 *   node interop/h2-compare.mjs BASELINE-DIR PROXIED-DIR [TITLE]   (each holding summary.json)
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [baseDir, proxiedDir, title] = process.argv.slice(2);
if (baseDir === undefined || proxiedDir === undefined) {
  process.stderr.write('usage: node interop/h2-compare.mjs BASELINE-DIR PROXIED-DIR [TITLE]\n');
  process.exit(2);
}

const load = (dir) => JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8'));
const verdict = (c) => (c.behavior === c.behaviorClose ? c.behavior : `${c.behavior} / ${c.behaviorClose}`);
/** The case report's ending, as Autobahn's report names it. */
function ending(dir, c) {
  const file = path.join(dir, c.reportfile ?? '');
  if (c.reportfile == null || !existsSync(file)) return '';
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const reason = r.wasNotCleanReason == null ? '' : `, wasNotCleanReason: ${r.wasNotCleanReason}`;
  return `wasClean ${r.wasClean}, remoteCloseCode ${r.remoteCloseCode}${reason}`;
}
function counts(summary) {
  const n = new Map();
  for (const c of summary.cases) n.set(verdict(c), (n.get(verdict(c)) ?? 0) + 1);
  return [...n]
    .sort((a, b) => b[1] - a[1])
    .map(([v, k]) => `${k} ${v}`)
    .join(', ');
}

const base = load(baseDir);
const proxied = load(proxiedDir);
const byId = new Map(base.cases.map((c) => [c.id, c]));
const out = [];
out.push(`### ${title ?? proxiedDir}`, '');
out.push(`- HTTP/1.1 (${base.cases.length} cases): ${counts(base)}`);
out.push(`- through the proxy (${proxied.cases.length} cases): ${counts(proxied)}`);
const differing = proxied.cases.filter((c) => byId.has(c.id) && verdict(byId.get(c.id)) !== verdict(c));
out.push(`- differing: ${differing.length}`, '');
if (differing.length > 0) {
  out.push('| case | HTTP/1.1 | through the proxy | ending through the proxy | explanation |', '|---|---|---|---|---|');
  for (const c of differing) {
    const e = c.explanation;
    const why = e == null ? '' : `${e.cause?.title ?? ''}: ${e.peerDid ?? ''}; ${e.ending ?? ''}`.replaceAll('|', '\\|');
    out.push(`| ${c.id} | ${verdict(byId.get(c.id))} | ${verdict(c)} | ${ending(proxiedDir, c).replaceAll('|', '\\|')} | ${why} |`);
  }
}
// Same verdicts, different endings (a proxy's reset that the verdict forgives, e.g. an informational case).
const endings = proxied.cases.filter(
  (c) => byId.has(c.id) && verdict(byId.get(c.id)) === verdict(c) && ending(baseDir, byId.get(c.id)) !== ending(proxiedDir, c),
);
out.push('', `- same verdict, different ending: ${endings.length}`);
for (const c of endings) out.push(`  - ${c.id} (${verdict(c)}): HTTP/1.1 ${ending(baseDir, byId.get(c.id))}; through the proxy ${ending(proxiedDir, c)}`);
process.stdout.write(`${out.join('\n')}\n`);
