// Echo client on the `ws` package's WebSocket with its default options (permessage-deflate offered,
// maxPayload 100 MiB), as a user would dial it: the npm row beside wsgate's bundled client, whose
// options are the catalogue's. With WSGATE_NPM_PREFIX, the release of ws installed there (ws 7's
// handler has no isBinary: its text arrives as a string, which is sent back as text).
import { loadPackage } from '../npm-package.mjs';

const WebSocket = loadPackage('ws');

const url = process.argv[2] ?? process.env.WSGATE_URL;
const ws = new WebSocket(url);
ws.on('message', (data, isBinary) => ws.send(data, typeof isBinary === 'boolean' ? { binary: isBinary } : {}));
ws.on('error', () => {});
ws.on('close', () => process.exit(0));
