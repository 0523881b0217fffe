// What every page's end-to-end test shares: its arguments (URL SCREENSHOT.png
// PLAYWRIGHT_CORE_DIR), headless Chromium through the vendored playwright-core
// (tests/e2e/vendor/), a check that prints each passed step with the time, the page's errors
// collected, and closing the browser whatever happened (exit 1 on the first failed check).
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';

// runPageTest(NAME, body): body({url, screenshot, page, check, errors}) drives the page.
export async function runPageTest(name, body) {
  const [url, screenshot, playwrightDir] = process.argv.slice(2);
  if (!url || !screenshot || !playwrightDir) {
    console.error(`usage: node ${name}.mjs URL SCREENSHOT.png PLAYWRIGHT_CORE_DIR`);
    process.exit(2);
  }
  const {chromium} = await import(pathToFileURL(join(playwrightDir, 'index.mjs')).href);

  const started = Date.now();
  function check(condition, message) {
    if (!condition) throw new Error(message);
    console.log(`ok: ${message} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }

  const profile = mkdtempSync(join(tmpdir(), `rastros-${name}-`));
  // Without the background-networking switches Chromium waits for the network on a closed machine.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: {width: 1000, height: 640},
    timeout: 60000,
  });
  const errors = [];
  let failed = false;
  try {
    const page = context.pages()[0] || await context.newPage();
    page.setDefaultTimeout(60000);  // generous: CI runs it beside other suites
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await body({url, screenshot, page, check, errors});
  } catch (error) {
    failed = true;
    console.error(`FAIL: ${error.message}`);
  } finally {
    await context.close();
    rmSync(profile, {recursive: true, force: true});
  }
  process.exit(failed ? 1 : 0);
}
