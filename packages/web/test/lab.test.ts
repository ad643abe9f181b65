import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connectAs } from '../../server/test/helpers';
import { browserAvailable, buildWeb, launchBrowser, postCreated, secretRollSeats, shot, startServer, type RunningServer, type Wiretap } from './harness';

// The design lab at the table, in real Chromium against the real table server: a GM's secret roll is
// sealed in every log at once, revealed, and checked in each player's browser.

const run = browserAvailable() || process.env.CI ? describe : describe.skip;

run('the design lab in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let closeSeats: (() => Promise<void>) | undefined;
  let gm: Page;
  let player: Page;
  let cheated: Page;
  let playerTap: Wiretap;
  let gmTap: Wiretap;
  const PURPOSE = 'Do the wolves hear the camp?';
  let tableId = '';
  let annToken = '';

  beforeAll(async () => {
    buildWeb();
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const table = await postCreated(server.url, '/api/tables', { name: 'Lab table', gmName: 'Mara', settings: { physicalDice: true } });
    tableId = table.tableId;
    const inviteToken = new URLSearchParams(table.invite.link.split('#')[1]).get('invite');
    const ann = await postCreated(server.url, `/api/tables/${table.tableId}/join`, { invite: inviteToken, displayName: 'Ann' });
    annToken = ann.token;
    const bob = await postCreated(server.url, `/api/tables/${table.tableId}/join`, { invite: inviteToken, displayName: 'Bob' });
    // Bob's browser receives a reveal whose first die was changed on the way.
    const seats = await secretRollSeats(browser, server.url, tableId, { gm: table.gm.token, player: ann.token, cheated: bob.token }, (msg) => {
      const e = msg.type === 'event' ? msg.event : null;
      if (e?.type === 'revealed') e.dice[0] = (e.dice[0] % 10) + 1;
      const logs = [msg.state?.log, msg.set?.log, msg.arrays?.log?.append].filter(Array.isArray);
      for (const log of logs) for (const entry of log) if (entry.reveal) entry.reveal.dice[0] = (entry.reveal.dice[0] % 10) + 1;
    });
    ({ gm, player, cheated, gmTap, playerTap, close: closeSeats } = seats);
  }, 180_000);

  afterAll(async () => {
    await closeSeats?.();
    await browser?.close();
    await server?.dispose();
  });

  it('a secret roll shows its commitment to the players at once, and nothing else of it', async () => {
    await gm.getByRole('tab', { name: 'Roll' }).click();
    await gm.locator('#roll-purpose').fill(PURPOSE);
    await gm.getByLabel('Hidden roll (only the GM sees it)').check();
    await gm.getByRole('button', { name: /^Roll/ }).click();
    await gm.locator('.side-log .log > li', { hasText: PURPOSE }).waitFor();
    const sealed = player.locator('.side-log .log > li', { hasText: 'The GM rolls in secret' });
    await sealed.waitFor();
    expect(await sealed.locator('.tag.sealed').textContent()).toBe('Sealed: waiting for the reveal');
    expect(await player.locator('.side-log').textContent()).not.toContain(PURPOSE);
    expect([...playerTap.frames, ...playerTap.bodies].join('\n')).not.toContain(PURPOSE);
    await shot(player, 'lab-01-player-sealed');
  });

  it('the GM reveals it from the Table tab; the player\'s browser verifies it, and a tampered reveal is marked not verified', async () => {
    await gm.getByRole('tab', { name: 'Table' }).click();
    await gm.getByRole('button', { name: /^Reveal #\d+$/ }).click();
    await gm.getByText('No secret roll is waiting to be revealed.').waitFor();
    const revealed = player.locator('.side-log .log > li', { hasText: PURPOSE });
    await revealed.waitFor();
    const mark = revealed.locator('[data-verified]');
    expect(await mark.getAttribute('data-verified')).toBe('yes');
    expect(await mark.textContent()).toMatch(/^Verified: matches the commitment of #\d+$/);
    const bad = cheated.locator('.side-log .log > li', { hasText: PURPOSE }).locator('[data-verified]');
    await bad.waitFor();
    expect(await bad.getAttribute('data-verified')).toBe('no');
    expect(await bad.textContent()).toContain('NOT verified');
    await shot(player, 'lab-02-player-verified');
  });

  it("shows the GM the fairness check of the dice a player typed in, and never sends it to the player", async () => {
    // Ann types in the faces of a die that shows 10 far too often, over the table's own protocol.
    const { client } = await connectAs(server.url.replace('http', 'ws') + '/ws', tableId, annToken);
    try {
      for (let i = 0; i < 20; i++) {
        const given = [10, 10, 10, (i % 9) + 1];
        const ack = await client.command(`ann-${i}`, { type: 'roll', actor: { name: 'Ann', dice: 4, modifiers: [] }, reactor: { name: 'Wolves', dice: 4, modifiers: [] } }, { dice: { actor: given } });
        expect(ack.type).toBe('ack');
      }
    } finally {
      client.close();
    }
    // Twenty rolls arrive at once: under load the GM's page may take a while to render them.
    const tab = gm.getByRole('tab', { name: 'Table' });
    await tab.waitFor({ timeout: 30_000 });
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click({ timeout: 20_000 });
    const row = gm.locator('table.fairness tr[data-participant]');
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    expect(gmTap.errors).toEqual([]);
    expect(await row.getAttribute('data-suspicious')).toBe('yes');
    expect(await row.textContent()).toContain('suspicious faces');
    expect(await row.locator('th').textContent()).toBe('Ann');
    await shot(gm, 'lab-03-gm-fairness');
    await player.getByRole('tab', { name: 'Table' }).click();
    await player.getByRole('heading', { name: 'Secret rolls' }).waitFor();
    expect(await player.getByText('Dice fairness (GM only)').count()).toBe(0);
    // What the server said of the table (its frames and JSON answers; the app's own code names the field too).
    const fromTable = (tap: Wiretap) => [...tap.frames, ...tap.bodies.filter((b) => /^\s*[[{]/.test(b))].join('\n');
    expect(fromTable(gmTap)).toContain('chiSquare');
    expect(fromTable(playerTap)).not.toContain('chiSquare');
  });

  it('the GM judges the log again under other rules, read only: under the table\'s own rules nothing changes', async () => {
    const sentBefore = gmTap.sent.length;
    await gm.locator('#replay-preset').selectOption('core-2011');
    await gm.getByRole('button', { name: 'Judge the log again' }).click();
    const summary = gm.locator('#replay-summary');
    await summary.waitFor();
    // 20 rolls of Ann's and the GM's secret roll (its reveal repeats it and is not counted twice).
    expect(await summary.textContent()).toBe('21 rolls judged again under Personae core rules (2011): 0 come out differently.');
    expect(await gm.locator('table.replay tbody tr').count()).toBe(21);
    await gm.locator('#replay-preset').selectOption('srd-v4');
    await gm.getByRole('button', { name: 'Judge the log again' }).click();
    await expect.poll(() => summary.textContent()).toMatch(/^21 rolls judged again under Personae v4 SRD: \d+ comes? out differently\.$/);
    await shot(gm, 'lab-04-gm-replay');
    expect(gmTap.sent.length).toBe(sentBefore);
  });
});

