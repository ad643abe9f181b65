import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserAvailable, buildWeb, contrastProblems, labelProblems, launchBrowser, shot, startServer, tabTo, tmp, watchPage, wiretap, type RunningServer, type Wiretap } from './harness';

// The web app in real Chromium against the real table server. One table is played through from
// creation to undo; the steps run in order and share the pages.

const run = browserAvailable() || process.env.CI ? describe : describe.skip;
const GRASK = fileURLToPath(new URL('./fixtures/grask.yaml', import.meta.url));
/** Words of the hidden adversary's sheet that must never reach a player (its name may). */
const SECRETS = ['Ambush Captain', 'Marsh Knife Secrets', 'Reedwalking', 'Grask-hideout', 'Bone Knife'];

run('the web app in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let gmContext: BrowserContext;
  let playerContext: BrowserContext;
  let gm: Page;
  let player: Page;
  let gmTap: Wiretap;
  let playerTap: Wiretap;
  let inviteLink = '';

  beforeAll(async () => {
    buildWeb();
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    gmContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    playerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    gmTap = wiretap(gmContext);
    playerTap = wiretap(playerContext);
    for (const c of [gmContext, playerContext]) {
      // Generous bounds for a shared machine.
      c.setDefaultTimeout(15_000);
      c.setDefaultNavigationTimeout(30_000);
    }
  }, 120_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    const name = ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
    if (gm && !gm.isClosed()) await shot(gm, `failed-${name}-gm`).catch(() => undefined);
    if (player && !player.isClosed()) await shot(player, `failed-${name}-player`).catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const inViewport = (page: Page, label: string) =>
    page.getByLabel(label).evaluate((e) => {
      const r = e.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
  const logTop = (page: Page) => page.locator('.side-log .log > li').first();

  it('the GM creates a table and copies the invite link', async () => {
    gm = await gmContext.newPage();
    // How fast the start page shows is measured by bench/web-size.ts (gzipped sizes, load times), not
    // timed here: the page shows from its own small chunk, with no loading placeholder.
    await gm.goto(server.url);
    await gm.getByRole('heading', { name: 'Start a table' }).waitFor();
    expect(await gm.locator('text=Loading').count()).toBe(0);
    await shot(gm, '01-start');
    expect(await contrastProblems(gm)).toEqual([]);
    expect(await labelProblems(gm)).toEqual([]);
    await gm.getByLabel('Table name').fill('The Salt Road');
    await gm.getByLabel('Your name').fill('Mara');
    await gm.getByRole('button', { name: 'Create the table' }).click();
    await gm.locator('.status-pill.live').waitFor();
    // The GM lands on the invite, not on the roller.
    expect(await gm.getByRole('tab', { name: 'Table' }).getAttribute('aria-selected')).toBe('true');
    inviteLink = await gm.getByLabel('Invite link').inputValue();
    expect(inviteLink).toMatch(/\/join\/t_[\w-]+#invite=in_/);
    await gm.getByRole('button', { name: 'Copy' }).first().click();
    await shot(gm, '02-gm-table-settings');
  });

  it('a player joins through the link and builds a legal character, with an illegal choice explained on the way', async () => {
    player = await playerContext.newPage();
    await player.goto(inviteLink);
    // The join page names the table, as the server tells it for this invite.
    await player.getByRole('heading', { name: 'Join The Salt Road' }).waitFor();
    await shot(player, '02b-join-page', false);
    await player.getByLabel('Your name').fill('Ann');
    await player.getByRole('button', { name: 'Join' }).click();
    await player.locator('.status-pill.live').waitFor();
    expect(player.url()).toMatch(/\/table\/t_[\w-]+#token=pl_/);
    await gm.getByText('Ann', { exact: false }).first().waitFor();

    await player.getByRole('tab', { name: 'Characters' }).click();
    await player.getByRole('button', { name: 'Build a character' }).click();
    await player.locator('#b-name').fill('Kestrel');
    await player.locator('#b-concept').fill('River Scout');
    await player.getByRole('button', { name: /^Next/ }).click();

    // Step 2: Stature moves up to Third; the Handicap is left empty until Knowledge takes it.
    await player.getByLabel('Stature: Third').check();
    await expect.poll(() => player.locator('#prio-err').textContent()).toContain('Third 2 of 1');
    await player.getByLabel('Knowledge: Handicap').check();
    await player.getByText('The order of importance is complete.').waitFor();
    await player.getByRole('button', { name: /^Next/ }).click();

    // Step 3: too much Stature for a Third priority is explained beside the field.
    await player.locator('#b-attr-stature').fill('5');
    const err = player.locator('#b-attr-stature-err');
    await expect.poll(() => err.textContent()).toContain('Stature is 5 but a Third-priority attribute can be at most 4 with 20 creation points.');
    expect(await player.locator('#b-attr-stature-hint').textContent()).toContain('Stature can be at most 4 as a Third priority');
    expect(await player.locator('#b-attr-stature').getAttribute('aria-invalid')).toBe('true');
    await shot(player, '03-builder-illegal-attribute');
    expect(await contrastProblems(player)).toEqual([]);
    expect(await labelProblems(player)).toEqual([]);
    for (const [a, v] of [['competence', 6], ['prowess', 6], ['cunning', 3], ['power', 2], ['stature', 2], ['knowledge', 1]] as const) {
      await player.locator(`#b-attr-${a}`).fill(String(v));
    }
    await expect.poll(() => player.locator('#b-attr-stature-err').count()).toBe(0);
    await player.getByRole('button', { name: /^Next/ }).click();
    await player.getByRole('button', { name: /^Next/ }).click();

    // Step 5: a skill with pool dice and the native language.
    await player.getByRole('button', { name: '+ Add a skill' }).click();
    await player.locator('#b-skill-0-name').fill('Spear');
    await player.locator('#b-skill-0-attr').selectOption('prowess');
    await player.locator('#b-skill-0-dice').fill('4');
    await expect.poll(() => player.locator('#skills-h + span').textContent()).toContain('1 of 6 skills');
    await player.getByRole('button', { name: '+ Add a talent' }).click();
    await player.locator('#b-tal-0-name').fill('Riverspeech');
    await shot(player, '04a-builder-traits');
    await player.getByRole('button', { name: /^Next/ }).click();
    await player.getByRole('button', { name: /^Next/ }).click();
    await player.getByText('Legal character: every creation rule of the table holds.').waitFor();
    await shot(player, '04-builder-review');
    await player.getByRole('button', { name: 'Add to the table' }).click();
    await player.getByText('Kestrel joined the table.').waitFor();
    await player.getByRole('button', { name: 'Close the builder' }).click();
    await player.getByRole('heading', { name: 'Kestrel', exact: true }).waitFor();
    await gm.getByRole('tab', { name: 'Characters' }).click();
    await gm.getByRole('heading', { name: 'Kestrel', exact: true }).waitFor();
    expect(await gm.locator('.char-card', { has: gm.getByRole('heading', { name: 'Kestrel', exact: true }) }).locator('.avatar').textContent()).toBe('KE');
  });

  it('the GM adds a hidden adversary from a sheet file and starts a violent encounter', async () => {
    await gm.getByRole('button', { name: 'Build a character' }).click();
    await gm.locator('#b-import').setInputFiles(GRASK);
    await gm.getByText('Opened Grask from grask.yaml').waitFor();
    expect(await gm.getByLabel(/Hidden from the players/).isChecked()).toBe(true);
    await gm.getByRole('button', { name: 'Add to the table' }).click();
    await gm.getByText('Grask joined the table.').waitFor();
    await gm.getByRole('button', { name: 'Close the builder' }).click();
    await gm.getByText('Hidden from players').waitFor();

    await gm.getByRole('tab', { name: 'Encounter' }).click();
    await gm.getByRole('button', { name: 'Escalate to a non-violent encounter' }).click();
    await gm.getByRole('button', { name: 'Escalate to a violent encounter' }).click();
    await gm.getByRole('list', { name: 'Action order' }).waitFor();
    await expect.poll(() => gm.locator('.order li.current').textContent()).toContain('Kestrel');
    // Every character has a portrait of its own in the action order, the log and on its card.
    expect(await gm.locator('.order li .avatar').allTextContents()).toEqual(expect.arrayContaining(['KE', 'GR']));
    expect(await gm.locator('.order li .avatar').count()).toBe(await gm.locator('.order li').count());
    expect(await gm.locator('.side-log .log > li', { hasText: 'Grask joins the table' }).locator('.avatar').textContent()).toBe('GR');
    await shot(gm, '05-gm-encounter');
    expect(await contrastProblems(gm)).toEqual([]);
    expect(await labelProblems(gm)).toEqual([]);
  });

  it('the player attacks; both see the same roll, dice and explanation in the log', async () => {
    await player.getByRole('tab', { name: 'Encounter' }).click();
    await player.getByRole('list', { name: 'Action order' }).waitFor();
    await player.getByLabel('Target').selectOption({ label: 'Grask' });
    const before = await gm.locator('.side-log .log > li').count();
    await player.getByRole('button', { name: 'Attack Grask' }).click();
    const entry = player.locator('.side-log .log > li', { hasText: 'Attack Challenge' }).first();
    await entry.waitFor();
    // The same entry on both pages is the one with the same sequence number (the GM's log may hold
    // later entries of the challenge that the player's does not). How fast it comes is for the
    // benchmarks, not for a test on a shared machine.
    const seq = await entry.getAttribute('data-seq');
    const atSeq = (p: Page) => p.locator(`.side-log .log > li[data-seq="${seq}"]`);
    await atSeq(gm).waitFor();
    expect(await gm.locator('.side-log .log > li').count()).toBeGreaterThan(before);
    const dice = async (p: Page) => await atSeq(p).locator('.dice').allTextContents();
    // Grask is hidden: the player sees Kestrel's dice and the outcome, not Grask's side (option
    // hiddenSideShown = outcome); the GM sees both.
    const [playerDice, gmDice] = [await dice(player), await dice(gm)];
    expect(playerDice[0]).toBe(gmDice[0]);
    expect(playerDice[0]).toMatch(/\d/);
    expect(gmDice[1]).toMatch(/\d/);
    expect(playerDice[1] ?? '').toBe('');
    const explain = async (p: Page) => (await atSeq(p).locator('.explanation li').allTextContents()).join('\n');
    expect(await explain(player)).toContain('Outcome for Kestrel');
    expect(await explain(player)).toContain("Grask's side of the roll is not shown");
    expect(await explain(gm)).toContain('Outcome for Kestrel');
    expect(await explain(gm)).toContain("Grask rolled");
    await expect.poll(() => player.locator('#announcer').textContent()).toMatch(/Ann rolled|Kestrel/);
    // The log reads as a story; the rules' own lines are one click away.
    const told = await gm.locator('.side-log .log').innerText();
    expect(told).not.toMatch(/== Round|-- \w+'s turn --|\(s\)|option actionOrder/);
    expect(told).toContain('Round 1 begins.');
    expect(told).toContain('The story of The Salt Road begins with Kestrel.');
    expect(told).not.toContain('Kestrel attacks Grask.');
    const order = gm.locator('.side-log .log > li', { hasText: 'acts first' }).first();
    expect(await order.locator('.story').textContent()).toBe('Kestrel acts first, then Grask.');
    await order.locator('summary', { hasText: "The rules' working" }).click();
    expect(await order.locator('.working .log-lines').innerText()).toContain('option actionOrder = seating');
    await shot(player, '06-player-after-attack');
    expect(await contrastProblems(player)).toEqual([]);
    expect(await labelProblems(player)).toEqual([]);
    await shot(gm, '07-gm-after-attack');
    // The action is used: the button says so instead of letting the server refuse it.
    await expect.poll(() => player.getByRole('button', { name: 'Attack Grask' }).isDisabled()).toBe(true);
    expect(await player.locator('#act-used').textContent()).toContain("Kestrel has already used this turn's action");
  });

  it('a reload keeps everything', async () => {
    const seen = await player.locator('.side-log .log > li').count();
    await player.reload();
    await player.locator('.status-pill.live').waitFor();
    await expect.poll(() => player.locator('.side-log .log > li').count()).toBe(seen);
    await player.getByRole('tab', { name: 'Encounter' }).click();
    await expect.poll(() => player.locator('.order li.current').count()).toBe(1);
    await player.getByRole('tab', { name: 'Characters' }).click();
    await player.getByRole('heading', { name: 'Kestrel', exact: true }).waitFor();
  });

  it("the player's page never receives the hidden adversary's sheet, on the WebSocket or over HTTP", async () => {
    expect(playerTap.frames.length).toBeGreaterThan(5);
    const received = [...playerTap.frames, ...playerTap.bodies].join('\n');
    expect(received).toContain('Grask');
    for (const secret of SECRETS) expect(received, secret).not.toContain(secret);
    // The GM did receive it, so the check above looks in the right place.
    const gmReceived = [...gmTap.frames, ...gmTap.bodies].join('\n');
    for (const secret of SECRETS) expect(gmReceived, secret).toContain(secret);
    expect(await player.locator('body').textContent()).not.toContain('Ambush Captain');
  });

  it('undo by the GM shows what it takes back and is seen by both', async () => {
    await gm.getByRole('tab', { name: 'Encounter' }).click();
    const preview = gm.locator('#undo-preview');
    await preview.waitFor();
    expect(await preview.textContent()).toMatch(/Kestrel|Grask/);
    await shot(gm, '08-gm-undo-preview');
    const previewed = await preview.locator('li').allTextContents();
    await gm.getByRole('button', { name: 'Undo', exact: true }).click();
    await gm.locator('.side-log .log > li', { hasText: 'Taken back: the table returns' }).first().waitFor();
    await player.locator('.side-log .log > li', { hasText: 'Taken back: the table returns' }).first().waitFor();
    // What the undo took back stays in the log, marked, for both; the next undo would take back the action before, not the undo line.
    const undoSeq = await gm.locator('.side-log .log > li', { hasText: 'Taken back: the table returns' }).first().getAttribute('data-seq');
    for (const p of [gm, player]) {
      const marked = p.locator('.side-log .log > li.undone-entry');
      await expect.poll(() => marked.count()).toBeGreaterThan(0);
      expect(await marked.first().locator('.tag.undone').textContent()).toBe(`Taken back by #${undoSeq}`);
    }
    const gmMarked = (await gm.locator('.side-log .log > li.undone-entry').allTextContents()).join('\n');
    for (const line of previewed) expect(gmMarked).toContain(line.trim());
    await expect.poll(() => preview.textContent()).not.toContain('UNDO');
    await shot(gm, '08b-gm-undo-marks', false);
  });

  it("the player moves Kestrel to a destination; the GM's condition table shows the position", async () => {
    await player.getByRole('tab', { name: 'Encounter' }).click();
    await player.getByLabel('Action', { exact: true }).selectOption('move');
    const to = player.getByLabel('Destination (optional)');
    expect(await to.getAttribute('list')).toBe('act-to-terms');
    expect(await player.locator('#act-to-terms option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['close', 'adjacent', 'very near', 'pretty far']);
    await to.fill('adjacent');
    await player.getByRole('button', { name: 'Do it' }).click();
    const row = (p: Page) => p.locator('#panel-encounter tr', { hasText: 'Kestrel' });
    await gm.getByRole('tab', { name: 'Encounter' }).click();
    await gm.getByRole('columnheader', { name: 'Position' }).waitFor();
    await expect.poll(() => row(gm).textContent()).toContain('adjacent');
    await expect.poll(() => row(player).textContent()).toContain('adjacent');
    expect(await labelProblems(player)).toEqual([]);
    await player.getByLabel('Action', { exact: true }).selectOption('attack');
  });

  it("the GM plays the adversary's turn with physical dice; hits and condition reach both", async () => {
    await player.getByRole('tab', { name: 'Encounter' }).click();
    await player.getByRole('button', { name: "End Kestrel's turn" }).click();
    await expect.poll(() => gm.locator('.order li.current').textContent()).toContain('Grask');
    await gm.getByLabel('Target').selectOption({ label: 'Kestrel' });
    await gm.getByLabel('Physical dice for Grask (optional)').fill('10 10 10 10 10');
    await gm.getByRole('button', { name: 'Attack Kestrel' }).click();
    const row = (p: Page) => p.locator('#panel-encounter tr', { hasText: 'Kestrel' });
    await expect.poll(() => row(gm).textContent()).toContain('1 of 3');
    await expect.poll(() => row(player).textContent()).toContain('1 of 3');
    const attack = (p: Page) => p.locator('.side-log .log > li', { hasText: 'Attack Challenge: Grask' }).first();
    expect(await attack(gm).textContent()).toContain('rolled 10, 10, 10, 10, 10 (entered)');
    expect(await attack(player).textContent()).not.toContain('rolled 10, 10, 10, 10, 10');
    expect(await attack(player).textContent()).toContain("Grask's side of the roll is not shown");
    // Dice typed in are marked as such on the roll card, for everyone; the dice the table rolled are not.
    for (const p of [gm, player]) expect(await attack(p).locator('.tag.physical').allTextContents()).toEqual(['Physical dice']);
  });

  it('the GM ends the session: everyone sees a summary, and the GM is led to award development points', async () => {
    await gm.getByRole('tab', { name: 'Encounter' }).click();
    await gm.getByRole('button', { name: 'End the session' }).click();
    const summary = (p: Page) => p.locator('.session-summary');
    await summary(gm).waitFor();
    await player.getByRole('tab', { name: 'Encounter' }).click();
    await summary(player).waitFor();
    for (const p of [gm, player]) {
      expect(await summary(p).getByRole('heading').textContent()).toBe('Session 1 is over');
      expect(await summary(p).textContent()).toMatch(/Kestrel: \d+ (success|successes), \d+ failures?/);
    }
    expect(await summary(player).getByRole('button', { name: 'Award development points' }).count()).toBe(0);
    await shot(gm, '20-gm-session-summary', false);
    await summary(gm).getByRole('button', { name: 'Award development points' }).click();
    expect(await gm.getByRole('tab', { name: 'Characters' }).getAttribute('aria-selected')).toBe('true');
  });

  it('development points: the GM awards them, the player sees the cost before spending', async () => {
    await gm.getByRole('tab', { name: 'Characters' }).click();
    const gmCard = gm.locator('article', { has: gm.getByRole('heading', { name: 'Kestrel', exact: true }) });
    await gmCard.getByText(/^Advancement/).click();
    await gmCard.getByLabel('Award points').fill('1');
    await gmCard.getByRole('button', { name: 'Award' }).click();
    await player.getByRole('tab', { name: 'Characters' }).click();
    const card = player.locator('article', { has: player.getByRole('heading', { name: 'Kestrel', exact: true }) });
    await expect.poll(() => card.textContent()).toContain('1 of 1 points unspent');
    await card.getByText(/^Advancement/).click();
    await card.getByLabel('Spend on').selectOption('prowess-pool');
    await expect.poll(() => card.textContent()).toContain('+3 Prowess Pool dice: costs 1 point from award #1.');
    await card.getByRole('button', { name: 'Spend' }).click();
    await expect.poll(() => card.textContent()).toContain('0 of 1 points unspent');
    await expect.poll(() => gmCard.textContent()).toContain('0 of 1 points unspent');
    await shot(player, '21-player-advancement');
  });

  it('the player edits the sheet in the builder; the GM sees the change', async () => {
    const card = player.locator('article', { has: player.getByRole('heading', { name: 'Kestrel', exact: true }) });
    await card.getByRole('button', { name: 'Edit the sheet in the builder' }).click();
    await player.locator('#b-concept').fill('River Scout of the Reed Marches');
    await player.getByRole('button', { name: /Review and save/ }).click();
    await player.getByRole('button', { name: 'Save the changes at the table' }).click();
    await player.getByText("Kestrel's sheet is saved at the table.").waitFor();
    await player.getByRole('button', { name: 'Close the builder' }).click();
    await gm.getByText('River Scout of the Reed Marches · played by Ann').waitFor();
  });

  it('a lost connection is shown and recovers by itself, resuming from the last event seen', async () => {
    await server.stop();
    await player.locator('.status-pill.reconnecting').waitFor();
    await player.getByText('The connection to the table was lost').waitFor();
    await shot(player, '09-player-reconnecting', false);
    expect(await contrastProblems(player)).toEqual([]);
    expect(await labelProblems(player)).toEqual([]);
    await server.restart();
    // The pages try again after growing pauses (up to about 6 s) while the server is down.
    await player.locator('.status-pill.live').waitFor({ timeout: 30_000 });
    await gm.locator('.status-pill.live').waitFor({ timeout: 30_000 });
    const hellos = playerTap.sent.filter((s) => s.includes('"hello"')).map((s) => JSON.parse(s) as { since?: number });
    expect(hellos.at(-1)?.since).toBeGreaterThan(0);
    // A roll made after the drop reaches the player.
    await gm.getByRole('tab', { name: 'Roll' }).click();
    await gm.locator('#roll-purpose').fill('after the storm');
    await gm.getByRole('button', { name: /^Roll/ }).click();
    await player.locator('.side-log .log > li', { hasText: 'after the storm' }).waitFor();
    await gm.getByRole('tab', { name: 'Characters' }).click();
    await shot(gm, '19-gm-characters');
    await gm.getByRole('tab', { name: 'Table' }).click();
    await gm.locator('summary', { hasText: /^Criticals/ }).click();
    await gm.locator('#opt-criticals').selectOption({ index: 1 });
    await gm.locator('label[for="opt-criticals"] .tag', { hasText: 'changed from core-2011' }).waitFor();
    await shot(gm, '20-gm-options', false);
  });

  it('a hidden roll reaches the GM only; the log filters by character', async () => {
    await gm.getByRole('tab', { name: 'Roll' }).click();
    await gm.locator('#roll-purpose').fill('the secret plan');
    await gm.getByLabel('Hidden roll (only the GM sees it)').check();
    await gm.getByRole('button', { name: /^Roll/ }).click();
    const hidden = gm.locator('.side-log .log > li', { hasText: 'the secret plan' });
    await hidden.waitFor();
    expect(await hidden.textContent()).toContain('Hidden: GM only');
    await gm.locator('#roll-purpose').fill('in the open');
    await gm.getByLabel('Hidden roll (only the GM sees it)').uncheck();
    await gm.getByRole('button', { name: /^Roll/ }).click();
    await player.locator('.side-log .log > li', { hasText: 'in the open' }).waitFor();
    expect(await player.locator('.side-log').textContent()).not.toContain('the secret plan');
    expect([...playerTap.frames, ...playerTap.bodies].join('\n')).not.toContain('the secret plan');

    const all = await player.locator('.side-log .log > li').count();
    await player.locator('#log-side-filter').selectOption({ label: 'Grask' });
    const some = await player.locator('.side-log .log > li').allTextContents();
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(all);
    for (const text of some) expect(text).toContain('Grask');
    await player.locator('#log-side-filter').selectOption({ label: 'Every character' });
  });

  it('an observer watches through the watch link, read only', async () => {
    await gm.getByRole('tab', { name: 'Table' }).click();
    const link = await gm.getByLabel('Watch link (read only)').inputValue();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(link);
    await page.locator('.status-pill.live').waitFor();
    expect(await page.locator('.topbar').textContent()).toContain('observer');
    await page.getByText('Watching: the rolls appear in the log.').waitFor();
    expect(await page.locator('.side-log').textContent()).toContain('in the open');
    expect(await page.locator('.side-log').textContent()).not.toContain('the secret plan');
    await page.getByRole('tab', { name: 'Characters' }).click();
    expect(await page.getByRole('button', { name: 'Build a character' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Encounter' }).click();
    expect(await page.getByRole('button', { name: /^Attack/ }).count()).toBe(0);
    await context.close();
  });

  it("the GM switches physical dice off and on during play; the player's page follows without a reload", async () => {
    await player.evaluate(() => Object.assign(window, { samePage: true }));
    await player.getByRole('tab', { name: 'Roll' }).click();
    const given = player.locator('#roll-actor-given');
    await given.waitFor();
    await gm.getByRole('tab', { name: 'Table' }).click();
    const toggle = gm.getByLabel('Players may enter the results of physical dice');
    expect(await toggle.isChecked()).toBe(true);
    await toggle.focus();
    await gm.keyboard.press('Space');
    await expect.poll(() => given.count()).toBe(0);
    expect(await toggle.isChecked()).toBe(false);
    expect(playerTap.frames.some((f) => f === '{"type":"settings","settings":{"physicalDice":false}}')).toBe(true);
    await player.getByRole('tab', { name: 'Table' }).click();
    await player.getByText('The table rolls for the players').waitFor();
    expect(await player.getByLabel('Players may enter the results of physical dice').count()).toBe(0);
    await shot(gm, '22-gm-physical-dice-off', false);
    expect(await contrastProblems(gm)).toEqual([]);
    expect(await labelProblems(gm)).toEqual([]);

    // Focus stayed on the switch: Space turns it back on.
    expect(await gm.evaluate(() => document.activeElement?.id)).toBe('phys-toggle');
    await gm.keyboard.press('Space');
    await player.getByText('Players may type in the results of the dice').waitFor();
    await player.getByRole('tab', { name: 'Roll' }).click();
    await given.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    expect(await player.evaluate(() => (window as { samePage?: boolean }).samePage)).toBe(true);
  });

  it('the roller works with the keyboard alone', async () => {
    await player.getByRole('tab', { name: 'Roll' }).click();
    await player.locator('body').click({ position: { x: 5, y: 5 } });
    await player.keyboard.press('Home');
    await tabTo(player, '#roll-actor-who');
    // Kestrel, the player's character: its id is in the player's seat's space.
    expect(await player.locator('#roll-actor-who').inputValue()).toMatch(/^p_[\w-]+:kestrel$/);
    await tabTo(player, '#roll-actor-skill');
    await tabTo(player, '#roll-actor-add-mod');
    await player.keyboard.press('Enter');
    await tabTo(player, '#roll-actor-mod-0-v');
    await player.keyboard.press('Control+a');
    await player.keyboard.type('2');
    await player.keyboard.press('Tab');
    await player.keyboard.type('high ground');
    await tabTo(player, 'input[name="roll-mode"]');
    await player.keyboard.press('ArrowDown');
    expect(await player.locator('#roll-difficulty').count()).toBe(1);
    await tabTo(player, '#roll-difficulty');
    await player.keyboard.press('ArrowDown');
    await tabTo(player, '#roll-purpose');
    await player.keyboard.type('Leap the ditch');
    const odds = await player.locator('.odds').textContent();
    expect(odds).toMatch(/Success\d/);
    await tabTo(player, 'button[type="submit"].big');
    await player.keyboard.press('Enter');
    const result = player.locator('section[aria-label="Latest roll"] .verdict');
    await result.waitFor();
    expect(await player.locator('section[aria-label="Latest roll"]').textContent()).toContain('+2 high ground');
    await expect.poll(() => player.locator('#announcer').textContent()).toContain('Ann rolled');
    await shot(player, '10-roller-keyboard');
    expect(await contrastProblems(player)).toEqual([]);
    expect(await labelProblems(player)).toEqual([]);
    // Tabs move with the arrow keys.
    await player.getByRole('tab', { name: 'Roll' }).focus();
    await player.keyboard.press('ArrowRight');
    expect(await player.getByRole('tab', { name: 'Encounter' }).getAttribute('aria-selected')).toBe('true');
  });

  it('the builder works on a 360 px wide screen', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
    const page = await phone.newPage();
    const tap: Wiretap = { frames: [], sent: [], bodies: [], errors: [] };
    watchPage(page, tap);
    await page.goto(`${server.url}/builder`);
    await page.getByRole('heading', { name: /Step 1/ }).waitFor();
    // Nothing wider than the screen: no page scrolling sideways, and nothing sticking out of its box
    // unless it sits in a container that scrolls on its own (the step list, wide tables).
    const fits = () =>
      page.evaluate(`(() => {
        if (document.documentElement.scrollWidth > window.innerWidth + 1) return false;
        const scrolls = (e) => { for (let p = e.parentElement; p; p = p.parentElement) { const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; } return false; };
        for (const e of document.querySelectorAll('main *')) {
          const r = e.getBoundingClientRect();
          if (r.width > 0 && r.right > window.innerWidth + 1 && !scrolls(e)) return false;
        }
        return true;
      })()`);
    expect(await fits()).toBe(true);
    await page.locator('#b-name').fill('Tam');
    await page.locator('#b-concept').fill('Harbour Thief');
    await shot(page, '11-phone-builder-step1');
    await page.getByRole('button', { name: /^Next/ }).click();
    expect(await fits()).toBe(true);
    await page.getByRole('button', { name: /^Next/ }).click();
    await page.getByRole('button', { name: 'Spend the remaining points for me' }).click();
    await expect.poll(() => page.getByText('20 of 20 creation points spent').count()).toBe(1);
    expect(await fits()).toBe(true);
    await shot(page, '12-phone-builder-attributes');
    await page.getByRole('button', { name: /^Next/ }).click();
    await page.getByRole('button', { name: /^Next/ }).click();
    await page.getByRole('button', { name: '+ Add a skill' }).click();
    await page.locator('#b-skill-0-name').fill('Lockpicking');
    expect(await fits()).toBe(true);
    await shot(page, '13-phone-builder-traits');
    await page.getByRole('button', { name: /^Next/ }).click();
    await page.getByRole('button', { name: /^Next/ }).click();
    await page.getByText('Legal character: every creation rule of the table holds.').waitFor();
    expect(await fits()).toBe(true);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save as YAML' }).click();
    expect((await download).suggestedFilename()).toBe('tam.yaml');
    await shot(page, '14-phone-builder-review');
    expect(await contrastProblems(page)).toEqual([]);
    expect(await labelProblems(page)).toEqual([]);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.print-sheet').isVisible()).toBe(true);
    expect(await page.locator('.print-sheet').textContent()).toContain('Harbour Thief');
    await shot(page, '15-printed-sheet');
    // The same player's table on the phone: every section fits the width, the log is a section of its own.
    await page.emulateMedia({ media: 'screen' });
    await page.goto(player.url());
    await page.locator('.status-pill.live').waitFor();
    for (const [tab, name] of [['Roll', '16-phone-table-roll'], ['Encounter', '17-phone-table-encounter'], ['Log', '18-phone-table-log']] as const) {
      await page.getByRole('tab', { name: tab }).click();
      expect(await fits(), tab).toBe(true);
      await shot(page, name);
    }
    expect(await page.locator('#panel-log .log > li').count()).toBeGreaterThan(3);
    expect(tap.errors).toEqual([]);
    await phone.close();
  });

  it('the builder at the table at 1280×800: every step in sight, points spread to every attribute, a weapon added from its skill', async () => {
    const wide = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await wide.newPage();
    await page.goto(player.url());
    await page.locator('.status-pill.live').waitFor();
    await page.getByRole('tab', { name: 'Characters' }).click();
    await page.getByRole('button', { name: 'Build a character' }).click();
    // All seven step tabs lie inside the step list's box: none is cut off at the edge.
    const cut = await page.evaluate(() => {
      const nav = document.querySelector('.builder-steps')!.getBoundingClientRect();
      return [...document.querySelectorAll('.steps button')].filter((b) => {
        const r = b.getBoundingClientRect();
        return r.left < nav.left - 1 || r.right > nav.right + 1 || b.scrollWidth > b.clientWidth + 1;
      }).length;
    });
    expect(cut).toBe(0);
    expect(await page.locator('.steps button').count()).toBe(7);
    // Step 1 and the Limits panel agree on the starting Potential.
    expect(await page.locator('#b-cp-hint').textContent()).toContain('Starting Potential 4 once the points are spent');
    expect(await page.locator('#b-potential').textContent()).toContain('Potential 4 once all 20 creation points are spent');
    await page.locator('#b-name').fill('Wren');
    await page.getByRole('button', { name: /^Next/ }).click();
    await page.getByLabel('Stature: Third').check();
    await page.getByLabel('Knowledge: Handicap').check();
    await page.getByRole('button', { name: /^Next/ }).click();
    await page.getByRole('button', { name: 'Spend the remaining points for me' }).click();
    await expect.poll(() => page.getByText('20 of 20 creation points spent').count()).toBe(1);
    for (const a of ['competence', 'prowess', 'cunning', 'power', 'stature', 'knowledge']) {
      expect(Number(await page.locator(`#b-attr-${a}`).inputValue()), a).toBeGreaterThan(0);
    }
    expect(await page.locator('.attr.bad').count()).toBe(0);
    expect(await page.locator('#b-potential').textContent()).not.toContain('once all');
    await shot(page, '11a-builder-attributes-spread', false);
    await page.getByRole('button', { name: /^Next/ }).click();
    await page.getByRole('button', { name: /^Next/ }).click();
    // The skill's weapon is made right here; it is waiting in step 6 with the skill linked to it.
    await page.getByRole('button', { name: '+ Add a skill' }).click();
    await page.locator('#b-skill-0-name').fill('Spear');
    await page.locator('#b-skill-0-dice').fill('9');
    await page.locator('#b-skill-0-gear').selectOption({ label: 'A new weapon: Spear' });
    expect(await page.locator('#b-skill-0-gear').inputValue()).toBe('w:Spear');
    // The fields of a skill line up: fields side by side have their controls on one edge, even with
    // a hint and a problem under Dice.
    const misaligned = await page
      .locator('.item-list li')
      .first()
      .locator('.field')
      .evaluateAll((fs) => {
        const boxes = fs.map((f) => ({ f: f.getBoundingClientRect(), c: f.querySelector('input, select')!.getBoundingClientRect() }));
        let n = 0;
        for (const x of boxes) for (const y of boxes) if (x !== y && x.f.top < y.f.bottom && y.f.top < x.f.bottom && Math.abs(x.c.top - y.c.top) > 1) n++;
        return n;
      });
    expect(misaligned).toBe(0);
    await shot(page, '11b-builder-skill-weapon', false);
    await page.locator('#b-skill-0-dice').fill('4');
    await page.getByRole('button', { name: /^Next/ }).click();
    expect(await page.locator('#b-gear-0-name').inputValue()).toBe('Spear');
    expect(await page.locator('#b-gear-0-type').inputValue()).toBe('weapon');
    expect(await page.getByText(/Add the missing/).count()).toBe(0);
    await wide.close();
  });

  it('the builder and the roller work offline once loaded: a service worker keeps the app', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    const tap: Wiretap = { frames: [], sent: [], bodies: [], errors: [] };
    watchPage(page, tap);
    await page.goto(`${server.url}/builder`);
    await page.getByRole('heading', { name: /Step 1/ }).waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 10_000 }).toBe(true);
    await ctx.setOffline(true);
    // The network is gone: the page comes back from the service worker's copy, builder and all.
    await page.reload();
    await page.getByRole('heading', { name: /Step 1/ }).waitFor();
    await page.locator('#b-name').fill('Olt');
    await page.getByRole('button', { name: /^Next/ }).click();
    await page.getByRole('heading', { name: /Step 2/ }).waitFor();
    await page.goto(`${server.url}/roller`);
    await page.getByRole('heading', { name: 'Odds and dice roller' }).waitFor();
    await page.getByRole('button', { name: /^Roll/ }).click();
    await page.locator('.result').first().waitFor();
    expect(await page.locator('.result .die').count()).toBeGreaterThan(0);
    await shot(page, '19b-offline-roller', false);
    // Truly offline: a request to the server fails.
    expect(await page.evaluate(() => fetch('/api/health').then(() => 'reached', () => 'failed'))).toBe('failed');
    await ctx.setOffline(false);
    expect(tap.errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
    await ctx.close();
  });

  it('the roll and its result stay in view at 1280×800 and on a phone; the phone marks new log entries', async () => {
    const inView = (p: Page, selector: string) =>
      p.evaluate((s) => {
        const r = document.querySelector(s)!.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.top < window.innerHeight && r.bottom <= window.innerHeight + 1;
      }, selector);
    for (const [width, height, name] of [[1280, 800, 'desk'], [360, 740, 'phone']] as const) {
      const context = await browser.newContext({ viewport: { width, height }, ...(width < 500 ? { isMobile: true, hasTouch: true } : {}) });
      const page = await context.newPage();
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto(player.url());
      await page.locator('.status-pill.live').waitFor();
      await page.getByRole('tab', { name: 'Roll' }).click();
      // The Roll button, with the chance of success on it, is on screen before any scrolling.
      expect(await inView(page, '#panel-play button[type="submit"].big'), `${name}: Roll button`).toBe(true);
      expect(await page.locator('#panel-play button[type="submit"].big').textContent()).toMatch(/to succeed/);
      await page.locator('#panel-play button[type="submit"].big').click();
      await page.locator('section[aria-label="Latest roll"] .verdict').waitFor();
      await expect.poll(() => inView(page, 'section[aria-label="Latest roll"] .verdict'), { message: `${name}: result` }).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Latest roll');
      await shot(page, `23-${name}-roll-result-in-view`, false);
      if (width < 500) {
        const logTab = page.getByRole('tab', { name: /^Log/ });
        expect(await logTab.locator('.unread').count()).toBe(0);
        await gm.getByRole('tab', { name: 'Roll' }).click();
        await gm.locator('#roll-purpose').fill('the gate holds');
        await gm.getByRole('button', { name: /^Roll/ }).click();
        await expect.poll(() => logTab.locator('.unread').textContent()).toBe('1');
        await shot(page, '24-phone-log-unread', false);
        await logTab.click();
        await expect.poll(() => logTab.locator('.unread').count()).toBe(0);
        expect(await page.locator('#panel-log .log > li').first().textContent()).toContain('the gate holds');
      }
      await context.close();
    }
  });

  it('a GM chooses the rules when creating a table and lands on the invite', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByLabel('Table name').fill('Low Tide');
    await page.getByLabel('Your name').fill('Oren');
    await page.getByLabel('Rules').selectOption({ label: 'Personae v4 SRD' });
    await page.getByRole('button', { name: 'Create the table' }).click();
    await page.locator('.status-pill.live').waitFor();
    expect(await page.getByRole('tab', { name: 'Table' }).getAttribute('aria-selected')).toBe('true');
    expect(await inViewport(page, 'Invite link')).toBe(true);
    await expect.poll(() => page.locator('#opt-preset').inputValue()).toBe('srd-v4');
    expect(await page.locator('.side-log .log > li').first().locator('.story').textContent()).toBe('The table plays by Personae v4 SRD.');
    await shot(page, '25-new-table-invite-first', false);
    // Options come by topic, in words; the Apply bar stays on screen while the GM changes one far down.
    await page.locator('summary', { hasText: /^Criticals/ }).click();
    const transfer = page.locator('#opt-criticalsTransferable');
    await transfer.scrollIntoViewIfNeeded();
    expect(await page.locator('label[for="opt-criticalsTransferable"]').textContent()).toContain('Criticals may be given away');
    const was = await transfer.isChecked();
    await transfer.setChecked(!was);
    expect(await page.locator('.apply-bar').textContent()).toContain('1 change not applied yet.');
    expect(await page.locator('.apply-bar button.primary').evaluate((b) => b.getBoundingClientRect().bottom <= window.innerHeight)).toBe(true);
    await shot(page, '25b-options-apply-in-view', false);
    await page.locator('.apply-bar').getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('.apply-bar').textContent()).toContain('The table plays by these options.');
    expect(await page.locator('label[for="opt-criticalsTransferable"] .tag').textContent()).toBe('changed from srd-v4');
    expect(await labelProblems(page)).toEqual([]);
    expect(await contrastProblems(page)).toEqual([]);
    await context.close();
  });

  it('table talk reaches everyone; a whisper reaches the two it is between and never a third frame', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const bobTap = wiretap(context);
    const bob = await context.newPage();
    await bob.goto(inviteLink);
    await bob.getByLabel('Your name').fill('Bob');
    await bob.getByRole('button', { name: 'Join' }).click();
    await bob.locator('.status-pill.live').waitFor();

    await player.locator('#talk-side-text').fill('Shall we rest by the fire?');
    await player.getByRole('button', { name: 'Send' }).click();
    for (const p of [gm, bob]) await p.locator('.side-log .log > li.said-entry', { hasText: 'Shall we rest by the fire?' }).waitFor();
    expect(await bob.locator('.side-log .log > li.said-entry').first().textContent()).toContain('Ann: Shall we rest by the fire?');

    await player.locator('#talk-side-to').selectOption({ label: 'The GM (whisper)' });
    await player.locator('#talk-side-text').fill('I pocket the silver key');
    await player.getByRole('button', { name: 'Whisper' }).click();
    const toGm = gm.locator('.side-log .log > li.whisper-entry', { hasText: 'I pocket the silver key' });
    await toGm.waitFor();
    expect(await toGm.textContent()).toContain('Ann to the GM: I pocket the silver key');

    await gm.locator('#talk-side-to').selectOption({ label: 'Ann (whisper)' });
    await gm.locator('#talk-side-text').fill('The key is warm to the touch');
    await gm.getByRole('button', { name: 'Whisper' }).click();
    await player.locator('.side-log .log > li.whisper-entry', { hasText: 'The key is warm to the touch' }).waitFor();
    await shot(player, '26-player-whispers', false);
    await shot(gm, '27-gm-whispers', false);

    // Bob heard the words said aloud and neither whisper: not on screen, not in any frame or response.
    await bob.locator('.side-log .log > li.said-entry', { hasText: 'Shall we rest' }).waitFor();
    await bob.reload();
    await bob.locator('.status-pill.live').waitFor();
    const bobReceived = [...bobTap.frames, ...bobTap.bodies].join('\n');
    expect(bobReceived).toContain('Shall we rest by the fire?');
    for (const secret of ['I pocket the silver key', 'The key is warm to the touch']) {
      expect(bobReceived, secret).not.toContain(secret);
      expect(await bob.locator('body').textContent()).not.toContain(secret);
    }
    expect(await labelProblems(gm)).toEqual([]);
    expect(await contrastProblems(player)).toEqual([]);
    expect(bobTap.errors).toEqual([]);
    await context.close();
  });

  it('the log downloads as Markdown; the GM downloads a backup and continues the table from it', async () => {
    await gm.getByRole('tab', { name: 'Table' }).click();
    const mdDownload = gm.waitForEvent('download');
    await gm.getByRole('button', { name: 'Download the log (Markdown)' }).click();
    const md = await mdDownload;
    expect(md.suggestedFilename()).toMatch(/^the-salt-road-\d{4}-\d{2}-\d{2}-log\.md$/);
    const text = readFileSync((await md.path())!, 'utf8');
    expect(text).toMatch(/^# The Salt Road\n/);
    expect(text).toContain('**Ann** to the GM (whisper)');
    expect(text).toContain('> I pocket the silver key');
    expect(text).toContain('(physical dice)');
    expect(text).toContain('How it was decided');

    await player.getByRole('tab', { name: 'Table' }).click();
    const playerMd = player.waitForEvent('download');
    await player.getByRole('button', { name: 'Download the log (Markdown)' }).click();
    const playerText = readFileSync((await (await playerMd).path())!, 'utf8');
    expect(playerText).not.toContain('the secret plan');
    expect(playerText).not.toContain('Ambush Captain');

    const backupDownload = gm.waitForEvent('download');
    await gm.getByRole('button', { name: 'Download a backup of the table' }).click();
    const backup = await backupDownload;
    expect(backup.suggestedFilename()).toMatch(/^the-salt-road-\d{4}-\d{2}-\d{2}-backup\.json$/);
    const file = tmp(backup.suggestedFilename());
    await backup.saveAs(file);
    const entries = await gm.locator('.side-log').getByText(/^\d+ entries$/).first().textContent();

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.locator('#restore-file').setInputFiles(file);
    await page.locator('.status-pill.live').waitFor();
    expect(page.url()).toMatch(/\/table\/t_[\w-]+#token=gm_/);
    expect(await page.locator('.topbar').textContent()).toContain('The Salt Road');
    await expect.poll(() => page.locator('.side-log').getByText(/^\d+ entries$/).first().textContent()).toBe(entries);
    await page.goto(server.url);
    await page.locator('#restore-file').setInputFiles(GRASK);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('grask.yaml is not a table backup');
    await context.close();
  });

  it('no page reported an error', () => {
    // Connections turned away while the server was down are expected; nothing else is. The harness's
    // front port stays open then and closes each such connection at once, which Chromium reports as a
    // reset or a socket not connected: no more of those than connections it turned away.
    const down = /WebSocket connection to .* failed: .*(ERR_CONNECTION_RESET|ERR_SOCKET_NOT_CONNECTED)/;
    const errors = [...gmTap.errors, ...playerTap.errors];
    expect(errors.filter((e) => !down.test(e))).toEqual([]);
    expect(errors.filter((e) => down.test(e)).length).toBeLessThanOrEqual(server.turnedAway);
  });

  it('the GM adds a hidden character out of the scene: the player receives nothing of it until the GM brings it in', async () => {
    const sheet = readFileSync(GRASK, 'utf8').replace(/^name: .*$/m, 'name: Vessa Quill');
    await gm.getByRole('tab', { name: 'Characters' }).click();
    await gm.getByRole('button', { name: 'Build a character' }).click();
    await gm.locator('#b-import').setInputFiles({ name: 'vessa.yaml', mimeType: 'text/yaml', buffer: Buffer.from(sheet) });
    await gm.getByText('Opened Vessa Quill from vessa.yaml').waitFor();
    await gm.getByLabel(/Out of the scene/).check();
    const from = playerTap.frames.length;
    await gm.getByRole('button', { name: 'Add to the table' }).click();
    await gm.getByText('Vessa Quill joined the table.').waitFor();
    await gm.getByRole('button', { name: 'Close the builder' }).click();
    const card = gm.locator('.char-card', { has: gm.getByRole('heading', { name: 'Vessa Quill', exact: true }) });
    await card.waitFor();
    await player.getByRole('tab', { name: 'Characters' }).click();
    await player.waitForTimeout(500);
    expect(playerTap.frames.slice(from).join('\n')).not.toContain('Vessa');
    expect(await player.locator('body').textContent()).not.toContain('Vessa');
    await card.getByRole('button', { name: 'Bring into the scene' }).click();
    await expect.poll(() => player.locator('body').textContent()).toContain('Vessa Quill');
    expect(playerTap.frames.slice(from).join('\n')).toContain('Vessa Quill');
    expect(await card.getByRole('button', { name: 'Bring into the scene' }).count()).toBe(0);
  });
});
