/**
 * matrix.json: the matrix's content, per implementation and role, read back from each row's
 * summary.json (the run's own contract), so a run and a merge of shards build it the same way.
 * Nothing in it depends on timing: the same cases and peers give the same file but for
 * `generatedAt` and `machine`.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunSummary } from '../model/summary.js';
import { catalogueFor } from '../catalogue/registry.js';
import { inQuickSample } from '../cases/quick.js';
import type { CatalogueCase } from '../cases/types.js';
import { compareIds, selectCases } from '../cases/select.js';
import { VERSION } from '../version.js';
import { type PlannedRow, type Role, unsupportedOf } from './rows.js';

/** A case's place in a row: the gate's status, or unsupported (the implementation says it cannot play it). */
export type MatrixVerdict = 'passed' | 'failed' | 'skipped' | 'unsupported';

export interface MatrixCounts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  unsupported: number;
}

/** One case of a row: the verdict pair Autobahn gives, the gate's verdict, and why it failed (its cause's title). */
export interface MatrixCase {
  id: string;
  verdict: MatrixVerdict;
  behavior: string | null;
  behaviorClose: string | null;
  cause: string | null;
  /** The case's page in the row's report directory (NAME_case_1_1_1.html); null when it was not run. */
  page: string | null;
}

export interface MatrixRow {
  name: string;
  title: string;
  language: string;
  homepage: string;
  role: Role;
  /** The installed version, or null: not installed (nothing else of the row is filled). */
  version: string | null;
  /** The release this row ran (`--versions`; its version is still read from the installed package), or null. */
  release: string | null;
  installed: boolean;
  /** The shell lines that install it. */
  install: string;
  /** Case patterns this role cannot play (not run; "unsupported"). */
  unsupported: string[];
  /** The row's report directory, relative to the matrix's (null when it did not run). */
  reportDir: string | null;
  counts: MatrixCounts | null;
  /** Per case group (the id's first number): its counts. */
  groups: Record<string, MatrixCounts>;
  /** The failing cases by cause, most cases first. */
  causes: Array<{ key: string; title: string; cases: string[] }>;
  cases: MatrixCase[];
  /** Why the row could not run (its run's one-line reason: a client command that never connected, bad arguments), or null. */
  error: string | null;
}

export interface MatrixFile {
  wsgate: string;
  generatedAt: string;
  machine: { hostname: string; platform: string; release: string; arch: string; cpu: string; cpus: number; node: string };
  /** The cases asked for (null: every case), the quick profile, and the shard this matrix covered (null: all of it). */
  selection: { cases: string[] | null; quick: boolean; shard: { index: number; count: number } | null };
  rows: MatrixRow[];
}

export function machine(): MatrixFile['machine'] {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    platform: os.platform(),
    release: os.release(),
    arch: os.arch(),
    cpu: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    node: process.version,
  };
}

export function matrixFile(selection: MatrixFile['selection'], rows: MatrixRow[], on: MatrixFile['machine'] = machine()): MatrixFile {
  return { wsgate: VERSION, generatedAt: new Date().toISOString(), machine: on, selection, rows };
}

/** What a row is, whether it ran or not. */
export type RowHead = Pick<MatrixRow, 'name' | 'title' | 'language' | 'homepage' | 'role' | 'version' | 'release' | 'installed' | 'install' | 'unsupported'>;

/** A row that is not installed: listed with its install, not run. */
export function notInstalledRow(head: RowHead): MatrixRow {
  return { ...head, reportDir: null, counts: null, groups: {}, causes: [], cases: [], error: null };
}

/** A row that is installed but could not run: listed with the reason, no counts. */
export function failedRow(head: RowHead, error: string): MatrixRow {
  return { ...notInstalledRow(head), error };
}

/**
 * A row that ran: its cases and causes from its report directory's summary.json (DIR/NAME-ROLE),
 * and the cases it cannot play, which were not run (none ran at all when it can play none).
 */
export function ranRow(head: RowHead, matrixDir: string, selection: MatrixFile['selection']): MatrixRow {
  const unsupported = unsupportedCases(head, selection);
  const file = path.join(matrixDir, rowKey(head), 'summary.json');
  const reportDir = existsSync(file) ? rowKey(head) : null;
  const summary: Pick<RunSummary, 'cases' | 'causes'> = reportDir === null ? { cases: [], causes: [] } : (JSON.parse(readFileSync(file, 'utf8')) as RunSummary);
  const played = summary.cases.map(
    (c): MatrixCase => ({
      id: c.id,
      verdict: c.status,
      behavior: c.behavior,
      behaviorClose: c.behaviorClose,
      cause: c.status === 'failed' ? (c.explanation?.cause.title ?? c.reason) : null,
      page: c.reportfile === null ? null : c.reportfile.replace(/\.json$/, '.html'),
    }),
  );
  const none = (id: string): MatrixCase => ({ id, verdict: 'unsupported', behavior: null, behaviorClose: null, cause: null, page: null });
  const cases = [...played, ...unsupported.map(none)].sort((a, b) => compareIds(a.id, b.id));
  return {
    ...head,
    reportDir,
    counts: countOf(cases),
    groups: groupsOf(cases),
    causes: summary.causes.map((g) => ({ key: g.key, title: g.title, cases: g.cases })),
    cases,
    error: null,
  };
}

export function rowHead(row: PlannedRow): RowHead {
  const { name, title, language, homepage } = row.impl;
  const unsupported = unsupportedOf(row.impl, row.role);
  const { version, release, install } = row;
  return { name, title, language, homepage, role: row.role, version, release, installed: version !== null, install, unsupported };
}

/** NAME-ROLE, NAME@RELEASE-ROLE for a release: a row's key and its report directory under the matrix's. */
export function rowKey(row: Pick<MatrixRow, 'name' | 'role'> & { release?: string | null }): string {
  const release = row.release ?? null;
  return `${row.name}${release === null ? '' : `@${release}`}-${row.role}`;
}

function countOf(cases: readonly MatrixCase[]): MatrixCounts {
  const n = (v: MatrixVerdict): number => cases.filter((c) => c.verdict === v).length;
  return { total: cases.length, passed: n('passed'), failed: n('failed'), skipped: n('skipped'), unsupported: n('unsupported') };
}

/**
 * The cases of the selection (every shard's: they are not run, so they belong to none) this row's
 * role cannot play. The plain catalogue of the role: --extended and --http2 in a row's arguments
 * do not add unsupported cases.
 */
export function unsupportedCases(head: Pick<RowHead, 'role' | 'unsupported'>, selection: MatrixFile['selection']): string[] {
  if (head.unsupported.length === 0) return [];
  return selectCases(selectedCases(head.role, selection), head.unsupported).map((c) => c.id);
}

/** The cases a matrix's selection gives a role (before any shard). */
export function selectedCases(role: Role, selection: MatrixFile['selection']): CatalogueCase[] {
  return selectCases(catalogueFor(false, role), selection.cases ?? []).filter((c) => !selection.quick || inQuickSample(c.id));
}

/** A case's group: the first number of its id ("7.9.6" is group 7). */
export function groupOf(id: string): string {
  return id.split('.')[0] ?? id;
}

function groupsOf(cases: readonly MatrixCase[]): Record<string, MatrixCounts> {
  const by = new Map<string, MatrixCase[]>();
  for (const c of cases) by.set(groupOf(c.id), [...(by.get(groupOf(c.id)) ?? []), c]);
  return Object.fromEntries([...by].map(([g, cs]) => [g, countOf(cs)]));
}
