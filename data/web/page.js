// What every page of `rastros serve` shares, loaded before the page's own script (index.html:
// app.js; kalah.html, congkak.html, oware.html: mancala.js; reversi.html: reversi.js): the
// panel every game has beside its board (side, buttons, status and moves), built by script from
// what differs; the server's API; SVG drawing; and the turn-taking of the pages whose every
// position comes from the server (mancala.js, reversi.js): asking the server about each
// position, the computer's move, undo. Plain JavaScript, no build step: a classic script whose
// names the page's own script uses as globals.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';

const $ = (id) => document.getElementById(id);
const address = new URLSearchParams(location.search);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The milliseconds an animation step lasts: ?delay=N in the address (?delay=0: none), else
// `fallback`.
function addressDelay(fallback) {
  return address.has('delay') ? Math.max(0, Number(address.get('delay')) || 0) : fallback;
}

// ---------------------------------------------------------------------------------------------
// Building the page.

// An HTML element with `attributes` and `children` (elements or text).
function element(name, attributes = {}, children = []) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

// An SVG element with `attributes`, appended to `parent` when given.
function svgElement(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// Fills the panel beside the board (<aside class="panel">, which holds only the page's rules,
// a <details class="rules">): `controls` and the side select (#side; `sides` names its options
// '1', '2' and 'both'); the buttons New game (#new-game), Undo (#undo), `buttons` and the Hints
// toggle (#hint); `lines` and the status (#status), evaluation (#evaluation) and source
// (#source) lines; the move list (#move-list, with the class `moves` too); then the rules.
function buildPanel({sides, controls = [], buttons = [], lines = [], moves = null}) {
  const side = element('select', {id: 'side'}, ['1', '2', 'both'].map(
      (value, i) => element('option', {value}, [sides[i]])));
  document.querySelector('#play-view .panel').prepend(
      element('div', {class: 'controls'}, [...controls, element('label', {}, ['You play', side])]),
      element('div', {class: 'buttons'}, [
        element('button', {type: 'button', id: 'new-game'}, ['New game']),
        element('button', {type: 'button', id: 'undo'}, ['Undo']),
        ...buttons,
        element('label', {class: 'toggle'},
            [element('input', {type: 'checkbox', id: 'hint'}), ' Hints']),
      ]),
      ...lines,
      element('p', {id: 'status', class: 'status', 'aria-live': 'polite'}),
      element('p', {id: 'evaluation', class: 'evaluation', 'aria-live': 'polite'}),
      element('p', {id: 'source', class: 'note'}),
      element('h2', {}, ['Moves']),
      element('ol', {id: 'move-list', class: moves ? `move-list ${moves}` : 'move-list'}));
}

// The side (?side=1, 2 or both) and hints (?hint=1) the address asks for, and the handlers of
// the side select and the buttons every page has.
function wireControls({newGame, undo, render}) {
  if (['1', '2', 'both'].includes(address.get('side'))) $('side').value = address.get('side');
  $('hint').checked = address.get('hint') === '1';
  $('side').addEventListener('change', newGame);
  $('new-game').addEventListener('click', newGame);
  $('undo').addEventListener('click', undo);
  $('hint').addEventListener('change', render);
}

// Keeps `settings` (name -> value) in the page's address, for a reload or a link.
function keepInAddress(settings) {
  const parameters = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(settings)) parameters.set(name, value);
  history.replaceState(null, '', `?${parameters}`);
}

// ---------------------------------------------------------------------------------------------
// The server.

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// GET /api/PATH?PARAMETERS: the server's JSON answer, or an ApiError with its message.
async function api(path, parameters) {
  const query = new URLSearchParams(parameters).toString();
  const response = await fetch(`/api/${path}?${query}`);
  let body;
  try {
    body = await response.json();
  } catch (error) {
    throw new ApiError(response.status, `the server sent no JSON (status ${response.status})`);
  }
  if (!response.ok) throw new ApiError(response.status, body.error || `status ${response.status}`);
  return body;
}

// Says on the status line that no server of `game` answers here.
function showNoServer(name, game, error) {
  $('status').textContent = `No ${name} server here: ${error.message} ` +
      `(start rastros serve --game ${game}).`;
  $('status').classList.add('error');
}

// ---------------------------------------------------------------------------------------------
// Turn-taking, for a game whose every position comes from the server.
//
// `game` holds the page's state: human ('1', '2' or 'both'), moves (from the start), trail (the
// server's view of each position played, with to_move and ended), answer (the server's advice
// on the last position), request (the number of the latest request: older answers are
// dropped), thinking and error. The page gives `advise()`, which asks the server about the
// last position; `choose(answer)`, the computer's move from that answer; `pause`, the
// milliseconds before the computer plays it; `tooLarge`, what to advise when the server gives
// up on a position (status 503); `humanToMove(toMove)`; `busy()`, true while a move is being
// shown; `render()`; and `playMove(move, byComputer)`, which plays and then calls refresh().
function turnTaking(game, {advise, choose, pause, tooLarge, humanToMove, busy, render, playMove}) {
  const current = () => game.trail[game.trail.length - 1];

  // Asks the server about the last position; the computer then plays when it moves there.
  async function refresh() {
    const number = ++game.request;
    const view = current();
    game.answer = null;
    game.error = null;
    game.thinking = !view.ended;
    render();
    if (view.ended) return;
    try {
      const answer = await advise();
      if (number !== game.request) return;
      game.answer = answer;
      game.thinking = false;
      if (!humanToMove(view.to_move)) {
        const move = choose(answer);
        game.thinking = true;
        render();
        setTimeout(() => {
          if (number === game.request) playMove(move, true);
        }, pause);
        return;
      }
      render();
    } catch (error) {
      if (number !== game.request) return;
      game.thinking = false;
      game.error = error.status === 503 ? `${error.message}. ${tooLarge}` : error.message;
      render();
    }
  }

  // Takes back the last move, and the computer's replies before it: back to a position where
  // the person moves.
  function undo() {
    if (busy() || game.moves.length === 0) return;
    do {
      game.moves.pop();
      game.trail.pop();
    } while (game.moves.length > 0 && !humanToMove(current().to_move));
    refresh();
  }

  // The status line `status` (red for an error) and the evaluation line: the answer told by
  // `evaluationText(answer)`, or that it is on its way.
  function showStatus(status, evaluationText) {
    const view = current();
    $('status').textContent = status;
    $('status').classList.toggle('error', Boolean(game.error) && !view.ended);
    $('evaluation').textContent = view.ended ? '' :
        game.answer ? evaluationText(game.answer) : (game.error ? '' : 'Evaluating…');
  }

  // Whether the page waits for a person with nothing pending, for tests and scripts (its
  // <body data-state> is "ready" then, else "busy").
  function ready() {
    const view = current();
    return !busy() && !game.thinking &&
        Boolean(view.ended || game.error || (humanToMove(view.to_move) && game.answer));
  }

  return {current, refresh, undo, showStatus, ready};
}
