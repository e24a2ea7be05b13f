import t, { type Test } from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadCatalog } from '../../scripts/lib/load-catalog.js';
import { waitSearchable } from '../../scripts/lib/wait-searchable.js';
import { SHIPPED_SAMPLES } from '../../scripts/sample/samples.js';
import { buildWidget } from '../../scripts/widget/build.js';

/**
 * The widget in real headless Chromium (Debian's, driven by playwright-core) on the demo page
 * and the demo catalog: type, see suggestions, choose one with the keyboard, refine a facet,
 * page, click a result, and find the click in the events table with its search id; then the
 * same in Arabic, right to left. Screenshots of every step go to test-artifacts/widget/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'widget');
mkdirSync(ARTIFACTS, { recursive: true });

const build = await buildWidget();
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '100' });
const { id: tenantId, key } = await h.tenant('Demo store');
for (const [i, s] of SHIPPED_SAMPLES.entries()) await loadCatalog({ url: h.api.url, key, file: s.file, kind: s.kind, runId: `widget-${i}` });
await waitSearchable(h.api.deps, tenantId, 60_000);
const pk: string = (await h.api.call('POST', '/v1/keys', { key, body: { name: 'demo page', kind: 'public', allowed_origins: [h.api.url] } })).body.key;

const profile = mkdtempSync(join(tmpdir(), 'pss-chromium-'));
const browser: BrowserContext = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: FLAGS,
  viewport: { width: 1280, height: 900 },
});
// The machine's network is closed: anything but the service (product images of the samples) is refused at once.
await browser.route(
  (url) => !url.href.startsWith(h.api.url),
  (route) => route.abort(),
);
t.teardown(async () => {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
});
const timings: Record<string, unknown> = { bundle: build };

/** Waits until the text of `selector` differs from `before` (InstantSearch re-rendered after a search). */
const changed = (page: Page, selector: string, before: string) =>
  page.waitForFunction(([s, b]) => (document.querySelector(s)?.textContent ?? '') !== b, [selector, before] as const, { timeout: 15_000 });
const text = (page: Page, selector: string) => page.locator(selector).first().innerText();

async function journey(t: Test, lang: 'en' | 'ar', typed: string, hitsPerPage: number) {
  const page = await browser.newPage();
  try {
    return await steps(t, page, lang, typed, hitsPerPage);
  } catch (err) {
    await page.screenshot({ path: join(ARTIFACTS, `${lang}-failed.png`) });
    throw err;
  } finally {
    await page.close();
  }
}

async function steps(t: Test, page: Page, lang: 'en' | 'ar', typed: string, hitsPerPage: number) {
  page.on('pageerror', (e) => t.comment(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && t.comment(`console: ${m.text()}`));
  page.on(
    'response',
    async (r) =>
      r.status() >= 400 &&
      t.comment(`${r.status()} ${r.url().slice(0, 120)} ${(await r.text().catch(() => '')).slice(0, 300)} ${r.request().postData()?.slice(0, 400)}`),
  );
  const shot = (step: string) => page.screenshot({ path: join(ARTIFACTS, `${lang}-${step}.png`), fullPage: false });
  const opened = Date.now();
  await page.goto(`${h.api.url}/demo?app=${tenantId}&key=${pk}&lang=${lang}&hits=${hitsPerPage}`);
  await page.waitForSelector('.pss-hits .ais-Hits-item');
  const firstResultsMs = Date.now() - opened;
  await shot('1-loaded');

  // Typing: the time from the first key to the first suggestion on screen, measured in the page.
  await page.evaluate(() => {
    const w = window as unknown as { firstSuggestionAt?: number; typingStartedAt?: number };
    new MutationObserver((_, obs) => {
      if (document.querySelector('.aa-Panel .aa-Item')) {
        w.firstSuggestionAt = performance.now();
        obs.disconnect();
      }
    }).observe(document.body, { childList: true, subtree: true });
    // input, not keydown: Arabic text is typed as inserted text, without key events.
    document.querySelector('.aa-Input')!.addEventListener('input', () => (w.typingStartedAt ??= performance.now()), { once: true });
  });
  await page.click('.aa-Input');
  // The suggestions for the whole word, so the keyboard choice below is made on a settled panel.
  const lastSuggestions = page.waitForResponse(
    (r) => r.url().includes('/queries') && (r.request().postData() ?? '').includes(`"query":${JSON.stringify(typed)}`),
  );
  await page.keyboard.type(typed, { delay: 90 });
  await lastSuggestions;
  await page.waitForSelector('.aa-Panel .aa-Item');
  await page.waitForTimeout(150);
  await page.waitForFunction((q) => !!document.querySelector('.aa-Panel') && (document.querySelector('.aa-Input') as HTMLInputElement).value === q, typed);
  const firstSuggestionMs = await page.evaluate(() => {
    const w = window as unknown as { firstSuggestionAt: number; typingStartedAt: number };
    return Math.round(w.firstSuggestionAt - w.typingStartedAt);
  });
  const suggestions = await page.locator('.aa-Panel .aa-Item').allInnerTexts();
  t.ok(suggestions.length > 0, `${suggestions.length} suggestions for "${typed}"`);
  t.ok((await page.locator('[data-autocomplete-source-id="products"] .aa-Item').count()) > 0, 'product previews in the panel');
  await shot('2-suggestions');

  // Choose a query or category suggestion with the keyboard (arrow down until one is selected, then Enter).
  let chosen = '';
  for (let i = 0; i < 12 && !chosen; i++) {
    const selectedBefore = await page.evaluate(() => document.querySelector('.aa-Item[aria-selected="true"]')?.id ?? '');
    await page.keyboard.press('ArrowDown');
    // The panel renders the new selection on its own time: wait for it (past the last item none is selected).
    await page
      .waitForFunction((b) => (document.querySelector('.aa-Item[aria-selected="true"]')?.id ?? '') !== b, selectedBefore, { timeout: 2000 })
      .catch(() => undefined);
    const sel = page.locator('.aa-Item[aria-selected="true"] .pss-sugg');
    if ((await sel.count()) && (await sel.getAttribute('data-kind')) !== 'brand') chosen = await sel.innerText();
  }
  t.ok(chosen, `chose "${chosen}" with the keyboard`);
  const statsBefore = await text(page, '.pss-stats');
  await page.keyboard.press('Enter');
  await changed(page, '.pss-stats', statsBefore);
  await page.waitForSelector('.aa-Panel', { state: 'detached' }).catch(() => undefined);
  const afterChoice = await text(page, '.pss-stats');
  t.not(afterChoice, statsBefore, `results for the suggestion: ${afterChoice}`);
  await shot('3-chosen');

  // Refine a facet: the first brand.
  const brand = page.locator('.pss-brands .ais-RefinementList-item').first();
  const brandName = await brand.locator('.ais-RefinementList-labelText').innerText();
  await brand.locator('input').check();
  await changed(page, '.pss-stats', afterChoice);
  const refined = await text(page, '.pss-stats');
  t.ok((await page.locator('.pss-brands .ais-RefinementList-item--selected').count()) === 1, `brand "${brandName}" refined: ${refined}`);
  const names = await page.locator('.pss-hits .pss-brand').allInnerTexts();
  t.ok(names.length > 0 && names.every((n) => n === brandName), 'every hit is of that brand');
  await shot('4-refined');

  // Page 2.
  const firstIds = await page.locator('.pss-hit').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id));
  const nextPage = page.locator('.ais-Pagination-item--page:not(.ais-Pagination-item--selected) a').first();
  await nextPage.click();
  // A click that landed while the list re-rendered is lost: click again if page 2 is not selected soon.
  const selected = () =>
    page.waitForFunction(() => /^[2٢]$/.test(document.querySelector('.ais-Pagination-item--selected')?.textContent?.trim() ?? ''), null, { timeout: 5000 });
  if (
    !(await selected().then(
      () => true,
      () => false,
    ))
  )
    await nextPage.click();
  await page.waitForFunction(
    (ids) => {
      const now = [...document.querySelectorAll<HTMLElement>('.pss-hit')].map((e) => e.dataset.id);
      return now.length > 0 && now.every((id) => !ids.includes(id));
    },
    firstIds,
    { timeout: 30_000 },
  );
  t.match(await text(page, '.ais-Pagination-item--selected'), /^[2٢]$/, 'page 2 is selected');
  await shot('5-page2');

  // Click a result: the widget sends the Insights click, then a cancelable pss:click (the test keeps the page).
  await page.evaluate(() => {
    document.addEventListener('pss:click', (e) => {
      e.preventDefault();
      (window as unknown as { clicked: unknown }).clicked = (e as CustomEvent).detail;
      document.body.dataset.clicked = '1';
    });
  });
  await page.locator('.pss-hit').first().click();
  await page.waitForSelector('body[data-clicked="1"]');
  const clicked = await page.evaluate(() => (window as unknown as { clicked: { objectID: string; queryID: string; position: number } }).clicked);
  t.match(clicked.queryID, /^srch_/, 'the hit carries the search id');
  t.equal(clicked.position, hitsPerPage + 1, 'its position counts the first page');
  await shot('6-clicked');
  const row = await eventually(
    async () => h.api.deps.db('events').where({ tenant_id: tenantId, type: 'search_click', product_id: clicked.objectID, search_id: clicked.queryID }).first(),
    10_000,
  );
  t.equal(row.position, hitsPerPage + 1, 'the click is stored with its search id and position');
  const logged = await eventually(async () => h.api.deps.db('search_log').where({ id: clicked.queryID }).first(), 10_000);
  t.equal(logged.session, row.session, 'the search it follows is logged under the same session');
  t.equal(logged.page, 2);

  // A string, not a function: tsx would wrap inner arrow functions in a __name helper the page does not have.
  const layout = (await page.evaluate(`({
    dir: getComputedStyle(document.querySelector('.pss')).direction,
    inputDir: getComputedStyle(document.querySelector('.aa-Input')).direction,
    facetsLeft: document.querySelector('.pss-facets').getBoundingClientRect().left,
    mainLeft: document.querySelector('.pss-main').getBoundingClientRect().left,
  })`)) as { dir: string; inputDir: string; facetsLeft: number; mainLeft: number };
  timings[lang] = { firstResultsMs, firstSuggestionMs, suggestions: suggestions.length };
  t.comment(`${lang}: first results ${firstResultsMs} ms after navigation, first suggestion ${firstSuggestionMs} ms after the first key`);
  return layout;
}

t.test('English: type, suggestions, choose, refine, page, click -> event with search id', async (t) => {
  const layout = await journey(t, 'en', 'shirts', 8);
  t.equal(layout.dir, 'ltr');
  t.ok(layout.facetsLeft < layout.mainLeft, 'facets on the left');
});

t.test('did-you-mean and zero-result help', async (t) => {
  const page = await browser.newPage();
  t.teardown(() => page.close());
  await page.goto(`${h.api.url}/demo?app=${tenantId}&key=${pk}&lang=en&hits=8`);
  await page.waitForSelector('.pss-hits .ais-Hits-item');
  await page.click('.aa-Input');
  await page.keyboard.type('runing shoes');
  await page.keyboard.press('Enter');
  const dym = page.locator('.pss-dym a');
  await dym.waitFor();
  t.equal(await dym.innerText(), 'running shoes', 'the typo correction is offered');
  await page.screenshot({ path: join(ARTIFACTS, 'en-7-did-you-mean.png') });
  await dym.click();
  await page.waitForFunction(() => (document.querySelector('.aa-Input') as HTMLInputElement).value === 'running shoes');
  await page.fill('.aa-Input', 'qqzzxv');
  await page.keyboard.press('Enter');
  await page.locator('.pss-zero').waitFor();
  t.match(await page.locator('.pss-zero').innerText(), /No products match[\s\S]*Popular categories: \w/);
  await page.screenshot({ path: join(ARTIFACTS, 'en-8-zero-results.png') });
});

t.test('a leaf category suggestion refines the category tree, not a text search', async (t) => {
  const page = await browser.newPage();
  t.teardown(() => page.close());
  await page.goto(`${h.api.url}/demo?app=${tenantId}&key=${pk}&lang=en&hits=8`);
  await page.waitForSelector('.pss-hits .ais-Hits-item');
  await page.click('.aa-Input');
  await page.keyboard.type('ab', { delay: 90 });
  // A leaf category's suggestion carries its category id (levels above it carry lvl: keys).
  const leaf = page.locator('.aa-Panel .pss-sugg[data-kind="category"]:not([data-target^="lvl:"])').first();
  await leaf.waitFor({ timeout: 15_000 });
  const id = (await leaf.getAttribute('data-target'))!;
  const label = (await leaf.innerText()).replace(await leaf.locator('.pss-kind').innerText(), '').trim();
  const statsBefore = await text(page, '.pss-stats');
  await leaf.click();
  await changed(page, '.pss-stats', statsBefore);
  await page.locator('.pss-categories .ais-HierarchicalMenu-item--selected').first().waitFor({ timeout: 15_000 });
  const ui = (await page.evaluate(`window.pssWidget.search.getUiState().products`)) as { query?: string; hierarchicalMenu?: Record<string, string[]> };
  t.equal(ui.query ?? '', '', `"${label}" (${id}) is not searched as text`);
  const path = ui.hierarchicalMenu?.['categories.lvl0'] ?? [];
  t.ok(path.length >= 2, `the category tree is refined to ${path.join(' > ')}`);
  const counted = await h.api.call('POST', '/algolia/1/indexes/*/queries', {
    body: { requests: [{ indexName: 'products', facetFilters: [`category:${id}`], hitsPerPage: 0, analytics: false }] },
    headers: { 'x-algolia-api-key': pk, 'x-algolia-application-id': tenantId, origin: h.api.url },
  });
  const nbHits: number = counted.body.results[0].nbHits;
  t.ok(nbHits > 0);
  t.match(await text(page, '.pss-stats'), new RegExp(`\\b${nbHits}\\b`), `the category's ${nbHits} products`);
  t.equal(await page.inputValue('.aa-Input'), label, 'the box shows the category label');
});

t.test('Arabic: the same, right to left', async (t) => {
  const layout = await journey(t, 'ar', 'عباية', 2);
  t.equal(layout.dir, 'rtl', 'the widget is right to left');
  t.equal(layout.inputDir, 'rtl', 'so is the search box');
  t.ok(layout.facetsLeft > layout.mainLeft, 'facets on the right');
});

t.test('an image banner is shown once', async (t) => {
  const made = await h.api.call('POST', '/v1/rules', {
    key,
    body: {
      name: 'banner',
      conditions: { patterns: [{ match: 'is', text: 'dress' }] },
      consequences: { banners: [{ image_url: 'https://cdn.example/dress-sale.png', link_url: 'https://shop.example/sale' }] },
    },
  });
  t.equal(made.status, 201);
  t.teardown(() => h.api.call('DELETE', `/v1/rules/${made.body.id}`, { key }));
  const page = await browser.newPage();
  t.teardown(() => page.close());
  await page.goto(`${h.api.url}/demo?app=${tenantId}&key=${pk}&lang=en&hits=8`);
  await page.waitForSelector('.pss-hits .ais-Hits-item');
  await page.click('.aa-Input');
  await page.keyboard.type('dress');
  await page.keyboard.press('Enter');
  await page.locator('.pss-banner img').first().waitFor({ state: 'attached', timeout: 15_000 });
  const shown = (await page.evaluate(
    `[...document.querySelectorAll('.pss img')].filter((i) => i.getAttribute('src') === 'https://cdn.example/dress-sale.png').length`,
  )) as number;
  t.equal(shown, 1, 'one image: in the notices, not again above the hits');
  t.equal(await page.locator('.ais-Hits-banner').count(), 0);
  await page.screenshot({ path: join(ARTIFACTS, 'en-9-banner.png') });
});

t.test('the bundle is served with cache headers', async (t) => {
  const res = await fetch(`${h.api.url}/widget.js?v=${build.hash}`, { headers: { 'accept-encoding': 'gzip' } });
  t.equal(res.status, 200);
  t.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.equal(res.headers.get('content-encoding'), 'gzip');
  const etag = res.headers.get('etag')!;
  const again = await fetch(`${h.api.url}/widget.js`, { headers: { 'if-none-match': etag } });
  t.equal(again.status, 304);
  t.match(again.headers.get('cache-control'), /max-age=300/);
  t.equal((await fetch(`${h.api.url}/widget.css`)).headers.get('content-type'), 'text/css; charset=utf-8');
  writeFileSync(join(ARTIFACTS, 'timings.json'), JSON.stringify(timings, null, 2));
  t.comment(`widget.js ${(build.bytes / 1024).toFixed(1)} KiB, ${(build.gzipBytes / 1024).toFixed(1)} KiB gzip`);
});
