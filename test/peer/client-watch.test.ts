/**
 * The client watch over real processes (a Node.js client started as a client under test): an attack
 * case's memory window sees the client's allocation, and a client that dies on its own fails the
 * attack case it was in, before its close in per-case mode, during the case for a client that plays
 * many, whose held outcomes it then settles and whose unplayed cases it says are not run.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CatalogueCase } from '../../src/cases/types.js';
import { catalogue } from '../../src/catalogue/registry.js';
import { ClientWatch } from '../../src/peer/client-watch.js';
import type { CaseOutcome } from '../../src/drivers/driver.js';
import { shellQuote, startClient, type ClientProcess } from '../../src/processes/client-process.js';
import { robustnessClientCases } from '../../src/robustness/index.js';
import { tempDir } from '../support/harness.js';

const MiB = 1024 * 1024;

/**
 * A client that allocates `mib` MiB and says so, then, once `go` exists, dies of an uncaught
 * exception (exit status 1): what it does next is the test's to decide, never a timer's.
 */
function dyingClient(mib: number, go: string): ClientProcess {
  const script = `globalThis.kept = Buffer.alloc(${mib} * ${MiB}, 1); console.log('allocated'); setInterval(() => { if (require('node:fs').existsSync(${JSON.stringify(go)})) throw new Error('deliberate crash of a watched client'); }, 20);`;
  return startClient(`${shellQuote(process.execPath)} -e ${shellQuote(script)}`, { url: 'ws://127.0.0.1:1', case: '', agent: 'watched' });
}

/** Resolves once the client has said `word` on its output. */
async function said(client: ClientProcess, word: string): Promise<void> {
  while (!client.snapshot(false).output.includes(word)) {
    assert.equal(client.hasExited, false, `the client exited before it said ${word}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function attack(id: string): CatalogueCase {
  const def = robustnessClientCases.find((c) => c.id === id);
  assert.ok(def?.attackBudget !== undefined, id);
  return def;
}

const opened: CaseOutcome = { result: null, resultAt: null, client: null, sawConnection: true, warnings: [], timeMs: 0 };

test('per-case: the attack case gets its memory window, and the client that died before its close fails it', async () => {
  const go = path.join(await tempDir(), 'go');
  const def = attack('18.3.1');
  const client = dyingClient(96, go);
  const watch = ClientWatch.forCase(client, def, 7);
  try {
    watch.started(7);
    await said(client, 'allocated');
    watch.close(7);
    writeFileSync(go, '');
    await client.exited;
  } finally {
    client.killGroup();
    watch.stop();
  }
  const facts = watch.caseFacts(7, null);
  const memory = facts.peer?.memory;
  assert.ok(memory?.measured === true, JSON.stringify(memory));
  assert.ok(memory.growthBytes >= 90 * MiB, `growth ${memory.growthBytes}`);
  assert.equal(facts.peer?.crash?.when, 'before its close');
  const end = facts.peer?.crash?.end;
  assert.equal(end?.kind === 'died' ? end.exitCode : null, 1, JSON.stringify(end));
  assert.match(end?.kind === 'died' ? (end.errorLine ?? '') : '', /deliberate crash of a watched client/);
  assert.deepEqual(facts.peerFailure, { kind: 'client-crash', advisory: def.attackBudget?.advisory ?? null, crash: facts.peer?.crash });
});

test('per-case: a case that is no attack is not sampled and has no facts; a client that exits with 0 crashed nothing', async () => {
  const normal = catalogue[0] as CatalogueCase;
  const client = startClient(`${shellQuote(process.execPath)} -e ''`, { url: 'ws://127.0.0.1:1', case: '', agent: 'watched' });
  const plain = ClientWatch.forCase(client, normal, 1);
  const attacked = ClientWatch.forCase(client, attack('18.3.1'), 2);
  await client.exited;
  plain.stop();
  attacked.stop();
  assert.deepEqual(plain.caseFacts(1, null), {});
  // Never opened: its window says so, and nothing crashed.
  assert.deepEqual(attacked.caseFacts(2, null), { peer: { memory: { measured: false, why: 'the case never opened a connection' } } });
});

test('a client that plays many: an attack outcome waits for the next case; dying in an attack fails it and the rest are not run', async () => {
  const go = path.join(await tempDir(), 'go');
  const cases = [catalogue[0] as CatalogueCase, attack('18.3.1'), attack('18.3.2'), attack('18.3.3')];
  const settled = new Map<number, CaseOutcome>();
  const client = dyingClient(8, go);
  const watch = ClientWatch.forRun(client, cases, (i, outcome) => settled.set(i, outcome));
  try {
    await said(client, 'allocated');
    watch.started(1);
    assert.equal(watch.finished(1, opened), false, 'a case that is no attack settles at once');
    watch.started(2);
    assert.equal(watch.finished(2, opened), true, 'an attack case is held');
    assert.equal(settled.has(2), false);
    watch.started(3);
    assert.equal(settled.get(2)?.peer?.memory?.measured, true, 'the next case started: the client survived 18.3.1');
    writeFileSync(go, '');
    await client.exited;
  } finally {
    client.killGroup();
    watch.stop();
  }
  assert.equal(watch.ended(watch.crash()), 3, 'the client died in 18.3.2, which is charged');
  const died = settled.get(3);
  assert.equal(died?.peerFailure?.kind, 'client-crash');
  assert.equal(died?.peer?.crash?.when, 'during the case');
  assert.deepEqual(died?.missing, { kind: 'no-result' });
  assert.deepEqual(watch.unplayed()?.notRun, { kind: 'looping-client-died', during: '18.3.2', end: died?.peer?.crash?.end });
});
