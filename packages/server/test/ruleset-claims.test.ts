import { readFileSync } from 'node:fs';
import '@personae/d100';
import '@personae/lucidity';
import '@personae/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTable, http, joinTable, relaxedLimits, startServer, TestClient, type CreatedTable, type Running } from './helpers';

// Who controls which character at d100 and Lucidity tables, checked by talking to the server directly.

const example = (path: string) => parse(readFileSync(new URL(`../../../examples/${path}`, import.meta.url), 'utf8')) as Record<string, unknown>;

let srv: Running;
beforeAll(async () => {
  srv = await startServer(undefined, { config: relaxedLimits() });
});
afterAll(async () => {
  await srv.close();
});

let n = 0;
async function send(t: { tableId: string }, token: string, command: unknown, dice?: Record<string, number[]>) {
  return http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: `c${++n}`, command, ...(dice ? { dice } : {}) } });
}
async function state(t: { tableId: string }, token: string) {
  return (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token })).body as { version: number; state: any };
}
/** Everything a participant receives: the welcome with its view, the event catch-up, the export. */
async function everything(t: { tableId: string }, token: string): Promise<string> {
  const client = await TestClient.connect(srv.wsUrl);
  client.send({ type: 'hello', tableId: t.tableId, token });
  await client.waitFor((m) => m.type === 'welcome');
  const again = await TestClient.connect(srv.wsUrl);
  again.send({ type: 'hello', tableId: t.tableId, token, since: 0 });
  await again.waitFor((m) => m.type === 'welcome');
  const version = (await state(t, token)).version;
  if (version > 0) await again.waitFor((m) => m.type === 'event' && m.seq === version);
  const exported = await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token });
  client.ws.close();
  again.ws.close();
  return [...client.frames, ...again.frames, exported.text].join('\n');
}

describe('a d100 table: players control their own characters', () => {
  let t: CreatedTable;
  let player: { participantId: string; token: string };
  let other: { participantId: string; token: string };
  beforeAll(async () => {
    t = await createTable(srv.url, { name: 'Velvet', ruleset: 'd100', settings: { physicalDice: true } });
    player = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    other = await joinTable(srv.url, t.tableId, t.invite.token, 'Bo');
  });
  /** The player's character: its id in their seat's space. */
  const makoto = () => `${player.participantId}:makoto`;

  it('a player adds their own character, checked on the server, and controls it', async () => {
    const bad = await send(t, player.token, { type: 'add-character', id: 'makoto', sheet: { ...example('d100/evoker-makoto.yaml'), scores: { melee: 'high' } } });
    expect(bad.status).toBe(422);
    expect(bad.body.field).toMatch(/^sheet\.scores/);
    // A sheet beyond 64 KiB: refused by the message cap, and by the table's own cap where messages may be larger.
    const hugeSheet = { ...example('d100/evoker-makoto.yaml'), name: 'x'.repeat(70_000) };
    expect((await send(t, player.token, { type: 'add-character', id: 'makoto', sheet: hugeSheet })).status).toBe(413);
    const roomy = await startServer(undefined, { config: { maxMessageBytes: 256 * 1024 } });
    try {
      const r = await createTable(roomy.url, { name: 'Roomy', ruleset: 'd100' });
      const res = await http(roomy.url, 'POST', `/api/tables/${r.tableId}/commands`, { token: r.gm.token, body: { commandId: 'big', command: { type: 'add-character', id: 'makoto', sheet: hugeSheet } } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('sheet-too-large');
      expect(res.body.field).toBe('sheet');
    } finally {
      await roomy.close();
    }
    const added = await send(t, player.token, { type: 'add-character', id: 'makoto', sheet: example('d100/evoker-makoto.yaml') });
    expect(added.status).toBe(200);
    const view = (await state(t, player.token)).state;
    expect(view.characters.find((c: { id: string }) => c.id === makoto()).controller).toBe(player.participantId);
  });

  it('a player cannot add a hidden character, one for the other side, or one for someone else', async () => {
    const version = (await state(t, t.gm.token)).version;
    const hidden = await send(t, player.token, { type: 'add-character', id: 'pixie', sheet: example('d100/shadow-pixie.yaml') });
    expect(hidden.status).toBe(422);
    expect(hidden.body.field).toBe('sheet.hidden');
    const foe = await send(t, player.token, { type: 'add-character', id: 'pixie', sheet: { ...example('d100/shadow-pixie.yaml'), hidden: false } });
    expect(foe.body.field).toBe('sheet.side');
    const forOther = await send(t, player.token, { type: 'add-character', id: 'yukari', controller: other.participantId, sheet: example('d100/evoker-yukari.yaml') });
    expect(forOther.body.field).toBe('controller');
    expect((await state(t, t.gm.token)).version).toBe(version);
  });

  it('the GM adds a hidden Shadow and a character of their own; a player cannot act for them or see the Shadow', async () => {
    expect((await send(t, t.gm.token, { type: 'add-character', id: 'pixie', sheet: example('d100/shadow-pixie.yaml') })).status).toBe(200);
    expect((await send(t, t.gm.token, { type: 'add-character', id: 'yukari', sheet: example('d100/evoker-yukari.yaml') })).status).toBe(200);
    const before = (await state(t, t.gm.token)).version;
    const notMine = await send(t, player.token, { type: 'spend-fate', who: 'yukari', spend: 'advantage' });
    expect(notMine.status).toBe(422);
    expect(notMine.body.code).toBe('not-your-character');
    const otherPlayer = await send(t, other.token, { type: 'spend-fate', who: makoto(), spend: 'advantage' });
    expect(otherPlayer.body.code).toBe('not-your-character');
    expect((await state(t, t.gm.token)).version).toBe(before);
    const seen = await everything(t, player.token);
    expect(seen).toContain('Makoto');
    expect(seen).not.toContain('Pixie');
    expect(seen).not.toContain('pixie');
    // The GM sees all three.
    expect((await state(t, t.gm.token)).state.characters.map((c: { id: string }) => c.id).sort()).toEqual([makoto(), 'pixie', 'yukari'].sort());
  });

  it('the GM hands a character to a player, who then acts for it', async () => {
    expect((await send(t, t.gm.token, { type: 'set-controller', id: 'yukari', controller: other.participantId })).status).toBe(200);
    expect((await send(t, player.token, { type: 'set-controller', id: 'yukari', controller: player.participantId })).body.code).toBe('gm-only');
    const view = (await state(t, other.token)).state;
    expect(view.characters.find((c: { id: string }) => c.id === 'yukari').controller).toBe(other.participantId);
  });

  it("a player cannot enter the opposition's dice or set what the GM rules", async () => {
    const before = (await state(t, t.gm.token)).version;
    const dice = await send(t, player.token, { type: 'attack', attacker: makoto(), defender: 'yukari' }, { attack: [5], evasion: [90] });
    expect(dice.status).toBe(422);
    expect(dice.body.code).toBe('not-your-dice');
    expect(dice.body.field).toBe('dice.evasion');
    expect(dice.body.message).toMatch(/Yukari/i);
    const unknown = await send(t, player.token, { type: 'attack', attacker: makoto(), defender: 'yukari' }, { rolls: [5] });
    expect(unknown.body).toMatchObject({ code: 'dice-pool', field: 'dice.rolls' });
    const target = await send(t, player.token, { type: 'attack', attacker: makoto(), defender: 'yukari', attackTarget: 300 });
    expect(target.body.code).toBe('gm-only');
    expect(target.body.field).toBe('attackTarget');
    const advantages = await send(t, player.token, { type: 'attack', attacker: makoto(), defender: 'yukari', advantages: [{ label: 'mine', count: 9 }] });
    expect(advantages.body.field).toBe('advantages');
    const start = await send(t, player.token, { type: 'start' });
    expect(start.body.code).toBe('gm-only');
    expect((await state(t, t.gm.token)).version).toBe(before);
  });
});

describe('a Lucidity table: players control their own combatants', () => {
  const bandit = { name: 'Bandit', attributes: { STR: 1, DEX: 1, AWA: 0 }, defense: 11, protection: 2, health: 9, weapons: [{ name: 'Club', damage: '1d6' }] };
  const archer = { name: 'Hidden Archer', attributes: { DEX: 2, AWA: -1 }, health: 6, weapons: [{ name: 'Shortbow', damage: '1d6', attribute: 'DEX', kind: 'ranged' }] };
  let t: CreatedTable;
  let player: { participantId: string; token: string };
  beforeAll(async () => {
    t = await createTable(srv.url, { name: 'Moonlit', ruleset: 'lucidity' });
    player = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
  });
  /** The player's character: its id in their seat's space. */
  const ana = () => `${player.participantId}:ana`;

  it('a player adds their own character from a sheet checked on the server', async () => {
    const bad = await send(t, player.token, { type: 'add', id: 'ana', side: 'party', sheet: example('lucidity/illegal/not-the-standard-array.yaml') });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/standard array|attribute/i);
    const added = await send(t, player.token, { type: 'add', id: 'ana', side: 'party', sheet: example('lucidity/characters/ana-vell.yaml') });
    expect(added.status).toBe(200);
    const view = (await state(t, player.token)).state;
    expect(view.combatants.find((c: { id: string }) => c.id === ana()).controller).toBe(player.participantId);
    const hidden = await send(t, player.token, { type: 'add', id: 'spy', side: 'party', hidden: true, sheet: example('lucidity/characters/orrin-moss.yaml') });
    expect(hidden.status).toBe(422);
  });

  it('the GM adds a foe and a hidden one; the player never receives the hidden one', async () => {
    expect((await send(t, t.gm.token, { type: 'add', id: 'bandit', side: 'foe', statBlock: bandit })).status).toBe(200);
    expect((await send(t, t.gm.token, { type: 'add', id: 'archer', side: 'foe', hidden: true, statBlock: archer })).status).toBe(200);
    expect((await send(t, t.gm.token, { type: 'start' }, { [`initiative:${ana()}`]: [12], 'initiative:bandit': [8], 'initiative:archer': [5] })).status).toBe(200);
    const seen = await everything(t, player.token);
    expect(seen).toContain('Bandit');
    expect(seen).not.toContain('Hidden Archer');
    expect(seen).not.toContain('archer');
  });

  it('a player cannot act for a combatant they do not control', async () => {
    const before = (await state(t, t.gm.token)).version;
    const res = await send(t, player.token, { type: 'attack', actor: 'bandit', target: ana() });
    expect(res.status).toBe(422);
    expect(res.body.field).toBe('actor');
    expect((await state(t, t.gm.token)).version).toBe(before);
  });

  it('a player types in no dice at a table without physical dice, and never the opposition\u2019s', async () => {
    const before = (await state(t, t.gm.token)).version;
    const typed = await send(t, player.token, { type: 'attack', actor: ana(), target: 'bandit' }, { d20: [20] });
    expect(typed.status).toBe(422);
    expect(typed.body).toMatchObject({ code: 'physical-dice-off', field: 'dice.d20' });
    // A command carries no dice of its own: they go in the envelope's pools.
    const field = await send(t, player.token, { type: 'attack', actor: ana(), target: 'bandit', d20: 20 });
    expect(field.body).toMatchObject({ code: 'invalid_command' });
    expect((await http(srv.url, 'PATCH', `/api/tables/${t.tableId}/settings`, { token: t.gm.token, body: { physicalDice: true } })).status).toBe(200);
    const against = await send(t, player.token, { type: 'roll', actor: ana(), attribute: 'CHA', skill: 'Charm', against: { id: 'bandit', attribute: 'AWA' } }, { against: [1] });
    expect(against.body).toMatchObject({ code: 'not-your-dice', field: 'dice.against' });
    expect(against.body.message).toMatch(/Bandit's d20 against the roll/);
    const unknown = await send(t, player.token, { type: 'roll', actor: ana(), attribute: 'CHA', against: { id: 'bandit', attribute: 'AWA' } }, { rolls: [20, 1] });
    expect(unknown.body).toMatchObject({ code: 'dice-pool', field: 'dice.rolls' });
    const endTurn = await send(t, player.token, { type: 'end-turn' }, { 'zero-health:bandit': [1] });
    expect(endTurn.body).toMatchObject({ code: 'not-your-dice', field: 'dice.zero-health:bandit' });
    // The hidden archer's pool is answered as a pool of no one's: the refusal never confirms it.
    const hidden = await send(t, player.token, { type: 'end-turn' }, { 'zero-health:archer': [1] });
    const nobody = await send(t, player.token, { type: 'end-turn' }, { 'zero-health:nobody': [1] });
    expect(hidden.body.code).toBe('dice-pool');
    expect(hidden.body.message.replaceAll('archer', 'nobody')).toBe(nobody.body.message);
    expect(hidden.body.message).not.toMatch(/Hidden Archer/i);
    const modifier = await send(t, player.token, { type: 'lucidity-roll', actor: ana(), gmModifier: 10 });
    expect(modifier.body.field).toBe('gmModifier');
    expect((await state(t, t.gm.token)).version).toBe(before);
    // Their own roll, typed in, is taken now that the table accepts physical dice.
    const own = await send(t, player.token, { type: 'attack', actor: ana(), target: 'bandit' }, { d20: [3] });
    expect(own.status).toBe(200);
    const attacked = (await state(t, t.gm.token)).state.log.at(-1);
    expect(attacked.text).toMatch(/: d20 3 /);
  });

  it('the GM hands a combatant to a player, who then acts for it; a player cannot, nor to a stranger; a refusal changes nothing', async () => {
    const other = await joinTable(srv.url, t.tableId, t.invite.token, 'Bo');
    const before = (await state(t, t.gm.token)).version;
    const byPlayer = await send(t, player.token, { type: 'set-controller', id: 'bandit', controller: player.participantId });
    expect(byPlayer.status).toBe(422);
    expect(byPlayer.body.code).toBe('lucidity.forbidden');
    const stranger = await send(t, t.gm.token, { type: 'set-controller', id: 'bandit', controller: 'nobody-here' });
    expect(stranger.body).toMatchObject({ code: 'lucidity.unknown-participant', field: 'controller' });
    const missing = await send(t, t.gm.token, { type: 'set-controller', id: 'ghost', controller: other.participantId });
    expect(missing.body.field).toBe('id');
    expect((await state(t, t.gm.token)).version).toBe(before);
    // Before: Bo may not command the Bandit. After the hand-over, Bo sees it whole and commands it.
    expect((await send(t, other.token, { type: 'move', actor: 'bandit' })).body.field).toBe('actor');
    expect((await send(t, t.gm.token, { type: 'set-controller', id: 'bandit', controller: other.participantId })).status).toBe(200);
    const bandit = (await state(t, other.token)).state.combatants.find((c: { id: string }) => c.id === 'bandit');
    expect(bandit.controller).toBe(other.participantId);
    expect((await state(t, t.gm.token)).state.log.at(-1).text).toMatch(/the GM hands Bandit to participant/);
    // Back to the GM: Bo loses it again.
    expect((await send(t, t.gm.token, { type: 'set-controller', id: 'bandit', controller: null })).status).toBe(200);
    expect((await send(t, other.token, { type: 'move', actor: 'bandit' })).body.field).toBe('actor');
  });
});
