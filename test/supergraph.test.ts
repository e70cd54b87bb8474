import { readFileSync } from 'node:fs';
import { composeSupergraph, SUPERGRAPH_PATH } from '../scripts/supergraph';

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
