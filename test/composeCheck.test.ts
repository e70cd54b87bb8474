import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { composeAndCheck, subgraphSdls, SUPERGRAPH_PATH } from '../scripts/supergraph';

/** The real subgraph SDL with one change to one subgraph, in memory: the repository's files are never touched. */
function sdlsWith(subgraph: string, from: RegExp, to: string): Record<string, string> {
  const sdls = subgraphSdls();
  const changed = sdls[subgraph].replace(from, to);
  expect(changed).not.toBe(sdls[subgraph]);
  return { ...sdls, [subgraph]: changed };
}

describe('npm run compose, checking the public API against the checked-in supergraph', () => {
  let dir: string;
  let supergraphPath: string;
  let lines: string[];
  const run = (sdls: Record<string, string>, allowBreaking = false) =>
    composeAndCheck({ allowBreaking, supergraphPath, sdls, log: (line) => lines.push(line) });

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fi-compose-'));
    supergraphPath = path.join(dir, 'supergraph.graphql');
    copyFileSync(SUPERGRAPH_PATH, supergraphPath);
    lines = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test.each([
    [
      'a removed field',
      'contacts',
      /^ {2}phone: String\n/m,
      '',
      /BREAKING +Field 'phone' was removed from object type 'ContactItem' \(subgraph: contacts\)/,
    ],
    [
      'a changed argument type',
      'accounts',
      /accountItem\(apiKey: String!, id: String!\)/,
      'accountItem(apiKey: String!, id: Int!)',
      /BREAKING +Type for argument 'id' on field 'Query.accountItem' changed from 'String!' to 'Int!' \(subgraph: accounts\)/,
    ],
    [
      'a nullable input field made non-null',
      'feedback',
      /(input NewFeedbackInput \{[\s\S]*?)^ {2}author: String\n/m,
      '$1  author: String!\n',
      /BREAKING +.*'NewFeedbackInput.author'.*\(subgraph: feedback\)/,
    ],
  ])(
    'when %s is composed, then it is refused (exit 1) with the change and its subgraph, and the supergraph is unchanged',
    async (_, subgraph, from, to, printed) => {
      const before = readFileSync(supergraphPath, 'utf8');
      expect(await run(sdlsWith(subgraph, from, to))).toBe(1);
      expect(lines.join('\n')).toMatch(printed);
      expect(lines.join('\n')).toMatch(/Refused: 1 breaking change/);
      expect(readFileSync(supergraphPath, 'utf8')).toBe(before);
    },
  );

  test('when the same breaking change is composed with --allow-breaking, then it is printed and written', async () => {
    expect(await run(sdlsWith('contacts', /^ {2}phone: String\n/m, ''), true)).toBe(0);
    expect(lines.join('\n')).toMatch(/BREAKING +Field 'phone' was removed/);
    expect(readFileSync(supergraphPath, 'utf8')).not.toMatch(/^ {2}phone: String/m);
  });

  test('when a field is added, then the safe change is printed and the supergraph written without --allow-breaking', async () => {
    expect(await run(sdlsWith('accounts', /^ {2}website: String\n/m, '  website: String\n  industry: String\n'))).toBe(
      0,
    );
    expect(lines.join('\n')).toMatch(
      /NON_BREAKING +Field 'industry' was added to object type 'AccountItem' \(subgraph: accounts\)/,
    );
    expect(readFileSync(supergraphPath, 'utf8')).toMatch(/industry: String/);
  });
});
