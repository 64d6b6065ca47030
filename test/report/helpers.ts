/** Shared fixtures for the report tests: the reference reports, a gate run, and small HTML/XML readers. */
import type { CaseResult, GateCase, GateRun } from '../../src/model/report.js';
import { referenceReportText } from '../support/autobahn-reference.js';

/** The reference report parsed into the model (a fresh copy each call). */
export function referenceResult(id: '6.9.2' | '6.12.7'): CaseResult {
  return JSON.parse(referenceReportText(id)) as CaseResult;
}

/** Text content of an HTML fragment: tags dropped, the entities the renderers emit decoded. */
export function textContent(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(
      /&(lt|gt|quot|#39|amp|larr|middot|ldquo|rdquo);/g,
      (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&', larr: '←', middot: '·', ldquo: '“', rdquo: '”' })[e] ?? '',
    );
}

/** Inner HTML of the first element with this id (elements of that tag name must not nest). */
export function elementById(html: string, id: string): string {
  const open = new RegExp(`<([a-z0-9]+)[^>]*\\bid="${id}"[^>]*>`).exec(html);
  if (open === null) throw new Error(`no element with id ${id}`);
  const tag = open[1] ?? '';
  const start = open.index + open[0].length;
  const end = html.indexOf(`</${tag}>`, start);
  if (end < 0) throw new Error(`element ${id} is not closed`);
  return html.slice(start, end);
}

/** One gate case with sensible defaults. */
export function gateCase(over: Partial<GateCase> & Pick<GateCase, 'id'>): GateCase {
  return {
    index: 1,
    origin: 'autobahn',
    category: 'UTF-8 Handling',
    subcategory: 'Last possible sequence of a certain length',
    description: 'Send a text message with payload which is valid UTF-8 in one fragment.<br><br>Payload: 0xdfbf',
    status: 'passed',
    reason: '',
    warnings: [],
    timeMs: 14,
    result: null,
    client: null,
    reportBase: null,
    ...over,
  };
}

/** A run with one case of each status (passed, failed, skipped, error) across two groups. */
export function sampleRun(): GateRun {
  const pass = referenceResult('6.9.2');
  const fail: CaseResult = {
    ...referenceResult('6.12.7'),
    behavior: 'FAILED',
    result: 'Actual events differ from any expected.',
    received: [['message', '0x80bf80bf80bf', false]],
  };
  return {
    agent: 'My Agent/1.0',
    startedAt: '2026-11-21T23:27:12.000Z',
    durationMs: 1234,
    strict: false,
    interrupted: null,
    resources: { cpuUserMs: 120, cpuSystemMs: 30, maxRssKiB: 65536, clientCpuMs: 900 },
    cases: [
      gateCase({ index: 1, id: '6.9.2', result: pass, reportBase: 'my_agent_1_0_x_case_6_9_2' }),
      gateCase({
        index: 2,
        id: '6.12.7',
        status: 'failed',
        reason: 'behavior FAILED: the peer echoed invalid UTF-8',
        description: 'Send a text message with payload which is not valid UTF-8 in one fragment.<br><br>Payload: 0x80bf80bf80bf',
        result: fail,
        reportBase: 'my_agent_1_0_x_case_6_12_7',
        client: {
          command: 'node client.js',
          exitCode: 1,
          signal: null,
          timedOut: false,
          spawnError: null,
          output: 'boom\u0007 ]]> done',
          outputTruncated: false,
        },
      }),
      gateCase({
        index: 3,
        id: '1.1.1',
        category: 'Framing',
        subcategory: 'Text Messages',
        description: 'Send text message with payload 0.',
        status: 'skipped',
        reason: 'run interrupted by SIGINT',
        timeMs: 0,
      }),
      gateCase({
        index: 4,
        id: '1.1.2',
        category: 'Framing',
        subcategory: 'Text Messages',
        description: 'Send text message message with payload of length 125.',
        status: 'failed',
        reason: 'the client did not connect within 30 s; it was killed',
        warnings: ['client exited with status 3'],
        timeMs: 2.5,
      }),
    ],
  };
}

/**
 * A small XML well-formedness check: tags balance, attributes are name="value" with no raw "<",
 * text holds no raw "<" and only known entities; returns the element names in document order.
 */
export function checkWellFormedXml(xml: string): string[] {
  const names: string[] = [];
  const stack: string[] = [];
  let i = 0;
  const decl = /^<\?xml [^?]*\?>/.exec(xml);
  if (decl !== null) i = decl[0].length;
  const text = (s: string): void => {
    if (s.includes('<') || s.includes('>')) throw new Error(`raw markup character in text: ${s.slice(0, 40)}`);
    if (/&(?!(?:lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(s)) throw new Error(`bad entity in: ${s.slice(0, 40)}`);
  };
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) {
      text(xml.slice(i));
      break;
    }
    text(xml.slice(i, lt));
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt);
      if (end < 0) throw new Error('unterminated CDATA');
      i = end + 3;
      continue;
    }
    const tagRe = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/y;
    tagRe.lastIndex = lt;
    const m = tagRe.exec(xml);
    if (m === null) throw new Error(`malformed tag at ${xml.slice(lt, lt + 60)}`);
    const name = m[2] ?? '';
    if (m[1] === '/') {
      if ((m[3] ?? '') !== '' || m[4] === '/' || stack.pop() !== name) throw new Error(`mismatched </${name}>`);
    } else {
      for (const a of (m[3] ?? '').matchAll(/="([^"]*)"/g)) text((a[1] ?? '').replace(/>/g, ''));
      names.push(name);
      if (m[4] !== '/') stack.push(name);
    }
    i = tagRe.lastIndex;
  }
  if (stack.length > 0) throw new Error(`unclosed elements: ${stack.join(', ')}`);
  return names;
}
