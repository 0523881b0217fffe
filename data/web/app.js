// The Rastros page: plays against the server's perfect play (GET /api/solve) and draws
// start-square maps (GET /api/map). Plain JavaScript, no build step, on page.js.
//
// The rules are simple enough to follow here (legal moves, the end of the game), so the page
// never needs the server to know where the snail may go; the server gives the values.
'use strict';

const CELL = 64;
const MARGIN = 28;
const BOARD_SIZES = ['3x3', '4x4', '5x4', '5x5', '6x5', '6x6', '7x7', '8x4', '8x8'];

buildPanel({
  controls: [element('label', {}, ['Start', element('select', {id: 'start-square'})])],
  sides: ['player 1 (moves first, goal a1)', 'player 2 (goal top-right)', 'both sides (analysis)'],
});

// ---------------------------------------------------------------------------------------------
// Geometry and rules (docs/rules.md): squares are numbered rank * width + file, a1 = 0.

function parseBoard(text) {
  const [width, height] = text.split('x').map(Number);
  return {width, height, squares: width * height};
}

function squareName(board, square) {
  return String.fromCharCode(97 + (square % board.width)) + (Math.floor(square / board.width) + 1);
}

function parseSquare(board, name) {
  const file = name.charCodeAt(0) - 97;
  const rank = Number(name.slice(1)) - 1;
  if (file < 0 || file >= board.width || !(rank >= 0 && rank < board.height)) return null;
  return rank * board.width + file;
}

function defaultStart(board) {
  return Math.floor(board.height / 2) * board.width + Math.floor(board.width / 2);
}

function goalOf(board, player) {
  return player === 1 ? 0 : board.squares - 1;
}

function neighbours(board, square, steps) {
  const file = square % board.width;
  const rank = Math.floor(square / board.width);
  const result = [];
  for (let df = -1; df <= 1; df++) {
    for (let dr = -1; dr <= 1; dr++) {
      if ((df === 0 && dr === 0) || (steps === 'orthogonal' && df !== 0 && dr !== 0)) continue;
      const f = file + df;
      const r = rank + dr;
      if (f >= 0 && f < board.width && r >= 0 && r < board.height) result.push(r * board.width + f);
    }
  }
  return result.sort((a, b) => a - b);
}

// The state of a game: the snail's path, who moves, the legal moves, how it ended.
function gameState(game) {
  const board = game.board;
  const path = [game.start, ...game.moves];
  const visited = new Set(path);
  const snail = path[path.length - 1];
  const toMove = game.moves.length % 2 === 0 ? 1 : 2;
  const state = {path, visited, snail, toMove, legal: [], over: false, winner: null, reason: ''};
  for (const player of [1, 2]) {
    if (game.moves.length > 0 && snail === goalOf(board, player)) {
      return Object.assign(state, {
        over: true,
        winner: player,
        reason: `the snail entered ${squareName(board, snail)}, player ${player}'s goal`,
      });
    }
  }
  state.legal = neighbours(board, snail, game.steps).filter((s) => !visited.has(s));
  if (state.legal.length === 0) {
    const draw = game.rules === 'stuck-draw';
    Object.assign(state, {
      over: true,
      winner: draw ? null : 3 - toMove,
      reason: `player ${toMove} is stuck` + (draw ? ': a draw under stuck-draw rules' : ''),
    });
  }
  return state;
}

// ---------------------------------------------------------------------------------------------
// Text.

function pliesText(n) {
  return `${n} ${n === 1 ? 'ply' : 'plies'}`;
}

function evaluationText(answer) {
  if (answer.value === 'draw') return 'A draw with best play.';
  const plies = answer.remoteness == null ? '' : ` in ${pliesText(answer.remoteness)}`;
  return `Player ${answer.winner} wins${plies} with best play.`;
}

function outcomeLabel(child) {
  const letter = child.value === 'win' ? 'W' : child.value === 'loss' ? 'L' : 'D';
  return child.remoteness == null ? letter : letter + child.remoteness;
}

// ---------------------------------------------------------------------------------------------
// SVG drawing.

function centre(board, square) {
  const file = square % board.width;
  const rank = Math.floor(square / board.width);
  return [MARGIN + file * CELL + CELL / 2, MARGIN + (board.height - 1 - rank) * CELL + CELL / 2];
}

// The grid, labels and goals; returns a function giving each square's rectangle.
function drawGrid(svg, board) {
  svg.replaceChildren();
  const width = board.width * CELL + 2 * MARGIN;
  const height = board.height * CELL + 2 * MARGIN;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', width);
  svg.setAttribute('height', height);
  const rects = [];
  for (let square = 0; square < board.squares; square++) {
    const [x, y] = centre(board, square);
    const file = square % board.width;
    const rank = Math.floor(square / board.width);
    const goal = square === goalOf(board, 1) ? 1 : square === goalOf(board, 2) ? 2 : 0;
    const classes = ['square', (file + rank) % 2 ? 'light' : 'dark'];
    if (goal) classes.push(`goal goal-${goal}`);
    rects[square] = svgElement('rect', {
      x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
      class: classes.join(' '), 'data-square': squareName(board, square),
    }, svg);
    if (goal) {
      svgElement('text', {x: x - CELL / 2 + 5, y: y - CELL / 2 + 15, class: 'goal-label'}, svg)
          .textContent = `goal ${goal}`;
    }
  }
  for (let file = 0; file < board.width; file++) {
    const x = MARGIN + file * CELL + CELL / 2;
    for (const y of [MARGIN / 2, height - MARGIN / 2]) {
      svgElement('text', {x, y, class: 'coordinate'}, svg).textContent =
          String.fromCharCode(97 + file);
    }
  }
  for (let rank = 0; rank < board.height; rank++) {
    const y = MARGIN + (board.height - 1 - rank) * CELL + CELL / 2;
    for (const x of [MARGIN / 2, width - MARGIN / 2]) {
      svgElement('text', {x, y, class: 'coordinate'}, svg).textContent = String(rank + 1);
    }
  }
  return rects;
}

function drawSnail(svg, x, y) {
  const snail = svgElement('g', {class: 'snail', transform: `translate(${x} ${y})`}, svg);
  svgElement('title', {}, snail).textContent = 'the snail';
  svgElement('path', {class: 'snail-body', d: 'M -22 14 Q -24 4 -12 6 L 16 6 Q 24 6 25 -2 ' +
    'L 27 -12 M 25 -2 L 20 -13 M 25 -2 Q 27 10 16 14 Z'}, snail);
  svgElement('circle', {class: 'snail-shell', cx: -3, cy: -3, r: 13}, snail);
  svgElement('path', {class: 'snail-spiral', d: 'M -3 -3 m 0 -2 a 2 2 0 1 1 -2 2 a 4 4 0 0 1 4 -4 ' +
    'a 6 6 0 0 1 6 6 a 8 8 0 0 1 -8 8 a 10 10 0 0 1 -10 -10'}, snail);
}

// ---------------------------------------------------------------------------------------------
// The game view.

const game = {
  board: parseBoard('5x5'),
  boardName: '5x5',
  start: 12,
  rules: 'standard',
  steps: 'king',
  human: '1',     // '1', '2' or 'both'
  moves: [],
  answer: null,   // the server's answer for the current position
  request: 0,     // number of the latest request: older answers are dropped
  thinking: false,
  error: null,
};

function humanToMove(state) {
  return game.human === 'both' || Number(game.human) === state.toMove;
}

function variantParameters() {
  return {
    board: game.boardName,
    start: squareName(game.board, game.start),
    rules: game.rules,
    steps: game.steps,
  };
}

function renderGame() {
  const board = game.board;
  const state = gameState(game);
  const svg = $('board');
  const rects = drawGrid(svg, board);
  for (const square of state.path.slice(0, -1)) rects[square].classList.add('slime');
  if (state.path.length > 1) {
    svgElement('polyline', {
      class: 'trail', points: state.path.map((s) => centre(board, s).join(',')).join(' '),
    }, svg);
  }
  rects[game.start].classList.add('start');

  const answer = game.answer;
  const yourTurn = !state.over && humanToMove(state);
  if (yourTurn) {
    const hints = $('hint').checked && answer ? answer.children : [];
    for (const move of state.legal) {
      const [x, y] = centre(board, move);
      const rect = rects[move];
      rect.classList.add('legal');
      const hint = hints.find((child) => child.move === squareName(board, move));
      if (hint) rect.classList.add(`hint-${hint.value}`);
      rect.addEventListener('click', () => play(move));
      svgElement('circle', {cx: x, cy: y, r: 7, class: 'move-dot'}, svg);
      if ($('hint').checked && answer) {
        svgElement('text', {x, y: y + 24, class: 'hint-label'}, svg).textContent =
            hint ? outcomeLabel(hint) : '?';
      }
    }
  }
  drawSnail(svg, ...centre(board, state.snail));

  // Status, evaluation, source.
  let status;
  if (state.over) {
    status = state.winner ? `Game over: player ${state.winner} wins — ${state.reason}.`
                          : `Game over: ${state.reason}.`;
  } else if (game.error) {
    status = `The computer could not answer: ${game.error}`;
  } else if (game.thinking && !humanToMove(state)) {
    status = 'The computer is thinking…';
  } else if (humanToMove(state)) {
    status = `Your move (player ${state.toMove}): click a highlighted square.`;
  } else {
    status = `Player ${state.toMove} to move.`;
  }
  $('status').textContent = status;
  $('status').classList.toggle('error', Boolean(game.error) && !state.over);
  if (answer && !state.over) {
    $('evaluation').textContent = evaluationText(answer);
  } else if (!state.over) {
    $('evaluation').textContent = game.error ? '' : 'Evaluating…';
  } else {
    $('evaluation').textContent = '';
  }
  $('source').textContent = answer && !state.over ?
      `Answered by ${answer.source === 'database' ? 'a database' : 'the live solver'}` +
      ` in ${(answer.seconds * 1000).toFixed(answer.seconds < 0.01 ? 2 : 0)} ms.` : '';

  // The move list, numbered by player 1's moves.
  const list = $('move-list');
  list.replaceChildren();
  for (let i = 0; i < game.moves.length; i += 2) {
    const item = document.createElement('li');
    item.textContent = game.moves.slice(i, i + 2).map((s) => squareName(board, s)).join('  ');
    list.appendChild(item);
  }
  list.dataset.moves = game.moves.map((s) => squareName(board, s)).join(' ');
  $('undo').disabled = game.moves.length === 0;
}

async function evaluate() {
  const number = ++game.request;
  const state = gameState(game);
  game.answer = null;
  game.error = null;
  if (state.over) {
    game.thinking = false;
    renderGame();
    return;
  }
  game.thinking = true;
  renderGame();
  try {
    const parameters = variantParameters();
    parameters.moves = game.moves.map((s) => squareName(game.board, s)).join(' ');
    const answer = await api('solve', parameters);
    if (number !== game.request) return;
    game.answer = answer;
    game.thinking = false;
    renderGame();
    if (!humanToMove(state)) {
      // The quickest win or the slowest loss; among equals the lowest square.
      const best = answer.best_moves.map((name) => parseSquare(game.board, name));
      const move = best.length ? Math.min(...best) : state.legal[0];
      setTimeout(() => {
        if (number === game.request) play(move, true);
      }, 250);
    }
  } catch (error) {
    if (number !== game.request) return;
    game.thinking = false;
    game.error = error.status === 503 ?
        `${error.message}. Undo, or pick a smaller board.` : error.message;
    renderGame();
  }
}

function play(move, byComputer = false) {
  const state = gameState(game);
  if (state.over || !state.legal.includes(move)) return;
  if (!byComputer && !humanToMove(state)) return;
  game.moves.push(move);
  evaluate();
}

function undo() {
  if (game.moves.length === 0) return;
  game.moves.pop();
  // Back to a position where the human moves (the computer's reply goes too).
  while (game.moves.length > 0 && !humanToMove(gameState(game))) game.moves.pop();
  evaluate();
}

function newGame() {
  game.boardName = $('board-size').value;
  game.board = parseBoard(game.boardName);
  game.rules = $('rules').value;
  game.steps = $('steps').value;
  game.human = $('side').value;
  const start = parseSquare(game.board, $('start-square').value);
  game.start = start == null ? defaultStart(game.board) : start;
  game.moves = [];
  evaluate();
  updateAddress();
}

function fillStartSquares(board, selected) {
  const select = $('start-square');
  select.replaceChildren();
  const fallback = defaultStart(board);
  for (let rank = board.height - 1; rank >= 0; rank--) {
    for (let file = 0; file < board.width; file++) {
      const square = rank * board.width + file;
      if (square === goalOf(board, 1) || square === goalOf(board, 2)) continue;
      const option = new Option(squareName(board, square) + (square === fallback ? ' (default)' : ''),
                                squareName(board, square));
      select.appendChild(option);
    }
  }
  select.value = squareName(board, selected == null ? fallback : selected);
}

function updateAddress() {
  const parameters = new URLSearchParams({
    board: game.boardName, start: squareName(game.board, game.start), rules: game.rules,
    steps: game.steps, side: game.human,
  });
  if ($('map-view').hidden === false) parameters.set('view', 'map');
  history.replaceState(null, '', `?${parameters}`);
}

// ---------------------------------------------------------------------------------------------
// The map view.

let mapRequest = 0;

async function computeMap() {
  const number = ++mapRequest;
  const boardName = $('board-size').value;
  const board = parseBoard(boardName);
  const parameters = {board: boardName, rules: $('rules').value, steps: $('steps').value};
  if ($('value-only').checked) parameters.value_only = '1';
  drawGrid($('map'), board);
  $('map-status').textContent = 'Computing…';
  $('map-status').classList.remove('error');
  try {
    const map = await api('map', parameters);
    if (number !== mapRequest) return;
    const rects = drawGrid($('map'), board);
    for (const [name, outcome] of Object.entries(map.squares)) {
      const square = parseSquare(board, name);
      const rect = rects[square];
      rect.classList.add('map-cell', `map-${outcome.value}`);
      rect.addEventListener('click', () => {
        $('start-square').value = name;
        showView('play');
        newGame();
      });
      const [x, y] = centre(board, square);
      svgElement('text', {x, y, class: 'map-label'}, $('map')).textContent =
          outcomeLabel(outcome);
    }
    $('map-status').textContent = `${boardName}, ${map.rules} rules, ${map.steps} steps: ` +
        `${(map.seconds).toFixed(2)} s.`;
  } catch (error) {
    if (number !== mapRequest) return;
    $('map-status').textContent = error.message;
    $('map-status').classList.add('error');
  }
}

function showView(view) {
  const map = view === 'map';
  $('play-view').hidden = map;
  $('map-view').hidden = !map;
  $('tab-play').classList.toggle('active', !map);
  $('tab-map').classList.toggle('active', map);
  $('tab-play').setAttribute('aria-pressed', String(!map));
  $('tab-map').setAttribute('aria-pressed', String(map));
  updateAddress();
}

// ---------------------------------------------------------------------------------------------
// Start-up.

async function showDatabases() {
  try {
    const info = await api('info', {});
    const notes = info.databases.map((db) => `${db.board} from ${db.start} (${db.kind})`);
    $('db-note').textContent = notes.length ?
        `Databases: ${notes.join(', ')}. Other positions are searched (up to ${info.max_seconds} s).` :
        `No database loaded: every position is searched (up to ${info.max_seconds} s).`;
  } catch (error) {
    $('db-note').textContent = '';
  }
}

function init() {
  const sizes = $('board-size');
  const wanted = address.get('board') || '5x5';
  const names = BOARD_SIZES.includes(wanted) || !/^\d+x\d+$/.test(wanted) ?
      BOARD_SIZES : [...BOARD_SIZES, wanted];
  for (const size of names) sizes.appendChild(new Option(size, size));
  sizes.value = names.includes(wanted) ? wanted : '5x5';
  if (address.get('rules')) $('rules').value = address.get('rules');
  if (address.get('steps')) $('steps').value = address.get('steps');
  const board = parseBoard(sizes.value);
  fillStartSquares(board, address.get('start') ? parseSquare(board, address.get('start')) : null);

  sizes.addEventListener('change', () => {
    fillStartSquares(parseBoard(sizes.value), null);
    if ($('map-view').hidden) newGame(); else computeMap();
  });
  for (const id of ['rules', 'steps']) {
    $(id).addEventListener('change', () => ($('map-view').hidden ? newGame() : computeMap()));
  }
  $('start-square').addEventListener('change', newGame);
  wireControls({newGame, undo, render: renderGame});
  $('tab-play').addEventListener('click', () => showView('play'));
  $('tab-map').addEventListener('click', () => {
    showView('map');
    computeMap();
  });
  $('compute-map').addEventListener('click', computeMap);
  $('value-only').addEventListener('change', computeMap);

  showDatabases();
  newGame();
  if (address.get('view') === 'map') {
    showView('map');
    computeMap();
  }
}

init();
