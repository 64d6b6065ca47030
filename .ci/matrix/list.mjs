#!/usr/bin/env node
// The implementations the published matrix runs, one CI job each: every NAME of the registry
// (interop/implementations/NAME.json, in its order), or those asked for, checked against it.
//
//   .ci/matrix/list.mjs [NAME...]     default: $MATRIX_IMPLEMENTATIONS (names split on spaces or
//                                     commas), else every implementation
//
// Prints the names as a JSON array (a strategy.matrix list), and under GitHub Actions writes it to
// the step's outputs as `names`. Reads the folder only (no build needed). Exit 2: an unknown name.
import { appendFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const registry = readdirSync(path.join(ROOT, 'interop/implementations'))
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => f.slice(0, -'.json'.length));
const args = process.argv.slice(2);
const asked = (args.length > 0 ? args : (process.env.MATRIX_IMPLEMENTATIONS ?? '').split(/[\s,]+/)).filter((n) => n !== '');
const unknown = asked.filter((n) => !registry.includes(n));
if (unknown.length > 0) {
  process.stderr.write(`matrix-list: no implementation ${unknown.join(', ')} in interop/implementations/ (known: ${registry.join(' ')})\n`);
  process.exit(2);
}
const names = asked.length === 0 ? registry : registry.filter((n) => asked.includes(n));
const json = JSON.stringify(names);
process.stdout.write(`${json}\n`);
if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `names=${json}\n`);
