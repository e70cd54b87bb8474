import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ErrorCode } from '../errors';
import type { Logger } from '../logger';
import { objectIdOrNull } from '../data/objectId';
import type { ExportJobDocument, ExportJobStore } from '../data/exportJobStore';
import { EXPORT_KEY_HEADER, EXPORT_ORG_HEADER, sendExportError, sendUnknownExportLink } from './downloadPath';

const TOKEN = /^([0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/;

/** The job the token names when its secret matches; null for anything else, in constant time for the secret. */
async function jobForToken(store: ExportJobStore, token: string | null): Promise<ExportJobDocument | null> {
  const parts = TOKEN.exec(token ?? '');
  const id = parts ? objectIdOrNull(parts[1]) : null;
  const job = id ? await store.get(id) : null;
  if (!job || !parts) return null;
  const given = Buffer.from(parts[2]);
  const expected = Buffer.from(job.secret);
  return given.length === expected.length && timingSafeEqual(given, expected) ? job : null;
}

/**
 * GET /exports/download?token=...: streams the file part by part (one part in memory at a time), with
 * its length, so a client sees a cut-off download as incomplete. 404 for a wrong token, 410 once expired.
 * The answer names the key that started the export: the gateway checks it is still live before it
 * passes a byte on.
 */
export function exportDownloadRoute(store: ExportJobStore, logger: Logger) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const token = new URL(req.url ?? '/', 'http://localhost').searchParams.get('token');
    const job = await jobForToken(store, token);
    if (!job || !['done', 'expired'].includes(job.status)) {
      sendUnknownExportLink(res);
      return;
    }
    if (job.status === 'expired' || (job.expiresAt && job.expiresAt <= new Date())) {
      sendExportError(
        res,
        410,
        'This export file has expired and was deleted: start a new export',
        ErrorCode.NOT_FOUND,
      );
      return;
    }
    const extension = job.format === 'csv' ? 'csv' : 'ndjson';
    res.writeHead(200, {
      'content-type': 'application/gzip',
      'content-length': String(job.bytes),
      'content-disposition': `attachment; filename="${job.resource}-export-${job._id.toHexString()}.${extension}.gz"`,
      'cache-control': 'private, no-store',
      // For the gateway, which serves the file only while this key is live (it does not pass these on).
      ...(job.keyId ? { [EXPORT_KEY_HEADER]: job.keyId, [EXPORT_ORG_HEADER]: job.orgId } : {}),
    });
    async function* parts() {
      for (let n = 0; n < job!.chunks; n += 1) {
        const data = await store.readChunk(job!._id, n);
        // Deleted while streaming (it expired): the short body tells the client the download is incomplete.
        if (!data) throw new Error(`export part ${n} is gone`);
        yield data;
      }
    }
    try {
      await pipeline(Readable.from(parts()), res);
    } catch (error) {
      logger.warn({ err: error, exportId: job._id.toHexString() }, 'export download ended early');
      res.destroy();
    }
  };
}
