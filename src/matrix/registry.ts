/**
 * The registry of implementations the interop matrix runs (interop/implementations/NAME.json, one
 * small file each): what an implementation is, how it is installed, how its version is read from
 * what is installed (never typed in), and the command of each role it has. `wsgate matrix` reads
 * every file of the folder; `interop/install.sh` installs from the `install` fields.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { readJsonFile, zodValidator } from '../config/json-file.js';

/**
 * How it is installed: from npm (into the checkout's node_modules, or a prefix of its own), from
 * Debian, or nothing (it ships with wsgate, Node.js or the machine). `build`: a command run after the
 * install, from the checkout's root (a small program compiled against the library: Go, C, C++).
 */
const build = z.string().min(1).optional();
const install = z.discriminatedUnion('from', [
  z
    .object({
      from: z.literal('npm'),
      package: z.string().min(1),
      prefix: z.string().min(1).optional(),
      // Its commands load the package from $WSGATE_NPM_PREFIX when it is set: `wsgate matrix --versions` can run its releases.
      releases: z.boolean().optional(),
      build,
    })
    .strict(),
  z.object({ from: z.literal('apt'), packages: z.array(z.string().min(1)).min(1), build }).strict(),
  z.object({ from: z.literal('bundled'), build }).strict(),
]);

/** Where the installed version is read. */
const version = z.discriminatedUnion('from', [
  // node_modules/PACKAGE/package.json's version (under `prefix` when the install has one).
  z.object({ from: z.literal('npm'), package: z.string().min(1), prefix: z.string().min(1).optional() }).strict(),
  // dpkg's idea of the Debian package's version.
  z.object({ from: z.literal('dpkg'), package: z.string().min(1) }).strict(),
  // The first line a command prints (e.g. `node --version`).
  z.object({ from: z.literal('command'), command: z.string().min(1) }).strict(),
]);

/**
 * One role: the command wsgate starts ({url} for a client, {port} for a server), and/or the `wsgate
 * run` arguments it needs (`--browser chromium` for a browser engine, `--case-timeout 20`, …).
 */
const role = z
  .object({
    command: z.string().min(1).optional(),
    /** Extra `wsgate run` arguments this role needs. */
    args: z.array(z.string()).default([]),
    /** Case ids or patterns (as --cases takes them) this role cannot play: their cells say "unsupported", not failed. */
    unsupported: z.array(z.string().min(1)).default([]),
  })
  .strict()
  .refine((r) => r.command !== undefined || r.args.length > 0, { message: 'a role has a command or arguments' });

export const implementationSchema = z
  .object({
    /** The row's name: lower case, digits and dashes (the file is NAME.json). */
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    /** What a reader knows it by ("websockets (Python)"). */
    title: z.string().min(1),
    language: z.string().min(1),
    homepage: z.string().url(),
    install,
    version,
    roles: z.object({ client: role.optional(), server: role.optional() }).strict(),
    supports: z.object({ permessageDeflate: z.boolean(), http2: z.boolean() }).strict(),
    /** A proxy under test: the implementation it stands in front of (its row is named after the proxy). */
    proxyFor: z.string().optional(),
    notes: z.string().optional(),
  })
  .strict()
  .refine((i) => i.roles.client !== undefined || i.roles.server !== undefined, { message: 'an implementation has at least one role' });

export type Implementation = z.infer<typeof implementationSchema>;

/** Every implementation of the folder, by name, checked (a bad file is one UsageError line naming it). */
export function readRegistry(dir: string): Implementation[] {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
  } catch (err) {
    throw new UsageError(`${dir}: cannot read the implementations: ${(err as Error).message}`);
  }
  const out = files.map((f) => {
    const file = path.join(dir, f);
    const impl = readJsonFile(file, 'an implementation', zodValidator(file, implementationSchema));
    if (`${impl.name}.json` !== f) throw new UsageError(`${file}: its name is ${JSON.stringify(impl.name)}: the file must be ${impl.name}.json`);
    return impl;
  });
  if (out.length === 0) throw new UsageError(`${dir}: no implementation (NAME.json) in it`);
  return out;
}
