import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReveal, personaeTable } from '@personae/rules';
import { exampleSheet, http, seatedTable, startServer, type CreatedTable, type Running, type TestClient } from './helpers';

/**
 * Secret rolls over the real server: the GM rolls in secret, and a player and an observer, reading
 * every frame and every route they may, get the commitment at once and nothing of the dice, the salt
 * or what the roll was until the GM reveals it; then they can check the reveal against the commitment.
 */
let srv: Running;
let t: CreatedTable;
let gm: TestClient;
let player: TestClient;
let observer: TestClient;
let ann: { participantId: string; token: string };

const wire = (c: TestClient) => c.frames.join('\n');
const SECRET_WORDS = ['Watchers in the dark', 'Hidden Archers', 'Stealth Mastery'];

beforeAll(async () => {
  srv = await startServer(personaeTable);
  ({ table: t, player: ann, clients: { gm, player, observer } } = await seatedTable(srv));
});

afterAll(async () => {
  for (const c of [gm, player, observer]) c?.close();
  await srv.close();
});

describe('secret rolls over the server', () => {
  it('sends the commitment to everyone at once and the dice to nobody but the GM until the reveal', async () => {
    const ack = await gm.command('s1', {
      type: 'roll',
      hidden: true,
      purpose: SECRET_WORDS[0],
      actor: { name: SECRET_WORDS[1], dice: 5, modifiers: [{ value: 3, source: SECRET_WORDS[2] }] },
      reactor: { name: 'Caravan', dice: 3, modifiers: [] },
    });
    expect(ack.type).toBe('ack');
    for (const c of [gm, player, observer]) await c.untilSeq(2);

    const gmState = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.state;
    const sealed = gmState.secretRolls.sealed;
    expect(sealed).toHaveLength(1);
    const hash: string = sealed[0].hash;
    const rolled = gm.events().find((e) => e.seq === 1)!.event;
    const salt: string = rolled.seal.salt;
    expect(rolled.seal.hash).toBe(hash);

    for (const c of [player, observer]) {
      const committed = c.events().find((e) => e.seq === 2)!.event;
      expect(committed).toMatchObject({ type: 'committed', hash });
      expect(c.events().find((e) => e.seq === 1)!.event).toBeNull();
    }
    const playerState = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: ann.token })).body;
    const playerExport = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: ann.token })).text;
    expect(playerState.state.secretRolls.sealed).toEqual([]);
    expect(playerState.state.log.find((e: { commitment?: unknown }) => e.commitment)).toMatchObject({ commitment: { hash } });
    for (const text of [wire(player), wire(observer), JSON.stringify(playerState), playerExport]) {
      expect(text).toContain(hash);
      expect(text).not.toContain(salt);
      for (const w of SECRET_WORDS) expect(text).not.toContain(w);
    }
  });

  it('refuses a player who tries to reveal, and reveals on the GM\'s word to everyone, verifiably', async () => {
    const gmState = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.state;
    const hash: string = gmState.secretRolls.sealed[0].hash;
    const refused = await player.command('p1', { type: 'reveal', hash });
    expect(refused).toMatchObject({ type: 'error', code: 'gm-only' });
    expect((await gm.command('s2', { type: 'reveal', hash })).type).toBe('ack');
    for (const c of [gm, player, observer]) await c.untilSeq(3);
    for (const c of [player, observer]) {
      const revealed = c.events().find((e) => e.seq === 3)!.event;
      expect(revealed).toMatchObject({ type: 'revealed', hash, committedAt: 2 });
      expect(checkReveal(hash, revealed, revealed.result)).toEqual({ ok: true });
      const tampered = { ...revealed, dice: revealed.dice.map((d: number, i: number) => (i === 0 ? (d % 10) + 1 : d)) };
      expect(checkReveal(hash, tampered, undefined).ok).toBe(false);
      expect(wire(c)).toContain(SECRET_WORDS[1]);
    }
  });
});

describe("a player's roll marked hidden", () => {
  it('is refused over the socket and over HTTP, naming the field; the table is unchanged and nobody receives an event', async () => {
    const { table, player: dee, clients } = await seatedTable(srv, { name: 'No secret for players' }, 'Dee');
    const roll = { type: 'roll', hidden: true, actor: { name: 'Brogan Ironhand', dice: 4, modifiers: [] }, difficulty: 'challenging' };
    const version = async () => (await http(srv.url, 'GET', `/api/tables/${table.tableId}/state`, { token: table.gm.token })).body.version as number;
    try {
      const before = await version();
      const events = () => Object.values(clients).map((c) => c.events().length);
      const received = events();
      const refusal = { code: 'gm-only', field: 'hidden', message: expect.stringMatching(/^hidden: true is refused: only the GM rolls in secret/) };
      expect(await clients.player.command('x1', roll)).toMatchObject({ type: 'error', ...refusal });
      const posted = await http(srv.url, 'POST', `/api/tables/${table.tableId}/commands`, { token: dee.token, body: { commandId: 'x2', command: roll } });
      expect(posted.status).toBe(422);
      expect(posted.body).toMatchObject({ type: 'error', ...refusal });
      expect(await version()).toBe(before);
      expect(events()).toEqual(received);
      // The same roll in the open is made.
      expect(await clients.player.command('x3', { ...roll, hidden: false })).toMatchObject({ type: 'ack' });
      expect(await version()).toBe(before + 1);
    } finally {
      for (const c of Object.values(clients)) c.close();
    }
  });
});

describe('rolls of characters hidden from the players, in the open and revealed', () => {
  /** What is written on the hidden merchant's sheet, and the hidden sellsword added out of the scene. */
  const SHEET_WORDS = ['Merchant, Privateer', 'Cutlass', 'Brutal', 'Sailing', 'Lucky Compass'];
  const UNSEEN_NAME = 'Tomas Reyne';

  it('shows players the dice and the outcome, never what they may not see of those characters', async () => {
    const { table, player: dee, clients } = await seatedTable(srv, { name: 'Hidden reveal' }, 'Dee');
    const { gm: gmc, player: pc, observer: oc } = clients;
    let n = 0;
    const as = async (c: TestClient, command: unknown) => {
      const ack = await c.command(`h${++n}`, command);
      expect(ack, JSON.stringify(ack)).toMatchObject({ type: 'ack' });
    };
    const gmView = async () => (await http(srv.url, 'GET', `/api/tables/${table.tableId}/state`, { token: table.gm.token })).body;
    try {
      await as(pc, { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') });
      await as(gmc, { type: 'add-character', sheet: exampleSheet('merchant-privateer-scoundrel.yaml'), hidden: true });
      await as(gmc, { type: 'add-character', sheet: exampleSheet('wounded-sellsword.yaml'), hidden: true, outOfScene: true });
      const ids = Object.fromEntries(((await gmView()).state.characters as { id: string; name: string }[]).map((c) => [c.name, c.id]));
      const merchant = ids['Marisol "Gull" Vance']!;
      await as(gmc, { type: 'secret-reveal', reveal: 'scene' });
      // The roller names each side after the character it rolls for, with the modifiers of its sheet.
      await as(gmc, {
        type: 'roll',
        hidden: true,
        character: merchant,
        actor: { name: 'Marisol "Gull" Vance', dice: 5, modifiers: [{ value: 2, source: 'Cutlass (stature)' }, { value: 1, source: 'Brutal Cutlass Strike' }] },
        reactor: { name: 'Brogan Ironhand', dice: 3, modifiers: [{ value: 1, source: 'Perception (cunning)' }] },
      });
      await as(gmc, { type: 'roll', hidden: true, actor: { name: UNSEEN_NAME, dice: 4, modifiers: [{ value: 3, source: 'Sailing (prowess)' }] }, difficulty: 'challenging' });
      const [first, second] = (await gmView()).state.secretRolls.sealed as { hash: string }[];
      // The same sides rolled in the open are shown as option hiddenSideShown says, here the outcome.
      await as(gmc, {
        type: 'roll',
        actor: { name: 'Marisol "Gull" Vance', dice: 5, modifiers: [{ value: 2, source: 'Cutlass (stature)' }] },
        reactor: { name: UNSEEN_NAME, dice: 3, modifiers: [{ value: 1, source: 'Sailing (prowess)' }] },
      });
      await as(gmc, { type: 'reveal', hash: first!.hash });
      await as(gmc, { type: 'encounter', command: { type: 'end-scene', actor: 'gm' } });
      const version = (await gmView()).version as number;
      for (const c of [gmc, pc, oc]) await c.untilSeq(version);

      const gmRevealed = gmc.events().filter((m) => m.event?.type === 'revealed').map((m) => m.event);
      expect(gmRevealed.map((e) => e.hash)).toEqual([first!.hash, second!.hash]);
      for (const w of [...SHEET_WORDS.slice(1), UNSEEN_NAME]) expect(wire(gmc)).toContain(w);

      for (const [token, client] of [[dee.token, pc], [table.observer.token, oc]] as const) {
        const bodies: string[] = [];
        for (const path of ['state', 'events?since=0', 'export']) bodies.push((await http(srv.url, 'GET', `/api/tables/${table.tableId}/${path}`, { token })).text);
        const received = [wire(client), ...bodies].join('\n');
        for (const w of [...SHEET_WORDS, UNSEEN_NAME, ids[UNSEEN_NAME]!]) {
          const at = received.indexOf(w);
          expect(at, `leaked "${w}": ...${received.slice(Math.max(0, at - 200), at + 100)}...`).toBe(-1);
        }

        // Each reveal carries the dice, the salt and the outcome, and checks against its commitment.
        const revealed = client.events().filter((m) => m.event?.type === 'revealed').map((m) => m.event);
        expect(revealed).toHaveLength(2);
        for (const [i, e] of revealed.entries()) {
          const whole = gmRevealed[i]!;
          expect(e).toMatchObject({ hash: whole.hash, salt: whole.salt, dice: whole.dice, committedAt: whole.committedAt, when: whole.when });
          expect(e.result.outcome).toBe(whole.result.outcome);
          expect(e.result.actor.dice).toEqual(whole.result.actor.dice);
          expect(e.result.actor.modifier).toBe(whole.result.actor.modifier);
          expect(checkReveal(e.hash, e, e.result)).toEqual({ ok: true });
        }
        // The merchant is in the scene: seen by name. The sellsword is not: no name at all.
        expect(revealed[0].result.actor.name).toBe('Marisol "Gull" Vance');
        expect(revealed[0].result.reactor).toEqual(gmRevealed[0]!.result.reactor);
        expect(revealed[1].result.actor.name).not.toBe(UNSEEN_NAME);

        const log = JSON.parse(bodies[0]!).state.log as { reveal?: { hash: string }; result?: unknown; lines: string[] }[];
        const entries = log.filter((e) => e.reveal);
        expect(entries.map((e) => e.reveal!.hash)).toEqual([first!.hash, second!.hash]);
        const open = log.find((e) => e.result && !e.reveal) as { result: { actor: { name: string; dice: number[] }; reactor: { name: string }; outcome: string } };
        expect(open.result).toMatchObject({ actor: { name: 'Marisol "Gull" Vance', dice: [] }, reactor: { name: 'a hidden character' } });
        for (const e of entries) expect(checkReveal(e.reveal!.hash, e.reveal as never, e.result as never)).toEqual({ ok: true });
      }
    } finally {
      for (const c of [gmc, pc, oc]) c.close();
    }
  });
});

describe('the fairness check of physical dice over the server', () => {
  it('goes to the GM only: a player who typed dice in never receives the check', async () => {
    const { table, player: bea, clients } = await seatedTable(srv, { name: 'Physical', settings: { physicalDice: true } }, 'Bea');
    const pc = clients.player;
    try {
      for (let i = 0; i < 3; i++) {
        const ack = await pc.command(`f${i}`, { type: 'roll', actor: { name: 'Bea', dice: 2, modifiers: [] }, reactor: { name: 'Wall', dice: 2, modifiers: [] } }, { dice: { actor: [10, 9] } });
        expect(ack.type).toBe('ack');
      }
      pc.send({ type: 'state' });
      await pc.waitFor((m) => m.type === 'state');
      const gmView = (await http(srv.url, 'GET', `/api/tables/${table.tableId}/state`, { token: table.gm.token })).body.state;
      expect(gmView.diceFairness).toEqual([expect.objectContaining({ participantId: bea.participantId, faces: expect.objectContaining({ dice: 6, enoughData: false }) })]);
      expect(gmView.diceFairness[0].outcomes.challenges).toBe(3);
      const playerView = (await http(srv.url, 'GET', `/api/tables/${table.tableId}/state`, { token: bea.token })).body;
      const playerExport = (await http(srv.url, 'GET', `/api/tables/${table.tableId}/export`, { token: bea.token })).text;
      expect(playerView.state.diceFairness).toBeNull();
      for (const text of [wire(pc), JSON.stringify(playerView), playerExport]) {
        expect(text).not.toContain('chiSquare');
        expect(text).not.toContain('pValue');
      }
    } finally {
      for (const c of Object.values(clients)) c.close();
    }
  });
});
