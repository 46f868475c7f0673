'use strict';
/**
 * One client process of tests/perf/bench_bgio.py: a boardgame.io Client with the
 * SocketIO transport, playing seat "0" or "1" with a bot or watching as a spectator
 * (no playerID), like one client process of tests/perf/bench_latency.py.
 *
 *   node client.cjs PORT SEAT|spectator ACTIONS GAP_MS SEED
 *
 * It prints `BENCH {"event": "ready", ...}` once it has the match's state, waits for
 * the line `go` on its standard input (so no one acts before every client is there),
 * then stamps process.hrtime.bigint() (CLOCK_MONOTONIC, as Python's time.monotonic_ns)
 * each time its subscribe callback gets a new state (_stateID), and, as a player whose
 * turn it is, waits GAP_MS and stamps just before sending its move, keyed by the
 * _stateID that move will produce. When it has seen ACTIONS states after the one it
 * started from it stops its client and prints `BENCH {"event": "result", ...}`: the
 * stamps (as strings: nanoseconds since boot do not all fit a double) and its CPU time
 * over that window (process.cpuUsage: user + system, all threads), less the bot's.
 * It exits when its standard input closes, so it cannot outlive the benchmark.
 */

const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Bench } = require('./game.cjs');

const [portArg, seatArg, actionsArg, gapArg, seedArg] = process.argv.slice(2);
const playerID = seatArg === 'spectator' ? null : seatArg;
const actions = Number(actionsArg);
const gapMs = Number(gapArg);
let seed = Number(seedArg) >>> 0 || 1;

const sent = new Map();
const received = new Map();
let latest = null;
let start = null;
let cpuAtGo = null;
let views = 0;
let thinkingUs = 0;
let acted = -1;
let finished = false;

function say(record) {
  process.stdout.write(`BENCH ${JSON.stringify(record)}\n`);
}

function cpuUs(usage) {
  return usage.user + usage.system;
}

/** The bot: a legal card picked by the client's own seeded generator. */
function choose(view) {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return view.legal.length === 0 ? null : view.legal[seed % view.legal.length].card;
}

const client = Client({
  game: Bench,
  numPlayers: 2,
  matchID: 'bench',
  playerID,
  multiplayer: SocketIO({
    server: `http://127.0.0.1:${portArg}`,
    socketOpts: { transports: ['websocket'] },
  }),
});

function consider(state) {
  const id = state._stateID;
  if (playerID === null || finished || id <= acted || state.ctx.currentPlayer !== playerID) {
    return;
  }
  const before = process.cpuUsage();
  const card = choose(state.G);
  thinkingUs += cpuUs(process.cpuUsage(before));
  if (card === null) return;
  acted = id;
  setTimeout(() => {
    sent.set(id + 1, process.hrtime.bigint());
    client.moves.play(card);
  }, gapMs);
}

function finish() {
  finished = true;
  const cpu = cpuUs(process.cpuUsage(cpuAtGo));
  client.stop();
  const asText = (map) => Object.fromEntries([...map].map(([id, ns]) => [id, ns.toString()]));
  say({
    event: 'result',
    start,
    sent: asText(sent),
    received: asText(received),
    cpu_us: cpu,
    thinking_us: thinkingUs,
    views,
  });
}

client.subscribe((state) => {
  if (state === null || state._stateID === undefined) return;
  const id = state._stateID;
  if (received.has(id)) return; // a connection or metadata change: no new state
  received.set(id, process.hrtime.bigint());
  if (start === null) {
    if (latest === null) say({ event: 'ready', state: id, stamp: received.get(id).toString() });
    latest = state;
    return;
  }
  if (finished) return;
  views += 1;
  if (id >= start + actions) {
    finish();
    return;
  }
  consider(state);
});

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  if (start === null && buffered.split('\n').includes('go') && latest !== null) {
    start = latest._stateID;
    cpuAtGo = process.cpuUsage();
    consider(latest);
  }
});
process.stdin.on('end', () => process.exit(0));
process.on('uncaughtException', (error) => {
  say({ event: 'error', error: String(error && error.stack ? error.stack : error) });
  process.exit(1);
});

client.start();
