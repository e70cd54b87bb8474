import {
  getNamedType,
  isLeafType,
  isObjectType,
  Kind,
  valueFromAST,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { MAX_TAKE } from '@fi/shared';
import type { OperationRequest } from '../auth/readOperation';
import { collectFields, fragmentsOf } from './collectFields';
import type { CostDirectives, ListSize } from './costDirectives';

/**
 * The points of the cost formula (docs/limits.md): what a request can make the databases do, priced
 * before it runs. The schemas state each field's points with `@cost` and `@listSize`; these are the
 * defaults where they state none, and the page's weight they give every page.
 */
export const COST = {
  /** A page (`@cost(weight: 2)` on a field with `take`): one read for the page, one count for `total`. */
  page: 2,
  /** An object without `@cost`: a read of one record, a link to another service's entity, a summary. */
  object: 1,
  /** A mutation field without `@cost`: the record it writes (Apollo's demand control's default too). */
  write: 10,
} as const;

/** The API schema a request runs on, with the cost directives of the supergraph it came from. */
export interface PricedSchema {
  schema: GraphQLSchema;
  directives: CostDirectives;
}

type Variables = Record<string, unknown>;
type ArgumentNodes = readonly { name: { value: string }; value: ValueNode }[];

/** A field's price before its list size is known: `weight + size x perElement`. */
interface FieldPrice {
  weight: number;
  perElement: number;
  /**
   * The list size the field gives itself; its parent's slice instead when it is one of the parent's
   * `sizedFields`.
   */
  size: number;
}

/**
 * The cost of an operation, from its document, variables and the API schema's cost directives alone
 * (IBM's GraphQL Cost Directives, as composed by Federation):
 * - a field costs its weight, plus its arguments' weights, plus its list size x what each element selects;
 * - its weight is its `@cost`, else its type's `@cost`, else 0 for a leaf (scalar, enum) and 1 for an
 *   object; a mutation's root field without `@cost` weighs 10; introspection (`__schema`, `__typename`)
 *   costs nothing. The weight is paid once per field: a page is one read, however long;
 * - an argument with `@cost` adds its weight, once per element of a list (at least once: `ids`);
 * - the list size: `@listSize(slicingArguments:)` takes the argument's value (default from the schema; a
 *   value outside 0..100, which the subgraph refuses, counts as 100); with `sizedFields` that size is the
 *   length of those child fields (a page's `items`) instead; else `assumedSize`, else 1 (the elements
 *   come with their parent, in the same read), so nested pages multiply.
 * Fragments are expanded as execution expands them: in place, a fragment spread again in the same
 * selection set once (collectFields). Fields the schema does not know cost nothing (validation refuses
 * them). @skip and @include are not evaluated: the cost is what the document can ask for at most.
 */
export function operationCost(priced: PricedSchema, request: OperationRequest): number {
  const known = constantCosts.get(priced)?.get(request.operation);
  if (known !== undefined) return known;
  const { cost, readsVariables } = priceOperation(priced, request);
  // A cost no variable decides is the same for every request of this operation: priced once per schema.
  if (!readsVariables) {
    let byOperation = constantCosts.get(priced);
    if (!byOperation) constantCosts.set(priced, (byOperation = new WeakMap()));
    byOperation.set(request.operation, cost);
  }
  return cost;
}

const constantCosts = new WeakMap<PricedSchema, WeakMap<OperationDefinitionNode, number>>();

function priceOperation(
  { schema, directives }: PricedSchema,
  { document, operation, variables }: OperationRequest,
): { cost: number; readsVariables: boolean } {
  let readsVariables = false;
  const valueOf = (field: GraphQLField<unknown, unknown>, args: ArgumentNodes, name: string): unknown => {
    const node = args.find((arg) => arg.name.value === name)?.value;
    if (node && hasVariable(node)) readsVariables = true;
    return argumentValue(field, node, name, variables);
  };
  const fragments = fragmentsOf(document);
  const fragment = (name: string) => fragments.get(name);
  const mutationType = schema.getMutationType();
  // A field's price depends only on its node and the type it is read on: each is priced once, so a
  // document spreading fragments many times is priced in time linear in its size.
  const priced = new Map<FieldNode, Map<GraphQLObjectType, FieldPrice>>();

  const selectionCost = (type: GraphQLObjectType, selectionSet: SelectionSetNode, sized?: Sized): number => {
    let total = 0;
    for (const { field: node, typeCondition } of collectFields(selectionSet, fragment)) {
      const condition = typeCondition ? schema.getType(typeCondition) : type;
      // On an interface or union the cost of each possible type is at most the dearest; our schema's
      // fragments are on object types, where this is exact.
      const parent = isObjectType(condition) ? condition : type;
      const field = parent.getFields()[node.name.value];
      if (!field) continue;
      let byType = priced.get(node);
      if (!byType) priced.set(node, (byType = new Map()));
      let price = byType.get(parent);
      if (!price) {
        // Nothing while it is priced: a fragment cycle (refused by validation) ends here.
        byType.set(parent, NOTHING);
        byType.set(parent, (price = fieldPrice(parent, field, node)));
      }
      const size = sized?.fields.includes(field.name) ? sized.size : price.size;
      total += price.weight + size * price.perElement;
    }
    return total;
  };

  const fieldPrice = (
    parent: GraphQLObjectType,
    field: GraphQLField<unknown, unknown>,
    node: FieldNode,
  ): FieldPrice => {
    if (field.name.startsWith('__')) return NOTHING;
    const coordinate = `${parent.name}.${field.name}`;
    const args = node.arguments ?? [];
    const named = getNamedType(field.type);
    const listSize = directives.listSizes.get(coordinate);
    const slicedSize = listSize?.slicingArguments.length ? sliceOf(field, args, listSize, valueOf) : undefined;
    // With sizedFields the slice is the length of those child fields; the field itself is one object.
    const sized = listSize?.sizedFields.length && slicedSize !== undefined;
    const perElement =
      node.selectionSet && isObjectType(named)
        ? selectionCost(
            named,
            node.selectionSet,
            sized ? { fields: listSize.sizedFields, size: slicedSize } : undefined,
          )
        : 0;
    const defaultWeight = parent === mutationType ? COST.write : isLeafType(named) ? 0 : COST.object;
    const weight =
      (directives.weights.get(coordinate) ?? directives.weights.get(named.name) ?? defaultWeight) +
      argumentsCost(coordinate, field, args, directives, valueOf);
    const size = sized ? 1 : (slicedSize ?? listSize?.assumedSize ?? 1);
    return { weight, perElement, size };
  };

  const rootType = schema.getRootType(operation.operation);
  return { cost: rootType ? selectionCost(rootType, operation.selectionSet) : 0, readsVariables };
}

function hasVariable(node: ValueNode): boolean {
  if (node.kind === Kind.VARIABLE) return true;
  if (node.kind === Kind.LIST) return node.values.some(hasVariable);
  if (node.kind === Kind.OBJECT) return node.fields.some((field) => hasVariable(field.value));
  return false;
}

const NOTHING: FieldPrice = { weight: 0, perElement: 0, size: 0 };

interface Sized {
  fields: readonly string[];
  size: number;
}

function argumentValue(
  field: GraphQLField<unknown, unknown>,
  node: ValueNode | undefined,
  name: string,
  variables: Variables,
): unknown {
  const definition = field.args.find((arg) => arg.name === name);
  if (!definition) return undefined;
  if (!node) return definition.defaultValue;
  if (node.kind === Kind.VARIABLE) return variables[node.name.value] ?? definition.defaultValue;
  return valueFromAST(node, definition.type, variables);
}

/** An argument's value as the request gives it (`priceOperation` notes whether a variable decided it). */
type ValueOf = (field: GraphQLField<unknown, unknown>, args: ArgumentNodes, name: string) => unknown;

/**
 * The list length the slicing arguments ask for, each within 0..100; a value the subgraph will refuse
 * counts as 100.
 */
function sliceOf(
  field: GraphQLField<unknown, unknown>,
  args: ArgumentNodes,
  listSize: ListSize,
  valueOf: ValueOf,
): number {
  let size = 0;
  for (const name of listSize.slicingArguments) {
    const value = valueOf(field, args, name);
    const valid = typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_TAKE;
    size = Math.max(size, valid ? value : MAX_TAKE);
  }
  return size;
}

/** The `@cost` of the field's arguments: once each, or once per element of a list (at least once). */
function argumentsCost(
  coordinate: string,
  field: GraphQLField<unknown, unknown>,
  args: ArgumentNodes,
  directives: CostDirectives,
  valueOf: ValueOf,
): number {
  let total = 0;
  for (const definition of field.args) {
    const weight = directives.weights.get(`${coordinate}(${definition.name}:)`);
    if (weight === undefined) continue;
    const value = valueOf(field, args, definition.name);
    total += weight * (Array.isArray(value) ? Math.max(1, value.length) : 1);
  }
  return total;
}
