/** wsgate's version, from package.json. */
import { createRequire } from 'node:module';

/**
 * Set by the action's bundler (.ci/action-bundle.mjs, esbuild's `define`): the bundle lives in
 * action/dist/ with no package.json beside it. Undeclared at run time everywhere else.
 */
declare const WSGATE_BUNDLED_VERSION: string | undefined;

/** The package version ("0.1.0"). */
export const VERSION: string =
  typeof WSGATE_BUNDLED_VERSION === 'string' ? WSGATE_BUNDLED_VERSION : (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
/** The Server header of the 101 response. */
export const SERVER_HEADER = `wsgate/${VERSION}`;
