// latency.mjs — time from a click to the bot's reply on the page: plays N
// moves of reversi (the first legal placement each time) against a bot
// and prints each delay and the median. Usage (ply serve running):
// node latency.mjs URL [BOTSPEC] [N]   e.g. alphabeta:time=1s 6
import { chromium } from 'playwright-core';
const [base, bot = 'alphabeta:time=1s', n = '6'] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
const page = await browser.newPage();
await page.goto(`${base}?game=reversi&seats=human+${encodeURIComponent(bot)}`);
await page.waitForSelector('#play:not([hidden])');
const times = [];
for (let k = 0; k < Number(n); k++) {
  const ply = Number(await page.getAttribute('#app', 'data-ply'));
  if (await page.getAttribute('#app', 'data-result')) break;
  const id = new URL(page.url()).searchParams.get('id');
  const st = await (await fetch(`${base}api/games/${id}`)).json();
  const cells = st.legal.find((m) => m.cells.length)?.cells;
  if (!cells) break;
  const t0 = Date.now();
  await page.click(`#board [data-cell="${cells[0]}"]`);
  await page.waitForSelector(`#app[data-ply="${ply + 2}"]`, { timeout: 70000 });
  times.push(Date.now() - t0);
  await page.waitForSelector('#app[data-busy="0"]');
}
times.sort((a, b) => a - b);
console.log(`${bot}: click to reply ms: ${times.join(' ')}; median ${times[times.length >> 1]}`);
await browser.close();
