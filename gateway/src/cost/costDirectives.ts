import {
  Kind,
  parse,
  valueFromASTUntyped,
  type ConstDirectiveNode,
  type DocumentNode,
  type FieldDefinitionNode,
} from 'graphql';

/** `@listSize` of a field (IBM's GraphQL Cost Directives, Apollo's cost spec v0.1). */
export interface ListSize {
  assumedSize: number | undefined;
  /** The Int arguments whose value is the list's length (`take`). */
  slicingArguments: readonly string[];
  /** Fields of the (non-list) result that are the list (a page's `items`); empty: the field is the list. */
  sizedFields: readonly string[];
}

/**
 * The `@cost` and `@listSize` applications of a supergraph, by schema coordinate: `Type` (a type's
 * weight), `Type.field`, `Type.field(arg:)`. The subgraphs declare them (federation v2.9 imports) and
 * composition carries them into the supergraph; the API schema drops them, so they are read here.
 */
export interface CostDirectives {
  weights: ReadonlyMap<string, number>;
  listSizes: ReadonlyMap<string, ListSize>;
}

const COST_SPEC = 'https://specs.apollo.dev/cost/';

/** Reads the directives from a supergraph's SDL, under whatever names its `@link` to the cost spec gives them. */
export function readCostDirectives(supergraphSdl: string | DocumentNode): CostDirectives {
  const document = typeof supergraphSdl === 'string' ? parse(supergraphSdl, { noLocation: true }) : supergraphSdl;
  const names = costDirectiveNames(document);
  const weights = new Map<string, number>();
  const listSizes = new Map<string, ListSize>();
  if (!names) return { weights, listSizes };

  const read = (coordinate: string, directives: readonly ConstDirectiveNode[] | undefined) => {
    for (const directive of directives ?? []) {
      const args = Object.fromEntries(
        (directive.arguments ?? []).map((arg) => [arg.name.value, valueFromASTUntyped(arg.value)]),
      ) as Record<string, unknown>;
      if (directive.name.value === names.cost && typeof args.weight === 'number') weights.set(coordinate, args.weight);
      if (directive.name.value === names.listSize) {
        listSizes.set(coordinate, {
          assumedSize: typeof args.assumedSize === 'number' ? args.assumedSize : undefined,
          slicingArguments: strings(args.slicingArguments),
          sizedFields: strings(args.sizedFields),
        });
      }
    }
  };
  const readFields = (type: string, fields: readonly FieldDefinitionNode[] | undefined) => {
    for (const field of fields ?? []) {
      read(`${type}.${field.name.value}`, field.directives);
      for (const arg of field.arguments ?? []) read(`${type}.${field.name.value}(${arg.name.value}:)`, arg.directives);
    }
  };
  for (const definition of document.definitions) {
    switch (definition.kind) {
      case Kind.OBJECT_TYPE_DEFINITION:
      case Kind.OBJECT_TYPE_EXTENSION:
        read(definition.name.value, definition.directives);
        readFields(definition.name.value, definition.fields);
        break;
      case Kind.SCALAR_TYPE_DEFINITION:
      case Kind.ENUM_TYPE_DEFINITION:
        read(definition.name.value, definition.directives);
        break;
      default:
    }
  }
  return { weights, listSizes };
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/**
 * The names the schema uses for the spec's directives (core schemas' rules): an imported directive under
 * its own name or its `as`; otherwise `@<namespace>` for the one named like the spec (`@cost`) and
 * `@<namespace>__<name>` for the others. Null when the supergraph does not link the spec.
 */
function costDirectiveNames(document: DocumentNode): { cost: string; listSize: string } | null {
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.SCHEMA_DEFINITION && definition.kind !== Kind.SCHEMA_EXTENSION) continue;
    for (const directive of definition.directives ?? []) {
      if (directive.name.value !== 'link') continue;
      const args = Object.fromEntries(
        (directive.arguments ?? []).map((arg) => [arg.name.value, valueFromASTUntyped(arg.value)]),
      ) as Record<string, unknown>;
      if (typeof args.url !== 'string' || !args.url.startsWith(COST_SPEC)) continue;
      const namespace = typeof args.as === 'string' ? args.as : 'cost';
      const nameOf = (name: string): string => {
        for (const entry of Array.isArray(args.import) ? args.import : []) {
          if (entry === `@${name}`) return name;
          if (isRenamed(entry) && entry.name === `@${name}`) return (entry.as ?? entry.name).replace(/^@/, '');
        }
        return name === 'cost' ? namespace : `${namespace}__${name}`;
      };
      return { cost: nameOf('cost'), listSize: nameOf('listSize') };
    }
  }
  return null;
}

const isRenamed = (entry: unknown): entry is { name: string; as?: string } =>
  typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string';
