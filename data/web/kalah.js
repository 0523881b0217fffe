// The Kalah page of `rastros serve --game kalah`: plays against the server's perfect play.
// GET /api/kalah/info gives the variant, /api/kalah/play each move with the pit every seed
// lands in (animated seed by seed), /api/kalah/solve the value, the score and every move's
// score. Plain JavaScript, no build step. The page never applies the rules itself: the
// server sows every move.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const PIT = 76;
const GAP = 12;
const MARGIN = 34;
const SEEDS_DRAWN = 28;

const $ = (id) => document.getElementById(id);
const address = new URLSearchParams(location.search);
// Milliseconds a seed (?delay=0 for no animation).
const DELAY = address.has('delay') ? Math.max(0, Number(address.get('delay')) || 0) : 150;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

function svgElement(name, attributes, parent) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

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
      svgElement('title', {}, group).textContent = store ?
          `player ${player}'s store: ${count}` : `player ${player}'s house ${pit}: ${count}`;
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
// The server.

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function api(path, parameters) {
  const query = new URLSearchParams(parameters).toString();
  const response = await fetch(`/api/kalah/${path}?${query}`);
  let body;
  try {
    body = await response.json();
  } catch (error) {
    throw new ApiError(response.status, `the server sent no JSON (status ${response.status})`);
  }
  if (!response.ok) throw new ApiError(response.status, body.error || `status ${response.status}`);
  return body;
}

// ---------------------------------------------------------------------------------------------
// The game.

const game = {
  info: null,
  human: '1',       // '1', '2' or 'both'
  moves: [],        // house numbers as strings, from the start
  trail: [],        // the position after each prefix of moves: {position, to_move, ended, ...}
  answer: null,     // the server's solve of the current position
  request: 0,       // number of the latest request: older answers are dropped
  thinking: false,
  animating: null,  // while a move is sown: {counts, marks}
  error: null,
};

const current = () => game.trail[game.trail.length - 1];
const humanToMove = (toMove) => game.human === 'both' || Number(game.human) === toMove;

function evaluationText(answer) {
  if (answer.value === 'draw') return 'A draw with best play.';
  return `Player ${answer.winner} wins by ${Math.abs(answer.score)} with best play.`;
}

function render() {
  const view = current();
  const counts = game.animating ? game.animating.counts : parsePosition(view.position);
  const yourTurn = !game.animating && !view.ended && humanToMove(view.to_move);
  const legal = yourTurn ? counts.rows[view.to_move - 1]
      .map((seeds, i) => (seeds > 0 ? String(i + 1) : null)).filter(Boolean) : [];
  const hints = $('hint').checked && game.answer && yourTurn ?
      new Map(game.answer.children.map((child) => [child.move, child])) : null;
  drawBoard(counts, {legal, hints, marks: game.animating ? game.animating.marks : new Map()});

  let status;
  if (view.ended) {
    const [one, two] = finalStores(counts);
    status = one === two ? `Game over: a draw, ${one}–${two}.` :
        `Game over: player ${one > two ? 1 : 2} wins ${Math.max(one, two)}–${Math.min(one, two)}.`;
  } else if (game.error) {
    status = `The computer could not answer: ${game.error}`;
  } else if (game.animating) {
    status = `Player ${counts.toMove} sows…`;
  } else if (game.thinking && !humanToMove(view.to_move)) {
    status = 'The computer is thinking…';
  } else if (humanToMove(view.to_move)) {
    status = `Your move (player ${view.to_move}): click a highlighted house.` +
        (view.again ? ' Your last seed landed in your store: move again.' : '');
  } else {
    status = `Player ${view.to_move} to move.`;
  }
  $('status').textContent = status;
  $('status').classList.toggle('error', Boolean(game.error) && !view.ended);
  const answer = game.answer;
  $('evaluation').textContent = view.ended ? '' :
      answer ? evaluationText(answer) : (game.error ? '' : 'Evaluating…');
  $('source').textContent = answer && !view.ended ?
      `Answered by ${answer.source === 'database' ? 'the endgame database' : 'the live solver'}` +
      ` in ${(answer.seconds * 1000).toFixed(answer.seconds < 0.01 ? 2 : 0)} ms.` : '';

  const list = $('move-list');
  list.replaceChildren();
  for (let i = 1; i < game.trail.length; i++) {
    const step = game.trail[i];
    const item = document.createElement('li');
    item.textContent = `player ${step.player}: ${step.move}` +
        (step.capture ? `, captures ${step.capture.seeds}` : '') + (step.again ? ', again' : '');
    list.appendChild(item);
  }
  list.dataset.moves = game.moves.join(' ');
  $('undo').disabled = game.moves.length === 0 || Boolean(game.animating);
  // For tests and scripts: ready when nothing is pending and the page waits for a person.
  const ready = !game.animating && !game.thinking &&
      (view.ended || game.error || (humanToMove(view.to_move) && game.answer));
  document.body.dataset.state = ready ? 'ready' : 'busy';
}

async function refresh() {
  const number = ++game.request;
  const view = current();
  game.answer = null;
  game.error = null;
  game.thinking = !view.ended;
  render();
  if (view.ended) return;
  try {
    const answer = await api('solve', {moves: game.moves.join(' ')});
    if (number !== game.request) return;
    game.answer = answer;
    game.thinking = false;
    if (!humanToMove(view.to_move)) {
      // The best score; among equals the lowest house (as rastros play --game kalah).
      const move = Math.min(...answer.best_moves.map(Number));
      game.thinking = true;
      render();
      setTimeout(() => {
        if (number === game.request) playMove(move, true);
      }, 300);
      return;
    }
    render();
  } catch (error) {
    if (number !== game.request) return;
    game.thinking = false;
    game.error = error.status === 503 ? `${error.message}. Undo, or serve a smaller variant.` :
        error.message;
    render();
  }
}

// Shows a play answer seed by seed: the house emptied, each seed landing, the capture.
async function animate(result) {
  const counts = parsePosition(result.before);
  const mover = result.player;
  counts.rows[mover - 1][Number(result.move) - 1] = 0;
  const marks = new Map([[pitKey(mover, result.move), 'sowing']]);
  game.animating = {counts, marks};
  render();
  const shown = [];  // the pits drawn receiving a seed, for tests: the board's data-sown
  for (const step of result.path) {
    await sleep(DELAY);
    if (step.pit === 'store') counts.stores[step.player - 1]++;
    else counts.rows[step.player - 1][Number(step.pit) - 1]++;
    for (const [key, mark] of marks) if (mark === 'last') marks.delete(key);
    marks.set(pitKey(step.player, step.pit), 'last');
    render();
    shown.push(pitKey(step.player, step.pit));
  }
  if (result.capture) {
    const {house, opposite, seeds} = result.capture;
    await sleep(2 * DELAY);
    marks.set(pitKey(house.player, house.pit), 'captured');
    marks.set(pitKey(opposite.player, opposite.pit), 'captured');
    render();
    await sleep(2 * DELAY);
    counts.rows[house.player - 1][Number(house.pit) - 1] = 0;
    counts.rows[opposite.player - 1][Number(opposite.pit) - 1] = 0;
    counts.stores[mover - 1] += seeds;
    marks.set(pitKey(mover, 'store'), 'last');
    render();
    shown.push(`captured ${seeds}`);
  }
  $('board').dataset.sown = shown.join(' ');
  await sleep(DELAY);
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
    const result = await api('play', {moves: game.moves.join(' '), move: String(house)});
    await animate(result);
    if (number !== game.request) return;
    game.moves = result.moves;
    game.trail.push({
      position: result.position, to_move: result.to_move, ended: result.ended,
      again: result.again, player: result.player, move: result.move, capture: result.capture,
    });
  } catch (error) {
    game.error = error.message;
  } finally {
    game.animating = null;
  }
  refresh();
}

function undo() {
  if (game.animating || game.moves.length === 0) return;
  do {
    game.moves.pop();
    game.trail.pop();
  } while (game.moves.length > 0 && !humanToMove(current().to_move));
  refresh();
}

function newGame() {
  game.human = $('side').value;
  game.moves = [];
  game.trail = [{position: game.info.start, to_move: 1, ended: false}];
  game.animating = null;
  refresh();
  const parameters = new URLSearchParams(location.search);
  parameters.set('side', game.human);
  history.replaceState(null, '', `?${parameters}`);
}

async function init() {
  try {
    game.info = await api('info', {});
  } catch (error) {
    $('status').textContent = `No Kalah server here: ${error.message} (start rastros serve --game kalah).`;
    $('status').classList.add('error');
    return;
  }
  const info = game.info;
  $('variant-name').textContent = `Kalah(${info.houses},${info.seeds}), ${info.rules} rules, ` +
      'against perfect play';
  $('db-note').textContent = (info.endgame_seeds >= 0 ?
      `Endgame database: every position with at most ${info.endgame_seeds} seeds in play ` +
      'answered at once' : 'No endgame database') +
      `; other positions are searched (up to ${info.max_seconds} s).`;
  if (['1', '2', 'both'].includes(address.get('side'))) $('side').value = address.get('side');
  $('hint').checked = address.get('hint') === '1';
  $('side').addEventListener('change', newGame);
  $('new-game').addEventListener('click', newGame);
  $('undo').addEventListener('click', undo);
  $('hint').addEventListener('change', render);
  newGame();
}

init();
