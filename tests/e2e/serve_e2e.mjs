// End-to-end test of the page served by `rastros serve`, in headless Chromium driven by the
// vendored playwright-core (tests/e2e/vendor/). Usage:
//   node serve_e2e.mjs URL SCREENSHOT.png PLAYWRIGHT_CORE_DIR
// Opens the page on 5x5, plays moves by clicking, waits for the computer's replies and the
// evaluation to change, uses hints and undo, plays to the end of the game, opens the map view,
// and saves screenshots (SCREENSHOT.png mid-game with hints, and SCREENSHOT-map.png).
import {runPageTest} from './browser.mjs';

await runPageTest('serve_e2e', async ({url, screenshot, page, check, errors}) => {
  const evaluation = page.locator('#evaluation');
  const moves = () => page.locator('#move-list').getAttribute('data-moves');
  // Waits until the page shows an answer for the position after `count` moves.
  const settled = async (count) => {
    await page.waitForFunction((n) => {
      const list = document.getElementById('move-list').dataset.moves || '';
      const played = list ? list.split(' ').length : 0;
      const text = document.getElementById('evaluation').textContent;
      const over = document.getElementById('status').textContent.startsWith('Game over');
      return played === n && (over || (text && text !== 'Evaluating…'));
    }, count);
  };

  await page.goto(`${url}?board=5x5&side=1`);
  await settled(0);
  const first = await evaluation.textContent();
  check(/^Player [12] wins in \d+ plies with best play\.$/.test(first),
        `start evaluated: "${first}"`);
  check(await page.locator('#board text.coordinate').count() === 4 * 5, 'file and rank labels');
  check(await page.locator('#board rect.goal-1[data-square="a1"]').count() === 1, 'goal a1');
  check(await page.locator('#board rect.goal-2[data-square="e5"]').count() === 1, 'goal e5');
  check(await page.locator('#board .snail').count() === 1, 'the snail is drawn');
  const legal = page.locator('#board rect.legal');
  check(await legal.count() === 8, 'eight highlighted moves from c3');

  // Move by clicking; the computer answers and the evaluation changes.
  await page.locator('#board rect.legal[data-square="b2"]').click();
  await settled(2);
  const after = await evaluation.textContent();
  check((await moves()).startsWith('b2 '), `computer replied: ${await moves()}`);
  check(after !== first, `evaluation changed: "${first}" -> "${after}"`);
  check(await page.locator('#board rect.slime').count() === 2, 'slime trail of two squares');

  // Hints colour every legal move with its value and remoteness.
  await page.locator('#hint').check();
  const hinted = await page.locator('#board text.hint-label').allTextContents();
  check(hinted.length === await legal.count() && hinted.every((t) => /^[WLD]\d+$/.test(t)),
        `hints on every legal move: ${hinted.join(' ')}`);

  // Undo takes back the computer's reply and our move.
  await page.locator('#undo').click();
  await settled(0);
  check((await moves()) === '', 'undo back to the start');
  check((await evaluation.textContent()) === first, 'evaluation back to the start');

  // Play the winning side to the end, always choosing a hinted win.
  let played = 0;
  for (let turn = 0; turn < 20; turn++) {
    if ((await page.locator('#status').textContent()).startsWith('Game over')) break;
    const win = page.locator('#board rect.legal.hint-win');
    const target = (await win.count()) ? win.first() : legal.first();
    await target.click();
    played += 2;
    await page.waitForFunction((n) => {
      const list = document.getElementById('move-list').dataset.moves || '';
      const status = document.getElementById('status').textContent;
      const count = list ? list.split(' ').length : 0;
      return count >= n - 1 && (status.startsWith('Game over') ||
          (count === n && document.getElementById('evaluation').textContent !== 'Evaluating…'));
    }, played);
    if (turn === 2) await page.screenshot({path: screenshot});
  }
  const status = await page.locator('#status').textContent();
  check(/^Game over: player 1 wins/.test(status), `game played out: ${status} (${await moves()})`);

  // New game on another board size, then the map view.
  await page.locator('#new-game').click();
  await settled(0);
  await page.locator('#tab-map').click();
  await page.waitForFunction(() => document.querySelectorAll('#map text.map-label').length === 23);
  check(true, 'map view shows all 23 start squares of 5x5');
  await page.screenshot({path: screenshot.replace(/\.png$/, '-map.png')});
  check(errors.length === 0, `no errors on the page${errors.length ? ': ' + errors.join('; ') : ''}`);
});
