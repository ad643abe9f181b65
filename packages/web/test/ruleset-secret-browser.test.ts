import '@personae/d100';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createServer, type TableServer } from '@personae/server';
import { browserAvailable, buildWeb, distDir, launchBrowser, postCreated, secretRollSeats, shot, type Wiretap } from './harness';

// A d100 table's secret roll in real Chromium against the real server hosting every ruleset: the
// hidden character's test is sealed in every viewer's list at once, the GM reveals it in the page, and
// each player's browser checks it; one browser gets the reveal with a die changed on the way.

const run = browserAvailable() || process.env.CI ? describe : describe.skip;

/** Changes the first die of every revealed secret roll in a frame, wherever it sits (event, view, patch). */
function tamper(value: unknown): void {
  if (Array.isArray(value)) for (const v of value) tamper(v);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if ((o.type === 'roll-revealed' || o.kind === 'revealed') && Array.isArray(o.dice) && typeof o.salt === 'string') o.dice[0] = ((o.dice[0] as number) % 100) + 1;
    for (const v of Object.values(o)) tamper(v);
  }
}

run('secret rolls at a d100 table in Chromium', () => {
  let server: TableServer;
  let url = '';
  let dataDir = '';
  let browser: Browser;
  let closeSeats: (() => Promise<void>) | undefined;
  let gm: Page;
  let player: Page;
  let cheated: Page;
  let playerTap: Wiretap;
  let gmToken = '';
  let tableId = '';
  const LABEL = 'Listen at the vault door';
  const scores = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 40, willpower: 30, fellowship: 30 };
  const command = async (id: string, c: unknown) => {
    const res = await fetch(`${url}/api/tables/${tableId}/commands`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${gmToken}` }, body: JSON.stringify({ commandId: id, command: c }) });
    expect(res.status, await res.clone().text()).toBe(200);
  };

  beforeAll(async () => {
    buildWeb();
    dataDir = mkdtempSync(join(tmpdir(), 'personae-secret-'));
    server = await createServer({ port: 0, host: '127.0.0.1', dataDir, staticDir: distDir, logLevel: 'silent' });
    url = (await server.listen()).url.replace('0.0.0.0', '127.0.0.1');
    browser = await launchBrowser();
    const table = await postCreated(url, '/api/tables', { name: 'Vault', gmName: 'Mara', ruleset: 'd100' });
    tableId = table.tableId;
    gmToken = table.gm.token;
    const invite = new URLSearchParams(table.invite.link.split('#')[1]).get('invite');
    const ann = await postCreated(url, `/api/tables/${tableId}/join`, { invite, displayName: 'Ann' });
    const bob = await postCreated(url, `/api/tables/${tableId}/join`, { invite, displayName: 'Bob' });
    await command('c1', { type: 'add-character', id: 'stalker', sheet: { name: 'Stalker', kind: 'shadow', side: 'shadows', hidden: true, scores, weapons: [] } });
    ({ gm, player, cheated, playerTap, close: closeSeats } = await secretRollSeats(browser, url, tableId, { gm: gmToken, player: ann.token, cheated: bob.token }, tamper));
    for (const p of [gm, player, cheated]) await p.locator('[data-ruleset="d100"]').waitFor();
  }, 180_000);

  afterAll(async () => {
    await closeSeats?.();
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("shows the players the commitment of a hidden character's test at once, and nothing else of it", async () => {
    await command('c2', { type: 'test', who: 'stalker', score: 'perception', label: LABEL });
    const sealed = player.locator('#rs-secret li[data-kind="committed"]');
    await sealed.waitFor();
    expect(await sealed.locator('.tag.sealed').textContent()).toBe('Sealed: waiting for the reveal');
    expect(await player.locator('body').textContent()).not.toContain(LABEL);
    expect([...playerTap.frames, ...playerTap.bodies].join('\n')).not.toContain(LABEL);
    await gm.locator('#rs-secret li[data-kind="committed"]').waitFor();
    await shot(player, 'rs-secret-01-player-sealed');
  });

  it("the GM reveals it in the page; the player's browser verifies it, and a tampered reveal is marked not verified", async () => {
    await gm.getByRole('button', { name: /^Reveal #\d+$/ }).click();
    const revealed = player.locator('#rs-secret li[data-kind="revealed"]');
    await revealed.waitFor();
    const mark = revealed.locator('[data-verified]');
    expect(await mark.getAttribute('data-verified')).toBe('yes');
    expect(await mark.textContent()).toMatch(/^Verified: matches the commitment of #\d+$/);
    // The reveal shows the player the dice and outcome of the hidden character's test, not what it was.
    expect(await revealed.textContent()).toMatch(/A roll players were not shown: dice \d+ \(success: (yes|no)\)/);
    expect(await revealed.textContent()).not.toContain(LABEL);
    expect(await gm.locator('#rs-secret li[data-kind="revealed"]').textContent()).toContain(LABEL);
    expect(await player.locator('#rs-secret li[data-kind="committed"] .tag.sealed').count()).toBe(0);
    const bad = cheated.locator('#rs-secret li[data-kind="revealed"] [data-verified]');
    await bad.waitFor();
    expect(await bad.getAttribute('data-verified')).toBe('no');
    expect(await bad.textContent()).toContain('NOT verified');
    await shot(player, 'rs-secret-02-player-verified');
  });
});
