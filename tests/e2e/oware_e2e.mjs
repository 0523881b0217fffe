// End-to-end test of the Oware page served by `rastros serve --game oware --houses 3 --seeds 2
// --endgame-seeds 4`, in headless Chromium driven by the vendored playwright-core
// (tests/e2e/vendor/). Usage: node oware_e2e.mjs URL SCREENSHOT.png PLAYWRIGHT_CORE_DIR
// A capture, hints from the search beyond the database, undo, a game played out, and the page
// when the server answers "unknown".
import {runPageTest} from './browser.mjs';

await runPageTest('oware_e2e', async ({url, screenshot, page, check, errors}) => {
  const moves = async () => (await page.locator('#move-list').getAttribute('data-moves')) || '';
  const ready = () => page.waitForSelector('body[data-state="ready"]');
  const counts = async () => (await page.locator('#board text.count').allTextContents()).map(Number);
  const legal = page.locator('#board g.pit.legal');
  const total = async () => (await counts()).reduce((a, b) => a + b, 0);
  // Plays the best hinted move until the game ends (at most `turns` moves).
  async function playOut(turns) {
    for (let turn = 0; turn < turns; turn++) {
      if ((await page.locator('#status').textContent()).startsWith('Game over')) break;
      const best = await page.evaluate(() => {
        const labels = [...document.querySelectorAll('#board text.hint-label')];
        labels.sort((a, b) => Number(b.textContent) - Number(a.textContent));
        return labels[0].getAttribute('data-pit');
      });
      await page.locator(`#board g.pit.legal[data-pit="${best}"]`).click();
      await ready();
    }
  }

  await page.goto(`${url}?side=1&delay=20`);
  await ready();
  check(/Oware\(3,2\)/.test(await page.locator('#variant-name').textContent()), 'variant named');
  check(/at most 4 seeds on the board/.test(await page.locator('#db-note').textContent()), 'database described');
  check((await counts()).join(' ') === '2 2 2 0 2 2 2 0', `start counts ${(await counts()).join(' ')}`);
  const first = await page.locator('#evaluation').textContent();
  check(/^(Player [12] wins by \d+|A draw) with best play\.$/.test(first), `start evaluated: "${first}"`);

  // House 3: its two seeds make player 2's houses 1 and 2 hold 3: both captured.
  await page.locator('#board g.pit.legal[data-pit="3"]').click();
  await ready();
  // The first move's pits (the board's data-sown holds the computer's reply by now).
  const sown = await page.locator('#move-list li').first().getAttribute('data-sown');
  check(sown === '2:1 2:2 captured 6', `sown and captured: "${sown}"`);
  check((await moves()).startsWith('3 '), `the computer replied: "${await moves()}"`);
  check(/captures 6/.test(await page.locator('#move-list li').first().textContent()), 'the move list says the capture');
  check(await total() === 12, 'the 12 seeds on the board and captured');

  await page.locator('#hint').check();
  const hinted = await page.locator('#board text.hint-label').allTextContents();
  check(hinted.length === await legal.count() && hinted.every((t) => /^[+-]?\d+$/.test(t)),
        `hints on every legal house: ${hinted.join(' ')}`);
  await page.screenshot({path: screenshot});

  await page.locator('#undo').click();
  await ready();
  check((await moves()) === '', `undo back to the start: "${await moves()}"`);
  // Best play makes progress (the server's move), but once nothing more is to be won it can go
  // on for ever (rule 6: the page, like play, does not end a game on a repetition): a few
  // moves, each answered.
  await playOut(12);
  const status = await page.locator('#status').textContent();
  check(/^(Your move|Game over)/.test(status) && (await moves()).split(' ').length >= 12,
        `best moves played and answered: ${status} (${await moves()})`);
  check(await total() === 12, 'still 12 seeds on the board and captured');

  // When the server cannot settle a position within its budget it says unknown: the page says
  // so, guesses nothing, and lets the person move for the computer.
  await page.route('**/api/oware/solve*', (route) => route.fulfill({
    status: 200, contentType: 'application/json',
    body: JSON.stringify({value: 'unknown', reason: 'more than 10 positions beyond the endgame database'}),
  }));
  await page.locator('#side').selectOption('2');  // the computer (player 1) to move
  // A new game asks the server for the variant first: wait for its answer to be shown.
  await page.waitForFunction(() => /^Unknown/.test(document.querySelector('#evaluation').textContent));
  await ready();
  check(/^Unknown: more than 10 positions/.test(await page.locator('#evaluation').textContent()), 'unknown shown');
  check(/play player 1's move yourself/.test(await page.locator('#status').textContent()), 'the person moves for the computer');
  check((await moves()) === '' && await legal.count() === 3, 'no move guessed, three houses to click');
  await page.unroute('**/api/oware/solve*');

  // A new game of another variant: Oware(2,2), its database built by the server when asked.
  await page.locator('#side').selectOption('1');
  await page.locator('#houses').fill('2');
  await page.locator('#seeds').fill('2');
  await page.locator('#new-game').click();
  await ready();
  check(/Oware\(2,2\)/.test(await page.locator('#variant-name').textContent()), 'new variant named');
  check((await counts()).join(' ') === '2 2 0 2 2 0' && (await moves()) === '',
        `new variant's start: ${(await counts()).join(' ')}`);
  check(/houses=2/.test(page.url()) && /seeds=2/.test(page.url()), 'the address keeps the variant');
  check(errors.length === 0, `no errors on the page${errors.length ? ': ' + errors.join('; ') : ''}`);
});
