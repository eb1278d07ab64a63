// studio-live.test.js - the studio's second part in headless Chromium
// (/usr/bin/chromium, puppeteer-core): an effect move with no target
// chosen on the board; live reload (a pawn's movement changed in
// variant.yaml changes the highlighted squares; a game the new rules
// break is reported at its ply; a broken Lua file shows `tiers check`'s
// text in the error panel, and the fix clears it); the position editor
// (drag pieces, tower height, an illegal position and why, side to move);
// a 10-game comparison of two rulesets and its report, the same file
// `tiers compare --report` writes.  Expected values come from the CLI
// (`tiers moves`, `tiers apply`, `tiers check`, `tiers compare`) or by
// hand from duel's rules.  Screenshots go to OUTDIR.
//   node studio-live.test.js TIERS-BINARY TESTS-DIR OUTDIR
'use strict';
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const h = require('./harness');

const [tiers, testsDir, outDir] = h.args('studio-live.test.js');
const data = path.join(testsDir, 'data/variants');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tiers-studio-'));
for (const v of ['duel', 'duel-promote']) {
  fs.mkdirSync(path.join(work, v));
  for (const f of fs.readdirSync(path.join(data, v)))
    fs.copyFileSync(path.join(data, v, f), path.join(work, v, f));
}
const promote = path.join(work, 'duel-promote');
const flip = path.join(testsDir, 'data/serve/duel-flip');
const duelYaml = path.join(work, 'duel/variant.yaml');
const luaFile = path.join(promote, 'promote.lua');
const yaml0 = fs.readFileSync(duelYaml, 'utf8');
const lua0 = fs.readFileSync(luaFile, 'utf8');
const db = path.join(work, 'studio.db');

const { check, done } = h.tally('studio-live.test.js');
const same = h.same;
const cliTargets = (args, from) => h.cliTargets(tiers, args, from);

// Saves a file as editors do: a temporary file renamed over it.
function save(file, text) {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}
const pawnYaml = (steps) => yaml0.replace('      - {step: [[-1, 1], [0, 1], [1, 1]]}', `      - {step: ${steps}}`);

const startServer = () => h.startServer(tiers, [promote, flip, '--db', db]);

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  check('the pawn line to change is in duel', pawnYaml('X') !== yaml0, 'not found');
  const { child, url } = await startServer();
  const browser = await h.launchBrowser();
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 1000 });
    const shot = (name) => page.screenshot({ path: path.join(outDir, `studio-live-${name}.png`), fullPage: true });
    const highlighted = () => page.$$eval('rect.hl', (rs) => rs.map((r) => r.dataset.square).sort());
    const waitHl = (want) => page.waitForFunction((w) => JSON.stringify([...document.querySelectorAll('rect.hl')]
      .map((r) => r.dataset.square).sort()) === w, { timeout: 10000 }, JSON.stringify(want)).then(() => true, () => false);
    const clickSquare = async (sq) => {
      const tower = await page.$(`g.tower[data-square="${sq}"]`);
      await (tower || await page.$(`rect[data-square="${sq}"]`)).click();
    };
    const waitPly = (n) => page.waitForFunction((n) => +document.getElementById('status').dataset.ply === n,
      { timeout: 20000 }, n);
    const position = () => page.evaluate(() => state.position);
    // (choosing starts a new game, with a new session, even for the
    // variant shown: wait for it, or a click may reach the closed one)
    const choose = async (name) => {
      const before = await page.evaluate(() => session);
      await page.select('#variant', name);
      await page.waitForFunction((n, b) => session !== b &&
        document.getElementById('status').textContent.includes(n + ', ply 0'), {}, name, before);
    };

    await page.goto(url);
    await page.waitForSelector('g#board > rect[data-square]');

    // 1. an effect move with no target: click the pawn, then the pawn again
    await choose('duel-flip');
    await clickSquare('c2');
    await page.waitForSelector('rect.sel');
    const ring = await page.$$eval('rect.self', (rs) => rs.map((r) => r.dataset.square));
    check('the pawn with a move of no target is ringed', same(ring, ['c2']), `ringed ${ring}`);
    await shot('1-flip-selected');
    await clickSquare('c2');
    await waitPly(1);
    const flipWant = execFileSync(tiers, ['apply', flip, 'flip:c2'], { encoding: 'utf8' })
      .match(/^position: (.*)$/m)[1];
    check('clicking it again plays flip:c2', (await position()) === flipWant,
      `${await position()} vs ${flipWant}`);
    await shot('2-flipped');

    // 2. live reload: the pawn's movement in the parent's variant.yaml
    await choose('duel-promote');
    await clickSquare('b2');
    await page.waitForSelector('rect.hl');
    const before = await highlighted();
    check('b2 before the edit: tiers moves', same(before, cliTargets([promote], 'b2')), `${before}`);
    save(duelYaml, pawnYaml('[[-1, 1], [1, 1]]'));
    const diag = cliTargets([promote], 'b2');
    check('by hand: diagonal pawns reach a3 and c3', same(diag, ['a3', 'c3']), `${diag}`);
    check('after saving variant.yaml the lit squares change', await waitHl(diag), `${await highlighted()}`);
    await shot('3-reloaded-moves');
    await clickSquare('a3');
    await waitPly(1);
    // forward-only pawns: b2-a3 is no longer legal, the game breaks at ply 1
    save(duelYaml, pawnYaml('[[0, 1]]'));
    await page.waitForSelector('#reload-panel:not([hidden])', { timeout: 10000 });
    const broke = await page.$eval('#reload-panel', (e) => [e.dataset.ply, e.textContent]);
    check('the page says the game broke at ply 1', broke[0] === '1' && broke[1].includes('b2-a3'), broke[1]);
    check('the position up to there is shown', (await page.$eval('#status', (e) => +e.dataset.ply)) === 0, 'ply is not 0');
    await shot('4-game-broke');
    await page.click('#reload-keep');
    await page.waitForSelector('#reload-panel[hidden]');
    check('keep closes the notice', true, '');

    // a broken Lua file: the error panel shows `tiers check`'s text
    save(luaFile, lua0.replace('return true', 'return true +'));
    await page.waitForSelector('#files-error:not([hidden])', { timeout: 10000 });
    const shown = await page.$eval('#files-error-text', (e) => e.textContent);
    const cli = spawnSync(tiers, ['check', promote], { encoding: 'utf8' }).stderr.trim();
    check('the error panel shows tiers check\'s text', shown === cli && /promote\.lua:\d+/.test(shown),
      `'${shown}' vs '${cli}'`);
    await shot('5-lua-error');
    save(luaFile, lua0);
    await page.waitForSelector('#files-error[hidden]', { timeout: 10000 });
    check('fixing the file clears the panel', true, '');
    save(duelYaml, yaml0);
    await page.waitForFunction(() => state.reloads >= 4, { timeout: 10000 });
    await shot('6-fixed');

    // 3. the position editor
    await choose('duel-promote');
    await page.click('#edit');
    await page.waitForSelector('#egrid .ecell');
    const good = () => page.waitForFunction(() => document.getElementById('edit-status').className === 'good'
      && document.getElementById('edit-text').value === document.getElementById('edit-text').dataset.built,
    { timeout: 10000 });
    const bad = () => page.waitForFunction(() => document.getElementById('edit-status').className === 'bad',
      { timeout: 10000 });
    const text = () => page.$eval('#edit-text', (e) => e.value);
    const dragTo = async (from, to) => {
      const a = await (await page.$(from)).boundingBox();
      const b = await (await page.$(to)).boundingBox();
      await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
      await page.mouse.down();
      await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
      await page.mouse.up();
    };
    const cellPiece = (sq) => `.ecell[data-square="${sq}"] .epiece[data-drag]`;
    const cell = (sq) => `.ecell[data-square="${sq}"]`;
    await good();
    check('the editor starts from the game\'s position', (await text()) === '1rk2/1ppp1/5/1PPP1/2KR1 - w - 0 0',
      await text());
    await dragTo(cellPiece('c1'), cell('e3'));
    await good();
    check('K dragged from c1 to e3', (await text()) === '1rk2/1ppp1/4K/1PPP1/3R1 - w - 0 0', await text());
    await dragTo(cellPiece('d1'), cell('e3'));
    await good();
    check('R stacked on K', (await text()) === '1rk2/1ppp1/4[K:R]/1PPP1/5 - w - 0 0', await text());
    await dragTo(cellPiece('b2'), cell('e3'));
    await bad(); // the server's answer, not the status it replaces
    const high = await page.$eval('#edit-status', (e) => e.textContent);
    check('a third tier is refused (max_tiers 2)', /at most 2 tiers/.test(high), high);
    await dragTo(cellPiece('e3'), '#ehand-0');
    await good();
    check('R dragged off the board into the hand', (await text()) === '1rk2/1ppp1/4K/1PPP1/5 R w - 0 0', await text());
    await dragTo(cellPiece('e3'), '#ehand-0');
    await dragTo(cellPiece('c5'), '#ehand-1');
    await page.click('#ehand-0 .hminus[data-token="K"]');
    await page.click('#ehand-1 .hminus[data-token="k"]');
    await bad();
    const why = await page.$eval('#edit-status', (e) => e.textContent);
    check('no king for either side is illegal, and says so', /no King for either side/.test(why), why);
    const plusK = await page.$eval('#ehand-0 .hplus[data-token="K"]', (e) => e.disabled);
    check('with its one K gone, a K may be added back', !plusK, 'the + of K is disabled with no K left');
    await shot('7-editor-illegal');
    await page.click('#ehand-0 .hplus[data-token="K"]');
    await page.click('#ehand-1 .hplus[data-token="k"]');
    const plusK2 = await page.$eval('#ehand-0 .hplus[data-token="K"]', (e) => e.disabled);
    check('the + of K is disabled once the K is back', plusK2, 'enabled');
    await dragTo('#ehand-0 .epiece[data-token="K"]', cell('c1'));
    await dragTo('#ehand-1 .epiece[data-token="k"]', cell('c5'));
    await page.select('#edit-side', 'b');
    await good();
    const edited = await text();
    check('the edited position', edited === '1rk2/1ppp1/5/1PPP1/2K2 R b - 0 0', edited);
    await shot('8-editor');
    await page.click('#edit-apply');
    await page.waitForFunction((t) => state.position === t, { timeout: 10000 }, edited);
    check('the game goes on from the edited position', true, '');

    // 4. a comparison of two rulesets, 10 games each
    await page.$eval('#cmp-rulesets', (e) => { e.value = 'duel-promote\nduel-flip'; });
    await page.$eval('#cmp-games', (e) => { e.value = '10'; });
    await page.click('#cmp-run');
    await page.waitForFunction(() => document.getElementById('cmp-status').dataset.state === 'done'
      && !document.getElementById('cmp-report').hidden, { timeout: 120000 });
    const bar = await page.$eval('#cmp-bar', (e) => [e.value, e.max]);
    check('the progress bar is full', bar[0] === 20 && bar[1] === 20, `${bar}`);
    const table = await page.$eval('#cmp-report', (e) => e.shadowRoot.textContent);
    check('the report shows both rulesets', table.includes('duel-promote') && table.includes('duel-flip'),
      table.slice(0, 200));
    await page.$eval('#cmp-report', (e) => e.scrollIntoView());
    await shot('9-compare');
    const served = await page.evaluate(() => call('GET', '/api/compare/report?session=' + session));
    const file = path.join(work, 'report.html');
    const out = execFileSync(tiers, ['compare', promote, flip, '--games', '10', '--db', db, '--report', file,
      '--json'], { encoding: 'utf8' });
    const played = JSON.parse(out).variants.map((v) => v.played_now);
    check('tiers compare finds the games the page played', same(played, [0, 0]), `${played}`);
    // the same but for the minute each was written at
    const when = (t) => t.replace(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/, 'WHEN');
    check('the report is the one tiers compare --report writes',
      when(served) === when(fs.readFileSync(file, 'utf8')) && /UTC/.test(served), 'the two reports differ');
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    fs.rmSync(work, { recursive: true, force: true });
  }
  done();
}

main().catch((e) => { console.log(`FAIL: ${e.stack || e}`); process.exit(1); });
