import http from 'node:http';
import { Pool } from 'undici';

/**
 * The cost of one more hop: a bare node:http server that forwards each request's body to one subgraph
 * over keep-alive connections (undici, as our gateway does) and answers with the subgraph's status and
 * body, doing no GraphQL work at all. Beside the direct subgraph, it shows how much of a gateway's
 * one-connection overhead is the extra process and its socket writes on this machine, before any
 * parsing, planning or shaping.
 */
const upstream = new URL(process.env.UPSTREAM_URL as string);
const pool = new Pool(upstream.origin, { connections: 128, keepAliveTimeout: 30_000 });
const upstreamPath = `${upstream.pathname}${upstream.search}`;

/**
 * The client signs the identity itself (as for Hive Gateway): without it the subgraph would only refuse.
 * @fi/shared's IDENTITY_HEADER, not imported: this bare server loads nothing of the project.
 */
const IDENTITY_HEADER = 'x-fi-identity';

async function forward(body: Buffer, identity: string | undefined, res: http.ServerResponse): Promise<void> {
  const answer = await pool.request({
    path: upstreamPath,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(identity ? { [IDENTITY_HEADER]: identity } : {}) },
    body,
  });
  const text = await answer.body.text();
  res.writeHead(answer.statusCode, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const identity = req.headers[IDENTITY_HEADER];
    forward(Buffer.concat(chunks), Array.isArray(identity) ? identity[0] : identity, res).catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`pass-through: ${(error as Error).message}`);
    });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => void pool.close().then(() => process.exit(0)));
  server.closeAllConnections();
});
