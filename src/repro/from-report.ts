/**
 * `wsgate repro CASE --from DIR`: finds the case's report and recording in a report directory and
 * makes its repro script. Every way this can fail is a UsageError of one line (exit 2).
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { everyCase } from '../catalogue/registry.js';
import { UsageError } from '../errors.js';
import { agentFileBase, caseReportBase, resolveInside } from '../report/files.js';
import { passedBothAxes } from './keeper.js';
import { type ReproData, readRecording, recordingPath, REPRO_DATA_DIR } from './recording-file.js';
import { reproScript, type RunReport } from './script.js';

/** What `wsgate repro` was asked. */
export interface ReproRequest {
  caseId: string;
  from: string;
  agent: string | null;
}

interface IndexEntry {
  behavior: string;
  behaviorClose: string;
  reportfile: string;
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message.split('\n')[0] ?? ''}`);
  }
}

/** The agent and index entry of the case (--agent chooses when several agents ran it). */
function pickEntry(index: Record<string, Record<string, IndexEntry> | undefined>, req: ReproRequest, dir: string): { agent: string; entry: IndexEntry } {
  const agents = Object.keys(index).filter((a) => index[a]?.[req.caseId] !== undefined);
  if (req.agent !== null) {
    const entry = index[req.agent]?.[req.caseId];
    if (entry === undefined)
      throw new UsageError(
        `no report of case ${req.caseId} for agent ${JSON.stringify(req.agent)} in ${dir}${agents.length > 0 ? ` (agents: ${agents.join(', ')})` : ''}`,
      );
    return { agent: req.agent, entry };
  }
  if (agents.length === 0) throw new UsageError(`no report of case ${req.caseId} in ${dir}`);
  if (agents.length > 1) throw new UsageError(`case ${req.caseId} ran against several agents in ${dir}: name one with --agent (${agents.join(', ')})`);
  const agent = agents[0] as string;
  return { agent, entry: index[agent]?.[req.caseId] as IndexEntry };
}

/** The script for the request, and a one-line description of it. */
export async function reproFromReport(req: ReproRequest): Promise<{ script: string; summary: string }> {
  const dir = path.resolve(req.from);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`no report directory ${dir}`);
  const indexFile = path.join(dir, 'index.json');
  if (!existsSync(indexFile)) throw new UsageError(`no index.json in ${dir}: not a report directory`);
  const index = (await readJson(indexFile)) as Record<string, Record<string, IndexEntry> | undefined>;
  const { agent, entry } = pickEntry(index, req, dir);
  const verdict = `${entry.behavior} / ${entry.behaviorClose}`;
  if (passedBothAxes(entry)) throw new UsageError(`case ${req.caseId} passed (${verdict}) for ${JSON.stringify(agent)}: nothing to reproduce`);
  const caseFile = path.join(dir, entry.reportfile);
  if (existsSync(caseFile) && ((await readJson(caseFile)) as { transport?: string }).transport === 'h2') {
    throw new UsageError(
      `case ${req.caseId} ran over HTTP/2 (RFC 8441): repro scripts replay HTTP/1.1 connections only (run the case without --http2 to get one)`,
    );
  }
  // Group 17's raw attacks run over several raw connections (sizes, timing, then a liveness check):
  // a repro script replays one WebSocket connection. Its scripted cases are one connection each.
  if (everyCase.find((c) => c.id === req.caseId)?.attack !== undefined) {
    throw new UsageError(
      `case ${req.caseId} is an attack of the robustness profile on several raw connections (growing sizes, timing, a liveness check): repro scripts replay one connection; replay it with: wsgate run --robustness --role server --server-url URL --cases ${req.caseId}`,
    );
  }
  if (!existsSync(path.join(dir, REPRO_DATA_DIR)))
    throw new UsageError(`the run in ${dir} kept no recording (wsgate run keeps one per non-passing case; wstest and older runs do not)`);
  // A run keeps a recording under the agent's own file prefix (reports of agents whose names clean
  // alike get a suffix only when all are written): the report's name first, then that one.
  const file = [recordingPath(dir, entry.reportfile.replace(/\.json$/, '')), recordingPath(dir, caseReportBase(agentFileBase(agent), req.caseId))].find((f) =>
    existsSync(f),
  );
  if (file === undefined)
    throw new UsageError(`no recording of case ${req.caseId} (${verdict}) for ${JSON.stringify(agent)} in ${path.join(dir, REPRO_DATA_DIR)}`);
  let data: ReproData;
  try {
    data = await readRecording(file);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const report = (await readJson(resolveInside(dir, entry.reportfile))) as RunReport;
  return {
    script: reproScript(data, report),
    summary: `case ${req.caseId} against ${JSON.stringify(agent)} (${data.role === 'client' ? 'a client' : 'a server'}), ${verdict} in the run`,
  };
}
