/**
 * The browser engines `wsgate run --browser` puts under test: where Debian, Ubuntu and GitHub's
 * hosted runners install each, the command line that opens a page headless with a fresh profile,
 * and the engine's name and version for the reports' agent.
 *
 * - chromium: Debian's and Ubuntu's `chromium`, Google Chrome (on GitHub's runners). Always
 *   `--no-sandbox`: as root Chromium refuses to start without it, and on Ubuntu 24.04 AppArmor
 *   denies the sandbox its namespaces; the page it opens is the run's own, on loopback.
 * - firefox: Debian's `firefox-esr`, Ubuntu's and the runners' `firefox`. The profile's user.js
 *   turns off RFC 6455 §7.2.3's delay between reconnects after a failed connection (about 310 ms a
 *   case that fails on purpose: 45 s instead of 14 s for groups 1-7, same verdicts).
 * - webkit: WPE WebKit's `cog` (its headless platform needs no display), else WebKitGTK's
 *   `MiniBrowser`, under `xvfb-run` when there is no display.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserEngine } from '../config/schema.js';

/** How one engine is found and started. */
export interface EngineKind {
  readonly engine: BrowserEngine;
  /** Its name in messages. */
  readonly label: string;
  /** Executable names looked up on PATH, then absolute paths, in order. */
  readonly candidates: readonly string[];
  /** The package that installs it, for the message when none is found. */
  readonly install: string;
}

export const ENGINES: Readonly<Record<BrowserEngine, EngineKind>> = {
  chromium: {
    engine: 'chromium',
    label: 'Chromium',
    candidates: [
      'chromium',
      'chromium-browser',
      'google-chrome',
      'google-chrome-stable',
      '/usr/lib/chromium/chromium',
      '/opt/google/chrome/chrome',
      '/usr/local/share/chromium/chrome-linux/chrome',
      '/snap/bin/chromium',
    ],
    install: 'Debian: apt-get install chromium; Ubuntu: snap install chromium, or Google Chrome',
  },
  firefox: {
    engine: 'firefox',
    label: 'Firefox',
    candidates: ['firefox-esr', 'firefox', '/usr/lib/firefox-esr/firefox-esr', '/usr/lib/firefox/firefox', '/opt/firefox/firefox', '/snap/bin/firefox'],
    install: 'Debian: apt-get install firefox-esr; Ubuntu: apt-get install firefox',
  },
  webkit: {
    engine: 'webkit',
    label: 'WebKit',
    candidates: [
      'cog',
      'MiniBrowser',
      '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
      '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
      '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.0/MiniBrowser',
      '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.0/MiniBrowser',
      '/usr/libexec/webkit2gtk-4.1/MiniBrowser',
    ],
    install: 'Debian and Ubuntu: apt-get install cog (WPE WebKit, no display needed), or libwebkit2gtk-4.1-0 and xvfb (WebKitGTK MiniBrowser)',
  },
};

/** An executable file on PATH (a bare name) or at the path given, or null. */
export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const runnable = (file: string): boolean => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (name.includes('/')) return runnable(name) ? path.resolve(name) : null;
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '')) {
    const file = path.join(dir, name);
    if (runnable(file)) return file;
  }
  return null;
}

/** The first of the engine's executables that this machine has, or null. */
export function discoverEngine(kind: EngineKind, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const candidate of kind.candidates) {
    const found = findExecutable(candidate, env);
    if (found !== null) return found;
  }
  return null;
}

/** Which WebKit port an executable is: WPE's cog, or WebKitGTK's MiniBrowser (anything else). */
export function webkitPort(executable: string): 'wpe' | 'gtk' {
  return path.basename(executable).startsWith('cog') ? 'wpe' : 'gtk';
}

/** What a launch needs beside the engine: the executable, the page, the fresh profile directory, and the environment. */
export interface LaunchPlan {
  executable: string;
  page: string;
  profile: string;
  env: NodeJS.ProcessEnv;
  /**
   * Over wss://: the base64 SHA-256 of the run's server key (its SPKI); null over ws://. Chromium pins
   * it (`--ignore-certificate-errors-spki-list`); WebKit's ports ignore TLS errors (`--ignore-tls-errors`:
   * the page is the run's own, on loopback). Firefox is refused over wss:// (config/run-config.ts).
   */
  spki: string | null;
}

/**
 * The argv that opens the page headless, for the engine; null when WebKitGTK needs a display and
 * neither DISPLAY is set nor xvfb-run is installed (the message says so).
 */
export function engineArgv(kind: EngineKind, plan: LaunchPlan): string[] | string {
  const { executable, page, profile, env, spki } = plan;
  switch (kind.engine) {
    case 'chromium':
      return [
        executable,
        ...(spki === null ? [] : [`--ignore-certificate-errors-spki-list=${spki}`]),
        '--headless',
        '--no-sandbox',
        `--user-data-dir=${profile}`,
        '--no-first-run',
        '--no-default-browser-check',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-extensions',
        '--mute-audio',
        page,
      ];
    case 'firefox':
      return [executable, '--headless', '--no-remote', '--profile', profile, page];
    case 'webkit': {
      const tls = spki === null ? [] : ['--ignore-tls-errors'];
      // A crashed web process ends cog (the watchdog sees the browser exit) instead of showing an error page.
      if (webkitPort(executable) === 'wpe') return [executable, '-P', 'headless', '--webprocess-failure=exit', ...tls, page];
      if ((env.DISPLAY ?? '') !== '' || (env.WAYLAND_DISPLAY ?? '') !== '') return [executable, ...tls, page];
      const xvfb = findExecutable('xvfb-run', env);
      if (xvfb === null) return `${executable} needs a display: set DISPLAY, or install xvfb (xvfb-run), or use WPE WebKit's cog`;
      return [xvfb, '-a', executable, ...tls, page];
    }
  }
}

/** Preferences written to a fresh Firefox profile: no back-off between failed WebSocket connections, nothing fetched or started ahead at start. */
const FIREFOX_PREFS: Readonly<Record<string, boolean | string | number>> = {
  'network.websocket.delay-failed-reconnects': false,
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'browser.aboutwelcome.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'app.update.disabledForTesting': true,
  'app.normandy.enabled': false,
  'browser.safebrowsing.update.enabled': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'extensions.update.enabled': false,
  // No Web Push connection (Firefox opened one to Mozilla's push service at start).
  'dom.push.connection.enabled': false,
  // No spare content process, no preloaded new-tab page: Firefox started them 2-3 s after launch,
  // ~370 MiB more in its tree, which the robustness profile counted against the case then running.
  'dom.ipc.processPrelaunch.enabled': false,
  'browser.newtab.preload': false,
  'browser.newtabpage.enabled': false,
};

/** Writes what the engine needs in its fresh profile directory before it starts. */
export async function prepareProfile(kind: EngineKind, profile: string): Promise<void> {
  if (kind.engine !== 'firefox') return;
  const lines = Object.entries(FIREFOX_PREFS).map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});`);
  await writeFile(path.join(profile, 'user.js'), `${lines.join('\n')}\n`);
}

/**
 * The agent an engine's `--version` line names: "Chromium/156.0.8078.73", "Chrome/131.0.6778.85",
 * "Firefox/153.0esr", "WPE-WebKit/2.38.6" (cog prints its own version, then WPE's); the engine's
 * label when the line tells no version.
 */
export function agentFromVersion(kind: EngineKind, line: string): string {
  const wpe = /WPE WebKit\s+(\d[\w.]*)/.exec(line);
  if (wpe !== null) return `WPE-WebKit/${wpe[1] ?? ''}`;
  const match = /(Chromium|Google Chrome|Chrome|Firefox|WebKitGTK)\D*?(\d+(?:\.\d+)+\w*)/.exec(line);
  if (match === null) return kind.label;
  const name = match[1] === 'Google Chrome' ? 'Chrome' : (match[1] ?? kind.label);
  return `${name}/${match[2] ?? ''}`;
}

/** The base64 SHA-256 of a certificate's public key (SubjectPublicKeyInfo): the first certificate of a PEM chain. */
export function spkiHash(pem: string): string {
  const der = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64');
}
