import { createHash } from 'node:crypto';
import type { ApolloServerOptions, BaseContext } from '@apollo/server';
import { parse, printSchema, type DocumentNode, type GraphQLSchema, type ParseOptions } from 'graphql';

const MAX_ENTRIES = 1_000;

/** Apollo Server's cache of parsed, validated documents. */
type DocumentStore = NonNullable<ApolloServerOptions<BaseContext>['documentStore']>;

interface Entry {
  document: DocumentNode;
  hash: string;
  /** Apollo's key prefix (its schema's hash) of the schema the document was last found valid against. */
  validFor: string | undefined;
}

/** How Apollo Server names a document in its store: the SHA-256 of the query text, in hex. */
const queryHash = (query: string) => createHash('sha256').update(query).digest('hex');

/**
 * Parsed documents, one parse per document for the whole gateway. The request gate reads a request's
 * keys and cost from the document before GraphQL runs (a map lookup for a document seen before, a
 * parse for a new one); Apollo Server then finds the same document in this cache (`documentStore`)
 * instead of parsing the text again, validated once per schema by its own rules. Clients send the same
 * few queries again and again; the oldest entries leave first.
 */
export class DocumentCache {
  private readonly byQuery = new Map<string, Entry>();
  private readonly byHash = new Map<string, Entry>();

  /**
   * `parseOptions`: the same as GraphQL execution's, so a document over the token limit is never parsed
   * whole. `onParse` counts the parses (the gateway's metrics).
   */
  constructor(
    private readonly parseOptions: ParseOptions = {},
    private readonly onParse: () => void = () => undefined,
  ) {}

  /** The parsed document, or null for a syntax error (GraphQL validation reports it to the client). */
  get(query: string): DocumentNode | null {
    const cached = this.byQuery.get(query);
    if (cached) return cached.document;
    let document: DocumentNode;
    try {
      this.onParse();
      document = parse(query, this.parseOptions);
    } catch {
      return null;
    }
    if (this.byQuery.size >= MAX_ENTRIES) {
      const [oldest] = this.byQuery;
      this.byQuery.delete(oldest[0]);
      this.byHash.delete(oldest[1].hash);
    }
    const entry: Entry = { document, hash: queryHash(query), validFor: undefined };
    this.byQuery.set(query, entry);
    this.byHash.set(entry.hash, entry);
    return document;
  }

  /**
   * Apollo Server's document store over these entries. Apollo asks it for `<schema hash>:<query hash>`
   * before it would parse; a document this cache holds is handed over once `isValid` (Apollo's
   * validation rules on `schema()`, the schema Apollo runs) accepts it, and remembered as valid for that
   * schema. A document that is not valid, or a key of another schema (a request that began before a
   * supergraph reload), is not handed over: Apollo parses and validates it itself and reports the errors.
   */
  documentStore(
    schema: () => GraphQLSchema | null,
    isValid: (schema: GraphQLSchema, document: DocumentNode) => boolean,
  ): DocumentStore {
    let hashed: { schema: GraphQLSchema; prefix: string } | null = null;
    const prefixOf = (current: GraphQLSchema) => {
      // Apollo's own prefix for a provided store: the SHA-256 of the printed API schema (once per schema).
      if (hashed?.schema !== current) hashed = { schema: current, prefix: queryHash(printSchema(current)) };
      return hashed.prefix;
    };
    return {
      get: async (key) => {
        const separator = key.lastIndexOf(':');
        const entry = this.byHash.get(key.slice(separator + 1));
        const current = schema();
        if (!entry || !current) return undefined;
        const prefix = key.slice(0, separator);
        if (entry.validFor === prefix) return entry.document;
        if (prefix !== prefixOf(current) || !isValid(current, entry.document)) return undefined;
        entry.validFor = prefix;
        return entry.document;
      },
      // Apollo stores what it parsed and validated itself: only documents this cache no longer holds.
      set: async () => undefined,
      delete: async () => undefined,
    };
  }
}
