import { readFileSync } from 'node:fs';
import {
  ADMIN_SUPERGRAPH_PATH,
  composeAdminSupergraph,
  composeSupergraph,
  SUPERGRAPH_PATH,
} from '../scripts/supergraph';

describe('the checked-in supergraph', () => {
  test('when the subgraph schemas are composed now, then they compose without errors and match supergraph.graphql', () => {
    const composed = composeSupergraph();
    expect(readFileSync(SUPERGRAPH_PATH, 'utf8')).toBe(composed);
  });

  test('when the public API is read, then it has exactly the operations of the spec', () => {
    const sdl = readFileSync(SUPERGRAPH_PATH, 'utf8');
    for (const signature of [
      /feedbackItems\(\s*apiKey: String!\s*skip: Int = 0[\s\S]*?take: Int = 50\s*source: String[\s\S]*?status: String[\s\S]*?sentiment: String[\s\S]*?\): FeedbackItemList!/,
      /feedbackItem\(apiKey: String!, id: String!\): FeedbackItem\b/,
      /contactItem\(apiKey: String!, id: String!\): ContactItem\b/,
      /accountItem\(apiKey: String!, id: String!\): AccountItem\b/,
      /addFeedbackItem\(apiKey: String!, input: NewFeedbackInput!\): FeedbackItem!/,
      /removeFeedbackItem\(apiKey: String!, id: String!\): Boolean!/,
    ]) {
      expect(sdl).toMatch(signature);
    }
  });
});

describe("the checked-in admin supergraph (the web application's POST /admin/graphql)", () => {
  test("when the identity schema and the services' admin schemas are composed now, then they match the gateway's copy", () => {
    expect(readFileSync(ADMIN_SUPERGRAPH_PATH, 'utf8')).toBe(composeAdminSupergraph());
  });

  test('when the public supergraph is read, then nothing of the admin schemas is in it', () => {
    const sdl = readFileSync(SUPERGRAPH_PATH, 'utf8');
    for (const admin of [
      /\bcreateContact\b/,
      /\bimportAccounts\b/,
      /\bsignIn\b/,
      /\bContactInput\b/,
      /\bImportProblem\b/,
    ])
      expect(sdl).not.toMatch(admin);
  });
});
