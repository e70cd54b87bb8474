import { GraphQLError } from 'graphql';
import { badRequest } from '../errors';
import { validateMetadata } from '../metadata';
import { isPlainObject } from '../scalars';
import { codePointLength, isEmail, MAX_EMAIL_LENGTH, textProblem } from '../validation';

/** One broken rule of one field, e.g. `{ field: 'title', message: 'must be a string (got number)' }`. */
export interface FieldProblem {
  field: string;
  message: string;
  /** The limit or the allowed values, for the API's `extensions`. */
  max?: number;
  allowed?: readonly string[];
}

export type Checked<T> = { value: T; problems: [] } | { value: null; problems: FieldProblem[] };

const typeName = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

interface TextOptions {
  max: number;
  multiline?: boolean;
}

type TextCheck = { text: string | undefined } | { problem: string; extra?: Pick<FieldProblem, 'max'> };

/** One value as text: trimmed (undefined when blank), or why it is not acceptable. */
function checkText(value: unknown, options: TextOptions): TextCheck {
  if (typeof value !== 'string') return { problem: `must be a string (got ${typeName(value)})` };
  const trimmed = value.trim();
  if (trimmed === '') return { text: undefined };
  const length = codePointLength(trimmed);
  if (length > options.max) {
    return { problem: `must be at most ${options.max} characters (got ${length})`, extra: { max: options.max } };
  }
  const problem = textProblem(trimmed, !options.multiline);
  return problem ? { problem } : { text: trimmed };
}

/**
 * Checks one record field by field, whatever it holds (a file can hold anything: numbers for text,
 * arrays for objects), and collects every problem instead of stopping at the first. Each service's
 * domain rules are written with it, and the API and the CLI both go through those rules: the API
 * answers the first problem as BAD_REQUEST, the CLI lists them all.
 */
export class RecordRules {
  readonly problems: FieldProblem[] = [];
  private readonly record: Record<string, unknown>;
  /** A value that is not an object has one problem; its fields have none of their own. */
  private readonly isObject: boolean;

  /** `known` fields may appear; any other is a problem, except `ignored` ones (accepted, not used). */
  constructor(value: unknown, known?: readonly string[], ignored: readonly string[] = []) {
    this.isObject = isPlainObject(value);
    if (!isPlainObject(value)) {
      this.problems.push({ field: 'record', message: `must be a JSON object (got ${typeName(value)})` });
      this.record = {};
      return;
    }
    this.record = value;
    if (!known) return;
    for (const field of Object.keys(value)) {
      if (!known.includes(field) && !ignored.includes(field)) this.problems.push({ field, message: 'unknown field' });
    }
  }

  /**
   * Trimmed text, at most `max` characters (code points); blank counts as absent unless `required`, when
   * it is a problem. Text is one line (no control characters) unless `multiline`.
   */
  text(field: string, options: TextOptions & { required?: boolean }): string | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) {
      if (options.required) this.problem(field, 'is required');
      return undefined;
    }
    const checked = checkText(value, options);
    if ('problem' in checked) return this.problem(field, checked.problem, checked.extra);
    if (checked.text === undefined && options.required) return this.problem(field, 'must not be blank');
    return checked.text;
  }

  email(field: string): string | undefined {
    const value = this.text(field, { max: MAX_EMAIL_LENGTH });
    if (value !== undefined && !isEmail(value)) return this.problem(field, 'must be a valid email address');
    return value;
  }

  oneOf<T extends string>(field: string, allowed: readonly T[]): T | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      return this.problem(field, `must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`, { allowed });
    }
    return value as T;
  }

  fraction(field: string): number | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      return this.problem(field, `must be a number from 0 to 1 (got ${JSON.stringify(value)})`);
    }
    return value;
  }

  date(field: string): Date | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) return undefined;
    // A Date comes from code (the seed), a string from a file or the API.
    const date = typeof value === 'string' ? new Date(value) : value instanceof Date ? value : new Date(NaN);
    if (Number.isNaN(date.getTime()))
      return this.problem(field, `must be an ISO 8601 date-time (got ${JSON.stringify(value) ?? typeName(value)})`);
    return date;
  }

  /**
   * A list of at most `maxCount` tags, each one-line text of at most `max` characters (the rule of every
   * one-line field); blank tags are left out.
   */
  tags(field: string, options: { maxCount: number; max: number }): string[] {
    const value = this.record[field];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every((tag) => typeof tag === 'string')) {
      this.problem(field, 'must be an array of strings');
      return [];
    }
    if (value.length > options.maxCount) {
      this.problem(field, `must hold at most ${options.maxCount} tags (got ${value.length})`, {
        max: options.maxCount,
      });
      return [];
    }
    const tags: string[] = [];
    for (const [index, tag] of value.entries()) {
      const checked = checkText(tag, options);
      if ('problem' in checked) {
        this.problem(field, `item ${index + 1} ${checked.problem}`, checked.extra);
        return [];
      }
      if (checked.text !== undefined) tags.push(checked.text);
    }
    return tags;
  }

  /** A free-form JSON object within the shared metadata limits. */
  metadata(field: string): Record<string, unknown> | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) return undefined;
    try {
      return validateMetadata(value, field);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      const max = error.extensions.max;
      return this.problem(field, error.message.replace(`${field} `, ''), typeof max === 'number' ? { max } : {});
    }
  }

  /** The checked record, or every problem found. */
  result<T>(build: () => T): Checked<T> {
    return this.problems.length > 0 ? { value: null, problems: this.problems } : { value: build(), problems: [] };
  }

  private problem(field: string, message: string, extra: Pick<FieldProblem, 'max' | 'allowed'> = {}): undefined {
    if (this.isObject) this.problems.push({ field, message, ...extra });
    return undefined;
  }
}

/** `title must be at most 500 characters (got 501)`: the way the API words a problem. */
export const describeProblem = (problem: FieldProblem) => `${problem.field} ${problem.message}`;

/**
 * The API's answer to input that breaks its rules: BAD_REQUEST worded after the first problem, naming
 * the field (`argument`) and its limit; `problems` lists them all when there are several.
 */
export function valueOrBadRequest<T>(checked: Checked<T>): T {
  if (checked.value !== null) return checked.value;
  const [first, ...more] = checked.problems;
  throw badRequest(describeProblem(first), {
    argument: first.field,
    ...(first.max !== undefined ? { max: first.max } : {}),
    ...(first.allowed !== undefined ? { allowed: first.allowed } : {}),
    ...(more.length > 0 ? { problems: checked.problems.map(({ field, message }) => ({ field, message })) } : {}),
  });
}
