// loadPackage for ES module peers: the one of npm-package.cjs (a release under WSGATE_NPM_PREFIX, else the checkout's).
import { createRequire } from 'node:module';

export const { loadPackage } = createRequire(import.meta.url)('./npm-package.cjs');
