// shot.mjs — screenshots of any page address, for looking at the page by
// hand: node shot.mjs URL OUT.png [WIDTH] [HEIGHT] [WAIT_MS]
import { chromium } from 'playwright-core';
const [url, out, w = '1200', h = '900', wait = '800'] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) } });
page.on('pageerror', (e) => console.log('pageerror:', e.message));
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
await page.goto(url);
await page.waitForSelector('#app[data-state="ready"]', { timeout: 15000 }).catch(() => {});
await page.waitForTimeout(Number(wait));
await page.screenshot({ path: out, fullPage: true });
await browser.close();
