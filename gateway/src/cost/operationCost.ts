import {
  getNamedType,
  getNullableType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  valueFromAST,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { MAX_TAKE } from '@fi/shared';
import type { OperationRequest } from '../auth/readOperation';
import { collectFields, fragmentsOf } from './collectFields';

/**
 * The points of the cost formula (docs/limits.md): what a request can make the databases do, priced
 * before it runs.
 */
export const COST = {
  /** A page of a list (a field with `take`): one read for the page, one count for `total`. */
  page: 2,
  /** Anything else that is an object: a read of one record, a link to another service's entity, a summary. */
  object: 1,
  /** Each record a mutation can write. */
  write: 10,
} as const;

/**
 * Object fields read in the same query as the record that holds them: a changes feed's entry comes with
 * the record as it is now, so its `item` costs only what it selects, like a page's `items`.
 */
const READ_WITH_PARENT = new Set(['FeedbackChange.item', 'ContactChange.item', 'AccountChange.item']);

type Variables = Record<string, unknown>;
type ArgumentNodes = readonly { name: { value: string }; value: ValueNode }[];

/**
 * The cost of an operation, from its document, variables and the API schema alone:
 * - a leaf (scalar, enum) costs nothing; introspection (`__schema`, `__typename`) costs nothing;
 * - a field with a `take` argument is a page: `page + take x (the cost of what each item selects)`,
 *   take as given (default from the schema, at most 100), so nested pages multiply;
 * - a list without `take` (a page's `items`) costs what its elements select: they came with the page;
 *   so does a changes feed entry's `item` (READ_WITH_PARENT);
 * - any other object field costs `object` plus what it selects (for an item, each link is one more read);
 * - a mutation field costs `write` for each record it can write (each id of its id list, else one)
 *   plus what its result selects.
 * Fragments are expanded as execution expands them: in place, a fragment spread again in the same
 * selection set once (collectFields). Fields the schema does not know cost nothing (validation refuses
 * them). @skip and @include are not evaluated: the cost is what the document can ask for at most.
 */
export function operationCost(schema: GraphQLSchema, { document, operation, variables }: OperationRequest): number {
  const fragments = fragmentsOf(document);
  const fragment = (name: string) => fragments.get(name);
  // A field's cost depends only on its node and the type it is read on: each is priced once, so a
  // document spreading fragments many times is priced in time linear in its size.
  const priced = new Map<FieldNode, Map<GraphQLObjectType, number>>();

  const selectionCost = (type: GraphQLObjectType, selectionSet: SelectionSetNode, root: boolean): number => {
    let total = 0;
    for (const { field: node, typeCondition } of collectFields(selectionSet, fragment)) {
      const condition = typeCondition ? schema.getType(typeCondition) : type;
      // On an interface or union the cost of each possible type is at most the dearest; our schema's
      // fragments are on object types, where this is exact.
      const parent = isObjectType(condition) ? condition : type;
      const field = parent.getFields()[node.name.value];
      if (!field) continue;
      if (root) {
        total += fieldCost(parent, field, node, root);
        continue;
      }
      let byType = priced.get(node);
      if (!byType) priced.set(node, (byType = new Map()));
      let cost = byType.get(parent);
      if (cost === undefined) {
        // Zero while it is priced: a fragment cycle (refused by validation) ends here.
        byType.set(parent, 0);
        byType.set(parent, (cost = fieldCost(parent, field, node, root)));
      }
      total += cost;
    }
    return total;
  };

  const fieldCost = (
    parent: GraphQLObjectType,
    field: GraphQLField<unknown, unknown>,
    node: FieldNode,
    root: boolean,
  ): number => {
    if (field.name.startsWith('__')) return 0;
    const args = node.arguments ?? [];
    const named = getNamedType(field.type);
    const below = node.selectionSet && isObjectType(named) ? selectionCost(named, node.selectionSet, false) : 0;
    if (root && operation.operation === 'mutation') return COST.write * writesOf(field, args, variables) + below;
    if (isLeafType(named)) return 0;
    if (field.args.some((arg) => arg.name === 'take')) return COST.page + takeOf(field, args, variables) * below;
    if ((isListType(getNullableType(field.type)) && !root) || READ_WITH_PARENT.has(`${parent.name}.${field.name}`))
      return below;
    return COST.object + below;
  };

  const rootType = schema.getRootType(operation.operation);
  return rootType ? selectionCost(rootType, operation.selectionSet, true) : 0;
}

function argumentValue(
  field: GraphQLField<unknown, unknown>,
  args: ArgumentNodes,
  name: string,
  variables: Variables,
): unknown {
  const definition = field.args.find((arg) => arg.name === name);
  const node = args.find((arg) => arg.name.value === name)?.value;
  if (!definition) return undefined;
  if (!node) return definition.defaultValue;
  if (node.kind === Kind.VARIABLE) return variables[node.name.value] ?? definition.defaultValue;
  return valueFromAST(node, definition.type, variables);
}

/** The page size asked for, within 0..100; a value the subgraph will refuse costs as the largest page. */
function takeOf(field: GraphQLField<unknown, unknown>, args: ArgumentNodes, variables: Variables): number {
  const take = argumentValue(field, args, 'take', variables);
  return typeof take === 'number' && Number.isInteger(take) && take >= 0 && take <= MAX_TAKE ? take : MAX_TAKE;
}

/** The list arguments whose ids a mutation writes (updateFeedbackItemsStatus, mergeFeedbackItems). */
const WRITTEN_ID_LISTS = ['ids', 'duplicateIds'];

/** Records a mutation field can write: one per id of its id list, else one. */
function writesOf(field: GraphQLField<unknown, unknown>, args: ArgumentNodes, variables: Variables): number {
  const ids = WRITTEN_ID_LISTS.map((name) => argumentValue(field, args, name, variables)).find(Array.isArray);
  return ids ? Math.max(1, ids.length) : 1;
}
