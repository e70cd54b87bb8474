import { badRequest } from './errors';

export const DEFAULT_TAKE = 50;
export const MAX_TAKE = 100;

export interface Page {
  skip: number;
  take: number;
}

/** Applies the spec's defaults and limits; an explicit null means the default. */
export function toPage(args: { skip?: number | null; take?: number | null }): Page {
  const skip = args.skip ?? 0;
  const take = args.take ?? DEFAULT_TAKE;
  if (skip < 0) throw badRequest(`skip must be 0 or more (got ${skip})`, { argument: 'skip', min: 0 });
  if (take < 0 || take > MAX_TAKE) {
    throw badRequest(`take must be between 0 and ${MAX_TAKE} (got ${take})`, {
      argument: 'take',
      min: 0,
      max: MAX_TAKE,
    });
  }
  return { skip, take };
}

export interface PageResult<T> {
  items: T[];
  total: number;
}
