// studio.test.js - the page of `tiers serve` in headless Chromium
// (/usr/bin/chromium) driven by puppeteer-core: it loads the page, clicks
// a piece and checks that the highlighted squares are the destinations
// `tiers moves` lists, makes a move by clicking, has an agent reply,
// pastes a position and plays a promotion whose effect the page shows.
// Screenshots of each step go to OUTDIR.
//   node studio.test.js TIERS-BINARY TESTS-DIR OUTDIR
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const h = require('./harness');

const [tiers, testsDir, outDir] = h.args('studio.test.js');
const promote = path.join(testsDir, 'data/variants/duel-promote');
const { check, done } = h.tally('studio.test.js');
const same = h.same;
const cliTargets = (args, from) => h.cliTargets(tiers, args, from);
const startServer = () => h.startServer(tiers, ['official', promote]);

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  const { child, url } = await startServer();
  const browser = await h.launchBrowser();
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
    const shot = (name) => page.screenshot({ path: path.join(outDir, `studio-${name}.png`) });
    const ply = () => page.$eval('#status', (e) => +e.dataset.ply);
    const waitPly = (n) => page.waitForFunction((n) => +document.getElementById('status').dataset.ply === n
      && document.getElementById('status').textContent.includes('agent: idle'), { timeout: 60000 }, n);
    const highlighted = () => page.$$eval('rect.hl', (rs) => rs.map((r) => r.dataset.square).sort());
    const clickSquare = async (sq) => {
      const tower = await page.$(`g.tower[data-square="${sq}"]`);
      await (tower || await page.$(`rect[data-square="${sq}"]`)).click();
    };

    await page.goto(url);
    await page.waitForSelector('g#board > rect[data-square]');
    check('the page shows the board', (await page.$$('g#board > rect[data-square]')).length === 81,
      'not 81 squares on official');
    await shot('1-loaded');

    // duel-promote from the list; its king on c1
    const before = await page.evaluate(() => session); // (a new game: a new session)
    await page.select('#variant', 'duel-promote');
    await page.waitForFunction((b) => session !== b &&
      document.getElementById('status').textContent.includes('duel-promote'), {}, before);
    await page.waitForSelector('g.tower[data-square="c1"]');
    await clickSquare('c1');
    await page.waitForSelector('rect.sel');
    const want = cliTargets([promote], 'c1');
    const got = await highlighted();
    check('highlighted squares of c1 are tiers moves\'', same(got, want) && got.length > 0,
      `got ${got}, want ${want}`);
    const groups = await page.$eval('#moves', (e) => e.textContent);
    check('the moves are listed by group', /move|stack|capture/.test(groups), groups);
    // the movement panel: the king's tier-1 grid as `tiers pieces` draws it
    const grid = execFileSync(tiers, ['pieces', promote, 'king', '--tier', '1'], { encoding: 'utf8' })
      .split('\n').filter((l) => l.startsWith('    ')).map((l) => l.slice(4)).join('\n');
    const panel = await page.$eval('#movement pre[data-tier="1"]', (e) => e.textContent);
    check('the movement panel\'s tier 1 is tiers pieces\'', grid.length > 0 && panel.endsWith(grid),
      `panel ${JSON.stringify(panel)}, want ${JSON.stringify(grid)}`);
    check('the tier the piece stands on is marked',
      await page.$eval('#movement pre.current', (e) => e.dataset.tier) === '1', 'no current tier');
    await shot('2-selected');

    // a move by clicking a highlighted square (a menu when ambiguous)
    await clickSquare(got[0]);
    const menu = await page.$eval('#menu', (m) => m.style.display === 'block');
    if (menu) await page.click('#menu button');
    await waitPly(1);
    check('a move by clicking', (await ply()) === 1, 'ply is not 1');
    await shot('3-moved');

    // an agent's reply
    await page.$eval('#agent', (e) => { e.value = 'greedy'; });
    await page.click('#play-agent');
    await waitPly(2);
    const status = await page.$eval('#status', (e) => e.textContent);
    check('the agent replied', /ply 2/.test(status) && /last move: \S/.test(status), status);
    await shot('4-agent');

    // paste a position, then a promotion: the effect is shown
    const pos = 'k4/2P2/5/5/4K - w - 0 0';
    await page.$eval('#text', (e, p) => { e.value = p; }, pos);
    await page.click('#paste-position');
    // drawn once the pasted game (ply 0) shows its kings on a5 and e1
    await page.waitForFunction(() => +document.getElementById('status').dataset.ply === 0
      && document.querySelector('g.tower[data-square="a5"]')
      && document.querySelector('g.tower[data-square="e1"]'), { timeout: 60000 });
    await clickSquare('c4');
    await page.waitForSelector('rect.hl');
    const got4 = await highlighted();
    const want4 = cliTargets([promote, '-p', pos], 'c4');
    check('after the paste, c4\'s moves are tiers moves\'', same(got4, want4), `got ${got4}, want ${want4}`);
    await clickSquare('c5');
    await waitPly(1);
    const effects = await page.$eval('#effects', (e) => e.textContent);
    check('the promotion\'s effect is shown', effects === 'promote', effects);
    await shot('5-pasted-promoted');
  } finally {
    await browser.close();
    child.kill('SIGTERM');
  }
  done();
}

main().catch((e) => { console.log(`FAIL: ${e.stack || e}`); process.exit(1); });
