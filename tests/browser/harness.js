// harness.js - what both browser tests share: their arguments, the
// pass/fail tally, `tiers moves` destinations, a `tiers serve` child
// whose first line is its address, and headless Chromium.
'use strict';
const { spawn, execFileSync } = require('child_process');
const puppeteer = require('puppeteer-core');

// [tiers, testsDir, outDir] from the command line, or exit 2 with usage.
function args(script) {
  const a = process.argv.slice(2);
  if (a.length < 3) {
    console.error(`usage: node ${script} TIERS-BINARY TESTS-DIR OUTDIR`);
    process.exit(2);
  }
  return a;
}

// A tally of named checks; done() prints it and exits 1 on a failure.
function tally(script) {
  let passed = 0, failed = 0;
  return {
    check(name, ok, detail) {
      if (ok) passed++;
      else { failed++; console.log(`FAIL: ${name}: ${detail}`); }
    },
    done() {
      console.log(`${script}: ${passed} passed, ${failed} failed`);
      process.exit(failed ? 1 : 0);
    },
  };
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The destination squares of the moves `tiers moves ARGS` lists from `from`.
function cliTargets(tiers, args, from) {
  const out = execFileSync(tiers, ['moves', ...args], { encoding: 'utf8' });
  const set = new Set();
  for (const line of out.split('\n')) {
    const m = line.match(new RegExp(`^${from}\\W+([a-p][0-9]+)`));
    if (m) set.add(m[1]);
  }
  return [...set].sort();
}

// `tiers serve ARGS`: resolves to { child, url } once it prints its address.
function startServer(tiers, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(tiers, ['serve', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve({ child, url: buf.slice(0, nl) });
    });
    child.on('exit', (code) => reject(new Error(`tiers serve exited ${code}`)));
  });
}

function launchBrowser() {
  return puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

module.exports = { args, tally, same, cliTargets, startServer, launchBrowser };
