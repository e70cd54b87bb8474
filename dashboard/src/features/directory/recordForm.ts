import type { CombinedError } from '@urql/core';
import { errorInWords } from '../../lib/errorInWords';
import type { DirectoryRecord, FieldSpec } from './directoryTypes';

export type FormValues = Record<string, string>;

/** The form's text for each field of a record (empty for a new one). */
export function valuesOf(fields: FieldSpec[], record: DirectoryRecord | null): FormValues {
  const source = (record ?? {}) as unknown as Record<string, unknown>;
  return Object.fromEntries(
    fields.map((field) => {
      const value = source[field.name];
      if (value === null || value === undefined) return [field.name, ''];
      return [field.name, Array.isArray(value) ? value.join(', ') : String(value)];
    }),
  );
}

/**
 * The admin API's input: blank fields left out (an edit clears them), tags split at commas, fractions as
 * numbers (the field takes only numbers). The service trims and checks everything with its own rules.
 * The fields are the input type's own (a directory's definition names them), so the object is one.
 */
export function inputOf<Input>(fields: FieldSpec[], values: FormValues): Input {
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const text = values[field.name]?.trim() ?? '';
    if (field.kind === 'tags')
      input.tags = text
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean);
    else if (text === '' && !field.required) continue;
    else input[field.name] = field.kind === 'fraction' ? Number(text) : values[field.name];
  }
  return input as Input;
}

/**
 * The service's refusal in words, naming the field by its label ("Email must be a valid email address"),
 * and which field it is, so the form can mark it.
 */
export function formError(fields: FieldSpec[], error: CombinedError): { message: string; field: string | null } {
  const argument = error.graphQLErrors[0]?.extensions?.argument;
  const field = fields.find((candidate) => candidate.name === argument);
  const message = errorInWords(error);
  if (!field) return { message, field: null };
  return {
    message: message.startsWith(`${field.name} `) ? `${field.label} ${message.slice(field.name.length + 1)}` : message,
    field: field.name,
  };
}
