'use strict';
/**
 * The boardgame.io side of tests/perf/bench_bgio.py: boardgame.io's own Server (Koa,
 * socket.io, in-memory storage) serving the benchmark's game on 127.0.0.1 only, on a
 * free port. It prints one line, `BENCH {"event": "listening", "port": P}`, and runs
 * until its standard input closes (the benchmark closes it, or dies): then it exits.
 *
 * Server.run() listens on every interface and takes no host, so app.listen is wrapped
 * to pass 127.0.0.1 (koa-socket-2 forwards its arguments to http.Server.listen); the
 * address is checked before anything is announced.
 */

const { Server } = require('boardgame.io/server');
const { Bench } = require('./game.cjs');

function say(record) {
  process.stdout.write(`BENCH ${JSON.stringify(record)}\n`);
}

async function main() {
  const server = Server({ games: [Bench], origins: ['http://127.0.0.1'] });
  const listen = server.app.listen;
  server.app.listen = (port, callback) => listen.call(server.app, port, '127.0.0.1', callback);
  const { appServer } = await server.run(0);
  const address = appServer.address();
  if (address === null || typeof address === 'string' || address.address !== '127.0.0.1') {
    say({ event: 'error', error: `listening on ${JSON.stringify(address)}, not 127.0.0.1` });
    process.exit(1);
  }
  say({ event: 'listening', port: address.port, pid: process.pid });
}

process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
main().catch((error) => {
  say({ event: 'error', error: String(error && error.stack ? error.stack : error) });
  process.exit(1);
});
