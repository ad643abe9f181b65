import '@personae/d100';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAs, createTable, http, joinTable, startServer, type Running } from './helpers';

/**
 * The actions of "Analysing Targets, Disrupting Targets and Tricks", "Equipment Actions" and "Special
 * Movement Actions" (d100-combat-rules.txt) at the server: it keeps an enemy's affinities from the
 * players until the party analyses it (not in the state over HTTP, the welcome, any WebSocket frame
 * or the event feed), and it refuses each action to whoever may not take it.
 */
let srv: Running;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(async () => {
  await srv.close();
});

const scores = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
const hero = { name: 'Hero', side: 'pc', arcanaLevel: 4, scores, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] };
const shade = { name: 'Shade', kind: 'shadow', side: 'shadows', arcana: 'Tower', scores: { ...scores, agility: 20 }, affinities: { ice: 'absorb', curse: 'repel' }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] };

describe('the d100 actions over the server', () => {
  it('a player is sent no affinity of the enemy until Analyse Target, then all of them', async () => {
    const t = await createTable(srv.url, { name: 'Analyse', ruleset: 'd100' });
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    // A player's character has its id in the player's seat's space.
    const heroId = `${ann.participantId}:hero`;
    const send = async (token: string, id: string, command: unknown) => http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: id, command } });
    expect((await send(ann.token, 'c1', { type: 'add-character', id: 'hero', sheet: hero })).status).toBe(200);
    expect((await send(t.gm.token, 'c2', { type: 'add-character', id: 'shade', sheet: shade })).status).toBe(200);
    expect((await send(t.gm.token, 'c3', { type: 'start' })).status).toBe(200);

    const { client, welcome } = await connectAs(srv.wsUrl, t.tableId, ann.token, 0);
    const stateOf = async (token: string) => (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token })).body.state;
    const shadeIn = (state: { characters: { id: string; sheet: Record<string, unknown> }[] }) => state.characters.find((c) => c.id === 'shade')!;
    const feed = async () => JSON.stringify((await http(srv.url, 'GET', `/api/tables/${t.tableId}/events?since=0`, { token: ann.token })).body);

    // Before: the GM sees the table, the player none of it, anywhere.
    expect(shadeIn(await stateOf(t.gm.token)).sheet.affinities).toEqual({ ice: 'absorb', curse: 'repel' });
    expect(shadeIn(await stateOf(ann.token)).sheet.affinities).toEqual({});
    expect(JSON.stringify(welcome)).not.toMatch(/absorb|repel|Tower/);
    expect(await feed()).not.toMatch(/absorb|repel|Tower/);
    expect(client.frames.join('\n')).not.toMatch(/absorb|repel|Tower/);

    // The player's character analyses it: the server sends them.
    const ack = await client.command('c4', { type: 'analyse', who: heroId, target: 'shade' });
    expect(ack.type).toBe('ack');
    const after = shadeIn(await stateOf(ann.token));
    expect(after.sheet.affinities).toEqual({ ice: 'absorb', curse: 'repel' });
    expect(after.sheet.arcana).toBe('Tower');

    // An Analyse the sheet cannot make is refused with the rule, and changes nothing.
    const bad = await send(ann.token, 'c5', { type: 'analyse', who: heroId, target: 'shade', advanced: true });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'arcana-level', field: 'who' });
    client.close();
  });

  it('a player is sent no Wounds, Scores or Traits of the enemy until an Advanced Analyse Target, then them (option detailsReveal)', async () => {
    const t = await createTable(srv.url, { name: 'Advanced Analyse', ruleset: 'd100' });
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const heroId = `${ann.participantId}:hero`;
    // Toughness 73: TB 7, so 7 Light and 3 Heavy wounds; Unnatural Toughness 3
    const tough = { ...shade, scores: { ...shade.scores, toughness: 73, melee: 67, agility: 23 }, unnaturalToughness: 3 };
    const send = async (token: string, id: string, command: unknown) => http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: id, command } });
    expect((await send(ann.token, 'c1', { type: 'add-character', id: 'hero', sheet: { ...hero, arcanaLevel: 7 } })).status).toBe(200);
    expect((await send(t.gm.token, 'c2', { type: 'add-character', id: 'shade', sheet: tough })).status).toBe(200);
    expect((await send(t.gm.token, 'c3', { type: 'start' })).status).toBe(200);
    const { client, welcome } = await connectAs(srv.wsUrl, t.tableId, ann.token, 0);
    type Shown = { id: string; wounds: unknown; woundMax: unknown; detailsKnown: boolean; sheet: Record<string, unknown>; fighter: Record<string, unknown> };
    const shadeIn = async (token: string) => ((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token })).body.state.characters as Shown[]).find((c) => c.id === 'shade')!;
    const feed = async () => JSON.stringify((await http(srv.url, 'GET', `/api/tables/${t.tableId}/events?since=0`, { token: ann.token })).body);
    const secrets = /"toughness":73|"unnaturalToughness":3|"light":7/;
    const feedOf = async (token: string) => (await http(srv.url, 'GET', `/api/tables/${t.tableId}/events?since=0`, { token })).body;

    // Before: the GM is shown them; the player nowhere (state, welcome, frames, event feed).
    const gm = await shadeIn(t.gm.token);
    expect([gm.wounds, (gm.sheet.scores as { toughness: number }).toughness, gm.sheet.unnaturalToughness]).toEqual([{ light: 7, heavy: 3, deadly: 1 }, 73, 3]);
    const before = await shadeIn(ann.token);
    expect(before).toMatchObject({ wounds: null, woundMax: null, detailsKnown: false });
    expect([before.sheet.scores, before.sheet.unnaturalToughness, before.fighter.scores, before.fighter.tracks, before.fighter.unnaturalToughness]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(JSON.stringify(welcome)).not.toMatch(secrets);
    expect(await feed()).not.toMatch(secrets);
    expect(client.frames.join('\n')).not.toMatch(secrets);

    // A basic Analyse reveals the affinities and the Arcana, not these.
    expect((await client.command('c4', { type: 'analyse', who: heroId, target: 'shade' })).type).toBe('ack');
    const basic = await shadeIn(ann.token);
    expect([basic.sheet.affinities, basic.sheet.arcana, basic.wounds, basic.sheet.scores]).toEqual([{ ice: 'absorb', curse: 'repel' }, 'Tower', null, undefined]);
    expect(client.frames.join('\n')).not.toMatch(secrets);

    // The Shade attacks the hero on its turn, the hero it on the next (evading): the player is sent the
    // rolls and outcomes, never the target numbers they were made against (its Melee, its evasion).
    // The GM's dice for both attacks, hits to the body: with the server's, about one run in 100 failed
    // (a Critical Hit to the head left a character Confused, and its next command was refused).
    const ok = async (id: string, command: unknown, token = t.gm.token, dice?: Record<string, number[]>) => {
      const r = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: id, command, ...(dice ? { dice } : {}) } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    const hit = { attack: [40], evasion: [90], location: [50] };
    await ok('c5', { type: 'end-turn' });
    await ok('c6', { type: 'attack', attacker: 'shade', defender: heroId }, t.gm.token, hit);
    await ok('c7', { type: 'end-turn' });
    await ok('c8', { type: 'attack', attacker: heroId, defender: 'shade' }, t.gm.token, hit);
    await ok('c9', { type: 'end-turn' });
    type Attack = { type: string; data: { attacker: string; spec: { attackTarget: number | null; evasionTarget: number | null }; summary: { roll: number } } };
    const attacksIn = async (token: string) => ((await http(srv.url, 'GET', `/api/tables/${t.tableId}/events?since=0`, { token })).body.events as { event: Attack | null }[]).map((r) => r.event).filter((e): e is Attack => e?.type === 'attack-resolved');
    const [byShade, onShade] = await attacksIn(t.gm.token);
    // the GM's record holds the Shade's own targets: Melee 67 to attack, and whatever it evades with
    expect(byShade!.data.spec.attackTarget).toBe(67);
    const hidden = [67, onShade!.data.spec.evasionTarget!];
    /** Where a hidden number stands in what the player is sent, rolls and dice aside (a die may land on it). */
    const leaks = (x: unknown, at = ''): string[] =>
      typeof x === 'number' ? (hidden.includes(x) && !/(roll|dice|rolls|seq)(\.\d+)?$/i.test(at) ? [at] : []) : x && typeof x === 'object' ? Object.entries(x).flatMap(([k, v]) => leaks(v, `${at}.${k}`)) : [];
    const playerAttacks = await attacksIn(ann.token);
    expect(playerAttacks.map((e) => [e.data.spec.attackTarget, e.data.spec.evasionTarget])).toEqual([[null, byShade!.data.spec.evasionTarget], [onShade!.data.spec.attackTarget, null]]);
    expect(playerAttacks.map((e) => e.data.summary.roll)).toEqual([byShade!.data.summary.roll, onShade!.data.summary.roll]);
    const exported = async () => (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: ann.token })).body;
    await expect.poll(() => client.frames.filter((f) => f.includes('attack-resolved')).length).toBeGreaterThanOrEqual(2);
    for (const sent of [(await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: ann.token })).body, await feedOf(ann.token), await exported(), client.frames.map((f) => JSON.parse(f))]) expect(leaks(sent)).toEqual([]);
    expect(leaks(await feedOf(t.gm.token)).length).toBeGreaterThan(0);

    // The Advanced Analyse is the hero's next Action; it reveals them, in the state and the frames, and
    // the Shade's attacks after it carry their target numbers again.
    await ok('c9b', { type: 'end-turn' });
    expect((await client.command('c10', { type: 'analyse', who: heroId, target: 'shade', advanced: true })).type).toBe('ack');
    const after = await shadeIn(ann.token);
    // the hero's attack may have wounded it: the player is now shown what the GM is
    expect(after.wounds).toEqual((await shadeIn(t.gm.token)).wounds);
    expect(after).toMatchObject({ woundMax: { light: 7, heavy: 3, deadly: 1 }, detailsKnown: true, sheet: { unnaturalToughness: 3, scores: { toughness: 73 } }, fighter: { unnaturalToughness: 3 } });
    await expect.poll(() => client.frames.join('\n')).toMatch(/"toughness":73/);
    await ok('c11', { type: 'end-turn' });
    await ok('c12', { type: 'attack', attacker: 'shade', defender: heroId }, t.gm.token, hit);
    const feedAfter = await attacksIn(ann.token);
    expect(feedAfter.at(-1)!.data.spec.attackTarget).toBe(67);
    // the feed gives each event as the table stood right after it: the attack before the Analyse stays without it
    expect(feedAfter[0]!.data.spec.attackTarget).toBe(null);
    await expect.poll(() => client.frames.some((f) => f.includes('"attackTarget":67'))).toBe(true);
    client.close();
  });

  it('refuses the new actions to whoever may not take them, over HTTP, and the table stays as it was', async () => {
    const t = await createTable(srv.url, { name: 'Referee', ruleset: 'd100' });
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const bo = await joinTable(srv.url, t.tableId, t.invite.token, 'Bo');
    // A player's character has its id in the player's seat's space.
    const heroId = `${ann.participantId}:hero`;
    const friendId = `${bo.participantId}:friend`;
    let n = 0;
    const send = async (token: string, command: unknown) => {
      const r = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: `r${++n}`, command } });
      return { status: r.status, ...(r.status >= 400 ? { code: r.body.code, field: r.body.field } : {}) };
    };
    const kit = { ...hero, consumables: [{ name: 'Medicine', effect: { light: 1 } }] };
    expect(await send(ann.token, { type: 'add-character', id: 'hero', sheet: kit })).toEqual({ status: 200 });
    expect(await send(bo.token, { type: 'add-character', id: 'friend', sheet: { ...hero, name: 'Friend', scores: { ...scores, agility: 10, perception: 10 } } })).toEqual({ status: 200 });
    expect(await send(t.gm.token, { type: 'add-character', id: 'shade', sheet: shade })).toEqual({ status: 200 });
    expect(await send(t.gm.token, { type: 'start' })).toEqual({ status: 200 });
    const state = async () => (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.state;
    const before = await state();
    // Hero acts first (Agility Bonus 3): Bo may not act for it, nor for Friend out of turn.
    expect(await send(bo.token, { type: 'analyse', who: heroId, target: 'shade' })).toMatchObject({ status: 422, code: 'not-your-character' });
    expect(await send(bo.token, { type: 'distract', who: friendId, target: 'shade' })).toMatchObject({ status: 422, code: 'not-your-turn' });
    expect(await send(bo.token, { type: 'scary-face', who: friendId, target: 'shade' })).toMatchObject({ status: 422, code: 'not-your-turn' });
    // No Distraction to spend; a consumable only for an ally; nothing put away to draw.
    expect(await send(ann.token, { type: 'force-reroll', who: heroId, test: 'attack' })).toMatchObject({ status: 422, code: 'not-distracting', field: 'who' });
    expect(await send(ann.token, { type: 'use-consumable', who: heroId, item: 'Medicine', target: 'shade' })).toMatchObject({ status: 422, code: 'not-an-ally', field: 'target' });
    expect(await send(ann.token, { type: 'equip', who: heroId, item: 'Sword' })).toMatchObject({ status: 422, code: 'already-equipped', field: 'item' });
    expect(await send(t.observer.token, { type: 'go-stealthy', who: heroId })).toMatchObject({ status: 403 });
    expect(await state()).toEqual(before);
    // Hero's own player may.
    expect(await send(ann.token, { type: 'go-stealthy', who: heroId })).toEqual({ status: 200 });
    expect((await state()).characters.find((c: { id: string }) => c.id === heroId).conditions.stealthy).toBe(true);
  });

  it('a test and a Fate Point spend: refused for a character the sender does not play, and a Reroll after a command the player was not shown refused, Fate Points unchanged', async () => {
    const t = await createTable(srv.url, { name: 'Fate', ruleset: 'd100' });
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const bo = await joinTable(srv.url, t.tableId, t.invite.token, 'Bo');
    const heroId = `${ann.participantId}:hero`;
    let n = 0;
    const send = async (token: string, command: unknown) => {
      const r = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: `f${++n}`, command } });
      return { status: r.status, ...(r.status >= 400 ? { code: r.body.code, field: r.body.field } : {}) };
    };
    const fateOf = async (id: string) => ((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.state.characters as { id: string; fatePoints: number }[]).find((c) => c.id === id)!.fatePoints;
    expect(await send(ann.token, { type: 'add-character', id: 'hero', sheet: { ...hero, realisation: 30 } })).toEqual({ status: 200 });
    expect(await send(t.gm.token, { type: 'add-character', id: 'lurker', sheet: { ...shade, name: 'Lurker', hidden: true } })).toEqual({ status: 200 });
    // Bo plays nobody here: no test and no Fate Point of Ann's Hero
    expect(await send(bo.token, { type: 'test', who: heroId, score: 'agility' })).toEqual({ status: 422, code: 'not-your-character', field: 'who' });
    expect(await send(bo.token, { type: 'spend-fate', who: heroId, spend: 'advantage' })).toEqual({ status: 422, code: 'not-your-character', field: 'who' });
    // Ann tests Hero's Agility: a test she may reroll with a Fate Point...
    expect(await send(ann.token, { type: 'test', who: heroId, score: 'agility' })).toEqual({ status: 200 });
    expect(await fateOf(heroId)).toBe(3);
    // ...until the GM makes another command, here about the hidden Lurker, which Ann's log does not show
    expect(await send(t.gm.token, { type: 'inflict-ailment', target: 'lurker', ailment: 'burning' })).toEqual({ status: 200 });
    const annLog = JSON.stringify((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: ann.token })).body.state.log);
    expect(annLog).not.toContain('lurker');
    expect(await send(ann.token, { type: 'spend-fate', who: heroId, spend: 'reroll', test: 'test' })).toEqual({ status: 422, code: 'nothing-to-reroll', field: 'spend' });
    expect(await fateOf(heroId)).toBe(3);
  });

  it("Block Heavy Wound: only whoever plays the defender spends its Fate Points, by fate-block; a player's fateBlocks on the GM's character is refused", async () => {
    const t = await createTable(srv.url, { name: 'Block', ruleset: 'd100' });
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const bo = await joinTable(srv.url, t.tableId, t.invite.token, 'Bo');
    const heroId = `${ann.participantId}:hero`;
    let n = 0;
    const send = async (token: string, command: unknown) => {
      const r = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: `b${++n}`, command } });
      return { status: r.status, ...(r.status >= 400 ? { code: r.body.code, field: r.body.field } : {}) };
    };
    const state = async (token = t.gm.token) => (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token })).body.state;
    const heroIn = async (token?: string) => ((await state(token)).characters as { id: string; fatePoints: number; conditions: { blockHeavy?: number } }[]).find((c) => c.id === heroId)!;
    expect(await send(ann.token, { type: 'add-character', id: 'hero', sheet: { ...hero, realisation: 30 } })).toEqual({ status: 200 });
    expect(await send(t.gm.token, { type: 'add-character', id: 'shade', sheet: { ...shade, realisation: 20 } })).toEqual({ status: 200 });
    expect(await send(t.gm.token, { type: 'start' })).toEqual({ status: 200 });
    const before = await state();
    // Hero acts first: Ann may not spend the GM's Shade's Fate Points on her own attack, nor Bo declare for her Hero
    expect(await send(ann.token, { type: 'attack', attacker: heroId, defender: 'shade', fateBlocks: 1 })).toEqual({ status: 422, code: 'not-your-fate-points', field: 'fateBlocks' });
    expect(await send(bo.token, { type: 'fate-block', who: heroId, heavy: 1 })).toEqual({ status: 422, code: 'not-your-character', field: 'who' });
    expect(await send(ann.token, { type: 'fate-block', who: 'shade', heavy: 1 })).toEqual({ status: 422, code: 'not-your-character', field: 'who' });
    expect(await state()).toEqual(before);
    // Ann declares for her Hero: the table keeps it and shows it beside the Fate Points
    expect(await send(ann.token, { type: 'fate-block', who: heroId, heavy: 2 })).toEqual({ status: 200 });
    for (const token of [ann.token, bo.token, t.gm.token]) expect(await heroIn(token)).toMatchObject({ fatePoints: 3, conditions: { blockHeavy: 2 } });
    // the GM's Shade attacks the Hero with the server's dice: whatever they are, a Fate Point spent blocking
    // is one off the declaration too, and the third point is never spent
    expect(await send(t.gm.token, { type: 'end-turn' })).toEqual({ status: 200 });
    expect(await send(t.gm.token, { type: 'attack', attacker: 'shade', defender: heroId, damage: 30 })).toEqual({ status: 200 });
    const after = await heroIn();
    expect(after.fatePoints - (after.conditions.blockHeavy ?? 0)).toBe(1);
  });
});
