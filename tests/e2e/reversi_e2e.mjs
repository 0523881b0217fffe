// End-to-end test of the Reversi page served by `rastros serve --game reversi --board 4x4`, in
// headless Chromium driven by the vendored playwright-core (tests/e2e/vendor/). Usage:
//   node reversi_e2e.mjs URL SCREENSHOT.png PLAYWRIGHT_CORE_DIR
// Clicks a square (its turned disc highlighted, the program answering), reads the exact hints,
// undoes, plays a game to the end with the best hinted moves (4×4 is exact throughout: white
// wins by 10), starts a new one, and saves a screenshot with hints.
import {runPageTest} from './browser.mjs';

await runPageTest('reversi_e2e', async ({url, screenshot, page, check, errors}) => {
  const moves = async () => (await page.locator('#move-list').getAttribute('data-moves')) || '';
  const ready = () => page.waitForSelector('body[data-state="ready"]');
  const legal = page.locator('#board g.cell.legal');
  const discs = async () => page.locator('#board circle.disc').count();

  await page.goto(`${url}?side=1&delay=30`);
  await ready();
  check(/4x4/.test(await page.locator('#variant-name').textContent()), 'board named');
  check(await page.locator('#board g.cell').count() === 16, 'sixteen squares');
  check(await discs() === 4, 'four discs at the start');
  const legalStart = await legal.evaluateAll((cells) => cells.map((c) => c.dataset.square).join(' '));
  check(legalStart === 'b1 a2 d3 c4', `the start's legal squares marked: ${legalStart}`);
  const first = await page.locator('#evaluation').textContent();
  check(first === 'Exact: white (O) wins by 10 with perfect play.', `start evaluated: "${first}"`);

  // b1 turns b2; the program answers.
  await page.locator('#board g.cell.legal[data-square="b1"]').click();
  await ready();
  const flipped = await page.locator('#board').getAttribute('data-flipped');
  check(flipped !== null && flipped.split(' ').length >= 1, `turned discs shown: "${flipped}"`);
  const played = await moves();
  check(played.startsWith('b1 ') && played.split(' ').length === 2, `program replied: "${played}"`);

  // Hints: every square to click shows an exact score.
  await page.locator('#hint').check();
  const hinted = await page.locator('#board text.hint-label').allTextContents();
  check(hinted.length === await legal.count() && hinted.every((t) => /^[+-]?\d+$/.test(t)),
        `exact hints on every legal square: ${hinted.join(' ')}`);
  await page.screenshot({path: screenshot});

  await page.locator('#undo').click();
  await ready();
  check((await moves()) === '', `undo: back to the start ("${await moves()}")`);

  // Play to the end, always the best hinted move (or pass).
  for (let turn = 0; turn < 20; turn++) {
    if ((await page.locator('#status').textContent()).startsWith('Game over')) break;
    if (await page.locator('#pass').isVisible()) {
      await page.locator('#pass').click();
    } else {
      const best = await page.evaluate(() => {
        const labels = [...document.querySelectorAll('#board text.hint-label')];
        labels.sort((a, b) => Number(b.textContent) - Number(a.textContent));
        return labels[0].getAttribute('data-square');
      });
      await page.locator(`#board g.cell.legal[data-square="${best}"]`).click();
    }
    await ready();
  }
  const status = await page.locator('#status').textContent();
  check(status === 'Game over: white (O) wins by 10 (empty squares to the winner).',
        `perfect play on both sides ends as solved: ${status} (${await moves()})`);

  await page.locator('#new-game').click();
  await ready();
  check((await moves()) === '' && (await discs()) === 4, 'new game back at the start');
  check(errors.length === 0, `no errors on the page${errors.length ? ': ' + errors.join('; ') : ''}`);
});
