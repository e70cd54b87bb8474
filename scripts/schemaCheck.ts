import { Supergraph } from '@apollo/federation-internals';
import { CriticalityLevel, diff, type Change } from '@graphql-inspector/core';
import { parse, type DocumentNode, type GraphQLSchema } from 'graphql';

export interface ApiChange {
  level: CriticalityLevel;
  message: string;
  path: string | undefined;
  /** The subgraphs whose SDL holds the changed type (and field, when it still exists there). */
  subgraphs: string[];
}

/** The public API of a supergraph: what clients see, without @inaccessible fields and join metadata. */
export function apiSchemaOf(supergraphSdl: string): GraphQLSchema {
  return Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema();
}

function definesPath(document: DocumentNode, typeName: string, fieldName: string | undefined): boolean {
  return document.definitions.some(
    (definition) =>
      'name' in definition &&
      definition.name?.value === typeName &&
      (fieldName === undefined ||
        ('fields' in definition && (definition.fields ?? []).some((field) => field.name.value === fieldName))),
  );
}

/** Whether a subgraph of the checked-in supergraph had this type (and field). */
function hadPath(old: Supergraph, subgraph: string, typeName: string, fieldName: string | undefined): boolean {
  const type = old.subgraphs().get(subgraph)?.schema.type(typeName);
  if (!type) return false;
  return fieldName === undefined || ('field' in type && type.field(fieldName) !== undefined);
}

/**
 * Which subgraphs a change comes from: those where the changed type or field appeared, disappeared or
 * changed between the checked-in supergraph and their SDL now; else every subgraph defining it.
 */
function subgraphsOf(change: Change, old: Supergraph, subgraphSdls: Record<string, string>): string[] {
  const [typeName, fieldName] = (change.path ?? '').split('.');
  if (!typeName) return [];
  const documents = Object.entries(subgraphSdls).map(([name, sdl]) => [name, parse(sdl)] as const);
  const presenceChanged = documents.filter(
    ([name, document]) => definesPath(document, typeName, fieldName) !== hadPath(old, name, typeName, fieldName),
  );
  if (presenceChanged.length > 0) return presenceChanged.map(([name]) => name);
  return documents.filter(([, document]) => definesPath(document, typeName, fieldName)).map(([name]) => name);
}

/** Every change of the public API from the checked-in supergraph to the new one, each with its subgraphs. */
export async function apiChanges(
  oldSupergraphSdl: string,
  newSupergraphSdl: string,
  subgraphSdls: Record<string, string>,
): Promise<ApiChange[]> {
  const old = Supergraph.build(oldSupergraphSdl);
  const changes = await diff(old.apiSchema().toGraphQLJSSchema(), apiSchemaOf(newSupergraphSdl));
  return changes.map((change) => ({
    level: change.criticality.level,
    message: change.message,
    path: change.path,
    subgraphs: subgraphsOf(change, old, subgraphSdls),
  }));
}

export const isBreaking = (change: ApiChange) => change.level === CriticalityLevel.Breaking;
