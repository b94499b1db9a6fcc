/**
 * A small round-robin HTTP load balancer for the bench's two-process run, in a process of its own:
 *
 *   node --import tsx scripts/bench/load-balancer.ts PORT http://127.0.0.1:A [http://127.0.0.1:B ...]
 *
 * Each request goes to the next store in turn over a keep-alive agent, as nginx's upstream keepalive
 * would, so the figures measure the stores and not a TCP handshake per request. One process for one or
 * for two stores, so both runs pay the same extra hop. It prints "balancing on PORT" once it listens.
 */
import http from 'node:http';

const [portArg, ...targets] = process.argv.slice(2);
if (!portArg || targets.length === 0) throw new Error('usage: load-balancer.ts PORT TARGET_URL...');
const upstreams = targets.map((t) => new URL(t));
// Enough sockets per store for the bench's 50 connections; idle ones are kept for the next request.
const agent = new http.Agent({ keepAlive: true, maxSockets: 128, maxFreeSockets: 128 });
let next = 0;

const server = http.createServer((req, res) => {
  const target = upstreams[next++ % upstreams.length] as URL;
  const upstream = http.request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`upstream ${target.host}: ${error.message}`);
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(portArg), '127.0.0.1', () => console.log(`balancing on ${portArg}`));
process.on('SIGTERM', () => {
  server.close();
  agent.destroy();
  process.exit(0);
});
