import { ScimError } from './scimErrors';

/** An equality filter on one attribute, the only form provisioning clients send (RFC 7644 section 3.4.2.2). */
export interface EqualityFilter {
  /** The attribute as the client wrote it, lower case (attribute names are case-insensitive). */
  attribute: string;
  value: string;
}

const EQUALITY = /^\s*([A-Za-z][\w.:-]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

/**
 * `attribute eq "value"` with one of `supported` (compared in lower case); anything else is refused with
 * `invalidFilter` naming what is supported, rather than answered with a list the filter did not ask for.
 */
export function parseEqualityFilter(filter: string, supported: readonly string[]): EqualityFilter {
  const match = EQUALITY.exec(filter);
  const attribute = match?.[1].toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/, '');
  if (!match || !attribute || !supported.includes(attribute))
    throw new ScimError(
      400,
      `Only filters of the form ${supported.map((name) => `${name} eq "..."`).join(' or ')} are supported`,
      'invalidFilter',
    );
  try {
    return { attribute, value: JSON.parse(`"${match[2]}"`) as string };
  } catch {
    throw new ScimError(400, "The filter's value is not a valid string", 'invalidFilter');
  }
}

export interface ListWindow {
  /** 0-based, from the 1-based startIndex. */
  skip: number;
  take: number;
}

export const MAX_COUNT = 200;
const DEFAULT_COUNT = 100;

/**
 * RFC 7644 section 3.4.2.4: startIndex below 1 is taken as 1, a negative count as 0; a count above the
 * maximum the service provider config announces is lowered to it.
 */
export function listWindow(query: URLSearchParams): ListWindow {
  const number = (name: string, fallback: number) => {
    const text = query.get(name);
    if (text === null || text === '') return fallback;
    if (!/^-?\d+$/.test(text)) throw new ScimError(400, `${name} must be a whole number`, 'invalidValue');
    return Number(text);
  };
  const startIndex = Math.max(1, number('startIndex', 1));
  const count = Math.min(MAX_COUNT, Math.max(0, number('count', DEFAULT_COUNT)));
  return { skip: startIndex - 1, take: count };
}
