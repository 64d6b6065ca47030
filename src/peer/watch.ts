/**
 * The run's one watch on a peer under test, made by the run skeleton (run/run.ts) for each peer and
 * handed to its driver (PeerContext.watch). Every process of a peer is started through it (a client
 * command per case or looping, a server command and its restarts, a browser's launches), so it alone
 * keeps the peer's whole output in the report directory (client-output.log, server-output.log), reads
 * the CPU time the peer's processes spent, gives the memory samplers and case watches of the
 * robustness profile (peer/client-watch.ts, peer/server-watch.ts), and, once the skeleton has played
 * the peer's cases, ends whatever of it still runs: a driver that stops early, throws or forgets a
 * process leaves no orphan and no half-written log.
 */
import path from 'node:path';
import { launchBrowser, type BrowserSetup, type LaunchedBrowser } from '../browsers/launch.js';
import type { CatalogueCase } from '../cases/types.js';
import { childrenCpuMs, startClient, type ClientProcess, type ClientValues } from '../processes/client-process.js';
import { ServerProcess, type ServerLaunchSpec } from '../processes/server-process.js';
import { TreeMemory } from '../processes/tree-memory.js';
import { descendsFrom, listenerRoot } from '../processes/listener.js';
import { procStat } from '../processes/proc.js';
import type { PeerFound } from '../model/peer.js';
import { raceTimeout, TERM_GRACE_MS } from '../processes/waiting.js';
import type { CaseOutcome } from './outcome.js';
import { ClientWatch } from './client-watch.js';
import { OutputLog } from './output-log.js';

/** The file of the report directory that keeps a client command's whole output. */
export const CLIENT_OUTPUT_LOG = 'client-output.log';

/** How long a client killed at the close may take for its exit to be told. */
const EXIT_TOLD_MS = 1000;

/** How often a server's CPU time is read while it lives (its shell may never reap it, so it is read from /proc). */
const SERVER_CPU_SAMPLE_MS = 2000;

export class PeerWatch {
  private readonly clients = new Set<ClientProcess>();
  /** Each client's output sink, ended when the client is let go. */
  private readonly sinks = new Map<ClientProcess, { end: () => void }>();
  private readonly servers: ServerProcess[] = [];
  private readonly browsers: LaunchedBrowser[] = [];
  private readonly logs: OutputLog[] = [];
  private clientLog: OutputLog | null = null;
  private readonly samplers = new Set<NodeJS.Timeout>();
  /** The reaped children's CPU time when the watch began (a client's CPU is read as what was added since). */
  private readonly childrenCpu0: number | null = childrenCpuMs();
  private browserCpuMs = 0;
  private launchedBrowser = false;
  private startedClient = false;
  private closing: Promise<string | null> | null = null;

  /**
   * `outdir`: the report directory its logs go to; `serverNo`: the peer's place among a spec's
   * servers (0-based), which names its server log (server-output.log, server-output-2.log, …).
   */
  constructor(
    private readonly outdir: string,
    private readonly serverNo = 0,
  ) {}

  /**
   * A client command, started once (a looping client, `heading` written above its output in the log)
   * or for one case (each of its lines marked with `mark`, "[2.5] ", so cases played at once stay apart).
   */
  startClient(command: string, values: ClientValues, env: Record<string, string>, how: { mark: string } | { heading: string }): ClientProcess {
    this.clientLog ??= this.log(CLIENT_OUTPUT_LOG);
    const log = this.clientLog;
    const sink = 'mark' in how ? log.marked(how.mark) : { write: (chunk: Buffer) => log.write(chunk), end: () => undefined };
    if ('heading' in how) log.write(`${how.heading}\n`);
    const client = startClient(command, values, env, sink.write);
    this.startedClient = true;
    this.clients.add(client);
    this.sinks.set(client, sink);
    return client;
  }

  /** Lets a client that played its case go: its process group ends (whatever of it is left) and its output's last line is written. */
  release(client: ClientProcess): void {
    client.killGroup();
    this.sinks.get(client)?.end();
    this.sinks.delete(client);
    this.clients.delete(client);
  }

  /**
   * The watch on the cases a client process plays: its tree's memory sampled under the robustness
   * profile, each attack case's window, how the process ended (peer/client-watch.ts). `settle` gets
   * the outcomes it held until the client showed it survived them (a client that plays many cases).
   */
  watchCases(client: ClientProcess, cases: readonly CatalogueCase[], settle: (index: number, outcome: CaseOutcome) => void): ClientWatch {
    return ClientWatch.forRun(client, cases, settle);
  }

  /** The same, for a client process that plays the one case `def`, at `index` in the run. */
  watchCase(client: ClientProcess, def: CatalogueCase, index: number): ClientWatch {
    return ClientWatch.forCase(client, def, index);
  }

  /**
   * A server command, started and waited for until it accepts connections (a UsageError naming it
   * when it exits first or never listens); its output in the report directory, its CPU read while it lives.
   */
  async startServer(launch: ServerLaunchSpec): Promise<ServerProcess> {
    const name = this.serverNo <= 0 ? 'server-output.log' : `server-output-${this.serverNo + 1}.log`;
    const server = await ServerProcess.launch(launch, this.log(name));
    this.servers.push(server);
    const sampler = setInterval(() => server.sampleCpu(), SERVER_CPU_SAMPLE_MS);
    this.samplers.add(sampler);
    return server;
  }

  /**
   * The memory and CPU of a server's processes from now (the robustness profile's window around an
   * attack): the command's process tree when the process listening on `port` is in it; else the
   * tree of that listening process, found by its socket (a launcher detached it, or wsgate started
   * nothing), said so in `found`; null when wsgate started nothing and nothing here but wsgate's own
   * process listens on the port.
   */
  sampleServer(server: ServerProcess | null, port: number): { sampler: TreeMemory; found: PeerFound | null } | null {
    const owner = listenerRoot(port);
    if (server !== null && (owner === null || server.pid === undefined || descendsFrom(owner, server.pid)))
      return { sampler: TreeMemory.start(server.pid), found: null };
    // A server in wsgate's own process (the API's, a test's) would be measured with wsgate: not measured.
    if (owner === null || owner === process.pid) return null;
    const found: PeerFound = { pid: owner, name: procStat(owner)?.name ?? '?', port, why: server === null ? 'not-started' : 'detached' };
    return { sampler: TreeMemory.start(owner), found };
  }

  /** A browser launched on `page` (a UsageError when it cannot run here); ended with `endBrowser`, or by the watch's close. */
  async launchBrowser(setup: BrowserSetup, page: string, spki: string | null): Promise<LaunchedBrowser> {
    const browser = await launchBrowser(setup, page, spki);
    this.launchedBrowser = true;
    this.browsers.push(browser);
    return browser;
  }

  /** Ends a browser's launch: its process tree and profile go, its CPU time is counted. */
  async endBrowser(browser: LaunchedBrowser): Promise<void> {
    await browser.dispose();
    const at = this.browsers.indexOf(browser);
    if (at < 0) return;
    this.browsers.splice(at, 1);
    this.browserCpuMs += browser.cpuMs();
  }

  /**
   * The CPU time the peer's processes spent, in ms, or null when unknown (wsgate started none): a
   * server's and a browser's read from /proc while they lived, a client command's as the reaped
   * children's CPU time added since the watch began.
   */
  cpuMs(): number | null {
    if (this.servers.length > 0) return this.servers.reduce((sum, s) => sum + s.cpuMs(), 0);
    if (this.launchedBrowser) return this.browserCpuMs;
    if (!this.startedClient) return null;
    const now = childrenCpuMs();
    return now === null || this.childrenCpu0 === null ? null : now - this.childrenCpu0;
  }

  /**
   * Ends everything of the peer still running (a server: SIGTERM, a grace, SIGKILL; a browser; every
   * client's process group) and gives each log its name. Once; a warning to print, or null (a server
   * that had to be killed).
   */
  close(): Promise<string | null> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<string | null> {
    for (const sampler of this.samplers) clearInterval(sampler);
    this.samplers.clear();
    const warnings: string[] = [];
    for (const server of this.servers) {
      const warning = await server.stop();
      if (warning !== null) warnings.push(warning);
    }
    for (const browser of [...this.browsers]) await this.endBrowser(browser);
    for (const client of [...this.clients]) {
      if (!client.hasExited) await client.stop(TERM_GRACE_MS);
      this.release(client);
      await raceTimeout(client.exited, EXIT_TOLD_MS);
    }
    await Promise.all(this.logs.map((log) => log.close()));
    return warnings.length === 0 ? null : warnings.join('; ');
  }

  private log(name: string): OutputLog {
    const log = new OutputLog(path.join(this.outdir, name));
    this.logs.push(log);
    return log;
  }
}
