import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { challengeOdds, tableOptions } from '@personae/rules';
import { connectAs, exampleSheet } from '../../server/test/helpers';
import { percent } from '../src/lib/format';
import { browserAvailable, buildWeb, launchBrowser, postCreated, shot, startServer, wiretap, type RunningServer, type Wiretap } from './harness';

// Play at the table in real Chromium against the real table server: before the player acts, the
// encounter form shows the chance of the action as declared and without each choice (the exact chance
// of the pools the server then rolls); another seat's roll tumbles in the log unless motion is reduced.

const run = browserAvailable() || process.env.CI ? describe : describe.skip;

/** A side of a rolled challenge as the odds take it. */
const side = (s: any) => ({ dice: s.pool.dice, modifier: s.modifier, ...(s.potentialThreshold !== undefined ? { potentialThreshold: s.potentialThreshold } : {}) });

run('odds for choices in play, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let player: Page;
  let tap: Wiretap;
  let tableId = '';
  let gmToken = '';
  let annToken = '';
  let inviteLink = '';
  const ids: Record<string, string> = {};

  const gmState = async () => {
    const res = await fetch(`${server.url}/api/tables/${tableId}/state`, { headers: { authorization: `Bearer ${gmToken}` } });
    return (await res.json()).state;
  };

  /** Submit the Act form and read back the challenge the server rolled, from the GM's state. */
  const doIt = async (page: Page) => {
    const before = (await gmState()).log.length;
    await page.getByRole('button', { name: 'Do it' }).click();
    await expect.poll(async () => (await gmState()).log.length).toBeGreaterThan(before);
    const state = await gmState();
    return { state, r: (state.log as { result?: any }[]).filter((e) => e.result).at(-1)!.result };
  };

  /** The GM's page in a context of its own (a second device), on one tab, with its errors recorded. */
  const gmPage = async (tabName: string) => {
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const errors = wiretap(other).errors;
    const gm = await other.newPage();
    await gm.goto(`${server.url}/table/${tableId}#token=${gmToken}`);
    await gm.locator('.status-pill.live').waitFor({ timeout: 20_000 });
    const tab = gm.getByRole('tab', { name: tabName });
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
    return { other, errors, gm };
  };

  beforeAll(async () => {
    buildWeb();
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const table = await postCreated(server.url, '/api/tables', { name: 'Odds table', gmName: 'Mara' });
    tableId = table.tableId;
    gmToken = table.gm.token;
    inviteLink = table.invite.link;
    const invite = new URLSearchParams(table.invite.link.split('#')[1]).get('invite');
    const ann = await postCreated(server.url, `/api/tables/${tableId}/join`, { invite, displayName: 'Ann' });
    annToken = ann.token;
    const ws = server.url.replace('http', 'ws') + '/ws';
    const gm = (await connectAs(ws, tableId, table.gm.token)).client;
    const annWs = (await connectAs(ws, tableId, ann.token)).client;
    let n = 0;
    const as = async (c: typeof gm, command: unknown) => {
      const ack = await c.command(`c${++n}`, command);
      if (ack.type !== 'ack') throw new Error(JSON.stringify(ack));
    };
    await as(annWs, { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') });
    await as(annWs, { type: 'add-character', sheet: exampleSheet('wounded-sellsword.yaml') });
    await as(gm, { type: 'add-character', sheet: exampleSheet('merchant-privateer-scoundrel.yaml') });
    for (const c of (await gmState()).characters as { id: string; name: string }[]) ids[c.name] = c.id;
    await as(annWs, { type: 'encounter', command: { type: 'escalate', actor: ids['Brogan Ironhand'], to: 'non-violent' } });
    gm.close();
    annWs.close();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    tap = wiretap(context);
    player = await context.newPage();
    await player.goto(`${server.url}/table/${tableId}#token=${ann.token}`);
    await player.locator('.status-pill.live').waitFor({ timeout: 20_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('shows the chance with and without an assistant, per skill, and the server then rolls exactly those pools', async () => {
    await player.getByRole('tab', { name: 'Encounter' }).click();
    await player.locator('#act-actor').selectOption(ids['Brogan Ironhand']!);
    await player.locator('#act-kind').selectOption('interact');
    await player.locator('#act-target').selectOption(ids['Marisol "Gull" Vance']!);
    await player.locator('#act-skill').selectOption('Stonecraft');
    const odds = player.locator('#act-odds');
    await odds.waitFor();
    const alone = (await odds.locator('strong').textContent())!;
    expect(alone).toMatch(/^[<>]?\d+(\.\d)?% to succeed$/);
    // Each skill in the list carries its own chance.
    const labels = await player.locator('#act-skill option').allTextContents();
    expect(labels.find((l) => l.startsWith('Stonecraft'))).toBe(`Stonecraft (${alone.replace(' to succeed', '')})`);
    expect(labels.filter((l) => /\([<>]?\d+(\.\d)?%\)$/.test(l)).length).toBeGreaterThan(1);

    await player.locator(`[id="act-help-${ids['Tomas Reyne']}"]`).check();
    await expect.poll(() => odds.locator('#act-odds-without').textContent()).toBe(`without Tomas Reyne's help: ${alone.replace(' to succeed', '')}`);
    const helped = (await odds.locator('strong').textContent())!;
    await shot(player, 'choice-odds-1-assisted');

    const { state, r } = await doIt(player);
    // core-2011 "Assisting in a Challenge": the assistant's +1 is in the actor's result.
    expect(r.actor.modifiers.some((m: { source: string }) => /Tomas Reyne/.test(m.source))).toBe(true);
    const exact = challengeOdds({ actor: side(r.actor), reactor: side(r.reactor) }, tableOptions(state.preset, state.options));
    expect(helped).toBe(`${percent(exact.success)} to succeed`);
    expect(tap.errors).toEqual([]);
  });

  it("another seat's roll tumbles in briefly in the log, and stays still for a reader who asked for reduced motion", async () => {
    const still = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const quiet = await still.newPage();
    await quiet.goto(`${server.url}/table/${tableId}#token=${annToken}`);
    await quiet.locator('.status-pill.live').waitFor({ timeout: 20_000 });
    await player.getByRole('tab', { name: 'Roll' }).click();
    const gm = (await connectAs(server.url.replace('http', 'ws') + '/ws', tableId, gmToken)).client;
    try {
      const ack = await gm.command('gm-roll', { type: 'roll', actor: { name: 'Gull', dice: 3, modifiers: [] }, reactor: { name: 'Storm', dice: 3, modifiers: [] }, purpose: 'Ride out the squall' });
      expect(ack.type).toBe('ack');
    } finally {
      gm.close();
    }
    const entry = player.locator('.side-log .log > li', { hasText: 'Ride out the squall' });
    await entry.waitFor();
    expect(await entry.locator('.result').getAttribute('class')).toContain('fresh');
    expect(await entry.locator('.die').first().evaluate((d) => getComputedStyle(d).animationName)).toBe('die-tumble');
    const quietEntry = quiet.locator('.side-log .log > li', { hasText: 'Ride out the squall' });
    await quietEntry.waitFor();
    expect(await quietEntry.locator('.die').first().evaluate((d) => getComputedStyle(d).animationName)).toBe('none');
    // An entry that was already there when the log opened does not tumble.
    await player.reload();
    await player.locator('.status-pill.live').waitFor({ timeout: 20_000 });
    const again = player.locator('.side-log .log > li', { hasText: 'Ride out the squall' });
    await again.waitFor();
    expect(await again.locator('.result').getAttribute('class')).not.toContain('fresh');
    await still.close();
  });

  it("a player uploads a portrait for their character; it shows on the card and in the GM's log at once, and an oversized file is explained", async () => {
    // A real 1×1 PNG, so that the browser can draw it.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const gmContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const gmTap = wiretap(gmContext);
    const gm = await gmContext.newPage();
    await gm.goto(`${server.url}/table/${tableId}#token=${gmToken}`);
    await gm.locator('.status-pill.live').waitFor({ timeout: 20_000 });
    await player.getByRole('tab', { name: 'Characters' }).click();
    const brogan = ids['Brogan Ironhand']!;
    const input = player.locator(`[id="portrait-${brogan}"]`);
    await input.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.concat([png, Buffer.alloc(300 * 1024)]) });
    expect(await player.locator(`[id="portrait-${brogan}-err"]`).textContent()).toBe('portrait: "huge.png" is 301 KiB; a portrait is at most 256 KiB.');
    await input.setInputFiles({ name: 'brogan.png', mimeType: 'image/png', buffer: png });
    const card = player.locator(`img.avatar[data-portrait="${brogan}"]`);
    await card.first().waitFor();
    await expect.poll(() => card.first().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    // The GM's log shows Brogan's entries with the portrait, without a reload.
    await gm.locator(`.side-log img.avatar[data-portrait="${brogan}"]`).first().waitFor();
    // A player is offered no upload for a character that is not theirs.
    expect(await player.locator(`[id="portrait-${ids['Marisol "Gull" Vance']}"]`).count()).toBe(0);
    await shot(player, 'portrait-1-card');
    await shot(gm, 'portrait-2-gm-log', false);
    expect([...tap.errors, ...gmTap.errors]).toEqual([]);
    await gmContext.close();
  });

  it('the GM on a second device sees the invite link the server keeps, not only a button to replace it', async () => {
    const { other, errors, gm } = await gmPage('Table');
    await expect.poll(() => gm.locator('#invite-link').inputValue()).toBe(inviteLink);
    expect(await gm.getByRole('button', { name: 'Replace the invite link' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await other.close();
  });
  it('the GM adds a hidden hazard from the encounter form; the server keeps its pool from the player', async () => {
    const { other, errors, gm } = await gmPage('Encounter');
    const form = gm.locator('#add-obstacle');
    await form.getByLabel('Name', { exact: true }).fill('Rising Tide');
    await form.getByLabel('Kind', { exact: true }).selectOption('hazard');
    const add = form.getByRole('button', { name: 'Add to the scene' });
    expect(await add.isDisabled()).toBe(true);
    await form.getByLabel('Its pool (a skill)').fill('Drowning Cold');
    await form.getByLabel('Dice', { exact: true }).fill('5');
    await form.getByLabel(/Keep it hidden/).check();
    await add.click();
    await expect.poll(async () => JSON.stringify((await gmState()).characters.find((c: { name: string }) => c.name === 'Rising Tide')?.play?.def ?? null)).toContain('"dice":5');
    const def = (await gmState()).characters.find((c: { name: string }) => c.name === 'Rising Tide').play.def;
    expect(def).toMatchObject({ id: 'rising-tide', obstacle: { kind: 'hazard', hidden: true }, skills: [{ name: 'Drowning Cold', dice: 5 }] });
    const res = await fetch(`${server.url}/api/tables/${tableId}/state`, { headers: { authorization: `Bearer ${annToken}` } });
    const seen = await res.text();
    expect(seen).toContain('Rising Tide');
    expect(seen).not.toContain('Drowning Cold');
    expect(errors).toEqual([]);
    await other.close();
  });
  it('shows the chance with a critical kept to steer after the dice, and the server rolls the pools that chance is for', async () => {
    const marisol = ids['Marisol "Gull" Vance']!;
    // Marisol banks criticals first: three natural 10s entered, each beyond the first a critical (personae-core-2011.txt "Critical Success").
    const ws = (await connectAs(server.url.replace('http', 'ws') + '/ws', tableId, gmToken)).client;
    try {
      const ack = await ws.command('bank', { type: 'encounter', command: { type: 'interact', actor: marisol, target: ids['Brogan Ironhand'], skill: 'Bluff' } }, { dice: { actor: [10, 10, 10, 1] } });
      expect(ack.type).toBe('ack');
    } finally {
      ws.close();
    }
    const { other, errors, gm } = await gmPage('Encounter');
    await gm.locator('#act-actor').selectOption(marisol);
    await gm.locator('#act-kind').selectOption('interact');
    await gm.locator('#act-target').selectOption(ids['Brogan Ironhand']!);
    await gm.locator('#act-skill').selectOption('Bluff');
    const odds = gm.locator('#act-odds');
    await odds.locator('#act-odds-with').waitFor();
    const alone = (await odds.locator('strong').textContent())!.replace(' to succeed', '');
    // Marisol has one critical banked: keeping it to steer is offered with its chance.
    const offered = (await odds.locator('#act-odds-with li', { hasText: 'critical kept to steer' }).textContent())!;
    const steered = offered.replace(/^.*: /, '');
    await gm.locator('#act-steer').check();
    await expect.poll(() => odds.locator('strong').textContent()).toBe(`${steered} to succeed`);
    expect(await odds.locator('#act-odds-without').textContent()).toBe(`without a critical kept to steer: ${alone}`);
    await shot(gm, 'choice-odds-2-steer', false);
    const { state, r } = await doIt(gm);
    const options = tableOptions(state.preset, state.options);
    // personae-v4-srd-playing.txt "Critical Success": a failure (or full tie) left after the dice becomes a glancing success.
    expect(steered).toBe(percent(challengeOdds({ actor: side(r.actor), reactor: side(r.reactor), steer: 1 }, options).success));
    expect(alone).toBe(percent(challengeOdds({ actor: side(r.actor), reactor: side(r.reactor) }, options).success));
    expect(errors).toEqual([]);
    await other.close();
  });
});
