import type { TypedDocumentNode } from '@urql/core';

/** A record of a directory as the page lists it. */
export interface DirectoryRecord {
  id: string;
  name: string;
  createdAt: string;
}

/** One field of the record form; `name` is the admin API's input field. */
export interface FieldSpec {
  name: string;
  label: string;
  kind: 'text' | 'email' | 'url' | 'multiline' | 'fraction' | 'tags';
  required?: boolean;
  /** The service's limit, so the browser stops typing there (the service checks it anyway). */
  maxLength?: number;
  hint?: string;
}

export interface ImportReport {
  rows: number;
  imported: number;
  problems: Array<{ row: number; field: string; message: string }>;
}

/**
 * What the directory pages need of one resource (contacts, accounts): its words, its form, its list
 * columns and its admin API operations, each aliased to the same result names (`page`, `saved`,
 * `removed`, `report`) so one page serves both. `Input` is the admin API's input type, whose fields the
 * form's `fields` name.
 */
export interface DirectoryDefinition<T extends DirectoryRecord, Input> {
  /** "contact": buttons and dialogs ("New contact"). */
  singular: string;
  /** "contacts": sentences ("No contacts yet"). */
  plural: string;
  /** "Contacts": the page's heading and navigation link. */
  title: string;
  /** What the search matches, for its hint. */
  searchHint: string;
  fields: FieldSpec[];
  /** The list's columns after the name (which heads each row). */
  columns: Array<{ label: string; value: (record: T) => string }>;
  /** The columns a CSV file may have, for the import dialog's hint. */
  importHint: string;
  list: TypedDocumentNode<
    { page: { total: number; items: T[] } },
    { search?: string | null; skip: number; take: number }
  >;
  create: TypedDocumentNode<{ saved: T }, { input: Input }>;
  update: TypedDocumentNode<{ saved: T }, { id: string; input: Input }>;
  remove: TypedDocumentNode<{ removed: boolean }, { id: string }>;
  importCsv: TypedDocumentNode<{ report: ImportReport }, { csv: string; dryRun: boolean }>;
}
