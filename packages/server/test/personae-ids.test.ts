import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personaeTable } from '@personae/rules';
import { connectAs, createTable, exampleSheet, http, joinTable, relaxedLimits, startServer, type CreatedTable, type Running } from './helpers';

/**
 * A Personae table makes a new character's id from its name. Played as a player against the real
 * server, over HTTP and the WebSocket: whether the GM holds a hidden character (out of the scene) or
 * a hidden hazard of that name must not show in anything the player or an observer receives, and no
 * one may put a character in another seat's id space.
 */
let srv: Running;
let n = 0;

beforeAll(async () => {
  srv = await startServer(personaeTable, { config: relaxedLimits() });
});
afterAll(async () => {
  await srv.close();
});

type Seat = { participantId: string; token: string };
const named = (file: string, name: string) => ({ ...exampleSheet(file), name });
const idFrom = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

async function post(t: CreatedTable, token: string, command: unknown, commandId = `c${++n}`) {
  const res = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId, command } });
  return { status: res.status, body: res.body as Record<string, any> };
}

async function gmCharacters(t: CreatedTable): Promise<Array<{ id: string; owner: string | null }>> {
  return (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.state.characters;
}

/**
 * A table where the GM added a hidden character named `hiddenName` and took it out of the scene, and
 * brought in a hidden hazard named alike; then Ann adds Brogan Ironhand over HTTP and Bo over the
 * WebSocket. Returns everything Ann, Bo and the observer received from the add on, in one text.
 */
async function addAfterHidden(hiddenName: string) {
  const t = await createTable(srv.url);
  const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
  const bo = await joinTable(srv.url, t.tableId, t.invite.token, 'Bo');
  expect((await post(t, t.gm.token, { type: 'add-character', sheet: named('merchant-privateer-scoundrel.yaml', hiddenName), hidden: true })).status).toBe(200);
  const hidden = (await gmCharacters(t))[0]!.id;
  expect(hidden).toBe(idFrom(hiddenName));
  expect((await post(t, t.gm.token, { type: 'encounter', command: { type: 'leave', actor: 'gm', id: hidden } })).status).toBe(200);
  const hazard = { id: `${hidden}-2`, name: hiddenName, skills: [{ name: 'Falling Rocks', dice: 4, attribute: 'stature' }], obstacle: { kind: 'hazard', hidden: true } };
  expect((await post(t, t.gm.token, { type: 'encounter', hidden: true, command: { type: 'join', actor: 'gm', character: hazard } })).status).toBe(200);

  const seats = await Promise.all([ann.token, bo.token, t.observer.token].map((token) => connectAs(srv.wsUrl, t.tableId, token)));
  const from = seats.map((s) => s.client.frames.length);
  const received: string[] = [];
  const added = await post(t, ann.token, { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') }, 'ann-add');
  expect(added.status).toBe(200);
  received.push(JSON.stringify(added.body));
  const ack = await seats[1]!.client.command('bo-add', { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') });
  expect(ack.type).toBe('ack');
  const version = ack.version as number;
  for (const s of seats) await s.client.untilSeq(version);
  seats.forEach((s, i) => {
    received.push(...s.client.frames.slice(from[i]));
    s.client.close();
  });
  for (const token of [ann.token, bo.token, t.observer.token]) {
    for (const path of ['state', `events?since=${added.body.firstSeq - 1}`]) received.push((await http(srv.url, 'GET', `/api/tables/${t.tableId}/${path}`, { token })).text);
  }
  // The same table's ids and times differ from one run to the next; they say nothing of the hidden characters.
  const text = received
    .join('\n')
    .replaceAll(t.tableId, 'TABLE')
    .replaceAll(ann.participantId, 'ANN')
    .replaceAll(bo.participantId, 'BO')
    .replaceAll(t.gm.participantId, 'GM')
    .replace(/"(at|createdAt|updatedAt)":"[^"]*"/g, '"$1":"T"');
  return { t, ann, bo, text, characters: await gmCharacters(t) };
}

describe("a new character's id at a Personae table, tried as a player", () => {
  it('a name that a hidden character and a hidden hazard hold and one no one holds are answered alike, over HTTP and the WebSocket', async () => {
    const clash = await addAfterHidden('Brogan Ironhand');
    const free = await addAfterHidden('Someone Else');
    // The players and the observer saw the hidden characters' names while they were in the scene;
    // with those put alike, every answer, frame and body they received is the same.
    expect(free.text).toContain('Someone Else');
    expect(clash.text).toBe(free.text.replaceAll('Someone Else', 'Brogan Ironhand').replaceAll('someone-else', 'brogan-ironhand'));
    expect(free.text).toContain('ANN:brogan-ironhand');
    for (const run of [clash, free]) {
      expect(run.characters.filter((c) => c.owner !== null).map((c) => [c.id, c.owner])).toEqual([
        [`${run.ann.participantId}:brogan-ironhand`, run.ann.participantId],
        [`${run.bo.participantId}:brogan-ironhand`, run.bo.participantId],
      ]);
    }
  }, 60_000);

  it("no one puts a character in another seat's id space, nor a player in the GM's", async () => {
    const t = await createTable(srv.url);
    const ann: Seat = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const bo: Seat = await joinTable(srv.url, t.tableId, t.invite.token, 'Bo');
    expect((await post(t, bo.token, { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') })).status).toBe(200);
    expect((await post(t, t.gm.token, { type: 'add-character', sheet: exampleSheet('merchant-privateer-scoundrel.yaml'), hidden: true })).status).toBe(200);
    const before = await gmCharacters(t);
    const boDwarf = `${bo.participantId}:brogan-ironhand`;
    expect(before.map((c) => c.id)).toEqual([boDwarf, 'marisol-gull-vance']);
    const { client } = await connectAs(srv.wsUrl, t.tableId, ann.token);
    // A player's command carries no id to choose: one given is refused, over HTTP and the WebSocket.
    for (const id of [boDwarf, 'marisol-gull-vance']) {
      expect(await post(t, ann.token, { type: 'add-character', id, sheet: exampleSheet('dwarf-iron-constitution.yaml') })).toMatchObject({ status: 400, body: { code: 'invalid-command' } });
      expect(await client.command(`ws${++n}`, { type: 'add-character', id, sheet: exampleSheet('dwarf-iron-constitution.yaml') })).toMatchObject({ type: 'error', code: 'invalid-command' });
    }
    // Only the GM brings characters in under an id of their choice, and never one in a seat's space.
    const hazard = (id: string) => ({ type: 'encounter', hidden: true, command: { type: 'join', actor: 'gm', character: { id, name: 'Trap', skills: [{ name: 'Spikes', dice: 3, attribute: 'stature' }], obstacle: { kind: 'hazard', hidden: true } } } });
    expect(await post(t, ann.token, hazard('trap'))).toMatchObject({ status: 422, body: { code: 'gm-only' } });
    for (const id of [`${ann.participantId}:brogan-ironhand`, `${bo.participantId}:trap`]) {
      expect(await post(t, t.gm.token, hazard(id))).toMatchObject({ status: 422, body: { code: 'bad-id', field: 'command.character.id' } });
    }
    expect(await gmCharacters(t)).toEqual(before);
    // A name written like another seat's id, or like the GM's character's, gives an id in the player's own space.
    expect((await client.command(`ws${++n}`, { type: 'add-character', sheet: named('dwarf-iron-constitution.yaml', boDwarf) })).type).toBe('ack');
    expect((await post(t, ann.token, { type: 'add-character', sheet: named('dwarf-iron-constitution.yaml', 'Marisol Gull Vance') })).status).toBe(200);
    client.close();
    expect((await gmCharacters(t)).slice(2).map((c) => [c.id, c.owner])).toEqual([
      [`${ann.participantId}:${idFrom(boDwarf)}`, ann.participantId],
      [`${ann.participantId}:marisol-gull-vance`, ann.participantId],
    ]);
  }, 60_000);
});
