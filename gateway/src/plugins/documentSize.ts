import { GraphQLError, type FieldNode, type ValidationRule } from 'graphql';
import { collectFields } from '../cost/collectFields';

/** The estimate of a document's size (docs/limits.md): objects 2, scalars 1, x1.5 per level. */
const OBJECT = 2;
const SCALAR = 1;
const PER_LEVEL = 1.5;

/** Introspection of the whole schema is not limited by depth or cost (its own shape is fixed). */
const isSchemaIntrospection = (field: FieldNode) => field.name.value === '__schema';

/**
 * The depth and estimated cost limits of a document, with fragments expanded once where they are spread
 * (collectFields): a fragment is no level of the answer, and a chain of fragments is as deep and as dear
 * as the fields it selects. The rules of graphql-armor this replaces counted every fragment as a level
 * and multiplied its cost again at each, so four nested fragments made a depth-2 query "depth 12" and a
 * 50-fragment chain an estimate of 4.5e18. Each field's figures are computed once (the document is walked
 * in linear time whatever its fragments), and the error names the limit and the figure found.
 */
export function documentSizeRules(limits: { maxDepth: number; maxCost: number }): ValidationRule[] {
  const depthRule: ValidationRule = (context) => {
    const depths = new Map<FieldNode, number>();
    const depthOf = (field: FieldNode): number => {
      if (isSchemaIntrospection(field)) return 0;
      const known = depths.get(field);
      if (known !== undefined) return known;
      // A placeholder ends a fragment cycle (NoFragmentCyclesRule reports it).
      depths.set(field, 1);
      const children = field.selectionSet ? collectFields(field.selectionSet, (name) => context.getFragment(name)) : [];
      const depth = 1 + Math.max(0, ...children.map((child) => depthOf(child.field)));
      depths.set(field, depth);
      return depth;
    };
    return {
      OperationDefinition(operation) {
        const roots = collectFields(operation.selectionSet, (name) => context.getFragment(name));
        const depth = Math.max(0, ...roots.map((root) => depthOf(root.field)));
        if (depth > limits.maxDepth)
          context.reportError(
            new GraphQLError(`Query depth limit of ${limits.maxDepth} exceeded (depth ${depth})`, { nodes: operation }),
          );
      },
    };
  };

  const costRule: ValidationRule = (context) => {
    const costs = new Map<FieldNode, number>();
    const costOf = (field: FieldNode): number => {
      if (isSchemaIntrospection(field)) return 0;
      if (!field.selectionSet) return SCALAR;
      const known = costs.get(field);
      if (known !== undefined) return known;
      costs.set(field, OBJECT);
      const children = collectFields(field.selectionSet, (name) => context.getFragment(name));
      const cost = OBJECT + PER_LEVEL * children.reduce((sum, child) => sum + costOf(child.field), 0);
      costs.set(field, cost);
      return cost;
    };
    return {
      OperationDefinition(operation) {
        const roots = collectFields(operation.selectionSet, (name) => context.getFragment(name));
        const cost = roots.reduce((sum, root) => sum + costOf(root.field), 0);
        if (cost > limits.maxCost)
          context.reportError(
            new GraphQLError(`Query cost limit of ${limits.maxCost} exceeded (estimated cost ${shown(cost)})`, {
              nodes: operation,
            }),
          );
      },
    };
  };

  return [depthRule, costRule];
}

/** A whole number as digits while it is exact, then in scientific notation (never a wrapped or cut figure). */
function shown(cost: number): string {
  const rounded = Math.ceil(cost);
  return Number.isSafeInteger(rounded) ? String(rounded) : cost.toExponential(2);
}
