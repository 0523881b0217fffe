// The Reversi page of `rastros serve --game reversi`: plays against the server's program.
// GET /api/reversi/info gives the board, /api/reversi/play each move with the discs it turned
// (shown turning), /api/reversi/hint the program's advice: every move's exact final margin
// within the exact threshold, else the best move of a search and its estimate. Plain
// JavaScript, no build step, on page.js. The page never applies the rules itself: the server
// plays every move and lists the legal ones.
'use strict';

const CELL = 56;
const MARGIN = 28;

// Milliseconds the turned discs stay highlighted before the next step (?delay=0: none).
const DELAY = addressDelay(350);

buildPanel({
  sides: ['black (X, moves first)', 'white (O)', 'both colours (analysis)'],
  buttons: [element('button', {type: 'button', id: 'pass', hidden: ''}, ['Pass'])],
  lines: [element('p', {id: 'discs', class: 'status'})],
  moves: 'reversi-moves',
});

// "a1" -> {row: 0, column: 0}; the board's rows from the top.
function squareOf(name) {
  return {row: Number(name.slice(1)) - 1, column: name.charCodeAt(0) - 97};
}

// A position string: N*N cells row by row from a1 (X, O, -), a space, the side to move.
function cellsOf(position) {
  return position.split(' ')[0];
}

// Draws the cells of `position`; `legal`: square names clickable; `hints`: name -> label and
// class; `flipped`, `last`: squares highlighted.
function drawBoard(position, {legal = [], hints = null, flipped = [], last = null} = {}) {
  const n = game.size;
  const cells = cellsOf(position);
  const svg = $('board');
  svg.replaceChildren();
  const size = n * CELL + 2 * MARGIN;
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('width', size);
  svg.setAttribute('height', size);
  for (let i = 0; i < n; i++) {
    svgElement('text', {x: MARGIN + i * CELL + CELL / 2, y: MARGIN / 2, class: 'coordinate'}, svg)
        .textContent = String.fromCharCode(97 + i);
    svgElement('text', {x: MARGIN / 2, y: MARGIN + i * CELL + CELL / 2, class: 'coordinate'}, svg)
        .textContent = String(i + 1);
  }
  for (let row = 0; row < n; row++) {
    for (let column = 0; column < n; column++) {
      const name = String.fromCharCode(97 + column) + (row + 1);
      const cell = cells[row * n + column];
      const isLegal = legal.includes(name);
      const classes = ['cell'];
      if (isLegal) classes.push('legal');
      if (flipped.includes(name)) classes.push('flipped');
      if (last === name) classes.push('last');
      const group = svgElement('g', {class: classes.join(' '), 'data-square': name}, svg);
      const x = MARGIN + column * CELL;
      const y = MARGIN + row * CELL;
      svgElement('rect', {x, y, width: CELL, height: CELL, class: 'square'}, group);
      const cx = x + CELL / 2;
      const cy = y + CELL / 2;
      if (cell === 'X' || cell === 'O') {
        svgElement('circle', {cx, cy, r: CELL * 0.4,
          class: `disc ${cell === 'X' ? 'black' : 'white'}`}, group);
      }
      const hint = isLegal && hints ? hints.get(name) : null;
      if (hint) {
        svgElement('circle', {cx, cy, r: CELL * 0.36, class: hint.cls}, group);
        svgElement('text', {x: cx, y: cy, class: 'hint-label', 'data-square': name}, group)
            .textContent = hint.label;
      } else if (isLegal) {
        svgElement('circle', {cx, cy, r: CELL * 0.1, class: 'marker'}, group);
      }
      svgElement('title', {}, group).textContent = name;
      if (isLegal) group.addEventListener('click', () => playMove(name));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The server: GET /api/reversi/PATH.

const ask = (path, parameters) => api(`reversi/${path}`, parameters);

// ---------------------------------------------------------------------------------------------
// The game.

const game = {
  info: null,
  size: 8,
  human: '1',       // '1', '2' or 'both'
  moves: [],        // square names and "pass", from the start
  trail: [],        // the show answer after each prefix of moves (position, legal_moves, ...)
  answer: null,     // the server's hint for the current position
  request: 0,       // number of the latest request: older answers are dropped
  thinking: false,
  playing: false,   // from a click until the move's answer is shown
  flipping: null,   // while a move's turned discs are shown: the play answer
  error: null,
};

const humanToMove = (toMove) => game.human === 'both' || Number(game.human) === toMove;
const colour = (player) => (player === 1 ? 'black (X)' : 'white (O)');
const signed = (score) => (score > 0 ? '+' : '') + score;

function evaluationText(answer, toMove) {
  if (!answer.exact) {
    return `Estimate (depth ${answer.depth}, evaluation): ${signed(answer.estimate)} for ` +
        `${colour(toMove)}, best ${answer.move}; not a disc count.`;
  }
  if (answer.score === 0) return 'Exact: a draw with perfect play.';
  const winner = answer.score > 0 ? toMove : 3 - toMove;
  return `Exact: ${colour(winner)} wins by ${Math.abs(answer.score)} with perfect play.`;
}

function hintsOf(answer) {
  const hints = new Map();
  if (answer.exact) {
    for (const child of answer.children) {
      const cls = child.score === answer.score ? 'hint-best' :
          child.score > 0 ? 'hint-win' : child.score < 0 ? 'hint-loss' : 'hint-draw';
      hints.set(child.move, {label: signed(child.score), cls});
    }
  } else {
    hints.set(answer.move, {label: '~', cls: 'hint-best'});
  }
  return hints;
}

const {current, refresh, undo, showStatus, ready} = turnTaking(game, {
  advise: () => ask('hint', {moves: game.moves.join(' ')}),
  // The program's move: the first in square order of the best (as rastros play does).
  choose: (answer) => answer.move,
  pause: 200,
  tooLarge: 'Undo, or serve a smaller board.',
  humanToMove,
  busy: () => Boolean(game.flipping),
  render,
  playMove,
});

function render() {
  const view = current();
  const shown = game.flipping || view;
  const yourTurn = !game.playing && !game.flipping && !view.ended && humanToMove(view.to_move);
  const legal = yourTurn ? view.legal_moves.filter((move) => move !== 'pass') : [];
  const hints = $('hint').checked && game.answer && yourTurn ? hintsOf(game.answer) : null;
  drawBoard(shown.position, {
    legal, hints,
    flipped: game.flipping ? game.flipping.flipped : [],
    last: game.flipping ? game.flipping.move : (view.move || null),
  });
  $('pass').hidden = !(yourTurn && view.legal_moves[0] === 'pass');
  $('discs').textContent = `Discs: black ${shown.black}, white ${shown.white}.`;

  let status;
  if (view.ended) {
    const margin = view.to_move === 1 ? view.score : -view.score;
    status = margin === 0 ? 'Game over: a draw.' :
        `Game over: ${colour(margin > 0 ? 1 : 2)} wins by ${Math.abs(margin)} ` +
        '(empty squares to the winner).';
  } else if (game.error) {
    status = `The program could not answer: ${game.error}`;
  } else if (game.flipping) {
    status = `${colour(game.flipping.player)} plays ${game.flipping.move}.`;
  } else if (game.thinking && !humanToMove(view.to_move)) {
    status = 'The program is thinking…';
  } else if (humanToMove(view.to_move)) {
    status = view.legal_moves[0] === 'pass' ?
        `Your move (${colour(view.to_move)}): you have no move, pass.` :
        `Your move (${colour(view.to_move)}): click a marked square.`;
  } else {
    status = `${colour(view.to_move)} to move.`;
  }
  showStatus(status, (answer) => evaluationText(answer, view.to_move));
  const answer = game.answer;
  $('source').textContent = answer && !view.ended ?
      `${answer.exact ? 'Exact solver' : 'Evaluation search'}, ` +
      `${answer.source === 'cache' ? 'from the cache' : `${answer.nodes} nodes`}.` : '';

  const list = $('move-list');
  list.replaceChildren();
  for (let i = 1; i < game.trail.length; i++) {
    const item = document.createElement('li');
    item.textContent = `${game.trail[i].player === 1 ? 'X' : 'O'} ${game.trail[i].move}`;
    list.appendChild(item);
  }
  list.dataset.moves = game.moves.join(' ');
  $('undo').disabled = game.moves.length === 0 || Boolean(game.flipping);
  document.body.dataset.state = !game.playing && ready() ? 'ready' : 'busy';
}

async function playMove(move, byProgram = false) {
  const view = current();
  if (view.ended || game.flipping || game.playing) return;
  if (!byProgram && !humanToMove(view.to_move)) return;
  const number = ++game.request;  // drops a pending answer for the position before
  game.thinking = false;
  game.playing = true;
  render();  // busy at once: the click's answer is on its way
  try {
    const result = await ask('play', {moves: game.moves.join(' '), move});
    // The turned discs, highlighted on the new position for a moment.
    game.flipping = result;
    $('board').dataset.flipped = result.flipped.join(' ');
    render();
    await sleep(DELAY);
    if (number !== game.request) return;
    game.moves = result.moves;
    game.trail.push(result);
  } catch (error) {
    game.error = error.message;
  } finally {
    game.flipping = null;
    game.playing = false;
  }
  refresh();
}

async function newGame() {
  game.human = $('side').value;
  game.moves = [];
  game.flipping = null;
  ++game.request;  // drops a pending answer of the game before
  document.body.dataset.state = 'busy';  // until the start is drawn
  try {
    game.trail = [await ask('moves', {})];
  } catch (error) {
    $('status').textContent = `The server could not answer: ${error.message}`;
    return;
  }
  refresh();
  keepInAddress({side: game.human});
}

async function init() {
  try {
    game.info = await ask('info', {});
  } catch (error) {
    showNoServer('Reversi', 'reversi', error);
    return;
  }
  const info = game.info;
  game.size = Number(info.board.split('x')[0]);
  $('variant-name').textContent = `${info.board}, against the program`;
  $('exact-note').textContent = `Perfect play and exact hints with at most ${info.exact_empties} ` +
      `empty squares; before that a search of ${info.depth} plies with an evaluation ` +
      `(up to ${info.max_seconds} s a request).`;
  wireControls({newGame, undo, render});
  $('pass').addEventListener('click', () => playMove('pass'));
  newGame();
}

init();
