import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import { buildSchema, getNamedType, isObjectType, parse, type OperationDefinitionNode } from 'graphql';
import { readCostDirectives } from '../src/cost/costDirectives';
import { COST, operationCost } from '../src/cost/operationCost';

const root = path.resolve(__dirname, '../..');
const supergraphs = {
  public: readFileSync(path.join(root, 'supergraph.graphql'), 'utf8'),
  admin: readFileSync(path.join(root, 'gateway/src/admin/adminSupergraph.graphql'), 'utf8'),
};

const TYPES = `
  type Query { report(take: Int = 5): Report  reports(first: Int): [Report!]!  one: Report }
  type Report { rows: [Row!]!  row: Row }
  type Row { id: String  link: Row }
  type Mutation { send(to: [String!]!): Boolean }
`;
const cost = (sdl: string, query: string, variables: Record<string, unknown> = {}) => {
  const document = parse(query);
  const operation = document.definitions[0] as OperationDefinitionNode;
  return operationCost(
    { schema: buildSchema(TYPES), directives: readCostDirectives(sdl) },
    { document, operation, variables },
  );
};

describe('the cost directives of a supergraph', () => {
  test("when the schemas state their costs, then the supergraph gives every field with take a page's weight and its size", () => {
    for (const [name, sdl] of Object.entries(supergraphs)) {
      const schema = Supergraph.build(sdl).apiSchema().toGraphQLJSSchema();
      const { weights, listSizes } = readCostDirectives(sdl);
      for (const type of Object.values(schema.getTypeMap())) {
        if (!isObjectType(type) || type.name.startsWith('__')) continue;
        for (const field of Object.values(type.getFields())) {
          if (!field.args.some((arg) => arg.name === 'take')) continue;
          const coordinate = `${type.name}.${field.name}`;
          expect([name, coordinate, weights.get(coordinate)]).toEqual([name, coordinate, COST.page]);
          expect([name, coordinate, listSizes.get(coordinate)?.slicingArguments]).toEqual([name, coordinate, ['take']]);
          const sized = listSizes.get(coordinate)?.sizedFields ?? [];
          if (sized.length > 0) expect([isObjectType(getNamedType(field.type)), sized]).toEqual([true, ['items']]);
        }
      }
    }
  });

  test('when a supergraph links the cost spec, then its directives are read under the names the link gives', () => {
    const imported = `schema @link(url: "https://specs.apollo.dev/cost/v0.1", import: ["@listSize"]) { query: Query }
      type Query { report(take: Int = 5): Report @cost(weight: 3) @listSize(slicingArguments: ["take"], sizedFields: ["rows"]) }
      type Report { rows: [Row!]! @cost(weight: 0) }`;
    expect(cost(imported, '{ report { rows { id } } }')).toBe(3);
    expect(cost(imported, '{ report { rows { link { id } } } }')).toBe(3 + 5 * COST.object);
    // Only the sized field is the list: the report's other fields are read once.
    expect(cost(imported, '{ report(take: 4) { rows { link { id } } row { id } } }')).toBe(
      3 + 4 * COST.object + COST.object,
    );

    const renamed = `schema @link(url: "https://specs.apollo.dev/cost/v0.1", as: "price", import: [{ name: "@listSize", as: "@length" }]) { query: Query }
      type Query { reports(first: Int): [Report!]! @price(weight: 0) @length(slicingArguments: ["first"]) }
      type Report { row: Row @price(weight: 4) }`;
    expect(cost(renamed, '{ reports(first: 3) { row { id } } }')).toBe(3 * 4);

    const namespaced = `schema @link(url: "https://specs.apollo.dev/cost/v0.1") { query: Query }
      type Query { reports: [Report!]! @cost__listSize(assumedSize: 7) }`;
    expect(cost(namespaced, '{ reports { row { id } } }')).toBe(COST.object + 7 * COST.object);
  });

  test('when a supergraph does not link the cost spec, then directives of that name are not read and the defaults apply', () => {
    const unlinked = `type Query { one: Report @cost(weight: 50) }`;
    expect(cost(unlinked, '{ one { row { id } } }')).toBe(2 * COST.object);
    expect(cost(unlinked, 'mutation { send(to: ["a", "b"]) }')).toBe(COST.write);
  });

  test("when an argument has a cost, then it is paid per element of its list, and a type's cost stands for its fields'", () => {
    const sdl = `schema @link(url: "https://specs.apollo.dev/cost/v0.1") { query: Query }
      type Mutation { send(to: [String!]! @cost(weight: 10)): Boolean @cost(weight: 1) }
      type Row @cost(weight: 5) { id: String }`;
    expect(cost(sdl, 'mutation { send(to: ["a", "b", "c"]) }')).toBe(1 + 30);
    expect(cost(sdl, 'mutation($to: [String!]!) { send(to: $to) }', { to: [] })).toBe(1 + 10);
    expect(cost(sdl, '{ one { row { id } } }')).toBe(COST.object + 5);
  });
});
