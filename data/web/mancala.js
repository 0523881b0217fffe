// The mancala pages of `rastros serve --game kalah|congkak|oware` (kalah.html, congkak.html,
// oware.html, each naming its game in <body data-game>): play against the server's perfect
// play. GET /api/GAME/info gives the variant, /api/GAME/play each move with the pit every seed
// lands in (animated seed by seed; Congkak's relay sowing lap by lap; Oware's captured houses),
// /api/GAME/solve the value, the score and every move's score (Oware: or "unknown" when the
// search is over its budget). Plain JavaScript, no build step, on page.js. The page never
// applies the rules itself: the server sows every move.
'use strict';

const GAME = document.body.dataset.game || 'kalah';

const PIT = 76;
const GAP = 12;
const MARGIN = 34;
const SEEDS_DRAWN = 28;

// Milliseconds a seed (?delay=0 for no animation).
const DELAY = addressDelay(150);

buildPanel({
  sides: ['player 1 (bottom row, moves first)', 'player 2 (top row)', 'both sides (analysis)'],
  moves: 'kalah-moves',
});

// ---------------------------------------------------------------------------------------------
// Positions: "4,4,4,4,0/4,4,4,4,0 1" (docs/rules.md, "Mancala notation").

function parsePosition(text) {
  const [rows, side] = text.split(' ');
  const [one, two] = rows.split('/').map((row) => row.split(',').map(Number));
  return {
    rows: [one.slice(0, -1), two.slice(0, -1)],
    stores: [one[one.length - 1], two[two.length - 1]],
    toMove: Number(side),
  };
}

function finalStores(counts) {
  return [0, 1].map((p) => counts.stores[p] + counts.rows[p].reduce((a, b) => a + b, 0));
}

// ---------------------------------------------------------------------------------------------
// Drawing. Player 2's row on top (house M on the left), player 1's below (house 1 on the
// left); player 2's store on the left, player 1's on the right: sowing runs counter-clockwise.

function pitBox(houses, player, pit) {
  const column = pit === 'store' ? (player === 1 ? houses + 1 : 0) :
      (player === 1 ? Number(pit) : houses + 1 - Number(pit));
  const x = MARGIN + column * (PIT + GAP);
  if (pit === 'store') return {x, y: MARGIN, w: PIT, h: 2 * PIT + GAP};
  return {x, y: player === 2 ? MARGIN : MARGIN + PIT + GAP, w: PIT, h: PIT};
}

function pitKey(player, pit) {
  return `${player}:${pit}`;
}

function drawSeeds(group, box, count) {
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  for (let k = 0; k < Math.min(count, SEEDS_DRAWN); k++) {
    // A sunflower spiral: evenly spread, the same picture for the same count.
    const r = 5.2 * Math.sqrt(k + 0.5);
    const angle = k * 2.39996;
    svgElement('circle', {
      cx: cx + r * Math.cos(angle), cy: cy + r * Math.sin(angle), r: 4.2, class: 'seed',
    }, group);
  }
}

// Draws `counts`; `marks` maps pit keys to extra classes; `hints` maps houses to children.
function drawBoard(counts, {legal = [], hints = null, marks = new Map()} = {}) {
  const houses = game.info.houses;
  const svg = $('board');
  svg.replaceChildren();
  const width = (houses + 2) * (PIT + GAP) - GAP + 2 * MARGIN;
  const height = 2 * PIT + GAP + 2 * MARGIN;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', width);
  svg.setAttribute('height', height);
  for (const player of [1, 2]) {
    const pits = [...Array(houses).keys()].map((i) => String(i + 1)).concat(['store']);
    for (const pit of pits) {
      const box = pitBox(houses, player, pit);
      const store = pit === 'store';
      const count = store ? counts.stores[player - 1] : counts.rows[player - 1][Number(pit) - 1];
      const classes = ['pit', store ? 'store' : 'house', `player-${player}`];
      const isLegal = !store && player === counts.toMove && legal.includes(pit);
      if (isLegal) classes.push('legal');
      const hint = isLegal && hints ? hints.get(pit) : null;
      if (hint) classes.push(`hint-${hint.value}`);
      if (marks.has(pitKey(player, pit))) classes.push(marks.get(pitKey(player, pit)));
      const group = svgElement('g', {
        class: classes.join(' '), 'data-player': player, 'data-pit': pit,
      }, svg);
      // Oware has no stores: the pits at the ends count each player's captures.
      const storeName = GAME === 'oware' ? 'captures' : 'store';
      svgElement('title', {}, group).textContent = store ?
          `player ${player}'s ${storeName}: ${count}` : `player ${player}'s house ${pit}: ${count}`;
      svgElement('rect', {
        x: box.x, y: box.y, width: box.w, height: box.h, rx: store ? 30 : 22, class: 'pit-shape',
      }, group);
      drawSeeds(group, box, count);
      if (!store) {
        svgElement('text', {
          x: box.x + 10, y: player === 1 ? box.y + box.h - 6 : box.y + 14, class: 'pit-label',
        }, group).textContent = pit;
      }
      // The count outside the row: above player 2's, below player 1's (in the stores, at
      // their far end).
      const countY = store ? (player === 1 ? box.y + box.h + MARGIN / 2 : box.y - MARGIN / 2) :
          (player === 1 ? box.y + box.h + MARGIN / 2 : box.y - MARGIN / 2);
      svgElement('text', {
        x: box.x + box.w / 2, y: countY, class: 'count', 'data-player': player, 'data-pit': pit,
      }, group).textContent = String(count);
      if (hint) {
        svgElement('text', {
          x: box.x + box.w / 2, y: player === 1 ? box.y + 16 : box.y + box.h - 8,
          class: 'hint-label', 'data-pit': pit,
        }, group).textContent = hint.score == null ? hint.value[0].toUpperCase() :
            (hint.score > 0 ? '+' : '') + hint.score;
      }
      if (isLegal) group.addEventListener('click', () => playMove(Number(pit)));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The server: GET /api/GAME/PATH, naming the variant.

const ask = (path, parameters) => api(`${GAME}/${path}`, {...game.variant, ...parameters});

// ---------------------------------------------------------------------------------------------
// The game.

const game = {
  info: null,
  variant: {},      // the houses and seeds every request names (Congkak: the page picks them)
  human: '1',       // '1', '2' or 'both'
  moves: [],        // house numbers as strings, from the start
  trail: [],        // the position after each prefix of moves: {position, to_move, ended, ...}
  answer: null,     // the server's solve of the current position
  request: 0,       // number of the latest request: older answers are dropped
  thinking: false,
  animating: null,  // while a move is sown: {counts, marks}
  error: null,
};

// The server could not settle the position within its budget (Oware): nobody plays for the
// computer, so the person moves for both sides until a known position.
const unknown = () => Boolean(game.answer && game.answer.value === 'unknown');
const humanToMove = (toMove) => game.human === 'both' || Number(game.human) === toMove ||
    unknown();

const {current, refresh, undo, showStatus, ready} = turnTaking(game, {
  advise: () => ask('solve', {moves: game.moves.join(' ')}),
  // The server's move where it names one (Oware: the best move that makes progress where
  // positions repeat); else the best score, among equals the lowest house (as rastros play).
  choose: (answer) => answer.move ? Number(answer.move) :
      Math.min(...answer.best_moves.map(Number)),
  pause: 300,
  tooLarge: 'Undo, or play a smaller variant.',
  humanToMove,
  busy: () => Boolean(game.animating),
  render,
  playMove,
});

function evaluationText(answer) {
  if (answer.value === 'unknown') return `Unknown: ${answer.reason}.`;
  if (answer.value === 'draw') return 'A draw with best play.';
  // Oware's "score" counts captures from here on; "margin" is the final one.
  const margin = answer.margin !== undefined ? answer.margin : answer.score;
  return `Player ${answer.winner} wins by ${Math.abs(margin)} with best play.`;
}

// The houses the side to move may sow: the server's list when it gives one (Oware's feeding
// rule), else every house holding seeds.
function legalHouses(view, counts) {
  if (view.legal_moves) return view.legal_moves;
  return counts.rows[view.to_move - 1].map((seeds, i) => (seeds > 0 ? String(i + 1) : null))
      .filter(Boolean);
}

function render() {
  const view = current();
  const counts = game.animating ? game.animating.counts : parsePosition(view.position);
  const yourTurn = !game.animating && !view.ended && humanToMove(view.to_move);
  const legal = yourTurn ? legalHouses(view, counts) : [];
  const hints = $('hint').checked && game.answer && !unknown() && yourTurn ?
      new Map((game.answer.hints || game.answer.children).map((child) => [child.move, child])) :
      null;
  drawBoard(counts, {legal, hints, marks: game.animating ? game.animating.marks : new Map()});

  let status;
  if (view.ended) {
    const [one, two] = view.final_stores || finalStores(counts);
    status = one === two ? `Game over: a draw, ${one}–${two}.` :
        `Game over: player ${one > two ? 1 : 2} wins ${Math.max(one, two)}–${Math.min(one, two)}.`;
  } else if (game.error) {
    status = `The computer could not answer: ${game.error}`;
  } else if (game.animating) {
    status = `Player ${counts.toMove} sows` +
        (game.animating.lap ? ` (${game.animating.lap})…` : '…');
  } else if (game.thinking && !humanToMove(view.to_move)) {
    status = 'The computer is thinking…';
  } else if (unknown() && !game.animating && game.human !== 'both' &&
      Number(game.human) !== view.to_move) {
    status = `The solver cannot settle this position within its budget: play player ` +
        `${view.to_move}'s move yourself, or undo.`;
  } else if (humanToMove(view.to_move)) {
    status = `Your move (player ${view.to_move}): click a highlighted house.` +
        (view.again ? ' Your last seed landed in your store: move again.' : '');
  } else {
    status = `Player ${view.to_move} to move.`;
  }
  showStatus(status, evaluationText);
  const answer = game.answer;
  $('source').textContent = answer && !view.ended && answer.seconds !== undefined ?
      `Answered by ${answer.source === 'database' ? 'the endgame database' : 'the live solver'}` +
      ` in ${(answer.seconds * 1000).toFixed(answer.seconds < 0.01 ? 2 : 0)} ms.` : '';

  const list = $('move-list');
  list.replaceChildren();
  for (let i = 1; i < game.trail.length; i++) {
    const step = game.trail[i];
    const item = document.createElement('li');
    item.textContent = `player ${step.player}: ${step.move}` +
        (step.laps > 1 ? `, ${step.laps} laps` : '') +
        (step.captured ? `, captures ${step.captured}` : '') +
        (step.grandSlam ? ', a grand slam (captures nothing)' : '') + (step.again ? ', again' : '');
    item.dataset.sown = step.sown;  // for tests: each move's pits, as the board's data-sown
    list.appendChild(item);
  }
  list.dataset.moves = game.moves.join(' ');
  $('undo').disabled = game.moves.length === 0 || Boolean(game.animating);
  document.body.dataset.state = ready() ? 'ready' : 'busy';
}

// The houses a move captured and the seeds: Kalah's and Congkak's house and the one opposite,
// Oware's chain.
function capturedPits(result) {
  if (result.capture) {
    return {pits: [result.capture.house, result.capture.opposite], seeds: result.capture.seeds};
  }
  return {pits: result.captured || [], seeds: result.seeds_captured || 0};
}

// Shows a play answer seed by seed, lap by lap (Congkak's relay sowing lifts the house its
// last seed fell into and sows on): each house lifted, each seed landing, the capture.
async function animate(result) {
  const counts = parsePosition(result.before);
  const mover = result.player;
  const laps = result.laps || [{start: {player: mover, pit: result.move}, path: result.path}];
  const marks = new Map();
  game.animating = {counts, marks};
  const shown = [];  // the pits drawn receiving a seed, for tests: the board's data-sown
  for (const [index, lap] of laps.entries()) {
    if (index > 0) await sleep(2 * DELAY);
    counts.rows[lap.start.player - 1][Number(lap.start.pit) - 1] = 0;
    for (const [key, mark] of marks) if (mark === 'sowing') marks.delete(key);
    marks.set(pitKey(lap.start.player, lap.start.pit), 'sowing');
    game.animating.lap = laps.length > 1 ? `lap ${index + 1} of ${laps.length}` : '';
    render();
    if (index > 0) shown.push('|');
    for (const step of lap.path) {
      await sleep(DELAY);
      if (step.pit === 'store') counts.stores[step.player - 1]++;
      else counts.rows[step.player - 1][Number(step.pit) - 1]++;
      for (const [key, mark] of marks) if (mark === 'last') marks.delete(key);
      marks.set(pitKey(step.player, step.pit), 'last');
      render();
      shown.push(pitKey(step.player, step.pit));
    }
  }
  const captured = capturedPits(result);
  if (captured.pits.length > 0) {
    await sleep(2 * DELAY);
    for (const pit of captured.pits) marks.set(pitKey(pit.player, pit.pit), 'captured');
    render();
    await sleep(2 * DELAY);
    for (const pit of captured.pits) counts.rows[pit.player - 1][Number(pit.pit) - 1] = 0;
    counts.stores[mover - 1] += captured.seeds;
    marks.set(pitKey(mover, 'store'), 'last');
    render();
    shown.push(`captured ${captured.seeds}`);
  }
  $('board').dataset.sown = shown.join(' ');
  $('board').dataset.laps = String(laps.length);
  await sleep(DELAY);
  return shown.join(' ');
}

async function playMove(house, byComputer = false) {
  const view = current();
  if (view.ended || game.animating) return;
  if (!byComputer && !humanToMove(view.to_move)) return;
  const number = ++game.request;  // drops a pending answer for the position before
  game.animating = {counts: parsePosition(view.position), marks: new Map()};
  game.thinking = false;
  render();  // busy at once: the click's answer is on its way
  try {
    const result = await ask('play', {moves: game.moves.join(' '), move: String(house)});
    const sown = await animate(result);
    if (number !== game.request) return;
    game.moves = result.moves;
    game.trail.push({
      position: result.position, to_move: result.to_move, ended: result.ended,
      again: result.again, player: result.player, move: result.move,
      captured: capturedPits(result).seeds, grandSlam: Boolean(result.grand_slam),
      laps: result.laps ? result.laps.length : 1, legal_moves: result.legal_moves,
      final_stores: result.final_stores, sown,
    });
  } catch (error) {
    game.error = error.message;
  } finally {
    game.animating = null;
  }
  refresh();
}

const TITLES = {
  kalah: (info) => `Kalah(${info.houses},${info.seeds}), ${info.rules} rules`,
  congkak: (info) => `Congkak(${info.houses},${info.seeds})`,
  oware: (info) => `Oware(${info.houses},${info.seeds}), Abapa rules`,
};

function describe(info) {
  $('variant-name').textContent = `${TITLES[GAME](info)}, against perfect play`;
  const seedsWhere = GAME === 'oware' ? 'seeds on the board' : 'seeds in play';
  const budget = GAME === 'oware' ?
      `at most ${info.max_positions} positions beyond it and ${info.max_seconds} s; past ` +
      'that the page says unknown, never guesses' : `up to ${info.max_seconds} s`;
  $('db-note').textContent = (info.endgame_seeds >= 0 ?
      `Endgame database: every position with at most ${info.endgame_seeds} ${seedsWhere} ` +
      'answered at once' : 'No endgame database') +
      `; other positions are searched (${budget}).`;
}

// The variant the page's fields ask for (Congkak: any houses and seeds); the server checks it.
async function chooseVariant() {
  if (!$('houses')) return true;
  const variant = {houses: $('houses').value, seeds: $('seeds').value};
  try {
    const info = await ask('info', variant);
    game.variant = variant;
    game.info = info;
    describe(info);
    return true;
  } catch (error) {
    $('status').textContent = `Cannot start that variant: ${error.message}`;
    $('status').classList.add('error');
    return false;
  }
}

async function newGame() {
  if (!(await chooseVariant())) return;
  game.human = $('side').value;
  game.moves = [];
  game.trail = [{
    position: game.info.start, to_move: 1, ended: false, legal_moves: game.info.legal_moves,
  }];
  game.animating = null;
  refresh();
  keepInAddress({side: game.human, ...game.variant});
}

async function init() {
  try {
    game.info = await ask('info', {});
  } catch (error) {
    showNoServer(TITLES[GAME]({}).split('(')[0], GAME, error);
    return;
  }
  describe(game.info);
  if ($('houses')) {
    $('houses').value = address.get('houses') || game.info.houses;
    $('seeds').value = address.get('seeds') || game.info.seeds;
  }
  wireControls({newGame, undo, render});
  newGame();
}

init();
