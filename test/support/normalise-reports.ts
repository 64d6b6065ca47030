/**
 * Report bytes with what no two runs share taken out, so runs of different code can be compared
 * byte for byte: times and durations, the client's handshake key and its accept value, the server's
 * port and Node.js version, and how the received bytes happened to be cut into TCP reads (the wire
 * log's received-octets entries and the received-chop statistics: the same bytes arrive in one read
 * or in three, depending on scheduling). Everything else stays: verdicts, events, frames, the bytes
 * wsgate wrote and how it wrote them, the HTML's markup.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Replaces every occurrence of the literal strings (and their hex encodings) by their labels. */
function replaceLiterals(text: string, literals: Map<string, string>): string {
  let out = text;
  for (const [literal, label] of literals) {
    if (literal === '') continue;
    out = out.split(literal).join(label);
    out = out.split(Buffer.from(literal).toString('hex')).join(Buffer.from(label).toString('hex'));
  }
  return out;
}

/** The per-run literals found in a case report: key, accept, port, Node.js version. */
function runLiterals(reportJson: string): Map<string, string> {
  const literals = new Map<string, string>();
  const { httpRequest, httpResponse } = JSON.parse(reportJson) as { httpRequest: string | null; httpResponse: string | null };
  const key = /Sec-WebSocket-Key:\s*([A-Za-z0-9+/=]+)/i.exec(httpRequest ?? '')?.[1];
  const accept = /Sec-WebSocket-Accept:\s*([A-Za-z0-9+/=]+)/i.exec(httpResponse ?? '')?.[1];
  const port = /Host: 127\.0\.0\.1:(\d+)/.exec(httpRequest ?? '')?.[1];
  if (key !== undefined) literals.set(key, 'KEY'.padEnd(key.length, '_'));
  if (accept !== undefined) literals.set(accept, 'ACCEPT'.padEnd(accept.length, '_'));
  if (port !== undefined) literals.set(`127.0.0.1:${port}`, '127.0.0.1:PORT');
  literals.set(process.version, 'vNODE');
  return literals;
}

/** A case report (JSON) normalised: see the file comment. */
export function normaliseCaseJson(text: string): string {
  const report = JSON.parse(replaceLiterals(text, runLiterals(text))) as Record<string, unknown>;
  report.started = 'STARTED';
  report.duration = 0;
  const rx = report.rxOctetStats as Record<string, number> | null;
  if (rx !== null && typeof rx === 'object') {
    report.rxOctetStats = { total: Object.entries(rx).reduce((sum, [size, count]) => sum + Number(size) * count, 0) };
  }
  if (Array.isArray(report.wirelog)) report.wirelog = (report.wirelog as unknown[][]).filter((entry) => entry[0] !== 'RO');
  return JSON.stringify(report, null, 1);
}

/** A case report (HTML) normalised: the same, on the rendered page. */
export function normaliseCaseHtml(text: string, reportJson: string): string {
  let out = replaceLiterals(text, runLiterals(reportJson));
  out = out.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'STARTED');
  out = out.replace(/(data-key="duration"><td class="key">duration<\/td><td class="value">)[^<]*/g, '$1D');
  out = out.replace(/<b>\d+<\/b> ms/g, '<b>D</b> ms');
  // The explanation's times ("at 2.4 ms") come from the clock.
  out = out.replace(/at \d+(\.\d+)? ms/g, 'at T ms');
  // The received-chop table, and the wire log's received-octets lines (a line and its continuations).
  out = out.replace(/(<table id="rx_octet_stats"[^>]*>)[\s\S]*?(<\/table>)/, '$1$2');
  out = out.replace(/<pre class="wirelog_rx_octets">[^\n]*\n/g, '');
  let line = 0;
  out = out.replace(/<pre class="(wirelog_[a-z_]+)">\d{3} /g, (_m, cls: string) => `<pre class="${cls}">${String(line++).padStart(3, '0')} `);
  return out;
}

/** index.json, index.html, summary.json, junit.xml: times, durations and resource figures out. */
export function normaliseRunFile(text: string): string {
  return (
    text
      .split(process.version)
      .join('vNODE')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'STARTED')
      .replace(/"(duration|durationMs|timeMs|cpuUserMs|cpuSystemMs|maxRssKiB|clientCpuMs)": ?\d+/g, '"$1": 0')
      .replace(/<b>\d+<\/b> ms/g, '<b>D</b> ms')
      .replace(/at \d+(\.\d+)? ms/g, 'at T ms')
      .replace(/"ms": ?\d+(\.\d+)?/g, '"ms": 0')
      .replace(/(class="case_duration">)\d+ ms/g, '$1D ms')
      .replace(/time="[0-9.]+"/g, 'time="0"')
      .replace(/timestamp="[^"]*"/g, 'timestamp="T"')
      // JUnit's system-out is the wire log cut to its first and last lines: where the cut falls depends
      // on the received-octets lines, so it goes whole (the case reports keep the wire log).
      .replace(/<system-out>[\s\S]*?<\/system-out>/g, '<system-out/>')
  );
}

/** sha256 of every normalised report file of a directory, by file name. */
export function reportDigests(dir: string): Record<string, string> {
  const digests: Record<string, string> = {};
  // Files only: the folders beside them (repro-data/, repro/) hold `wsgate repro`'s recordings, whose
  // times are the run's own, and are no report.
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
  for (const name of names) {
    const file = path.join(dir, name);
    const text = readFileSync(file, 'utf8');
    let normalised: string;
    if (/_case_.*\.json$/.test(name)) normalised = normaliseCaseJson(text);
    else if (/_case_.*\.html$/.test(name)) normalised = normaliseCaseHtml(text, readFileSync(file.replace(/\.html$/, '.json'), 'utf8'));
    else if (/\.(json|html|xml)$/.test(name)) normalised = normaliseRunFile(text);
    else continue;
    digests[name] = createHash('sha256').update(normalised).digest('hex');
  }
  return digests;
}
