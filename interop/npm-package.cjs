// The npm package an interop peer runs on: the checkout's (node_modules), or, when WSGATE_NPM_PREFIX
// is set (`wsgate matrix --versions`: a release installed by `interop/install.sh NAME@VERSION`), the
// one under that prefix, never falling back to the checkout's. It says on stderr which it loaded.
const path = require('node:path');

/** The package NAME's CommonJS exports. */
function loadPackage(name) {
  const prefix = process.env.WSGATE_NPM_PREFIX;
  if (!prefix) return require(name);
  const dir = path.resolve(prefix, 'node_modules', name);
  const { version } = require(path.join(dir, 'package.json'));
  process.stderr.write(`${name} ${version} from ${dir}\n`);
  return require(dir);
}

module.exports = { loadPackage };
