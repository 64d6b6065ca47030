/** One way to read a user's JSON file: every failure is one UsageError line naming the file. */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { readJsonFile, zodValidator } from '../../src/config/json-file.js';
import { UsageError } from '../../src/errors.js';
import { tempDir, usageMessage } from '../support/harness.js';

test('missing file, directory, bad JSON, a validator refusing: one line naming the file', async () => {
  const dir = await tempDir();
  const none = path.join(dir, 'none.json');
  assert.equal(
    usageMessage(() => readJsonFile(none, 'the baseline', (v) => v)),
    `${none}: cannot read the baseline: no such file`,
  );
  assert.equal(
    usageMessage(() => readJsonFile(dir, 'the baseline', (v) => v)),
    `${dir}: cannot read the baseline: is a directory`,
  );
  const bad = path.join(dir, 'bad.json');
  await writeFile(bad, '{"a": 1,,}');
  assert.match(
    usageMessage(() => readJsonFile(bad, 'x', (v) => v)),
    new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON: \\S`),
  );
  const good = path.join(dir, 'good.json');
  await writeFile(good, '{"cases": [{"id": 7}]}');
  const schema = z.object({ cases: z.array(z.object({ id: z.string() })) });
  assert.equal(
    usageMessage(() => readJsonFile(good, 'x', zodValidator(good, schema))),
    `${good}: cases.0.id: Invalid input: expected string, received number`,
  );
  assert.throws(
    () =>
      readJsonFile(good, 'x', () => {
        throw new UsageError('refused');
      }),
    (err: unknown) => err instanceof UsageError && err.message === 'refused',
  );
  assert.deepEqual(
    readJsonFile(good, 'x', (v) => v),
    { cases: [{ id: 7 }] },
  );
});
