import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { challengeOdds, tableOptions } from '@personae/rules';
import { percent } from '../src/lib/format';
import { browserAvailable, buildWeb, contrastProblems, labelProblems, launchBrowser, shot, startServer, wiretap, type RunningServer } from './harness';

// The odds calculator in real Chromium: its question lives in the address, so a link opened in a fresh
// browser (no table, nothing stored) shows the same pools, rules and comparison; the comparison chart
// draws each rule set's exact odds.

const run = browserAvailable() || process.env.CI ? describe : describe.skip;

run('the shareable odds calculator in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    buildWeb();
    server = await startServer();
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function fresh(): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    const tap = wiretap(context);
    return { page: await context.newPage(), errors: tap.errors };
  }

  const stat = (page: Page, name: string) => page.locator('.odds .stat', { hasText: name }).locator('strong').textContent();

  it('a question set up by hand opens the same from its link in another browser, comparison and chart included', async () => {
    const { page: a, errors } = await fresh();
    await a.goto(`${server.url}/roller`);
    await a.locator('#r-actor-dice').fill('4');
    await a.locator('#r-actor-bonus').fill('2');
    await a.locator('#r-reactor-dice').fill('3');
    await a.locator('#r-reactor-bonus').fill('3');
    await a.locator('#r-actor-add-mod').click();
    await a.locator('#r-actor-mod-0-v').fill('1');
    await a.locator('#r-actor-mod-0-s').fill('high ground');
    await a.locator('#r-option-name').selectOption('fullTie');
    await a.locator('#r-option-value').selectOption('reroll');
    await a.locator('#r-option-add').click();
    await a.locator('#r-compare-srd-v4').check();
    await a.locator('#r-vary-name').selectOption('criticals');
    await a.locator('#r-vary-value').selectOption('web');
    await a.locator('#r-vary-add').click();
    await a.locator('#r-chart').selectOption('criticals-at-least');
    await a.locator('#r-purpose').fill('Hold the bridge');
    // The address follows the form, with no reload.
    await expect.poll(() => new URL(a.url()).searchParams.get('stake')).toBe('Hold the bridge');
    const link = await a.locator('#r-link').inputValue();
    expect(link).toBe(a.url());
    const q = new URL(link).searchParams;
    expect(q.get('a.dice')).toBe('4');
    expect(q.get('a.mod')).toBe('1:high ground');
    expect(q.get('option')).toBe('fullTie=reroll');
    expect(q.get('compare')).toBe('srd-v4');
    expect(q.get('stake')).toBe('Hold the bridge');

    // The exact odds shown are the rules library's for 4 dice +3 (attribute 2, high ground 1) against 3 dice +3.
    const sides = { actor: { dice: 4, modifier: 3 }, reactor: { dice: 3, modifier: 3 } };
    const expected = challengeOdds(sides, tableOptions('core-2011', { fullTie: 'reroll' }));
    expect(await stat(a, 'Success')).toBe(percent(expected.success));
    await shot(a, 'calculator-1-set-up', false);

    const { page: b, errors: bErrors } = await fresh();
    await b.goto(link);
    await b.locator('#r-compare-chart').waitFor();
    expect(await b.locator('#r-preset').inputValue()).toBe('core-2011');
    expect(await b.locator('#r-actor-dice').inputValue()).toBe('4');
    expect(await b.locator('#r-actor-bonus').inputValue()).toBe('2');
    expect(await b.locator('#r-reactor-dice').inputValue()).toBe('3');
    expect(await b.locator('#r-actor-mod-0-s').inputValue()).toBe('high ground');
    expect(await b.locator('#r-purpose').inputValue()).toBe('Hold the bridge');
    expect(await b.locator('#r-option-list').textContent()).toContain('fullTie');
    expect(await b.locator('#r-compare-srd-v4').isChecked()).toBe(true);
    expect(await b.locator('#r-vary-list').textContent()).toContain('criticals');
    expect(await b.locator('#r-chart').inputValue()).toBe('criticals-at-least');
    expect(await stat(b, 'Success')).toBe(percent(expected.success));
    expect(b.url()).toBe(link);

    // Three rule sets on one chart: the table's, srd-v4 with the same change, and the criticals variant.
    const labels = ['core-2011 with fullTie=reroll', 'srd-v4 with fullTie=reroll', 'core-2011 with fullTie=reroll, criticals=web'];
    expect((await b.locator('.legend li').allTextContents()).map((t) => t.trim())).toEqual(labels.map((l, i) => `${i + 1}: ${l}`));
    const perRules = [tableOptions('core-2011', { fullTie: 'reroll' }), tableOptions('srd-v4', { fullTie: 'reroll' }), tableOptions('core-2011', { fullTie: 'reroll', criticals: 'web' })].map((o) => challengeOdds(sides, o));
    // The first group of bars: at least one critical, under each rule set.
    for (const [i, odds] of perRules.entries()) {
      const atLeastOne = 1 - (odds.criticals[0] ?? 1);
      const bar = b.locator(`#r-compare-chart rect[data-rules="${labels[i]}"]`).first();
      expect(Number(await bar.getAttribute('data-value'))).toBeCloseTo(atLeastOne, 12);
    }
    const successRow = await b.locator('.compare-table tbody tr').first().locator('td').allTextContents();
    expect(successRow.slice(0, 3)).toEqual(perRules.map((o) => percent(o.success)));
    await b.locator('#r-chart').selectOption('outcomes');
    const successBars = b.locator('#r-compare-chart rect');
    expect(Number(await successBars.nth(1).getAttribute('data-value'))).toBeCloseTo(perRules[1]!.success, 12);
    await shot(b, 'calculator-2-opened-from-link');
    expect(await contrastProblems(b)).toEqual([]);
    expect(await labelProblems(b)).toEqual([]);
    expect([...errors, ...bErrors]).toEqual([]);
  });

  it('a link with values it cannot use opens with defaults and says what it left out', async () => {
    const { page, errors } = await fresh();
    await page.goto(`${server.url}/roller?rules=v9&a.dice=99&option=fullTie=sometimes&mode=unopposed&difficulty=5`);
    const notice = page.locator('#r-link-problems');
    await notice.waitFor();
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain('rules "v9" is not a preset');
    expect(text).toContain('a.dice "99" is not a whole number from 0 to 30');
    expect(text).toContain('fullTie is one of');
    expect(await page.locator('#r-actor-dice').inputValue()).toBe('2');
    expect(await page.locator('#r-difficulty').inputValue()).toBe('5');
    // The address is rewritten to the question actually shown.
    await expect.poll(() => new URL(page.url()).searchParams.get('rules')).toBe('core-2011');
    expect(new URL(page.url()).searchParams.has('option')).toBe(false);
    await shot(page, 'calculator-3-bad-link', false);
    expect(errors).toEqual([]);
  });
});
