import type { ServerResponse } from 'node:http';
import { ErrorCode } from '../errors';

/** The service's own route; the gateway serves it to the public as /exports/<resource>. */
export const EXPORT_DOWNLOAD_PATH = '/exports/download';

/**
 * Headers of a download's answer from the owning service to the gateway (never passed on): the key that
 * started the export and its organization, whose liveness the gateway asks the identity service about.
 */
export const EXPORT_KEY_HEADER = 'x-fi-export-key';
export const EXPORT_ORG_HEADER = 'x-fi-export-org';

const EXPORT_LINK_UNKNOWN = 'No export file at this address: check the url of the export job';

/** A download's error answer: JSON `errors` as the API words them, never cached. */
export function sendExportError(res: ServerResponse, status: number, message: string, code: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ errors: [{ message, extensions: { code } }] }));
}

/**
 * The answer to a link nobody may download, the same whatever the reason (wrong, tampered, unknown,
 * deleted, or its key revoked), so it tells nothing about whether an export exists.
 */
export const sendUnknownExportLink = (res: ServerResponse) =>
  sendExportError(res, 404, EXPORT_LINK_UNKNOWN, ErrorCode.NOT_FOUND);
