'use strict';
/**
 * A two-player trick game for boardgame.io, shaped like Clowder's Catchy! so that the
 * fan-out benchmark (tests/perf/bench_bgio.py) makes boardgame.io carry the same kind of
 * state, per action, that Clowder's host carries for a Catchy! table.
 *
 * What it mirrors: two hands of 7 cards from a 16-card deck (red, green and blue 1-5 and
 * a Joker), face-down course cards, a trick of up to two cards, this round's finished
 * tricks, a cat on a line -3..+3 that flips side and moves after each trick, scores,
 * the previous round's summary and a log of the last 40 lines, as Clowder's view keeps.
 * One move, `play(card)`, is checked (own card, follow the led colour unless it is the
 * Joker) and the trick's winner leads next. `playerView` builds a seat's view with the
 * same keys as Catchy!'s view: its own hand only (a spectator sees none), the other hand
 * as a count, the course as "?", the seat's legal moves and why other cards are
 * unplayable. It is not Catchy!'s exact rules (no Starting card, simpler scoring):
 * what matters here is the size and the work of a view, not the game.
 *
 * The deal is shuffled by a generator whose state is kept in G, so a move is a pure
 * function of the state, as Clowder's engine keeps its seeded Rng in its state. The
 * match never ends: when a score reaches the target, a new game starts in the same
 * match (Clowder's bench moves its clients to a new table instead).
 */

const { INVALID_MOVE } = require('boardgame.io/core');

const COLOURS = { R: 'Red', G: 'Green', B: 'Blue' };
const JOKER = 'JK';
const CARDS = [...Object.keys(COLOURS).flatMap((c) => [1, 2, 3, 4, 5].map((n) => c + n)), JOKER];
const HAND_SIZE = 7;
const COURSE_SIZE = CARDS.length - 2 * HAND_SIZE;
const ARMS = 3;
const TARGET = 7;
const LOG_LIMIT = 40;
const NAMES = ['Ada', 'Bea'];

const colour = (card) => (card === JOKER ? null : card[0]);
const number = (card) => (card === JOKER ? 3 : Number(card[1]));
const cardName = (card) => (card === JOKER ? 'the Joker' : `${COLOURS[card[0]]} ${card[1]}`);
const byRank = (a, b) => CARDS.indexOf(a) - CARDS.indexOf(b);

/** xorshift32 on G.rng: the next number in [0, 1). */
function nextRandom(G) {
  let x = G.rng;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  G.rng = x >>> 0;
  return G.rng / 4294967296;
}

function shuffled(G, cards) {
  const deck = [...cards];
  for (let i = deck.length - 1; i > 0; i -= 1) {
    const j = Math.floor(nextRandom(G) * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

function addLog(G, line) {
  G.log.push(line);
  if (G.log.length > LOG_LIMIT) G.log.splice(0, G.log.length - LOG_LIMIT);
}

function deal(G) {
  const deck = shuffled(G, CARDS);
  G.course = deck.slice(0, COURSE_SIZE);
  G.hands = [deck.slice(COURSE_SIZE, COURSE_SIZE + HAND_SIZE), deck.slice(COURSE_SIZE + HAND_SIZE)];
  G.cat = { position: 0, side: 'red' };
  G.trick = [];
  G.tricks = [];
  G.leader = G.starter;
  G.next = G.starter;
  addLog(G, `Round ${G.round}: ${NAMES[G.starter]} leads the first trick.`);
}

/** The cards of `hand` that may be played on `trick`: the led colour if held (or the Joker). */
function playable(hand, trick) {
  const led = trick.length > 0 ? colour(trick[0]) : null;
  if (led === null) return hand;
  const following = hand.filter((card) => colour(card) === led);
  if (following.length === 0) return hand;
  return hand.includes(JOKER) ? [...following, JOKER] : following;
}

function resolveTrick(G) {
  const [led, followed] = G.trick;
  const leader = G.leader;
  const follower = 1 - leader;
  const contest = colour(followed) === colour(led) || led === JOKER || followed === JOKER;
  const winner = contest && number(followed) > number(led) ? follower : leader;
  const flipped = number(led) % 2 === 1 && number(followed) % 2 === 1;
  if (flipped) G.cat.side = G.cat.side === 'red' ? 'blue' : 'red';
  const toward = G.cat.side === 'red' ? winner : 1 - winner;
  const step = toward === 0 ? -1 : 1;
  G.cat.position = Math.max(-ARMS, Math.min(ARMS, G.cat.position + step));
  G.tricks.push({
    leader,
    cards: [led, followed],
    winner,
    flipped,
    toward,
    position: G.cat.position,
    side: G.cat.side,
  });
  addLog(
    G,
    `${NAMES[winner]} wins the trick; ${flipped ? 'both odd, the cat flips; ' : ''}` +
      `the cat (${G.cat.side}) moves towards ${NAMES[toward]}.`,
  );
  G.trick = [];
  G.leader = winner;
  G.next = winner;
}

function endRound(G) {
  const { position } = G.cat;
  const points = [0, 0];
  if (position === 0) {
    points[0] = 1;
    points[1] = 1;
  } else {
    points[position < 0 ? 0 : 1] = Math.abs(position) === ARMS ? 3 : 2;
  }
  G.scores = G.scores.map((score, seat) => score + points[seat]);
  G.last_round = { round: G.round, course: [...G.course], position, points };
  addLog(G, `Round ${G.round} ends: ${NAMES[0]} +${points[0]}, ${NAMES[1]} +${points[1]}.`);
  const best = Math.max(...G.scores);
  if (best >= TARGET) {
    addLog(G, `${NAMES[G.scores.indexOf(best)]} wins the game; a new game begins.`);
    G.scores = [0, 0];
    G.round = 0;
  }
  G.round += 1;
  G.starter = 1 - G.starter;
  deal(G);
}

function play({ G, playerID }, card) {
  const seat = Number(playerID);
  const hand = G.hands[seat];
  if (!playable(hand, G.trick).includes(card)) return INVALID_MOVE;
  hand.splice(hand.indexOf(card), 1);
  G.trick.push(card);
  const verb = G.trick.length === 1 ? 'leads' : 'follows with';
  addLog(G, `${NAMES[seat]} ${verb} ${cardName(card)}.`);
  if (G.trick.length < 2) {
    G.next = 1 - seat;
    return undefined;
  }
  resolveTrick(G);
  if (G.hands[0].length === 0 && G.hands[1].length === 0) endRound(G);
  return undefined;
}

/** What `playerID` may see (null: a spectator), with the keys of Catchy!'s view. */
function playerView({ G, ctx, playerID }) {
  const seat = playerID === null || playerID === undefined ? null : Number(playerID);
  const turn = Number(ctx.currentPlayer);
  const own = seat === null ? null : G.hands[seat];
  const mine = own !== null && seat === turn;
  const canPlay = mine ? playable(own, G.trick) : [];
  const unplayable = {};
  if (mine && canPlay.length < own.length) {
    const led = COLOURS[colour(G.trick[0])];
    for (const card of own) {
      if (!canPlay.includes(card)) unplayable[card] = `You must follow ${led} (or play the Joker)`;
    }
  }
  return {
    game: 'bench',
    seat,
    players: NAMES,
    phase: 'play',
    legal: canPlay.map((card) => ({ type: 'play', card })),
    log: G.log,
    scores: G.scores,
    round: G.round,
    turn,
    leader: G.leader,
    starter: G.starter,
    hand: own === null ? null : [...own].sort(byRank),
    hand_counts: G.hands.map((hand) => hand.length),
    course: G.course.map(() => '?'),
    cat: { ...G.cat, arms: ARMS },
    trick: G.trick,
    tricks: G.tricks,
    tricks_per_round: HAND_SIZE,
    target: TARGET,
    last_round: G.last_round,
    unplayable,
  };
}

const Bench = {
  name: 'bench',
  setup: () => {
    const G = { rng: 0x2545f491, round: 1, starter: 0, scores: [0, 0], log: [], last_round: null };
    deal(G);
    return G;
  },
  moves: {
    // client: false: the acting client waits for the server's state, as a Clowder client
    // waits for its view, instead of showing its own optimistic one first.
    play: { move: play, client: false },
  },
  turn: {
    minMoves: 1,
    maxMoves: 1,
    order: { first: () => 0, next: ({ G }) => G.next },
  },
  playerView,
  disableUndo: true,
};

module.exports = { Bench, playable, playerView };
