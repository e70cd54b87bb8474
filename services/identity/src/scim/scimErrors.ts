import { GraphQLError } from 'graphql';
import { ErrorCode } from '@fi/shared';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 section 3.12's detail error types, where one applies. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

/** A refusal in SCIM's own error form (RFC 7644 section 3.12). */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: ScimType,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  body() {
    return {
      schemas: [SCIM_ERROR_SCHEMA],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.message,
    };
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidSyntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');
export const userNotFound = (id: string) => new ScimError(404, `User ${id} not found`);

const STATUS_OF_CODE: Partial<Record<string, number>> = {
  [ErrorCode.BAD_REQUEST]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.SERVICE_UNAVAILABLE]: 503,
  [ErrorCode.QUERY_TIMEOUT]: 503,
};

/**
 * The service's own refusals (the members' rules: keep an owner, who may change whom) in SCIM's form, with
 * their messages; anything else is not the client's doing and stays an internal error.
 */
export function asScimError(error: unknown): ScimError | null {
  if (error instanceof ScimError) return error;
  if (!(error instanceof GraphQLError)) return null;
  const status = STATUS_OF_CODE[String(error.extensions.code)];
  if (!status) return null;
  const retryAfter = error.extensions.retryAfter;
  return new ScimError(
    status,
    error.message,
    status === 400 ? 'invalidValue' : undefined,
    typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter) } : {},
  );
}
