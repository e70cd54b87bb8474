import { parse, type DocumentNode, type ParseOptions } from 'graphql';

const MAX_ENTRIES = 1_000;

/**
 * Parsed documents by query text. Clients send the same few queries again and again, so the gateway's
 * own look at the document (for API keys) costs a map lookup, not a parse, on the hot path.
 */
export class DocumentCache {
  private readonly documents = new Map<string, DocumentNode>();

  /** The same parse options as GraphQL execution, so a document over the token limit is never parsed whole. */
  constructor(private readonly parseOptions: ParseOptions = {}) {}

  /** The parsed document, or null for a syntax error (GraphQL validation reports it to the client). */
  get(query: string): DocumentNode | null {
    const cached = this.documents.get(query);
    if (cached) return cached;
    let document: DocumentNode;
    try {
      document = parse(query, this.parseOptions);
    } catch {
      return null;
    }
    if (this.documents.size >= MAX_ENTRIES) {
      const oldest = this.documents.keys().next().value;
      if (oldest !== undefined) this.documents.delete(oldest);
    }
    this.documents.set(query, document);
    return document;
  }
}
