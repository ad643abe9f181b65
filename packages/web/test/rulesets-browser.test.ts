import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import '@personae/rules';
import '@personae/d100';
import '@personae/lucidity';
import { browserAvailable, browserSuite, shot, type Wiretap } from './harness';

// The d100 and Lucidity tables in real Chromium against the real table server hosting every
// registered ruleset: the GM creates the table, a player joins and builds a character with live
// checks, the GM runs an encounter round; a player's frames never carry a hidden GM character.

const run = browserAvailable() || process.env.CI ? describe : describe.skip;

/** The GM ends the turns before `name`'s (at most four), until the player's page shows it in `turn`. */
async function gmEndsTurnsUntil(gm: Page, player: Page, turn: string, name: string): Promise<void> {
  for (let i = 0; i < 4 && !((await gm.locator(turn).textContent()) ?? '').includes(`${name}'s turn`); i++) {
    const before = await gm.locator(turn).textContent();
    await gm.getByRole('button', { name: 'End the turn' }).click();
    await expect.poll(() => gm.locator(turn).textContent()).not.toBe(before);
  }
  await player.locator(turn, { hasText: `${name}'s turn` }).waitFor();
}

run('d100 and Lucidity tables in Chromium', () => {
  const suite = browserSuite();
  const page = () => suite.page();

  /** The GM creates a table of `ruleset`; returns the GM's page and the invite link. */
  async function createTable(ruleset: string, name: string): Promise<{ gm: Page; invite: string }> {
    const { page: gm } = await page();
    await gm.goto(suite.url());
    await gm.getByLabel('Table name').fill(name);
    await gm.getByLabel('Your name').fill('Mara');
    await gm.locator('#table-ruleset').selectOption(ruleset);
    await gm.getByRole('button', { name: 'Create the table' }).click();
    await gm.locator('.status-pill.live').waitFor();
    await gm.locator(`[data-ruleset="${ruleset}"]`).waitFor();
    const invite = await gm.getByLabel('Invite link').inputValue();
    expect(invite).toMatch(/\/join\/t_[\w-]+#invite=in_/);
    return { gm, invite };
  }

  async function joinTable(invite: string, who: string): Promise<{ player: Page; tap: Wiretap }> {
    const { page: player, tap } = await page();
    await player.goto(invite);
    await player.getByLabel('Your name').fill(who);
    await player.getByRole('button', { name: 'Join' }).click();
    await player.locator('.status-pill.live').waitFor();
    return { player, tap };
  }

  it('Lucidity: a player builds a character with live checks, the GM adds a hidden foe and runs a round with odds and an exploit ruling', async () => {
    const { gm, invite } = await createTable('lucidity', 'Moonlit Ford');
    const { player, tap } = await joinTable(invite, 'Ann');

    await player.getByRole('button', { name: 'Build a character' }).click();
    await player.locator('#lb-name').fill('Ilse Varn');
    // Rolled scores: 4d6 with the lowest dropped, seven times, each shown with its dice and put on its attribute.
    await player.locator('#lb-method').selectOption('rolled');
    await player.getByRole('button', { name: 'Roll 4d6, lowest dropped, 7 times' }).click();
    const rolledText = (await player.locator('#lb-rolled').textContent()) ?? '';
    const str = /^STR (\d)\+(\d)\+(\d)\+(\d) - (\d) = (\d+);/.exec(rolledText);
    expect(str).not.toBeNull();
    const [d1, d2, d3, d4, low, score] = str!.slice(1).map(Number) as [number, number, number, number, number, number];
    expect(low).toBe(Math.min(d1, d2, d3, d4));
    expect(score).toBe(d1 + d2 + d3 + d4 - low);
    expect(await player.locator('#lb-attr-STR').inputValue()).toBe(String(score));
    await player.locator('#lb-method').selectOption('standard-array');
    // The standard array given twice at +2 is not the array: the ruleset's check says so, naming the rule's values.
    await player.locator('#lb-attr-CHA').selectOption('2');
    await expect.poll(() => player.locator('#lb-attributes-err').textContent()).toContain('are not the standard array 2, 1, 1, 1, 0, 0, -1');
    await expect.poll(() => player.locator('#lb-derived').textContent()).toMatch(/problem/);
    await shot(player, 'lucidity-01-builder-illegal');
    await player.locator('#lb-attr-CHA').selectOption('-1');
    for (const [i, t] of ['Impaler', 'Hunk', 'Fast Healer'].entries()) await player.locator(`#lb-trait-${i}`).selectOption(t);
    await player.getByRole('button', { name: '+ Add a skill' }).click();
    await player.locator('#lb-skill-0-name').fill('Swords');
    await player.locator('#lb-skill-0-rank').fill('3');
    await player.locator('#lb-weapon-skill').fill('Swords');
    // Level 1, CON +1, WIL 0, STR +2, DEX +1, AWA 0, Hunk: maxLucidity 1 + 13 = 14, maxHealth CON + 6 = 7, maxEnergy WIL + 6 = 6,
    // item slots 18 + 2 + (1 + 1) = 22, designated items 2 + 1 = 3, defense 10 + 1 + 0 = 11.
    await expect.poll(() => player.locator('#lb-derived').textContent()).toBe('maxLucidity 14 · maxHealth 7 · maxEnergy 6 · itemSlots 22 (1 used) · designatedItems 3 · defense 11');
    await shot(player, 'lucidity-02-builder-legal');
    await player.getByRole('button', { name: 'Add the character' }).click();
    await player.locator('#lu-characters [aria-label="Ilse Varn"]').waitFor();
    await gm.locator('#lu-characters [aria-label="Ilse Varn"]').waitFor();

    // The GM adds a visible foe and a hidden one.
    await gm.locator('#lu-foe').fill(JSON.stringify({ name: 'Bandit', attributes: { AWA: -3 }, defense: 11, protection: 1, health: 12, weapons: [{ name: 'Club', damage: '1d6' }] }));
    await gm.getByRole('button', { name: 'Add the foe' }).click();
    await gm.locator('#lu-characters [aria-label="Bandit"]').waitFor();
    await gm.locator('#lu-foe').fill(JSON.stringify({ name: 'Marsh Lurker', hidden: true, attributes: { AWA: -3 }, health: 7, weapons: [{ name: 'Lurker Fang', damage: '1d4' }] }));
    await gm.getByRole('button', { name: 'Add the foe' }).click();
    await gm.locator('#lu-characters [aria-label="Marsh Lurker"]').waitFor();
    await gm.getByRole('button', { name: 'Roll initiative and start' }).click();
    await gm.locator('#lu-turn', { hasText: 'Round 1' }).waitFor();

    // Until it is Ilse's turn the GM ends the other turns.
    await gmEndsTurnsUntil(gm, player, '#lu-turn', 'Ilse Varn');
    await player.locator('#lu-target').selectOption({ label: 'Bandit' });
    // The Bandit's Defense is not shown to the player: no odds are guessed for that attack.
    await expect.poll(() => player.locator('#lu-attack-odds').textContent()).toContain("the GM's to know");
    // The GM knows the Bandit's Defense: the attack's odds come with and without each choice; the player gets no list.
    await gm.locator('#lu-target').selectOption({ label: 'Bandit' });
    await expect.poll(() => gm.locator('#lu-attack-choices').textContent()).toMatch(/with one more buff: hit [\d.]+%, expected damage [\d.]+/);
    expect(await player.locator('#lu-attack-choices').count()).toBe(0);
    // The GM compares the rule sets for that attack on one chart; the player, not shown the Defense, is offered none.
    await gm.locator('#lu-compare-view').selectOption('damage-at-least');
    await gm.locator('#lu-compare rect[data-rules="as-written"]').first().waitFor();
    expect(await player.locator('#lu-compare-view').count()).toBe(0);
    // A roll of STR + Swords against 12 with one buff: exact odds from the ruleset.
    await player.locator('#lu-buffs').fill('1');
    await player.locator('#lu-roll-skill').selectOption('Swords');
    await expect.poll(() => player.locator('#lu-roll-odds').textContent()).toMatch(/d20 \+ STR \+ rank: [\d.]+%/);
    // d20 + 5 + highest of one d6 beats 12 when d20 + d6 >= 8 (option successOn default "exceed": > 12, so d20 + d6 >= 8):
    // P = 1 - P(d20 + d6 <= 7) = 1 - 21/120 = 82.5%.
    expect(await player.locator('#lu-roll-odds').textContent()).toContain('82.5%');
    await shot(player, 'lucidity-03-odds');
    await player.getByRole('button', { name: 'Roll (1 action)' }).click();
    await player.locator('[aria-label="Ilse Varn"] .actions', { hasText: 'Actions left 1' }).waitFor();

    // Physical dice: no box to type them in while the GM does not let players enter them; once allowed,
    // the player's own d20 and buff d6 are taken, and a typing mistake is named before anything is sent.
    const physical = gm.getByLabel('Players may enter the results of physical dice');
    await physical.uncheck();
    await player.locator('#lu-dice-d20').waitFor({ state: 'detached' });
    await physical.check();
    await player.locator('#lu-dice-d20').waitFor();
    await player.locator('#lu-dice-d20').fill('25');
    await player.getByRole('button', { name: 'Roll (1 action)' }).click();
    await expect.poll(() => player.locator('#lu-act-err').textContent()).toContain('d20: "25" is not a d20 result (1 to 20)');
    await player.locator('#lu-dice-d20').fill('3');
    await player.locator('#lu-dice-d6').fill('4');
    // d20 3 + STR 2 + Swords 3 + the buff d6 4 = 12, which does not exceed 12: a failure, with the dice typed in
    // (counted before and after, as the earlier roll from the server's dice may have drawn the same).
    const typedRoll = player.locator('.rs-log li', { hasText: /d20 3 \+2 STR \+3 Swords \+4 buff d6 .*= 12 against 12: failure/ });
    const before = await typedRoll.count();
    await player.getByRole('button', { name: 'Roll (1 action)' }).click();
    await player.locator('[aria-label="Ilse Varn"] .actions', { hasText: 'Actions left 0' }).waitFor();
    await expect.poll(() => typedRoll.count()).toBe(before + 1);

    // The GM records an exploit as a ruling; everyone reads it in the log.
    await gm.locator('#lu-ex-actor').selectOption({ label: 'Ilse Varn' });
    await gm.locator('#lu-ex-target').selectOption({ label: 'Bandit' });
    await gm.locator('#lu-ex-ruling').fill('the Bandit drops his club');
    await gm.getByRole('button', { name: 'Record the ruling' }).click();
    await player.locator('.rs-log li.ruling', { hasText: 'GM ruling, minor exploit by Ilse Varn on Bandit: it happens: the Bandit drops his club' }).waitFor();
    await player.getByRole('button', { name: 'End the turn' }).click();
    await gm.locator('#lu-turn', { hasText: /Round (1|2)/ }).waitFor();
    await shot(gm, 'lucidity-04-gm');
    await shot(player, 'lucidity-05-player');

    // The GM hands the Bandit to Ann: from then on she sees its tracks and may command it.
    expect(await player.locator('#lu-characters [aria-label="Bandit"]').textContent()).not.toContain('Health');
    await gm.locator('#lu-hand-who').selectOption({ label: 'Bandit' });
    await gm.locator('#lu-hand-to').selectOption({ label: 'Ann' });
    await gm.getByRole('button', { name: 'Hand over' }).click();
    await player.locator('#lu-characters [aria-label="Bandit"]', { hasText: 'Health 12/12' }).waitFor();
    await player.locator('.rs-log li', { hasText: 'the GM hands Bandit to Ann' }).waitFor();
    // The GM's Undo names the version it was pressed on (the server refuses one that does not) and takes the hand-over back.
    await gm.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => player.locator('#lu-characters [aria-label="Bandit"]').textContent()).not.toContain('Health');

    const received = [...tap.frames, ...tap.bodies].join('\n');
    expect(received).toContain('Ilse Varn');
    expect(received).toContain('Bandit');
    for (const secret of ['Marsh Lurker', 'Lurker Fang']) expect(received).not.toContain(secret);
    expect(await player.locator('text=Marsh Lurker').count()).toBe(0);
    expect(tap.errors).toEqual([]);
  }, 240_000);

  it('d100: a player builds a character with live checks, the GM runs a round: initiative, turns, odds before rolling, One More chain, a hidden Shadow redacted', async () => {
    const { gm, invite } = await createTable('d100', 'Tartarus Floor 3');
    const { player, tap } = await joinTable(invite, 'Ken');

    await player.getByRole('button', { name: 'Build a character' }).click();
    await player.locator('#d1b-name').fill('Junpei');
    await player.locator('#d1b-score-toughness').fill('40');
    await player.locator('#d1b-score-melee').fill('55');
    await player.locator('#d1b-realisation').fill('25');
    // More Fate Points than the pool: refused by the ruleset's check, naming the field, the value and the rule's numbers.
    await player.locator('#d1b-fate').fill('5');
    await expect.poll(() => player.locator('#d1b-fate-err').textContent()).toContain('fatePoints: 5 is more than the pool, the Realisation Bonus (2 for Realisation 25)');
    await shot(player, 'd100-01-builder-illegal');
    await player.locator('#d1b-fate').fill('2');
    await expect.poll(() => player.locator('#d1b-fate-err').count()).toBe(0);
    await player.locator('#d1b-arcana').fill('7');
    await player.locator('#d1b-weapon-0-name').fill('Bat');
    await player.locator('#d1b-weapon-0-damage').fill('6');
    // Toughness 40: TB 4; the derived values come from the ruleset.
    await expect.poll(() => player.locator('#d1b-derived').textContent()).toContain('Fate Points 2');
    // Evoker Rank 1 (an Evoker's default): Spirit = Magic Bonus 3, Exertion = the best physical Bonus 5 (Melee 55).
    await expect.poll(() => player.locator('#d1b-derived').textContent()).toContain('Spirit 3, Exertion 5');
    await shot(player, 'd100-02-builder-legal');
    await player.getByRole('button', { name: 'Add the character' }).click();
    await player.locator('#d1-characters [aria-label="Junpei"]').waitFor();

    // The GM builds a visible Shadow and a hidden one.
    for (const [n, hidden] of [['Maya', false], ['Secret Gigas', true]] as const) {
      await gm.getByRole('button', { name: 'Build a character' }).click();
      await gm.locator('#d1b-name').fill(n);
      await gm.locator('#d1b-kind').selectOption('shadow');
      await gm.locator('#d1b-side').fill('shadows');
      if (hidden) await gm.locator('#d1b-hidden').check();
      if (hidden) await gm.locator('#d1b-flight').check();
      await gm.locator('#d1b-aff-fire').selectOption('weak');
      await gm.locator('#d1b-weapon-0-name').fill(hidden ? 'Gigas Maul' : 'Claw');
      await gm.getByRole('button', { name: 'Add the character' }).click();
      await gm.locator(`#d1-characters [aria-label="${n}"]`).waitFor();
    }
    await gm.getByRole('button', { name: 'Roll initiative and start' }).click();
    await gm.locator('#d1-turn', { hasText: 'Round 1' }).waitFor();
    await gm.locator('#d1-order').waitFor();

    // The GM puts Junpei and Maya side by side on the map: the cards show them Engaged in Melee.
    for (const [who, x] of [['Junpei', 0], ['Maya', 1]] as const) {
      await gm.locator('#d1-ail-target').selectOption({ label: who });
      await gm.locator('#d1-place-x').fill(String(x));
      await gm.locator('#d1-place-y').fill('0');
      await gm.getByRole('button', { name: 'Place', exact: true }).click();
      await gm.locator('.rs-log li', { hasText: `${who} stands at (${x}, 0)` }).waitFor();
    }
    await expect.poll(() => player.locator('[aria-label="Junpei"] .position').textContent()).toContain('Engaged in Melee with Maya');
    // Difficult Terrain ("Difficult Terrain"): the GM puts Maya on Damaging ground, number 2, damage 3; the player's card shows it.
    await gm.locator('#d1-ail-target').selectOption({ label: 'Maya' });
    await gm.locator('#d1-dtn').selectOption('2');
    await gm.locator('#d1-terrain-kind').selectOption('damaging');
    await gm.locator('#d1-terrain-damage').fill('3');
    await gm.getByRole('button', { name: 'Set terrain' }).click();
    await expect.poll(() => player.locator('[aria-label="Maya"] .conditions').textContent()).toContain('Damaging terrain 2 (damage 3)');
    // Flight (the passage after "Difficult Terrain"): the hidden Shadow, which flies, is placed flying High; the GM's card says so.
    await gm.locator('#d1-ail-target').selectOption({ label: 'Secret Gigas' });
    await gm.locator('#d1-place-band').selectOption('high');
    await gm.getByRole('button', { name: 'Place', exact: true }).click();
    await expect.poll(() => gm.locator('[aria-label="Secret Gigas"] .conditions').textContent()).toContain('flying High');
    await gm.getByRole('button', { name: 'Secret Gigas starts to fall' }).click();
    await expect.poll(() => gm.locator('[aria-label="Secret Gigas"] .conditions').textContent()).toContain('falling (from High)');
    // Spirit and Exertion from the Evoker Rank (1): Magic Bonus 3, best physical Bonus 5 (Melee 55).
    expect(await player.locator('[aria-label="Junpei"] .resources').textContent()).toContain('Spirit 3/3 · Exertion 5/5');

    await gmEndsTurnsUntil(gm, player, '#d1-turn', 'Junpei');
    // "Analysing Targets, Disrupting Targets and Tricks": Maya's affinities, wounds and Scores reach the
    // player only once Junpei (Arcana Level 7) makes an Advanced Analyse of her; the GM sees them all along.
    expect(await gm.locator('[aria-label="Maya"] .affinities').textContent()).toContain('fire weak');
    expect(await player.locator('[aria-label="Maya"] .affinities').textContent()).toContain('not known');
    expect([...tap.frames, ...tap.bodies].join('\n')).not.toContain('"fire":"weak"');
    await player.locator('#d1-act-target').selectOption({ label: 'Maya' });
    expect(await player.locator('[aria-label="Maya"] .wounds').textContent()).toContain('not known');
    await expect.poll(() => player.locator('#d1-odds').textContent()).toContain("No odds: Maya's Evasion is not known until it is Analysed");
    await player.getByRole('button', { name: 'Advanced Analyse' }).click();
    await expect.poll(() => player.locator('[aria-label="Maya"] .affinities').textContent()).toContain('fire weak');
    await player.locator('.rs-log li', { hasText: 'Junpei makes an Advanced Analyse of Maya' }).waitFor();
    expect(await player.locator('[aria-label="Maya"] .wounds').textContent()).toMatch(/Light \d+\/\d+/);
    // Advanced Analyse Target took Junpei's Action ("Structured Time"): he attacks on his next turn. The card shows what is left.
    await expect.poll(() => player.locator('[aria-label="Junpei"] .economy').textContent()).toBe('This turn: Action spent on Advanced Analyse Target · Move left');
    await player.getByRole('button', { name: 'End the turn' }).click();
    await gm.locator('.rs-log li', { hasText: 'Junpei ends the turn' }).waitFor();
    await gmEndsTurnsUntil(gm, player, '#d1-turn', 'Junpei');
    // Exact odds before rolling, from the player's own view.
    await expect.poll(() => player.locator('#d1-odds').textContent()).toMatch(/Before rolling: hit [\d.]+%/);
    // With and without each choice, worked out the same way: one more Advantage is offered with its chance.
    await expect.poll(() => player.locator('#d1-odds-choices').textContent()).toMatch(/with one more Advantage: hit [\d.]+%/);
    // The same attack under each preset on one chart, here as the chance of at least k wounds.
    await player.locator('#d1-compare-view').selectOption('wounds-at-least');
    await player.locator('#d1-compare rect[data-rules="ffg-margin"]').first().waitFor();
    expect(await player.locator('#d1-compare').getAttribute('aria-label')).toMatch(/^Chance the target loses at least this many wounds: 1\+: this table \(seed\) [\d.]+%/);
    await shot(player, 'd100-03-odds');
    // Physical dice in named pools: the player types in Junpei's attack roll and location, never Maya's
    // evasion, which the GM may type in and the server otherwise rolls. No box while the table takes none from players.
    const physical = gm.getByLabel('Players may enter the results of physical dice');
    await physical.uncheck();
    await player.locator('#d1-dice-attack').waitFor({ state: 'detached' });
    await physical.check();
    await player.locator('#d1-dice-attack').waitFor();
    expect(await player.locator('#d1-dice-location').count()).toBe(1);
    expect(await player.locator('#d1-dice-evasion').count()).toBe(0);
    expect(await gm.locator('#d1-dice-evasion').count()).toBe(1);
    expect(await player.getByLabel("Junpei's attack roll (d100)").count()).toBe(1);
    // A typing mistake is named before anything is sent.
    await player.locator('#d1-dice-attack').fill('12 x');
    await player.getByRole('button', { name: 'Attack Maya' }).click();
    await expect.poll(() => player.locator('#d1-attack-err').textContent()).toContain('Junpei\'s attack roll (d100): dice: "x" is not a d100 result');
    await player.locator('#d1-dice-attack').fill('12');
    await player.locator('#d1-dice-location').fill('45');
    await player.getByRole('button', { name: 'Attack Maya' }).click();
    // The log shows the typed attack roll, and the server's evasion roll beside it.
    await player.locator('.rs-log li', { hasText: /Junpei attacks Maya: roll 12, evasion \d+/ }).waitFor();
    expect(await player.locator('#d1-dice-attack').inputValue()).toBe('');
    await expect.poll(() => player.locator('[aria-label="Junpei"] .economy').textContent()).toMatch(/^This turn: Action spent on Standard Attack · Move left/);
    await player.locator('#d1-chain').waitFor();
    await player.getByRole('button', { name: 'End the turn' }).click();
    await expect.poll(() => gm.locator('.rs-log li', { hasText: 'Junpei ends the turn' }).count()).toBe(2);
    // Wound tracks per character on the GM's screen.
    expect(await gm.locator('[aria-label="Maya"] .wounds').textContent()).toMatch(/Light \d+\/\d+/);
    await shot(gm, 'd100-04-gm');
    await shot(player, 'd100-05-player');
    // The GM's Undo names the version it was pressed on (the server refuses one that does not) and takes the end of the turn back.
    await gm.getByRole('button', { name: 'Undo the last action' }).click();
    await expect.poll(() => gm.locator('.rs-log li', { hasText: 'Junpei ends the turn' }).count()).toBe(1);

    const received = [...tap.frames, ...tap.bodies].join('\n');
    expect(received).toContain('Maya');
    for (const secret of ['Secret Gigas', 'Gigas Maul']) expect(received).not.toContain(secret);
    expect(tap.errors).toEqual([]);
  }, 240_000);
  it('d100: the GM types in an attack with every pool, the Stagger earns a One More, the All-Out Attack is launched with each participant\'s die, an ailment and the wound tracks show', async () => {
    const { gm, invite } = await createTable('d100', 'Velvet Room');
    const { player, tap } = await joinTable(invite, 'Ken');
    // The GM builds two allies and a Shadow weak to Fire; Aki acts first (Agility 50).
    const build = async (name: string, agility: string, weapon: [string, string, string], shadow = false) => {
      await gm.getByRole('button', { name: 'Build a character' }).click();
      await gm.locator('#d1b-name').fill(name);
      if (shadow) {
        await gm.locator('#d1b-kind').selectOption('shadow');
        await gm.locator('#d1b-side').fill('shadows');
        await gm.locator('#d1b-aff-fire').selectOption('weak');
      }
      await gm.locator('#d1b-score-agility').fill(agility);
      await gm.locator('#d1b-weapon-0-name').fill(weapon[0]);
      await gm.locator('#d1b-weapon-0-class').selectOption(weapon[1]);
      await gm.locator('#d1b-weapon-0-element').selectOption(weapon[2]);
      await gm.getByRole('button', { name: 'Add the character' }).click();
      await gm.locator(`#d1-characters [aria-label="${name}"]`).waitFor();
    };
    await build('Aki', '50', ['Agi', 'magic', 'fire']);
    await build('Bo', '40', ['Bat', 'melee', 'melee']);
    await build('Maya', '10', ['Claw', 'melee', 'melee'], true);
    await gm.getByRole('button', { name: 'Roll initiative and start' }).click();
    await gm.locator('#d1-turn', { hasText: "Aki's turn" }).waitFor();
    await player.locator('#d1-order', { hasText: 'Maya' }).waitFor();

    // The GM fills every pool of Aki's attack: Magic 40 rolls 30, Maya's evasion 90 fails, the body (50).
    // A hit on Maya's Fire weakness Staggers her ("One More"): Aki gains a One More.
    await gm.locator('#d1-dice-attack').fill('30');
    await gm.locator('#d1-dice-evasion').fill('90');
    await gm.locator('#d1-dice-location').fill('50');
    await gm.getByRole('button', { name: 'Attack Maya' }).click();
    await player.locator('.rs-log li', { hasText: /Aki attacks Maya: roll 30, evasion 90: hit to the body.*Staggered: One More/ }).waitFor();
    await expect.poll(() => player.locator('#d1-chain').textContent()).toContain('Aki holds it');
    expect(await gm.locator('#d1-aoa-ready').textContent()).toBe('All-Out Attack ready: every enemy is Staggered.');
    await expect.poll(() => gm.locator('[aria-label="Aki"] .economy').textContent()).toBe('This turn: Action spent on Standard Attack · Move left · one more Move or Action (One More)');
    // Wound tracks per character: the GM sees Maya's; the player sees the party's, and Maya's only after an
    // Advanced Analyse Target (option detailsReveal).
    expect(await gm.locator('[aria-label="Maya"] .wounds').textContent()).toMatch(/Light \d+\/\d+ · Heavy \d+\/\d+ · Deadly \d+\/\d+/);
    expect(await player.locator('[aria-label="Aki"] .wounds').textContent()).toMatch(/Light \d+\/\d+ · Heavy \d+\/\d+ · Deadly \d+\/\d+/);
    expect(await player.locator('[aria-label="Maya"] .wounds').textContent()).toContain('not known (Advanced Analyse Target reveals them)');

    // "All Out Attack": Bo joins; each participant's roll is its own pool, typed in by the GM.
    await gm.getByLabel('Bo joins').check();
    await gm.getByLabel("Aki's All Out Attack roll (d100)").fill('20');
    await gm.getByLabel("Bo's All Out Attack roll (d100)").fill('25');
    await gm.getByRole('button', { name: 'Launch the All-Out Attack' }).click();
    await player.locator('.rs-log li', { hasText: /All-Out Attack by Aki \(20 vs \d+\), Bo \(25 vs \d+\)/ }).waitFor();
    await expect.poll(() => player.locator('#d1-chain').textContent()).toBe('No One More is held.');

    // An ailment inflicted by the GM shows on every card with its duration.
    await gm.locator('#d1-ail-target').selectOption({ label: 'Bo' });
    await gm.locator('#d1-ail').selectOption('burning');
    await gm.getByRole('button', { name: 'Inflict' }).click();
    await expect.poll(() => player.locator('[aria-label="Bo"] .ailments').textContent()).toContain('Burning');
    await shot(gm, 'd100-06-all-out-attack');
    expect(tap.errors).toEqual([]);
  }, 240_000);

  it('d100: the builder takes a Pistol\'s clip, reload and spare loads and a size; the card counts the shots; the GM scatters the attack, Reload is begun, an ailment is resisted with its die typed in', async () => {
    const { gm } = await createTable('d100', 'Gekkoukan Roof');
    await gm.getByRole('button', { name: 'Build a character' }).click();
    await gm.locator('#d1b-name').fill('Aigis');
    await gm.locator('#d1b-score-agility').fill('50');
    await gm.locator('#d1b-weapon-0-name').fill('Pistol');
    await gm.locator('#d1b-weapon-0-class').selectOption('pistol');
    await gm.locator('#d1b-weapon-0-element').selectOption('missile');
    // a Reload count without a clip is named beside the clip, by the sheet check's own words
    await gm.locator('#d1b-weapon-0-reload').fill('2');
    await expect.poll(() => gm.locator('#d1b-weapon-0-clip-err').textContent()).toContain('gives a reload or spare loads but no clip');
    await gm.locator('#d1b-weapon-0-clip').fill('1');
    await gm.locator('#d1b-weapon-0-spare').fill('1');
    await gm.locator('#d1b-weapon-0-range').fill('30');
    await gm.getByRole('button', { name: 'Add the character' }).click();
    await gm.locator('#d1-characters [aria-label="Aigis"]').waitFor();
    await gm.getByRole('button', { name: 'Build a character' }).click();
    await gm.locator('#d1b-name').fill('Maya');
    await gm.locator('#d1b-kind').selectOption('shadow');
    await gm.locator('#d1b-side').fill('shadows');
    await gm.locator('#d1b-score-agility').fill('10');
    await gm.locator('#d1b-size').fill('1');
    await gm.getByRole('button', { name: 'Add the character' }).click();
    await gm.locator('#d1-characters [aria-label="Maya"]').waitFor();
    expect(await gm.locator('[aria-label="Aigis"] .ammunition').textContent()).toBe('Loaded: Pistol 1/1 shots, 1 spare load');
    await gm.getByRole('button', { name: 'Roll initiative and start' }).click();
    await gm.locator('#d1-turn', { hasText: "Aigis's turn" }).waitFor();

    // the one shot is fired; the GM rules that it scatters, once
    await gm.locator('#d1-dice-attack').fill('30');
    await gm.locator('#d1-dice-evasion').fill('90');
    await gm.locator('#d1-dice-location').fill('50');
    await gm.getByRole('button', { name: 'Attack Maya' }).click();
    await expect.poll(() => gm.locator('[aria-label="Aigis"] .ammunition').textContent()).toBe('Loaded: Pistol 0/1 shots, 1 spare load');
    await gm.getByRole('button', { name: 'Scatter the attack' }).click();
    await gm.locator('.rs-log li', { hasText: "Aigis's attack on Maya scatters" }).waitFor();
    expect(await gm.getByRole('button', { name: 'Scatter the attack' }).count()).toBe(0);

    // the next round: the first of the Reload's two Actions
    await gmEndsTurnsUntil(gm, gm, '#d1-turn', 'Maya');
    await gmEndsTurnsUntil(gm, gm, '#d1-turn', 'Aigis');
    await gm.getByRole('button', { name: 'Reload Pistol' }).click();
    await expect.poll(() => gm.locator('[aria-label="Aigis"] .ammunition').textContent()).toBe('Loaded: Pistol 0/1 shots, 1 spare load, reloading (1 Action left)');

    // Maya may resist Burning: her die is typed in (5, resisted)
    await gm.locator('#d1-ail-target').selectOption({ label: 'Maya' });
    await gm.locator('#d1-ail').selectOption('burning');
    await gm.locator('#d1-ail-resist').check();
    await gm.getByLabel("Maya's test to resist the ailment (d100)").fill('5');
    await gm.getByRole('button', { name: 'Inflict' }).click();
    await gm.locator('.rs-log li', { hasText: /Maya tests \w+ to resist Burning: 5 vs \d+.*resisted/ }).waitFor();
    expect(await gm.locator('[aria-label="Maya"] .ailments').textContent()).toBe('Ailments: none');
    await shot(gm, 'd100-09-reload-scatter-resist');
  }, 240_000);

  it('d100: Social Links set up in the builder, a Baton Pass after a One More seen alike by the GM and the player, the GM chooses whom to act for, a test with its odds and Fate Points spent (and a Reroll the server refuses)', async () => {
    const { gm, invite } = await createTable('d100', 'Iwatodai Dorm');
    const { player, tap } = await joinTable(invite, 'Ken');
    const $ = (id: string) => `[id="${id}"]`;
    const build = async (p: Page, name: string, agility: string, weapon: [string, string, string], more: (p: Page) => Promise<void> = async () => undefined) => {
      await p.getByRole('button', { name: 'Build a character' }).click();
      await p.locator($('d1b-name')).fill(name);
      await p.locator($('d1b-score-agility')).fill(agility);
      await p.locator($('d1b-weapon-0-name')).fill(weapon[0]);
      await p.locator($('d1b-weapon-0-class')).selectOption(weapon[1]);
      await p.locator($('d1b-weapon-0-element')).selectOption(weapon[2]);
      await more(p);
      await p.getByRole('button', { name: 'Add the character' }).click();
      await gm.locator(`${$('d1-characters')} [aria-label="${name}"]`).waitFor();
    };
    const shadow = (hidden: boolean) => async (p: Page) => {
      await p.locator($('d1b-kind')).selectOption('shadow');
      await p.locator($('d1b-side')).fill('shadows');
      await p.locator($('d1b-aff-fire')).selectOption('weak');
      if (hidden) await p.locator($('d1b-hidden')).check();
    };
    // Ken plays Bo; the GM plays Aki, whose Social Link with Bo (rank 4) lets Aki pass the baton to him.
    await build(player, 'Bo', '40', ['Bat', 'melee', 'melee']);
    await build(gm, 'Aki', '50', ['Agi', 'magic', 'fire'], async (p) => {
      // The last fieldset of a long form: on a loaded machine the page may still be laying it out.
      const addLink = p.getByRole('button', { name: '+ Add a Social Link' });
      await addLink.scrollIntoViewIfNeeded({ timeout: 45_000 });
      await addLink.click({ timeout: 45_000 });
      await p.locator($('d1b-link-0-name')).fill('Bo');
      // A rank out of 0 to 10 is named on its row by the sheet check, with the field and the value.
      await p.locator($('d1b-link-0-rank')).fill('11');
      await expect.poll(() => p.locator($('d1b-link-0-rank-err')).textContent()).toContain('socialLinks.Bo');
      await expect.poll(() => p.locator($('d1b-link-0-rank-err')).textContent()).toContain('11');
      await p.locator($('d1b-link-0-rank')).fill('4');
      await expect.poll(() => p.locator($('d1b-link-0-rank-err')).count()).toBe(0);
      // "Baton Pass": rank 4 gives the receiver 1 + 1 Advantages.
      expect(await p.locator($('d1b-link-0-rank-hint')).textContent()).toBe('Baton Pass: +2 Advantages');
    });
    await build(gm, 'Maya', '10', ['Claw', 'melee', 'melee'], shadow(false));
    await build(gm, 'Secret Gigas', '10', ['Gigas Maul', 'melee', 'melee'], shadow(true));
    await gm.getByRole('button', { name: 'Roll initiative and start' }).click();
    await gm.locator($('d1-turn'), { hasText: "Aki's turn" }).waitFor();
    await player.locator($('d1-turn'), { hasText: "Aki's turn" }).waitFor();

    // Aki's Agi on Maya's Fire weakness Staggers her: a One More ("One More").
    await gm.locator($('d1-dice-attack')).fill('30');
    await gm.locator($('d1-dice-evasion')).fill('90');
    await gm.locator($('d1-dice-location')).fill('50');
    await gm.getByRole('button', { name: 'Attack Maya' }).click();
    await player.locator('.rs-log li', { hasText: /Aki attacks Maya: roll 30, evasion 90.*One More/ }).waitFor();
    const chain = (p: Page) => p.locator(`${$('d1-chain')} p`).first().textContent();
    await expect.poll(() => chain(player)).toBe('One More: Aki holds it · chain Aki');
    expect(await chain(gm)).toBe('One More: Aki holds it · chain Aki');
    // The player does not play Aki: no Baton Pass control on the player's page.
    expect(await player.locator($('d1-baton')).count()).toBe(0);

    // "Baton Pass": Aki passes the One More to Bo, who gains 2 Advantages (Social Link rank 4).
    await gm.locator($('d1-baton')).selectOption({ label: 'Bo' });
    await gm.getByRole('button', { name: 'Pass the baton' }).click();
    await player.locator('.rs-log li', { hasText: 'Aki passes the baton to Bo (+2 Advantage)' }).waitFor();
    await expect.poll(() => chain(player)).toBe('One More: Bo holds it · chain Aki → Bo · +2 Advantage from the Baton Pass');
    await expect.poll(() => chain(gm)).toBe(await chain(player));
    // Holding the One More, the player may end Aki's turn; that rolls nothing of Bo's, whose turn comes next
    // with no test to start it ("Combat Structure"), so the player is offered no dice box for it.
    await player.getByRole('button', { name: 'End the turn' }).waitFor();
    expect(await player.locator('[data-pool^="turn:"]').count()).toBe(0);
    // Confused, Bo tests Intelligence as its turn starts: then the box is there, for the player to fill.
    await gm.locator($('d1-ail-target')).selectOption({ label: 'Bo' });
    await gm.locator($('d1-ail')).selectOption('confused');
    await gm.getByRole('button', { name: 'Inflict' }).click();
    await player.getByLabel("Bo's tests at the end or start of a turn when the turn ends (d100)").waitFor();
    expect(await player.locator('[data-pool^="turn:"]').count()).toBe(1);
    await gm.getByRole('button', { name: 'Undo the last action' }).click();
    await player.locator('[data-pool^="turn:"]').waitFor({ state: 'detached' });
    await shot(gm, 'd100-07-baton-pass-gm');
    await shot(player, 'd100-08-baton-pass-player');

    // The GM plays both Aki (whose Turn it is) and Bo (the One More holder): the GM chooses whom to act for.
    const actFor = gm.locator($('d1-act-for'));
    await expect.poll(() => actFor.textContent()).toBe('Act forAki (its turn)Bo (One More, out of turn)');
    expect(await gm.locator($('d1-attack-h')).textContent()).toBe('Attack by Aki');
    await actFor.getByLabel('Bo (One More, out of turn)').check();
    await expect.poll(() => gm.locator($('d1-attack-h')).textContent()).toBe('Attack by Bo');
    expect(await gm.locator($('d1-out-of-turn')).textContent()).toBe('Bo acts out of turn with the One More.');
    // The player plays Bo only: no choice, and the page acts for Bo.
    expect(await player.locator($('d1-act-for')).count()).toBe(0);
    expect(await player.locator($('d1-attack-h')).textContent()).toBe('Attack by Bo');

    // A test of Bo's Agility (40) from the player's page, with its exact odds before it is rolled.
    await player.locator($('d1-test-what')).selectOption('score:agility');
    await expect.poll(() => player.locator($('d1-test-odds')).textContent()).toContain('target 40, success 40');
    expect(await player.getByRole('button', { name: /^Roll the test \(40(\.0)?% to succeed\)$/ }).count()).toBe(1);
    await player.locator($('d1-test-adv')).fill('1');
    await expect.poll(() => player.locator($('d1-test-odds')).textContent()).toContain('target 50, success 50');
    await player.getByRole('button', { name: /^Roll the test/ }).click();
    await player.locator('.rs-log li', { hasText: /Bo tests Agility: \d+ vs 50/ }).waitFor();
    // The GM's next command concerns the hidden Shadow only: the player's log does not show it, so the
    // player's page still offers to reroll Bo's test, and the server refuses it, saying why.
    await gm.locator($('d1-ail-target')).selectOption({ label: 'Secret Gigas' });
    await gm.locator($('d1-ail')).selectOption('burning');
    await gm.getByRole('button', { name: 'Inflict' }).click();
    await expect.poll(() => gm.locator('[aria-label="Secret Gigas"] .ailments').textContent()).toContain('Burning');
    const reroll = player.locator(`${$('d1-fate')} [data-spend="reroll"] button`);
    expect(await reroll.textContent()).toBe('Reroll: the test (Agility) just made (1 Fate Point)');
    const fatePoints = async () => /Fate Points (\d+)/.exec((await player.locator('[aria-label="Bo"]').textContent()) ?? '')?.[1];
    const fateBefore = await fatePoints();
    expect(fateBefore).toBe('2');
    await reroll.click();
    await expect.poll(() => player.locator($('d1-fate-err')).textContent()).toContain('a Reroll takes back a test of the command just made');
    expect(await fatePoints()).toBe(fateBefore);
    // Block Heavy Wound is declared ahead by Bo's player, for the hits Bo takes
    await player.locator($('d1-fate-block')).fill('1');
    await player.locator(`${$('d1-fate')} [data-spend="block-heavy"] button`).click();
    await player.locator('.rs-log li', { hasText: 'Bo will spend up to 1 Fate Point(s) blocking Heavy wounds it incurs' }).waitFor();
    await expect.poll(() => player.locator('[aria-label="Bo"]').textContent()).toContain('blocks up to 1 Heavy wound(s) with Fate Points');
    expect(await fatePoints()).toBe(fateBefore);

    // The GM tests Aki's Agility with a typed die, and spends a Fate Point to roll it again (the new die typed too).
    await gm.locator($('d1-test-who')).selectOption({ label: 'Aki' });
    await gm.locator($('d1-test-what')).selectOption('score:agility');
    await gm.locator($('d1-test-dice-actor')).fill('90');
    await gm.getByRole('button', { name: /^Roll the test/ }).click();
    await player.locator('.rs-log li', { hasText: 'Aki tests Agility: 90 vs 50, failure' }).waitFor();
    await gm.locator($('d1-fate-who')).selectOption({ label: 'Aki' });
    await gm.locator($('d1-fate-dice-reroll')).fill('20');
    await gm.locator(`${$('d1-fate')} [data-spend="reroll"] button`).click();
    await player.locator('.rs-log li', { hasText: 'Aki spends a Fate Point to reroll the test: 90 then 20, 20 stands' }).waitFor();

    // Confused, Bo fails its Intelligence test (30) by 4 DoF as its turn starts: its Action is an attack on
    // the nearest character. Nobody is on the map, so any may be: the GM names one, the player sees whom.
    await gm.locator($('d1-ail-target')).selectOption({ label: 'Bo' });
    await gm.locator($('d1-ail')).selectOption('confused');
    await gm.getByRole('button', { name: 'Inflict' }).click();
    await gm.getByLabel("Bo's tests at the end or start of a turn when the turn ends (d100)").fill('75');
    await gm.getByRole('button', { name: 'End the turn' }).click();
    const confused = (p: Page) => p.locator(`${$('d1-confused')} p`).textContent();
    await expect.poll(() => confused(player)).toBe("Confused: Bo's Action this turn is an attack on the nearest character: one of Aki, Maya, which the GM names.");
    expect(await gm.locator(`${$('d1-confused')} button`).allTextContents()).toEqual(['Nearest: Aki', 'Nearest: Maya', 'Nearest: Secret Gigas']);
    await gm.getByRole('button', { name: 'Nearest: Maya' }).click();
    await expect.poll(() => confused(player)).toBe("Confused: Bo's Action this turn is an attack on the nearest character: Maya.");
    expect(await player.locator(`${$('d1-defender')} option`).allTextContents()).toEqual(['Maya']);

    const received = [...tap.frames, ...tap.bodies].join('\n');
    for (const secret of ['Secret Gigas', 'Gigas Maul']) expect(received).not.toContain(secret);
    expect(tap.errors).toEqual([]);
  }, 240_000);
});
