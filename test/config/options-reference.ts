/**
 * The reference of `wsgate run`'s options in docs/commands.md, rendered from the table
 * (src/config/options/table.ts): test/config/options.test.ts checks the page holds exactly this.
 * After changing the table: `npm run build && node dist/test/config/options-reference.js --write`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPTION_GROUPS, RUN_OPTIONS, type OptionSpec } from '../../src/config/options/table.js';

export const DOCS_FILE = fileURLToPath(new URL('../../../docs/commands.md', import.meta.url));
export const BEGIN = '<!-- options: generated from src/config/options/table.ts (node dist/test/config/options-reference.js --write) -->';
export const END = '<!-- options: end -->';

/** How the flag is written with its value. */
function usage(o: OptionSpec): string {
  const value = o.type === 'boolean' ? '' : o.choices !== undefined ? ` ${o.choices.join('\\|')}` : o.type === 'number' ? ' N' : ' VALUE';
  return `\`--${o.flag}${value}\`${o.array === true ? ' (repeatable)' : ''}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The generated part of the page: a table per `--help` section, in the table's order. */
export function optionsReference(options: readonly OptionSpec[] = RUN_OPTIONS): string {
  const parts: string[] = [];
  for (const [group, title] of Object.entries(OPTION_GROUPS)) {
    const rows = options.filter((o) => o.group === group);
    if (rows.length === 0) continue;
    parts.push(`### ${title}\n`, '| option | serve | Action input | what it does |', '|---|---|---|---|');
    for (const o of rows) {
      const input = 'input' in o.action ? `\`${o.action.input}\`` : `none: ${o.action.none}`;
      parts.push(`| ${usage(o)} | ${o.serve === true ? 'yes' : ''} | ${cell(input)} | ${cell(o.describe)} |`);
    }
    parts.push('');
  }
  return parts.join('\n');
}

/** The page's text between the markers, or null when a marker is missing. */
export function generatedPart(page: string): string | null {
  const begin = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (begin < 0 || end < begin) return null;
  return page.slice(begin + BEGIN.length, end).replace(/^\n/, '');
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--write') {
  const page = readFileSync(DOCS_FILE, 'utf8');
  if (generatedPart(page) === null) throw new Error(`${DOCS_FILE}: no ${BEGIN} ... ${END}`);
  const begin = page.indexOf(BEGIN) + BEGIN.length;
  writeFileSync(DOCS_FILE, `${page.slice(0, begin)}\n${optionsReference()}${page.slice(page.indexOf(END))}`);
}
