import { isEmail, isPlainObject } from '@fi/shared';

/**
 * Reads one imported record field by field, collecting every problem instead of stopping at the first,
 * so one run of `import` reports all the fixes a file needs.
 */
export class RecordReader {
  readonly problems: string[] = [];
  private readonly record: Record<string, unknown>;

  constructor(value: unknown, allowed: readonly string[], ignored: readonly string[] = []) {
    if (!isPlainObject(value)) {
      this.problems.push('must be a JSON object');
      this.record = {};
      return;
    }
    this.record = value;
    for (const field of Object.keys(value)) {
      if (!allowed.includes(field) && !ignored.includes(field)) this.problems.push(`unknown field "${field}"`);
    }
  }

  raw(field: string): unknown {
    return this.record[field];
  }

  string(field: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) {
      if (options.required) this.problems.push(`${field} is required`);
      return undefined;
    }
    if (typeof value !== 'string') return this.fail(`${field} must be a string`);
    if (options.required && value.trim() === '') return this.fail(`${field} must not be blank`);
    if (options.max !== undefined && value.length > options.max) return this.fail(`${field} must be at most ${options.max} characters`);
    return value.trim() === '' ? undefined : value.trim();
  }

  email(field: string): string | undefined {
    const value = this.string(field);
    if (value !== undefined && !isEmail(value)) return this.fail(`${field} must be a valid email address`);
    return value;
  }

  fraction(field: string): number | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      return this.fail(`${field} must be a number from 0 to 1`);
    }
    return value;
  }

  date(field: string): Date | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) return undefined;
    const date = typeof value === 'string' ? new Date(value) : new Date(NaN);
    if (Number.isNaN(date.getTime())) return this.fail(`${field} must be an ISO 8601 date-time`);
    return date;
  }

  tags(field: string): string[] {
    const value = this.record[field];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every((tag) => typeof tag === 'string')) {
      this.problems.push(`${field} must be an array of strings`);
      return [];
    }
    return value as string[];
  }

  private fail(problem: string): undefined {
    this.problems.push(problem);
    return undefined;
  }
}
