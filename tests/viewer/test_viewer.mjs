// Real-browser test of tools/trace-viewer.html: headless system Chromium through puppeteer-core.
//
//   node test_viewer.mjs [TRACE.json] [--screenshot PATH] [--embedded PAGE.html]
//
// --embedded: PAGE.html is tools/trace-to-html.sh's copy of the page carrying TRACE; it must
// open it by itself, with the same spans and arrows.
//
// Loads TRACE (default: sample.trace.json beside this file) through the page's file input,
// checks the page's model against the file, clicks a span, saves a screenshot, then checks that
// bad input gives a visible error. Exit 0 when every check passed, 1 otherwise.
// Chromium: $CHROMIUM, else /usr/bin/chromium.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const viewerPath = path.resolve(here, '..', '..', 'tools', 'trace-viewer.html');

function parseArgs(argv) {
  const opts = { trace: path.join(here, 'sample.trace.json'), screenshot: path.resolve('trace-viewer.png') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--screenshot') opts.screenshot = path.resolve(argv[++i] ?? '');
    else if (a.startsWith('--screenshot=')) opts.screenshot = path.resolve(a.slice(13));
    else if (a === '--embedded') opts.embedded = path.resolve(argv[++i] ?? '');
    else if (a === '-h' || a === '--help') { console.log('usage: node test_viewer.mjs [TRACE.json] [--screenshot PATH]'); process.exit(0); }
    else if (a.startsWith('-')) { console.error(`unknown option ${a}`); process.exit(1); }
    else opts.trace = path.resolve(a);
  }
  return opts;
}

// The file's own view of itself, parsed the way the format allows (bare array, missing "]").
function readTrace(file) {
  const text = fs.readFileSync(file, 'utf8').trim();
  let data;
  try { data = JSON.parse(text); } catch (err) {
    const cut = text.replace(/,\s*$/, '');
    data = JSON.parse(text.startsWith('[') ? cut + ']' : cut + ']}');
  }
  const events = Array.isArray(data) ? data : data.traceEvents;
  if (!Array.isArray(events)) throw new Error(`${file}: no traceEvents array`);
  return { events, text };
}

const opts = parseArgs(process.argv.slice(2));
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
for (const [what, p] of [['viewer page', viewerPath], ['trace', opts.trace], ['Chromium ($CHROMIUM)', chromium]]) {
  if (!fs.existsSync(p)) { console.error(`FAIL: ${what} not found: ${p}`); process.exit(1); }
}
const { events } = readTrace(opts.trace);
const expected = {
  // an arrow needs both ends: a signal nobody waited for starts none
  starts: (() => {
    const ends = new Set(events.filter((e) => e.ph === 'f').map((e) => e.id));
    return events.filter((e) => e.ph === 's' && ends.has(e.id)).length;
  })(),
  pix: events.filter((e) => e.ph === 'X' && e.cat === 'pix').length,
};

let passed = 0, failed = 0;
function check(ok, what, detail = '') {
  if (ok) { passed++; console.log(`ok   - ${what}`); }
  else { failed++; console.log(`FAIL - ${what}${detail ? ': ' + detail : ''}`); }
  return ok;
}

const pageErrors = [], consoleErrors = [], external = [];
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1500, height: 720 });
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (msg) => { if (msg.type() === 'error') consoleErrors.push(msg.text()); });
  page.on('request', (req) => { if (!/^(file|data|blob):/.test(req.url())) external.push(req.url()); });

  await page.goto(pathToFileURL(viewerPath).href, { waitUntil: 'load' });
  check(await page.evaluate(() => typeof window.traceViewer === 'object' && !traceViewer.loaded),
        'page exposes window.traceViewer, nothing loaded yet');

  // Through the file input, as a person would.
  const input = await page.$('input[type=file]');
  await input.uploadFile(opts.trace);
  try {
    await page.waitForFunction(() => traceViewer.loaded || traceViewer.error, { timeout: 15000 });
  } catch (err) {
    check(false, 'trace loads within 15 s', err.message);
  }
  const model = await page.evaluate(() => ({
    loaded: traceViewer.loaded, error: traceViewer.error, tracks: traceViewer.tracks,
    flows: traceViewer.flows, waits: traceViewer.waits, spans: traceViewer.spans,
    categories: traceViewer.categories,
  }));
  check(model.loaded && !model.error, `${path.basename(opts.trace)} loaded`, model.error || 'not loaded');
  console.log('     tracks: ' + model.tracks.map((t) => `${t.name} (${t.spans} spans, ${t.instants} instants)`).join('; '));

  const nextFrame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  // the application's queues (d3d12xs's internal queue may have run nothing)
  const queues = model.tracks.filter((t) => /^(DIRECT|COMPUTE|COPY) queue/.test(t.name));
  check(queues.length >= 2, 'at least two queue tracks', `found ${queues.length}`);
  for (const q of queues) check(q.spans >= 1, `queue track "${q.name}" has spans`, `${q.spans} spans`);
  check(model.waits >= 1, 'at least one wait', `${model.waits}`);
  check(model.flows >= 1, 'at least one flow', `${model.flows}`);
  check(model.flows === expected.starts, `flows equal the file's "s" events that have an "f" (${expected.starts})`, `model has ${model.flows}`);
  if (expected.pix) check((model.categories.pix || 0) === expected.pix, `PIX spans present (${expected.pix})`, `model has ${model.categories.pix || 0}`);

  // The first span of `cat` on screen at least minWidth pixels wide (minWidth 0: the widest one
  // on screen): [index, viewport rect].
  const findSpan = (cat, minWidth = 4) => page.evaluate((cat, minWidth) => {
    let widest = [-1, null];
    for (let i = 0; i < traceViewer.spans; i++) {
      const r = traceViewer.spanScreenRect(i);
      if (!r || !r.visible || r.cat !== cat || r.width <= 0)
        continue;
      if (minWidth && r.width >= minWidth) return [i, r];
      if (!minWidth && (!widest[1] || r.width > widest[1].width)) widest = [i, r];
    }
    return widest;
  }, cat, minWidth);
  // A long trace fitted to the screen draws spans below a pixel: zoom in on the widest of `cat`
  // until one is wide enough to click.
  async function zoomUntilClickable(cat) {
    for (let step = 0; step < 60; step++) {
      const [i, r] = await findSpan(cat);
      if (i >= 0) return [i, r];
      const [, widest] = await findSpan(cat, 0);
      if (!widest) return [-1, null];
      await page.mouse.move(widest.x + widest.width / 2, widest.y + widest.height / 2);
      await page.mouse.wheel({ deltaY: -300 });
      await nextFrame();
    }
    return [-1, null];
  }
  const rectOf = (i) => page.evaluate((i) => traceViewer.spanScreenRect(i), i);

  await nextFrame();
  const drawn = await page.evaluate(() => traceViewer.drawnFlows);
  check(drawn === model.flows, 'the whole-trace view draws every flow arrow', `${drawn} of ${model.flows}`);

  // Zoom keeps the time under the cursor in place, drag pans, Fit restores the whole view.
  const [zi, z0] = await findSpan('segment', 0);
  if (check(zi >= 0, 'a segment span is on screen')) {
    const cx = z0.x + z0.width / 2, cy = z0.y + z0.height / 2;
    await page.mouse.move(cx, cy);
    await page.mouse.wheel({ deltaY: -300 });
    await nextFrame();
    const z1 = await rectOf(zi);
    // Exact ends, not the drawn rectangle: on a fast GPU a fitted segment is under a pixel.
    const w0 = z0.right - z0.left, w1 = z1.right - z1.left, c0 = (z0.left + z0.right) / 2, c1 = (z1.left + z1.right) / 2;
    check(w1 > w0 * 1.5 && Math.abs(c1 - c0) < 2, 'wheel zooms in around the cursor',
          `width ${w0.toFixed(2)} -> ${w1.toFixed(2)}, centre ${c0.toFixed(1)} -> ${c1.toFixed(1)}`);
    await page.mouse.down();
    await page.mouse.move(cx + 60, cy, { steps: 4 });
    await page.mouse.up();
    await nextFrame();
    const z2 = await rectOf(zi);
    check(Math.abs(z2.x - z1.x - 60) < 2, 'dragging pans the view', `x ${z1.x.toFixed(1)} -> ${z2.x.toFixed(1)}`);
    check(await page.$eval('#details', (el) => !el.querySelector('table')), 'a drag does not select');
    await page.click('#fit');
    await nextFrame();
    const z3 = await rectOf(zi);
    check(Math.abs(z3.x - z0.x) < 1 && Math.abs(z3.width - z0.width) < 1, 'Fit shows the whole trace again', JSON.stringify(z3));
  }

  // Click a span of each of these kinds and read the details panel.
  async function clickSpan(cat) {
    const [, rect] = await zoomUntilClickable(cat);
    if (!rect) return null;
    await page.mouse.click(rect.x + rect.width / 2, rect.y + rect.height / 2);
    await page.waitForFunction((name) => document.querySelector('#details').textContent.includes(name), { timeout: 3000 }, rect.name)
      .catch(() => {});
    return { rect, text: await page.$eval('#details', (el) => el.textContent) };
  }
  const segHit = await clickSpan('segment');
  if (check(!!segHit, 'a segment span is on screen to click')) {
    check(segHit.text.includes(segHit.rect.name) && segHit.text.includes(segHit.rect.track) && /duration/.test(segHit.text),
          `clicking segment "${segHit.rect.name}" shows name, track and duration`, JSON.stringify(segHit.text.slice(0, 200)));
  }

  const waitHit = await clickSpan('wait');
  if (check(!!waitHit, 'a wait span is on screen to click')) {
    const { tid, ts, dur } = waitHit.rect;        // a wait that a flow ends on says what released it
    const released = events.some((e) => e.ph === 'f' && e.tid === tid && Math.abs(e.ts - (ts + dur)) < 1e-3);
    check(waitHit.text.includes(waitHit.rect.name) && waitHit.text.includes('met_by') && (!released || waitHit.text.includes('released by')),
          `clicking wait "${waitHit.rect.name}" shows its name, args.met_by and what released it`, JSON.stringify(waitHit.text.slice(0, 200)));
  }
  await page.mouse.move(5, 5);                  // no hover tooltip in the screenshot
  await nextFrame();
  fs.mkdirSync(path.dirname(opts.screenshot), { recursive: true });
  await page.screenshot({ path: opts.screenshot });
  console.log(`     screenshot: ${opts.screenshot}`);

  check(pageErrors.length === 0, 'no page errors', pageErrors.join(' | '));
  check(consoleErrors.length === 0, 'no console errors', consoleErrors.join(' | '));
  check(external.length === 0, 'no network requests outside the page', external.join(' '));

  // The other forms of the same events: a bare array, and one missing its final "]".
  const bare = JSON.stringify(events);
  for (const [what, text] of [['bare array', bare], ['bare array without final "]"', bare.slice(0, -1) + ',\n']]) {
    const r = await page.evaluate((t) => (traceViewer.load(t), { loaded: traceViewer.loaded, flows: traceViewer.flows, error: traceViewer.error }), text);
    check(r.loaded && r.flows === model.flows, `loads the ${what} form`, JSON.stringify(r));
  }

  // Drag and drop: a drop event carrying the file, as the browser sends it.
  const dropped = await page.evaluate(async (text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.trace.json', { type: 'application/json' }));
    traceViewer.load('[]');
    document.querySelector('#timeline').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    for (let i = 0; i < 100 && !traceViewer.flows; i++) await new Promise((r) => setTimeout(r, 20));
    return { loaded: traceViewer.loaded, flows: traceViewer.flows, summary: document.querySelector('#summary').textContent };
  }, bare);
  check(dropped.loaded && dropped.flows === model.flows && dropped.summary.includes('dropped.trace.json'),
        'a dropped file loads', JSON.stringify(dropped));

  // Not a trace: the error is in the model and on the page.
  for (const [what, text] of [['not json', 'not json'], ['JSON that is not a trace', '{"hello": 1}']]) {
    const r = await page.evaluate((t) => {
      traceViewer.load(t);
      const el = document.querySelector('#error');
      return { loaded: traceViewer.loaded, error: traceViewer.error, shown: !el.hidden && el.offsetHeight > 0 ? el.textContent : '' };
    }, text);
    check(!r.loaded && typeof r.error === 'string' && r.error.length > 0 && r.shown.includes(r.error),
          `load(${JSON.stringify(text)}) [${what}] sets error and shows it`, JSON.stringify(r));
  }

  if (opts.embedded) {
    const embedded = await browser.newPage();
    await embedded.goto(pathToFileURL(opts.embedded).href, { waitUntil: 'load' });
    const r = await embedded.waitForFunction(() => traceViewer.loaded || traceViewer.error, { timeout: 15000 })
      .then(() => embedded.evaluate(() => ({ loaded: traceViewer.loaded, spans: traceViewer.spans, flows: traceViewer.flows })))
      .catch((err) => ({ loaded: false, error: err.message }));
    check(r.loaded && r.spans === model.spans && r.flows === model.flows, `${path.basename(opts.embedded)} opens its own trace`,
          JSON.stringify(r));
  }
} catch (err) {
  check(false, 'test ran to the end', err.stack || String(err));
} finally {
  await browser.close();
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
