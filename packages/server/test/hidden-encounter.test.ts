import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personaeTable } from '@personae/rules';
import { connectAs, exampleSheet, http, seatedTable, startServer, type CreatedTable, type Running, type TestClient } from './helpers';

/**
 * A whole encounter with a hidden adversary, played over the real server, while a player and an
 * observer record every frame and read every HTTP route they may: nothing written on the hidden sheet
 * may reach them.
 */
const SECRETS = ['Merchant, Privateer', 'Cutlass', 'Flintlock', 'Sailing', 'Bluff', 'Misdirection', 'Lucky Compass', 'Port-Born', 'Brutal'];

let srv: Running;
let t: CreatedTable;
let ann: { participantId: string; token: string };
let gm: TestClient;
let player: TestClient;
let observer: TestClient;
const bodies: string[] = [];
let n = 0;

async function as(client: TestClient, command: unknown): Promise<Record<string, any>> {
  return client.command(`c${++n}`, command);
}

async function gmState(): Promise<any> {
  return (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.state;
}

beforeAll(async () => {
  srv = await startServer(personaeTable);
  ({ table: t, player: ann, clients: { gm, player, observer } } = await seatedTable(srv));

  expect((await as(gm, { type: 'configure', preset: 'core-2011', options: { actionOrder: 'initiative-skill' } })).type).toBe('ack');
  expect((await as(player, { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') })).type).toBe('ack');
  expect((await as(gm, { type: 'add-character', sheet: exampleSheet('merchant-privateer-scoundrel.yaml'), hidden: true })).type).toBe('ack');
  const ids = (await gmState()).characters.map((c: { id: string }) => c.id) as string[];
  const [dwarf, merchant] = ids as [string, string];
  // Before the encounter, the player guesses at the hidden character.
  bodies.push(JSON.stringify(await as(player, { type: 'encounter', command: { type: 'escalate', actor: merchant, to: 'non-violent' } })));
  await as(player, { type: 'encounter', command: { type: 'escalate', actor: dwarf, to: 'non-violent' } });
  await as(player, { type: 'encounter', command: { type: 'escalate', actor: dwarf, to: 'violent' } });
  for (let round = 1; round <= 3; round++) {
    for (let i = 0; i < 2; i++) {
      const turn = (await gmState()).scene.combat.turn.actor;
      if (turn === dwarf) {
        expect((await as(player, { type: 'encounter', command: { type: 'attack', actor: dwarf, target: merchant } })).type).toBe('ack');
        await as(player, { type: 'encounter', command: { type: 'end-turn', actor: dwarf } });
      } else {
        const command =
          round === 3
            ? { type: 'defend', actor: merchant, kind: 'parry', skill: 'Cutlass' }
            : { type: 'attack', actor: merchant, target: dwarf, skill: 'Cutlass', abilities: ['Brutal Cutlass Strike'] };
        expect((await as(gm, { type: 'encounter', hidden: round !== 2, command })).type).toBe('ack');
        await as(gm, { type: 'encounter', command: { type: 'end-turn', actor: merchant } });
      }
    }
  }
  // Refused: the hidden parry meets the warhammer; the player names the reactor's ability.
  bodies.push(JSON.stringify(await as(player, { type: 'encounter', command: { type: 'attack', actor: dwarf, target: merchant } })));
  bodies.push(JSON.stringify(await as(player, { type: 'encounter', command: { type: 'attack', actor: dwarf, target: merchant, reactorAbilities: ['Misdirection'] } })));
  const seen = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version as number;
  expect((await as(gm, { type: 'encounter', command: { type: 'undo', actor: 'gm' }, seen })).type).toBe('ack');
  const version = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version as number;
  for (const c of [gm, player, observer]) await c.untilSeq(version);
  for (const token of [ann.token, t.observer.token]) {
    for (const path of ['state', 'events?since=0', 'export', '']) {
      const res = await http(srv.url, 'GET', `/api/tables/${t.tableId}${path ? `/${path}` : ''}`, { token });
      expect(res.status).toBe(200);
      bodies.push(res.text);
    }
    const again = await connectAs(srv.wsUrl, t.tableId, token, 0);
    await again.client.untilSeq(version);
    again.client.send({ type: 'state' });
    await again.client.waitFor((m) => m.type === 'state');
    bodies.push(...again.client.frames);
    again.client.close();
  }
}, 60_000);

afterAll(async () => {
  for (const c of [gm, player, observer]) c?.close();
  await srv?.close();
});

describe('a hidden adversary over the wire', () => {
  it('the GM receives the hidden sheet (so the search below can find it)', () => {
    const text = gm.frames.join('\n');
    for (const s of SECRETS) expect(text).toContain(s);
  });

  it('no frame or HTTP body a player or an observer receives names anything on the hidden sheet', () => {
    const received = [...player.frames, ...observer.frames, ...bodies].join('\n');
    for (const s of SECRETS) expect(received, `leaked "${s}"`).not.toContain(s);
    expect(received).not.toMatch(/Vance sustains \d/);
  });

  it('the refusals a player receives do not tell a hidden ability or weapon apart', () => {
    const refusals = bodies.slice(0, 3).map((b) => JSON.parse(b));
    expect(refusals.map((r) => r.type)).toEqual(['error', 'error', 'error']);
    expect(refusals[0].code).toBe('not-your-character');
    expect(refusals[1].code).toBe('refused');
    expect(refusals[2].code).toBe('not-your-choice');
  });
});

describe('an import is taken only if every event is known and folds into a valid table', () => {
  it('refuses unknown event types, unknown characters and prototype-key ids, and takes the untouched export', async () => {
    const exported = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token })).body;
    const last = exported.events.length - 1;
    const variants: Array<[string, (file: any) => void]> = [
      ['an unknown table event', (f) => (f.events[last].event = { type: 'grant-everything', by: 'x', at: 'y' })],
      ['an unknown encounter event', (f) => (f.events[last].event = { ...f.events[last].event, type: 'encounter', event: { type: 'win', seq: 1, action: 1 } })],
      ['an owner for "constructor"', (f) => (f.events[last].event = { type: 'owner-set', id: 'constructor', owner: null, by: 'x', at: 'y' })],
      ['a sheet update for a character that is not there', (f) => (f.events[last].event = { ...f.events[1].event, type: 'sheet-updated', id: '__proto__' })],
    ];
    for (const [what, poison] of variants) {
      const file = structuredClone(exported);
      poison(file);
      const res = await http(srv.url, 'POST', '/api/tables/import', { body: file });
      expect(res.status, what).toBe(400);
      expect(res.body.code, what).toBe('invalid_import');
      expect(res.body.field, what).toMatch(new RegExp(`^events\\.${last}\\.event`));
    }
    const ok = await http(srv.url, 'POST', '/api/tables/import', { body: exported });
    expect(ok.status).toBe(201);
  });
});

