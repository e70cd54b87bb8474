import { readFileSync } from 'node:fs';
import http from 'node:http';

/**
 * The runtime's ceiling: a bare node:http server that reads each request and answers with a recorded
 * response of the same size, doing no GraphQL work at all.
 */
const body = readFileSync(process.env.BODY_FILE as string);
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
