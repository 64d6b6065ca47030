/** wsgate's version, from package.json. */
import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The package version ("0.1.0"). */
export const VERSION: string = pkg.version;
/** The Server header of the 101 response. */
export const SERVER_HEADER = `wsgate/${VERSION}`;
