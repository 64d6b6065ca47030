#!/usr/bin/env node
// Host-side helpers of smoke.sh (plain Node; `echo` takes ws from the repository's node_modules): a
// free port, waiting for a port, an echo over WebSocket, a JSON file over HTTP, and the checks on the
// reports a container wrote into a mounted directory. Any mismatch prints one line per problem on
// stderr and exits 1.
//
//   check.mjs free-port
//   check.mjs wait-port PORT SECONDS
//   check.mjs wait-ws URL SECONDS           a WebSocket opening handshake on URL succeeds
//   check.mjs echo URL                      a text and a binary message come back unchanged
//   check.mjs http-json URL KEY             GET URL answers 200 with a JSON object holding KEY
//   check.mjs run-reports DIR TOTAL PASSED FAILED [INTERRUPTED]
//   check.mjs no-reports DIR                 DIR holds no report (a run stopped as a usage error)
//   check.mjs serve-reports DIR AGENT TOTAL
//   check.mjs owner DIR UID
//   check.mjs tls-reports DIR
//   check.mjs h2-reports DIR
import { X509Certificate } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const [command, ...args] = process.argv.slice(2);
const problems = [];
const expect = (ok, message) => {
  if (!ok) problems.push(message);
};
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

// The verdicts that fail the build under the default rule (docs/gate.md, "What fails the build").
const FAILING = new Set(['FAILED', 'WRONG CODE', 'UNCLEAN', 'FAILED BY CLIENT']);

/** The files every report directory must hold, and the per-agent entries of index.json. */
function checkCommon(dir, total) {
  for (const name of ['index.json', 'index.html']) expect(existsSync(path.join(dir, name)), `${dir}/${name} is missing`);
  if (!existsSync(path.join(dir, 'index.json'))) return {};
  const index = readJson(path.join(dir, 'index.json'));
  for (const [agent, cases] of Object.entries(index)) {
    expect(Object.keys(cases).length === total, `index.json: agent ${agent} has ${Object.keys(cases).length} cases, expected ${total}`);
    for (const [id, c] of Object.entries(cases)) {
      const file = path.join(dir, c.reportfile ?? '');
      expect(c.reportfile !== undefined && existsSync(file), `index.json: case ${id} of ${agent} has no report file`);
    }
  }
  return index;
}

function runReports(dir, total, passed, failed, interrupted) {
  for (const name of ['junit.xml', 'summary.json']) expect(existsSync(path.join(dir, name)), `${dir}/${name} is missing`);
  checkCommon(dir, total);
  if (problems.length > 0) return;
  const summary = readJson(path.join(dir, 'summary.json'));
  const { counts } = summary;
  expect(counts.total === total, `summary.json: total ${counts.total}, expected ${total}`);
  expect(counts.passed === passed, `summary.json: passed ${counts.passed}, expected ${passed}`);
  expect(counts.failed === failed, `summary.json: failed ${counts.failed}, expected ${failed}`);
  expect(counts.errors === 0, `summary.json: errors ${counts.errors}, expected 0`);
  const result = failed === 0 && !interrupted ? 'passed' : 'failed';
  expect(summary.result === result, `summary.json: result ${summary.result}, expected ${result}`);
  expect((summary.interrupted !== null) === interrupted, `summary.json: interrupted ${summary.interrupted}, expected ${interrupted ? 'a signal' : 'null'}`);
  // The <testsuites> element carries the run's totals.
  const junit = readFileSync(path.join(dir, 'junit.xml'), 'utf8');
  const head = /<testsuites\b[^>]*>/.exec(junit)?.[0] ?? '';
  const attr = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(head)?.[1] ?? NaN);
  expect(attr('tests') === total, `junit.xml: tests=${attr('tests')}, expected ${total}`);
  // A case the run never reached is a JUnit error (NOT RUN), so an interrupted run is never green to
  // a JUnit reader; a run that ended by itself has none.
  const notRun = interrupted ? total - passed - failed : 0;
  expect(attr('errors') === notRun, `junit.xml: errors=${attr('errors')}, expected ${notRun}`);
  const notRunCases = (junit.match(/<error\b[^>]*\btype="NOT RUN"/g) ?? []).length;
  expect(notRunCases === notRun, `junit.xml: ${notRunCases} cases marked NOT RUN, expected ${notRun}`);
  expect(attr('failures') === counts.failed, `junit.xml: failures=${attr('failures')}, summary.json says ${counts.failed}`);
  expect((junit.match(/<testcase\b/g) ?? []).length === total, `junit.xml: ${(junit.match(/<testcase\b/g) ?? []).length} testcases, expected ${total}`);
}

function serveReports(dir, agent, total) {
  const index = checkCommon(dir, total);
  if (problems.length > 0) return;
  expect(Object.keys(index).length === 1 && agent in index, `index.json: agents ${JSON.stringify(Object.keys(index))}, expected ["${agent}"]`);
  for (const [id, c] of Object.entries(index[agent] ?? {})) {
    expect(!FAILING.has(c.behavior) && !FAILING.has(c.behaviorClose), `index.json: case ${id} is ${c.behavior}/${c.behaviorClose}`);
  }
}

/** Resolves when something accepts connections on 127.0.0.1:port. */
function probe(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

switch (command) {
  case 'free-port': {
    // Ask the kernel for a free port, release it, and make sure nothing answers on it.
    const server = net.createServer();
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address();
    await new Promise((resolve) => server.close(resolve));
    if (await probe(port)) problems.push(`port ${port} is in use`);
    else process.stdout.write(`${port}\n`);
    break;
  }
  case 'wait-port': {
    const [port, seconds] = args.map(Number);
    const deadline = Date.now() + seconds * 1000;
    while (!(await probe(port))) {
      if (Date.now() > deadline) {
        problems.push(`nothing listens on 127.0.0.1:${port} after ${seconds} s`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    break;
  }
  case 'wait-ws': {
    // Through a published port (-p) a TCP connect proves nothing: Docker's userland proxy accepts on
    // the host before the container listens. A completed opening handshake does (wstest's servers
    // accept an upgrade on any path).
    const { WebSocket } = createRequire(import.meta.url)('ws');
    const [url, seconds] = args;
    const deadline = Date.now() + Number(seconds) * 1000;
    const opens = () =>
      new Promise((resolve) => {
        const ws = new WebSocket(url, { handshakeTimeout: 2000 });
        ws.on('open', () => {
          ws.terminate();
          resolve(true);
        });
        ws.on('error', () => resolve(false));
      });
    while (!(await opens())) {
      if (Date.now() > deadline) {
        problems.push(`no WebSocket handshake on ${url} after ${seconds} s`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    break;
  }
  case 'echo': {
    // Node 20 has no WebSocket of its own: ws, which the repository installs (smoke.sh checks).
    const { WebSocket } = createRequire(import.meta.url)('ws');
    const [url] = args;
    const sent = [
      { data: 'wsgate echo \u00e9', binary: false },
      { data: Buffer.from([0, 1, 2, 255]), binary: true },
    ];
    const got = await new Promise((resolve) => {
      const received = [];
      const ws = new WebSocket(url);
      const timer = setTimeout(() => {
        ws.terminate();
        resolve(received);
      }, 5000);
      ws.on('open', () => {
        for (const m of sent) ws.send(m.data, { binary: m.binary });
      });
      ws.on('message', (data, binary) => {
        received.push({ data: binary ? Buffer.from(data) : data.toString(), binary });
        if (received.length === sent.length) {
          clearTimeout(timer);
          ws.close(1000);
          resolve(received);
        }
      });
      ws.on('error', (err) => {
        clearTimeout(timer);
        problems.push(`${url}: ${err.message}`);
        resolve(received);
      });
    });
    if (problems.length === 0) {
      expect(got.length === sent.length, `${url}: ${got.length} of ${sent.length} messages came back`);
      sent.forEach((m, i) => {
        const g = got[i];
        const same = g !== undefined && g.binary === m.binary && (m.binary ? Buffer.compare(g.data, m.data) === 0 : g.data === m.data);
        expect(same || g === undefined, `${url}: message ${i + 1} came back changed`);
      });
    }
    if (problems.length === 0) process.stdout.write(`${url} echoed a text and a binary message\n`);
    break;
  }
  case 'http-json': {
    const [url, key] = args;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const body = await res.text();
      expect(res.status === 200, `GET ${url}: status ${res.status}`);
      if (res.status === 200) {
        const json = JSON.parse(body);
        expect(json !== null && typeof json === 'object' && key in json, `GET ${url}: no "${key}" in ${body.slice(0, 200)}`);
      }
    } catch (err) {
      problems.push(`GET ${url}: ${err.message}`);
    }
    if (problems.length === 0) process.stdout.write(`GET ${url}: 200, JSON with "${key}"\n`);
    break;
  }
  case 'run-reports': {
    const [dir, total, passed, failed, interrupted] = args;
    runReports(dir, Number(total), Number(passed), Number(failed), interrupted === 'interrupted');
    break;
  }
  case 'no-reports': {
    const [dir] = args;
    const left = existsSync(dir) ? readdirSync(dir, { recursive: true }) : [];
    expect(left.length === 0, `${dir} holds ${left.join(', ')}: a run stopped as a usage error writes no report`);
    break;
  }
  case 'serve-reports': {
    const [dir, agent, total] = args;
    serveReports(dir, agent, Number(total));
    break;
  }
  case 'tls-reports': {
    // A run over TLS: ca.pem is a CA certificate, no file holds a private key, every case recorded TLS.
    const [dir] = args;
    const ca = new X509Certificate(readFileSync(path.join(dir, 'ca.pem')));
    expect(ca.ca, `${dir}/ca.pem is not a CA certificate`);
    // Every file, in the folders beside the reports too (repro-data/: the recordings of non-OK cases).
    for (const name of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!name.isFile()) continue;
      const file = path.join(name.parentPath ?? name.path, name.name);
      expect(!/PRIVATE KEY/.test(readFileSync(file, 'latin1')), `${file} holds a private key`);
    }
    const summary = readJson(path.join(dir, 'summary.json'));
    expect(summary.tls?.generated === true, `${dir}/summary.json: tls.generated is not true`);
    for (const c of summary.cases) expect(/^TLSv1\.[23]$/.test(c.tls?.version ?? ''), `${dir}: case ${c.id} has no TLS version`);
    break;
  }
  case 'h2-reports': {
    // A run with --http2: every case was an HTTP/2 stream, and its report shows the extended CONNECT.
    const [dir] = args;
    const summary = readJson(path.join(dir, 'summary.json'));
    expect(summary.cases.length > 0, `${dir}/summary.json: no case`);
    for (const c of summary.cases) {
      expect(c.transport === 'h2', `${dir}: case ${c.id} went over ${c.transport}, not h2`);
      const report = readJson(path.join(dir, c.reportfile));
      expect(
        /^HTTP\/2 HEADERS\r\n:method: CONNECT\r\n:protocol: websocket\r\n/.test(report.httpRequest),
        `${dir}: case ${c.id}: no extended CONNECT in its report`,
      );
    }
    break;
  }
  case 'owner': {
    // Every file in DIR belongs to UID: the container's user wrote them.
    const [dir, uid] = args;
    for (const name of readdirSync(dir)) {
      const st = statSync(path.join(dir, name));
      expect(st.uid === Number(uid), `${dir}/${name} belongs to uid ${st.uid}, expected ${uid}`);
    }
    break;
  }
  default:
    problems.push(`unknown command ${command}`);
}

for (const p of problems) process.stderr.write(`check: ${p}\n`);
process.exitCode = problems.length > 0 ? 1 : 0;
