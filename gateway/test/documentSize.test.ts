import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import { parse, validate } from 'graphql';
import { documentSizeRules } from '../src/plugins/documentSize';

const schema = Supergraph.build(readFileSync(path.resolve(__dirname, '../../supergraph.graphql'), 'utf8'))
  .apiSchema()
  .toGraphQLJSSchema();
const rules = documentSizeRules({ maxDepth: 8, maxCost: 1000 });
const refusals = (query: string) => validate(schema, parse(query), rules).map((error) => error.message);

const chain = (length: number, last: string) =>
  `{ ...F0 } ${Array.from({ length }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F${length} on Query { ${last} }`;

describe('the depth and cost limits of a document', () => {
  test('when a depth-2 document goes through 4 nested fragments, then it is depth 2 and passes', () => {
    const query = `{ ...A } fragment A on Query { ...B } fragment B on Query { ...C } fragment C on Query { ...D }
      fragment D on Query { feedbackItems(apiKey: "k") { total } }`;
    expect(refusals(query)).toEqual([]);
    // The same through inline fragments.
    expect(
      refusals(
        '{ ... on Query { ... on Query { ... on Query { ... on Query { feedbackItems(apiKey: "k") { total } } } } } }',
      ),
    ).toEqual([]);
  });

  test('when fields nest deeper than the limit, then the depth found is named, through fragments too', () => {
    const deep =
      'feedbackItems(apiKey: "k") { items { similar { item { similar { item { similar { item { id } } } } } } } }';
    expect(refusals(`{ ${deep} }`)).toEqual(['Query depth limit of 8 exceeded (depth 9)']);
    expect(refusals(`{ ...A } fragment A on Query { ...B } fragment B on Query { ${deep} }`)).toEqual([
      'Query depth limit of 8 exceeded (depth 9)',
    ]);
  });

  test('when 50 fragments chain, each spread twice, then the cost is what the one field costs, found at once', () => {
    const started = Date.now();
    expect(refusals(chain(50, 'feedbackItems(apiKey: "k") { total }'))).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test('when a document is too dear, then the estimate is a whole number as it is counted, not a cut or wrapped figure', () => {
    const wide = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: feedbackItems(apiKey: "k") { total }`);
    // Each page costs 2 + 1.5 x 1 = 3.5.
    expect(refusals(`{ ${wide(286).join(' ')} }`)).toEqual(['Query cost limit of 1000 exceeded (estimated cost 1001)']);
    expect(refusals(`{ ${wide(285).join(' ')} }`)).toEqual([]);
  });
});
