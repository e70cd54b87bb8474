import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { GENERATED_OPERATIONS, GENERATED_RESOLVERS } from '../scripts/codegenConfig';

const root = path.resolve(__dirname, '..');

describe('the checked-in generated types (resolvers of each service, operations of the web application)', () => {
  let outDir: string;
  beforeAll(() => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'fi-codegen-'));
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  test('when codegen runs now (into a temp folder), then every generated file matches the checked-in one', async () => {
    // The real generator with the real config, only pointed elsewhere: the checked-in files are never touched.
    // In a process of its own: the generator's plugins load ES modules, which Jest's module runtime cannot.
    await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/codegen.ts'), outDir], {
      cwd: root,
    });

    for (const file of [...Object.values(GENERATED_RESOLVERS), GENERATED_OPERATIONS]) {
      const fresh = readFileSync(path.join(outDir, file), 'utf8');
      const checkedIn = readFileSync(path.join(root, file), 'utf8');
      // On failure: run `npm run codegen` and commit the result.
      expect({ file, content: checkedIn }).toEqual({ file, content: fresh });
    }
  });
});
