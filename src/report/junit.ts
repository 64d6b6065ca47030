/**
 * JUnit XML for CI: one <testsuite> per case group, one <testcase> per selected case, verdicts as
 * failure/skipped/error, and a bounded frame log (hex/ASCII only) in <system-out>.
 */
import { explanationOf } from '../explain/run.js';
import junitReportBuilder from 'junit-report-builder';
import { fragmentToText } from './escape.js';
import type { GateCase, GateRun } from '../model/report.js';
import { pyJsonString } from './pyjson.js';
import { limitString, pyRepr, pyStr } from './python-repr.js';
import { wirelogLines } from './wirelog.js';

/** The parts of xmlbuilder's element we touch (to add the skip message the builder has no API for). */
interface XmlElement {
  readonly name?: string;
  readonly children?: readonly XmlElement[];
  att(name: string, value: string): XmlElement;
}

/** The parts of junit-report-builder 5 used here (its own typings do not declare the xmlbuilder elements). */
interface JunitCase {
  className(name: string): JunitCase;
  name(name: string): JunitCase;
  time(seconds: number): JunitCase;
  failure(message?: string, type?: string): JunitCase;
  error(message?: string, type?: string, content?: string): JunitCase;
  stacktrace(text?: string): JunitCase;
  skipped(): JunitCase;
  standardOutput(text?: string): JunitCase;
  standardError(text?: string): JunitCase;
  property(name: string, value: string): JunitCase;
  build(parent?: XmlElement): XmlElement;
}

interface JunitSuite {
  name(name: string): JunitSuite;
  time(seconds: number): JunitSuite;
  timestamp(value: string): JunitSuite;
  property(name: string, value: string): JunitSuite;
  testCase(): JunitCase;
}

interface JunitBuilder {
  name(name: string): JunitBuilder;
  testSuite(): JunitSuite;
  build(): string;
  newBuilder(): JunitBuilder;
}

// Loaded once; every junitXml call takes a fresh builder from it, so runs never share state.
const junitBuilder = junitReportBuilder as unknown as JunitBuilder;

const MAX_LOG_LINES = 64;
const MAX_LOG_BYTES = 8 * 1024;
const LOG_HEAD_LINES = 16;
const MAX_CLIENT_OUTPUT = 8 * 1024;
const MAX_NAME_TEXT = 120;
const MAX_MESSAGE = 500;

/** Lowercase [a-z0-9_] only (runs of anything else → one "_"), so classnames split on their single dot. */
function slug(s: string, fallback: string): string {
  const out = s
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return out === '' ? fallback : out;
}

function categoryLabel(c: GateCase): string {
  const group = c.id.split('.')[0] ?? '';
  return c.category.startsWith(`${group} `) ? c.category : `${group} ${c.category || 'Misc'}`;
}

// The builder silently drops control characters and lone surrogates: show them as escapes instead.
function visible(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

function oneLine(s: string, max = MAX_MESSAGE): string {
  return limitString(visible(s.replace(/\s+/g, ' ').trim()), max, '...');
}

// "]]>" would end the builder's CDATA section early (it only splits the first one).
function cdataSafe(s: string): string {
  return visible(s).replaceAll(']]>', ']] >');
}

function testName(c: GateCase): string {
  const firstLine = fragmentToText(c.description).split('\n')[0] ?? '';
  const text = oneLine(firstLine, MAX_NAME_TEXT);
  return text === '' ? c.id : `${c.id} ${text}`;
}

function asciiPayload(s: string): string {
  // Printable ASCII as is; anything else as an escaped (ASCII-only) string literal.
  return /^[\x20-\x7e]*$/.test(s) ? s : pyJsonString(s);
}

function frameLog(c: GateCase): string {
  if (c.result === null) return '';
  const lines = wirelogLines(c.result, asciiPayload).map((l) => l.text);
  let kept = lines;
  let omitted = 0;
  if (lines.length > MAX_LOG_LINES) {
    // The opening and the end (where the closing happens) say the most.
    const tail = MAX_LOG_LINES - LOG_HEAD_LINES - 1;
    omitted = lines.length - LOG_HEAD_LINES - tail;
    kept = [...lines.slice(0, LOG_HEAD_LINES), `... ${omitted} lines omitted ...`, ...lines.slice(-tail)];
  }
  let text = kept.join('\n');
  if (Buffer.byteLength(text) > MAX_LOG_BYTES) {
    text = Buffer.from(text)
      .subarray(0, MAX_LOG_BYTES)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    text = `${text.slice(0, text.lastIndexOf('\n') + 1)}... frame log cut at 8 KiB ...`;
  }
  const more = c.reportBase === null ? '' : ` (full log: ${c.reportBase}.html)`;
  return `Frame log${more}:\n${text}`;
}

function clientText(c: GateCase): string {
  const cl = c.client;
  if (cl === null) return '';
  const how =
    cl.spawnError !== null
      ? `could not start: ${cl.spawnError}`
      : `exit code: ${pyStr(cl.exitCode)}, signal: ${pyStr(cl.signal)}, timed out: ${pyStr(cl.timedOut)}`;
  return `Client: ${cl.command} | ${how}`;
}

function clientOutput(c: GateCase): string {
  const cl = c.client;
  if (cl === null || cl.output === '') return '';
  let out = cl.output;
  let cut = cl.outputTruncated;
  if (out.length > MAX_CLIENT_OUTPUT) {
    out = out.slice(-MAX_CLIENT_OUTPUT);
    cut = true;
  }
  return `Client output${cut ? ' (last part only)' : ''}:\n${out}`;
}

function failureBody(c: GateCase): string {
  const r = c.result;
  const why = explanationOf(c);
  const lines = [`Case ${c.id}: ${c.reason || 'failed'}`, ...(why !== null && r !== null ? [`Why: ${why.text}`] : [])];
  if (r !== null) {
    lines.push(
      `behavior: ${r.behavior} - ${r.result}`,
      `behaviorClose: ${r.behaviorClose} - ${r.resultClose}`,
      `Expected: ${limitString(pyRepr(r.expected))}`,
      `Observed: ${limitString(pyRepr(r.received))}`,
      `remoteCloseCode: ${pyStr(r.remoteCloseCode)}, remoteCloseReason: ${pyRepr(r.remoteCloseReason)}, wasClean: ${pyStr(r.wasClean)}, wasNotCleanReason: ${pyStr(r.wasNotCleanReason)}`,
    );
  } else if (c.status === 'failed') {
    // A server under test has no client process: the reason says why there is no result.
    lines.push(c.client === null && c.reason !== '' ? `No result: ${c.reason}` : 'No result: the client never completed a WebSocket connection for this case.');
  } else {
    lines.push('No case result was recorded.');
  }
  const client = clientText(c);
  if (client !== '') lines.push(client);
  if (c.reportBase !== null) lines.push(`Report: ${c.reportBase}.html`);
  return lines.join('\n');
}

function seconds(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) / 1000 : 0;
}

/** The JUnit XML of a gate run (a fresh builder per call). */
export function junitXml(run: GateRun): string {
  const builder = junitBuilder.newBuilder();
  builder.name(`wsgate ${visible(run.agent)}`);
  // One suite per case group, and per agent when a run tests several servers.
  const groups = new Map<string, { agent: string; label: string; cases: GateCase[] }>();
  for (const c of run.cases) {
    const agent = c.agent ?? run.agent;
    const label = categoryLabel(c);
    const key = `${agent}\u0000${label}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { agent, label, cases: [c] });
    else group.cases.push(c);
  }
  for (const { agent, label, cases } of groups.values()) {
    const agentSlug = slug(agent, 'agent');
    const suite = builder
      .testSuite()
      .name(`${visible(agent)} · ${visible(label)}`)
      .timestamp(run.startedAt);
    suite.time(seconds(cases.reduce((sum, c) => sum + c.timeMs, 0)));
    suite.property('strict', String(run.strict));
    if (run.interrupted !== null) suite.property('interrupted', run.interrupted);
    // wsgate's own groups (not in Autobahn|Testsuite) say so in the classname and a property.
    const own = cases[0]?.origin === 'wsgate';
    if (own) suite.property('origin', 'wsgate');
    const className = `${agentSlug}.${slug(label, 'misc')}${own ? '_wsgate' : ''}`;
    for (const c of cases) addTestCase(suite.testCase().className(className), c, own, run.interrupted !== null);
  }
  return builder.build();
}

/**
 * One case as a testcase: properties, failure or skipped, the frame log and client output. In a run
 * that was interrupted or cut short, a case it kept from running is an <error>: every JUnit reader
 * shows the run red, as its exit status is.
 */
function addTestCase(tc: JunitCase, c: GateCase, own: boolean, cutShort: boolean): void {
  tc.name(testName(c)).time(seconds(c.timeMs));
  tc.property('status', c.status);
  if (own) tc.property('origin', 'wsgate');
  if (c.result !== null) {
    tc.property('behavior', c.result.behavior);
    tc.property('behaviorClose', c.result.behaviorClose);
    tc.property('remoteCloseCode', pyStr(c.result.remoteCloseCode));
  }
  if (c.reportBase !== null) tc.property('report', `${c.reportBase}.html`);
  for (const w of c.warnings) tc.property('warning', oneLine(w));
  if (c.status === 'failed') {
    const type = c.result === null ? 'CLIENT' : `${c.result.behavior}/${c.result.behaviorClose}`;
    // The message is wsgate's explanation where the case has a result (Autobahn's texts stay in the body).
    const why = c.result === null ? null : explanationOf(c);
    tc.failure(oneLine(why?.text ?? (c.reason || type)), type).stacktrace(cdataSafe(failureBody(c)));
  } else if (cutShort && c.status === 'skipped' && c.result === null && c.notRun !== undefined) {
    tc.error(oneLine(c.reason), 'NOT RUN');
  } else if (c.status === 'skipped') {
    skipWithMessage(tc, oneLine(c.reason || 'skipped'));
  }
  const out = [frameLog(c), clientText(c), clientOutput(c)].filter((s) => s !== '').join('\n\n');
  if (out !== '') tc.standardOutput(cdataSafe(out));
  if (c.warnings.length > 0) tc.standardError(cdataSafe(c.warnings.map((w) => `warning: ${w}`).join('\n')));
}

/** <skipped message="...">: the builder writes a bare <skipped/>, and CI tools show the message attribute. */
function skipWithMessage(tc: JunitCase, message: string): void {
  tc.skipped();
  const build = tc.build.bind(tc);
  tc.build = (parent?: XmlElement): XmlElement => {
    const el = build(parent);
    for (const child of el.children ?? []) if (child.name === 'skipped') child.att('message', message);
    return el;
  };
}
