// End-to-end test of the Kalah page served by `rastros serve --game kalah --houses 3 --seeds 3`,
// in headless Chromium driven by the vendored playwright-core (tests/e2e/vendor/). Usage:
//   node kalah_e2e.mjs URL SCREENSHOT.png PLAYWRIGHT_CORE_DIR
// Clicks houses (an extra turn, then a move the computer answers), watches a move being sown
// seed by seed, uses hints and undo, plays a game to the end, starts a new one, and saves a
// screenshot mid-game with hints.
import {runPageTest} from './browser.mjs';

await runPageTest('kalah_e2e', async ({url, screenshot, page, check, errors}) => {
  const moves = async () => (await page.locator('#move-list').getAttribute('data-moves')) || '';
  const ready = () => page.waitForSelector('body[data-state="ready"]');
  const counts = async () => (await page.locator('#board text.count').allTextContents()).map(Number);
  const legal = page.locator('#board g.pit.legal');

  await page.goto(`${url}?side=1&delay=40`);
  await ready();
  check(/Kalah\(3,3\)/.test(await page.locator('#variant-name').textContent()), 'variant named');
  check(await page.locator('#board g.pit.house').count() === 6, 'six houses');
  check(await page.locator('#board g.pit.store').count() === 2, 'two stores');
  check((await counts()).join(' ') === '3 3 3 0 3 3 3 0', `start counts ${(await counts()).join(' ')}`);
  check(await legal.count() === 3, 'three houses to click');
  const first = await page.locator('#evaluation').textContent();
  check(/^(Player [12] wins by \d+|A draw) with best play\.$/.test(first), `start evaluated: "${first}"`);

  // House 1: its last seed lands in the store, seed by seed, and player 1 moves again.
  // The mark lasts the three seeds' animation only: an observer set up before the click sees it
  // however busy the machine (a wait for the selector could poll before and after it).
  await page.evaluate(() => {
    window.sawSowing = false;
    new MutationObserver(() => {
      if (document.querySelector('#board g.pit.sowing[data-pit="1"]')) window.sawSowing = true;
    }).observe(document.body, {subtree: true, attributes: true, childList: true});
  });
  await page.locator('#board g.pit.legal[data-pit="1"]').click();
  await ready();
  check(await page.evaluate(() => window.sawSowing), 'the emptied house is marked while sowing');
  const sown = await page.locator('#board').getAttribute('data-sown');
  check(sown === '1:2 1:3 1:store', `drawn seed by seed into houses 2, 3 and the store: "${sown}"`);
  check((await moves()) === '1', `extra turn: moves "${await moves()}"`);
  check(/move again/.test(await page.locator('#status').textContent()), 'status says move again');

  // House 2: the turn passes and the computer answers.
  await page.locator('#board g.pit.legal[data-pit="2"]').click();
  await ready();
  const played = await moves();
  check(played.startsWith('1 2 ') && played.split(' ').length >= 3, `computer replied: "${played}"`);
  check((await counts()).reduce((a, b) => a + b, 0) === 18, 'the 18 seeds all on the board');

  // Hints: every house to click shows a score.
  await page.locator('#hint').check();
  const hinted = await page.locator('#board text.hint-label').allTextContents();
  check(hinted.length === await legal.count() && hinted.every((t) => /^[+-]?\d+$/.test(t)),
        `hints on every legal house: ${hinted.join(' ')}`);
  await page.screenshot({path: screenshot});

  // Undo takes back the computer's replies and the move before them: back to "1".
  await page.locator('#undo').click();
  await ready();
  check((await moves()) === '1', `undo: moves "${await moves()}"`);

  // Play to the end, always the best hinted move.
  for (let turn = 0; turn < 40; turn++) {
    if ((await page.locator('#status').textContent()).startsWith('Game over')) break;
    const best = await page.evaluate(() => {
      const labels = [...document.querySelectorAll('#board text.hint-label')];
      labels.sort((a, b) => Number(b.textContent) - Number(a.textContent));
      return labels[0].getAttribute('data-pit');
    });
    await page.locator(`#board g.pit.legal[data-pit="${best}"]`).click();
    await ready();
  }
  const status = await page.locator('#status').textContent();
  check(/^Game over: (player [12] wins \d+–\d+|a draw)/.test(status), `game played out: ${status} (${await moves()})`);
  check((await counts()).reduce((a, b) => a + b, 0) === 18, 'still 18 seeds at the end');

  await page.locator('#new-game').click();
  await ready();
  check((await moves()) === '' && (await page.locator('#evaluation').textContent()) === first,
        'new game back at the start');
  check(errors.length === 0, `no errors on the page${errors.length ? ': ' + errors.join('; ') : ''}`);
});
