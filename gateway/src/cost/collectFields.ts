import { Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** A field of a selection set, with the type condition of the fragment it came through (if any). */
export interface CollectedField {
  field: FieldNode;
  /** The nearest enclosing fragment's type condition; undefined when written on the parent's type. */
  typeCondition: string | undefined;
}

/**
 * The fields a selection set selects, fragments expanded in place as GraphQL execution does: a fragment
 * is no level of the answer, and a named fragment spread again in the same selection set adds nothing
 * (graphql-js's collectFields skips it). So a chain of fragments costs what its fields cost, however it
 * is written. Spreads of unknown fragments are skipped (validation refuses them).
 */
export function collectFields(
  selectionSet: SelectionSetNode,
  fragment: (name: string) => FragmentDefinitionNode | null | undefined,
): CollectedField[] {
  const fields: CollectedField[] = [];
  const spread = new Set<string>();
  const collect = (set: SelectionSetNode, typeCondition: string | undefined): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) fields.push({ field: selection, typeCondition });
      else if (selection.kind === Kind.INLINE_FRAGMENT)
        collect(selection.selectionSet, selection.typeCondition?.name.value ?? typeCondition);
      else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        const definition = fragment(selection.name.value);
        if (definition) collect(definition.selectionSet, definition.typeCondition.name.value);
      }
    }
  };
  collect(selectionSet, undefined);
  return fields;
}

/** A document's fragments by name. */
export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  return fragments;
}
