// The ceiling Wharf is measured against: plain node:http answering, from memory, the
// exact status, headers and body Wharf gave for each path (recorded by bench/run.ts).
// usage: node bench/bare-server.mjs <fixtures.json> <port>
import fs from 'node:fs';
import http from 'node:http';

const [fixturesFile, portArg] = process.argv.slice(2);
/** @type {Record<string, { status: number; headers: [string, string][]; body: string }>} */
const fixtures = JSON.parse(fs.readFileSync(fixturesFile, 'utf8'));
const routes = new Map(Object.entries(fixtures).map(([path, f]) => [
  path, { status: f.status, headers: f.headers.flat(), body: Buffer.from(f.body, 'base64') },
]));

const server = http.createServer((req, res) => {
  const route = routes.get(req.url ?? '');
  req.resume();
  if (!route) {
    res.writeHead(404, { 'content-length': '0' });
    res.end();
    return;
  }
  res.writeHead(route.status, route.headers);
  res.end(route.body);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(portArg), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
