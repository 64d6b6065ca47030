/**
 * Debian's headless Chromium for the tests that look at pages in a real browser (HTML reports); a
 * test that uses it declares `{ skip: needs('chromium') }` (.ci/install-chromium.sh installs it).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chromiumPath } from './requirements.js';
import { tempDir } from './harness.js';

/**
 * Flags for a root user on a machine with no network but loopback: without the background-networking
 * ones Chromium's own connections are refused by the closed network, many at a time.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The installed Chromium; the test declared it needs one. */
export function chromium(): string {
  const file = chromiumPath();
  assert.ok(file !== null, "chromium is not installed: the test should declare needs('chromium')");
  return file;
}

/**
 * Runs headless Chromium with a fresh profile on a local file with extra arguments; resolves with
 * stdout and stderr. It rejects when Chromium failed and printed nothing, unless `tolerateFailure`.
 */
export async function headless(
  extra: string[],
  file: string,
  opts: { timeoutMs?: number; tolerateFailure?: boolean } = {},
): Promise<{ stdout: string; stderr: string }> {
  const profile = await tempDir('wsgate-chromium-');
  const args = ['--headless', ...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, ...extra, `file://${file}`];
  return new Promise((resolve, reject) => {
    execFile(chromium(), args, { timeout: opts.timeoutMs ?? 90_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err !== null && stdout === '' && opts.tolerateFailure !== true) reject(new Error(`chromium failed: ${err.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

/** Chromium driven by playwright-core (with its own temporary profile). */
export async function launchBrowser(): Promise<import('playwright-core').Browser> {
  const { chromium: pw } = await import('playwright-core');
  return pw.launch({ executablePath: chromium(), args: CHROMIUM_FLAGS });
}
