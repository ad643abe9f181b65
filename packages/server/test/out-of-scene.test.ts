import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personaeTable } from '@personae/rules';
import { exampleSheet, http, seatedTable, startServer, type CreatedTable, type Running, type TestClient } from './helpers';

/**
 * Characters the GM adds out of the scene (`add-character` with `outOfScene`), over the real server as
 * the web app sends it: a player and an observer read every frame, the state, the events and the
 * export. A hidden one is nowhere in what they receive until the GM brings it in with `enter-scene`,
 * and its sheet never is; an open one is at the table but not in the scene.
 */
const HIDDEN_NAME = 'Marisol "Gull" Vance';
const SHEET_WORDS = ['Merchant, Privateer', 'Cutlass', 'Flintlock', 'Sailing', 'Misdirection', 'Lucky Compass', 'Port-Born'];

let srv: Running;
let t: CreatedTable;
let ann: { participantId: string; token: string };
let gm: TestClient;
let player: TestClient;
let observer: TestClient;
let n = 0;

async function as(client: TestClient, command: unknown): Promise<Record<string, any>> {
  return client.command(`o${++n}`, command);
}

const get = async (token: string, path: string) => (await http(srv.url, 'GET', `/api/tables/${t.tableId}${path}`, { token })).text;
const version = async () => (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version as number;

/** Everything a seat has received so far: its frames, then what it reads over HTTP now. */
async function received(client: TestClient, token: string): Promise<string> {
  const bodies = await Promise.all(['/state', '/events?since=0', '/export'].map((p) => get(token, p)));
  return [...client.frames, ...bodies].join('\n');
}

/** Expects `word` nowhere in `text`; a failure shows what surrounds it. */
function absent(text: string, word: string, who: string): void {
  const at = text.indexOf(word);
  expect(at, `${who} received "${word}": ...${text.slice(Math.max(0, at - 150), at + 80)}...`).toBe(-1);
}

beforeAll(async () => {
  srv = await startServer(personaeTable);
  ({ table: t, player: ann, clients: { gm, player, observer } } = await seatedTable(srv));
  expect(await as(player, { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') })).toMatchObject({ type: 'ack' });
});

afterAll(async () => {
  for (const c of [gm, player, observer]) c?.close();
  await srv?.close();
});

describe('a character added out of the scene, over the server', () => {
  let merchant: string;

  it('hidden: the GM receives it whole; a player and an observer receive nothing of it, not even its id or name', async () => {
    const ack = await as(gm, { type: 'add-character', sheet: exampleSheet('merchant-privateer-scoundrel.yaml'), hidden: true, outOfScene: true });
    expect(ack).toMatchObject({ type: 'ack' });
    const v = await version();
    for (const c of [gm, player, observer]) await c.untilSeq(v);
    const gmView = JSON.parse(await get(t.gm.token, '/state')).state;
    const added = gmView.characters.find((c: { name: string }) => c.name === HIDDEN_NAME);
    expect(added).toMatchObject({ hidden: true, play: null });
    merchant = added.id;
    expect(gmView.scene.roster).not.toContain(merchant);
    const gmText = await received(gm, t.gm.token);
    for (const w of [JSON.stringify(HIDDEN_NAME).slice(1, -1), merchant, ...SHEET_WORDS]) expect(gmText).toContain(w);

    for (const [who, client, token] of [['player', player, ann.token], ['observer', observer, t.observer.token]] as const) {
      const text = await received(client, token);
      for (const w of ['Marisol', merchant, ...SHEET_WORDS]) absent(text, w, who);
      // The command's own event reaches them as a bare sequence number.
      expect(client.events().filter((e) => e.seq > ack.firstSeq - 1 && e.seq <= ack.lastSeq).map((e) => e.event)).toEqual([null]);
    }
  });

  it('a player naming it is answered as one naming no one, and may neither add out of the scene nor bring it in', async () => {
    const dwarf = `${ann.participantId}:brogan-ironhand`;
    const answer = async (id: string) => {
      const reply = await as(player, { type: 'encounter', command: { type: 'attack', actor: dwarf, target: id } });
      return { ...reply, commandId: undefined, message: String(reply.message).replaceAll(id, 'ID') };
    };
    expect(await answer(merchant)).toEqual(await answer('nobody-here'));
    expect(await as(player, { type: 'add-character', sheet: exampleSheet('wounded-sellsword.yaml'), outOfScene: true })).toMatchObject({ type: 'error', code: 'gm-only', field: 'type' });
    expect(await as(player, { type: 'enter-scene', id: merchant })).toMatchObject({ type: 'error', code: 'gm-only' });
    absent(await received(player, ann.token), 'Marisol', 'player');
  });

  it('brought in with enter-scene: players see it in the scene by name and condition, never its sheet', async () => {
    const from = player.frames.length;
    expect(await as(gm, { type: 'enter-scene', id: merchant })).toMatchObject({ type: 'ack' });
    expect(await as(gm, { type: 'enter-scene', id: merchant })).toMatchObject({ type: 'error', code: 'already-present', field: 'id' });
    const v = await version();
    for (const c of [gm, player, observer]) await c.untilSeq(v);
    expect(player.frames.slice(from).join('\n')).toContain('Marisol');
    for (const [who, client, token] of [['player', player, ann.token], ['observer', observer, t.observer.token]] as const) {
      const view = JSON.parse(await get(token, '/state')).state;
      expect(view.characters.find((c: { id: string }) => c.id === merchant)).toMatchObject({ name: HIDDEN_NAME, hidden: true, sheet: null, play: { present: true } });
      expect(view.scene.roster).toContain(merchant);
      const text = await received(client, token);
      for (const w of SHEET_WORDS) absent(text, w, who);
    }
  });

  it('open: everyone sees it at the table, out of the scene until the GM brings it in', async () => {
    expect(await as(gm, { type: 'add-character', sheet: exampleSheet('wounded-sellsword.yaml'), outOfScene: true })).toMatchObject({ type: 'ack' });
    const v = await version();
    for (const c of [gm, player, observer]) await c.untilSeq(v);
    for (const token of [t.gm.token, ann.token, t.observer.token]) {
      const view = JSON.parse(await get(token, '/state')).state;
      const sellsword = view.characters.find((c: { name: string }) => c.name === 'Tomas Reyne');
      expect(sellsword).toMatchObject({ hidden: false, play: null });
      expect(sellsword.sheet).not.toBeNull();
      expect(view.scene.roster).not.toContain(sellsword.id);
    }
  });
});
