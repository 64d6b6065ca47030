#!/usr/bin/env node
// The runtime every repro script carries: src/repro/runtime/entry.ts bundled by esbuild with what it
// imports (the glue in src/repro/runtime/, and wsgate's own src/protocol/, the receive path of
// src/core/ and src/play/verdict.ts) into one minified ES module text that needs Node's built-in
// modules only. src/repro/script.ts puts it after the script's `const DATA = ...`.
//
//   node .ci/build-repro-runtime.mjs [--root DIR]   write DIR/dist/src/repro/runtime-bundle.js (after tsc: npm run build)
//
// .ci/action-bundle.mjs imports reproRuntime() and compiles the text into the action's bundle.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where tsc's output keeps the text, beside dist/src/repro/script.js (which reads it). */
export const RUNTIME_FILE = 'dist/src/repro/runtime-bundle.js';

/**
 * wsgate's modules run nothing on import that the runtime needs: what it does not use of them (the
 * catalogue's tables behind cases/define.ts, say) is left out, as package.json's sideEffects: false would.
 */
const pureSources = {
  name: 'pure-sources',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === 'pure-sources') return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'pure-sources' });
      return { ...resolved, sideEffects: false };
    });
  },
};

/** The runtime's text, bundled from the sources under `root`. */
export async function reproRuntime(root) {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/repro/runtime/entry.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    // Lines as wide as the script's comment block and base64 lines.
    lineLimit: 100,
    legalComments: 'none',
    charset: 'utf8',
    // frame-writer.ts's optional native masker: loaded by require() at run time, when present.
    external: ['bufferutil', 'utf-8-validate'],
    plugins: [pureSources],
    write: false,
    logLevel: 'error',
  });
  const text = result.outputFiles[0]?.text;
  if (text === undefined) throw new Error('build-repro-runtime: esbuild wrote nothing');
  return text;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  let root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  if (args[0] === '--root' && args[1] !== undefined) root = path.resolve(args[1]);
  else if (args.length > 0) {
    console.error('usage: node .ci/build-repro-runtime.mjs [--root DIR]');
    process.exit(2);
  }
  const file = path.join(root, RUNTIME_FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, await reproRuntime(root));
}
