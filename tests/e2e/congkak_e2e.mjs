// End-to-end test of the Congkak page served by `rastros serve --game congkak --houses 3
// --seeds 3`, in headless Chromium driven by the vendored playwright-core (tests/e2e/vendor/).
// Usage: node congkak_e2e.mjs URL SCREENSHOT.png PLAYWRIGHT_CORE_DIR
// Plays a relaying move and watches it sown lap by lap, uses hints and undo, plays a game to
// the end, and starts a new game of another variant (and is refused one too large).
import {runPageTest} from './browser.mjs';

await runPageTest('congkak_e2e', async ({url, screenshot, page, check, errors}) => {
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
  check(/Congkak\(3,3\)/.test(await page.locator('#variant-name').textContent()), 'variant named');
  check(await page.locator('#board g.pit.house').count() === 6, 'six houses');
  check((await counts()).join(' ') === '3 3 3 0 3 3 3 0', `start counts ${(await counts()).join(' ')}`);
  const first = await page.locator('#evaluation').textContent();
  check(/^(Player [12] wins by \d+|A draw) with best play\.$/.test(first), `start evaluated: "${first}"`);

  // House 2 from the start: its last seed lands in player 2's house 1, which is lifted and
  // sown on (a second lap) into player 1's emptied house 2, capturing the house opposite.
  await page.locator('#board g.pit.legal[data-pit="2"]').click();
  await page.waitForFunction(() => /lap 2 of 2/.test(document.querySelector('#status').textContent));
  check(true, 'the status names the lap being sown');
  await ready();
  // The first move's pits (the board's data-sown holds the computer's reply by now).
  const sown = await page.locator('#move-list li').first().getAttribute('data-sown');
  check(sown === '1:3 1:store 2:1 | 2:2 2:3 1:1 1:2 captured 5',
        `sown lap by lap: "${sown}"`);
  check((await moves()).startsWith('2 '), `the computer replied: "${await moves()}"`);
  check(/2 laps, captures 5/.test(await page.locator('#move-list li').first().textContent()),
        'the move list says laps and capture');
  check(await total() === 18, 'the 18 seeds all on the board');

  await page.locator('#hint').check();
  const hinted = await page.locator('#board text.hint-label').allTextContents();
  check(hinted.length === await legal.count() && hinted.every((t) => /^[+-]?\d+$/.test(t)),
        `hints on every legal house: ${hinted.join(' ')}`);
  await page.screenshot({path: screenshot});

  await page.locator('#undo').click();
  await ready();
  check((await moves()) === '', `undo back to the start: "${await moves()}"`);

  await playOut(60);
  const status = await page.locator('#status').textContent();
  check(/^Game over: (player [12] wins \d+–\d+|a draw)/.test(status), `game played out: ${status} (${await moves()})`);
  check(await total() === 18, 'still 18 seeds at the end');

  // A new game of another variant: Congkak(2,4).
  await page.locator('#houses').fill('2');
  await page.locator('#seeds').fill('4');
  await page.locator('#new-game').click();
  await ready();
  check(/Congkak\(2,4\)/.test(await page.locator('#variant-name').textContent()), 'new variant named');
  check((await counts()).join(' ') === '4 4 0 4 4 0' && (await moves()) === '',
        `new variant's start: ${(await counts()).join(' ')}`);
  check(/houses=2/.test(page.url()) && /seeds=4/.test(page.url()), 'the address keeps the variant');
  // A variant the server refuses: an error line, the game as it was.
  const before = errors.length;
  await page.locator('#houses').fill('9');
  await page.locator('#new-game').click();
  await page.waitForFunction(() => /Cannot start that variant/.test(document.querySelector('#status').textContent));
  check(true, 'a bad variant is refused with a message');
  // The browser logs the refused request (400): expected here.
  errors.splice(before, errors.length - before,
                ...errors.slice(before).filter((e) => !/status of 400/.test(e)));
  check(errors.length === 0, `no errors on the page${errors.length ? ': ' + errors.join('; ') : ''}`);
});
