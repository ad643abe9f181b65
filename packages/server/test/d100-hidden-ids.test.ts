import { WITHHELD } from '@personae/d100';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, seatedTable, startServer, type Running } from './helpers';

/**
 * A hidden GM character is absent for the players (the d100 module's hiding): a player who is
 * grappled, Panicked and Distracted by one is told so, but no state, event or frame the server sends
 * them holds the hidden character's id.
 */
let srv: Running;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(async () => {
  await srv.close();
});

const scores = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
const hero = { name: 'Hero', side: 'pc', scores, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] };
/** The hidden Shadow's id, unlike any other text the table sends. */
const LURKER = 'lurker-7q';
const lurker = { name: 'Skulker', kind: 'shadow', side: 'shadows', hidden: true, scores, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] };
const shade = { name: 'Shade', kind: 'shadow', side: 'shadows', scores, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] };

interface Shown {
  current: string | null;
  characters: { id: string; conditions: Record<string, unknown>; fighter: { ailments: { name: string; source?: string }[] } }[];
}

describe('a hidden d100 character over the server', () => {
  it("no frame, state or event a player or an observer receives holds a hidden character's id, though the player is told it is grappled and Panicked", async () => {
    const { table: t, player: ann, clients } = await seatedTable(srv, { name: 'Hidden', ruleset: 'd100' });
    const heroId = `${ann.participantId}:hero`;
    let n = 0;
    const send = async (token: string, command: unknown, dice?: Record<string, number[]>) => {
      const r = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: `c${++n}`, command, ...(dice ? { dice } : {}) } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r;
    };
    const answers: unknown[] = [];
    const stateOf = async (token: string) => {
      const r = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token });
      if (token !== t.gm.token) answers.push(r.body);
      return r.body.state as Shown;
    };
    answers.push((await send(ann.token, { type: 'add-character', id: 'hero', sheet: hero })).body);
    await send(t.gm.token, { type: 'add-character', id: LURKER, sheet: lurker });
    await send(t.gm.token, { type: 'add-character', id: 'shade', sheet: shade });
    for (const [id, x] of [[heroId, 0], [LURKER, 1], ['shade', 5]] as const) await send(t.gm.token, { type: 'place', target: id, x, y: 0 });
    await send(t.gm.token, { type: 'start', tieOrder: [heroId, LURKER, 'shade'] });
    await send(t.gm.token, { type: 'inflict-ailment', target: heroId, ailment: 'panicked', source: LURKER });
    for (let i = 0; (await stateOf(t.gm.token)).current !== LURKER; i++) {
      expect(i).toBeLessThan(6);
      await send(t.gm.token, { type: 'end-turn' });
    }
    // the GM's dice for the grapple: a roll of 96 or more would fumble it whatever the target
    await send(t.gm.token, { type: 'grapple', attacker: LURKER, defender: heroId, attackTarget: 300, evasionTarget: -200 }, { attack: [10], evasion: [90] });
    // the hero's next Turn starts Panicked, fleeing from its source
    for (let i = 0; (await stateOf(t.gm.token)).current !== heroId; i++) {
      expect(i).toBeLessThan(6);
      await send(t.gm.token, { type: 'end-turn' });
    }

    const heroOf = (s: Shown) => s.characters.find((c) => c.id === heroId)!;
    const gm = heroOf(await stateOf(t.gm.token));
    expect(gm.conditions.grappledBy).toBe(LURKER);
    expect(gm.fighter.ailments.find((a) => a.name === 'panicked')?.source).toBe(LURKER);
    const mine = heroOf(await stateOf(ann.token));
    expect(mine.conditions.grappledBy).toBe(WITHHELD);
    expect(mine.fighter.ailments.find((a) => a.name === 'panicked')?.source).toBe(WITHHELD);
    await stateOf(t.observer.token);
    for (const token of [ann.token, t.observer.token]) answers.push((await http(srv.url, 'GET', `/api/tables/${t.tableId}/events?since=0`, { token })).body);

    // The GM's frames name it; no player's or observer's frame or answer does.
    await clients.gm.waitFor((m) => JSON.stringify(m).includes('grapple-resolved'));
    await clients.player.waitFor((m) => JSON.stringify(m).includes(`"${WITHHELD}"`));
    expect(clients.gm.frames.join('\n')).toContain(LURKER);
    expect(clients.player.frames.length).toBeGreaterThan(3);
    expect(clients.player.frames.join('\n')).not.toContain(LURKER);
    expect(clients.observer.frames.join('\n')).not.toContain(LURKER);
    expect(JSON.stringify(answers)).not.toContain(LURKER);

    // The start of the encounter reaches the player too, with the characters it may see in their order.
    const started = (client: typeof clients.player) => client.events().find((m) => m.event?.type === 'encounter-started')?.event as { data: { order: { id: string }[] } } | undefined;
    const full = started(clients.gm)!.data.order.map((o) => o.id);
    expect([...full].sort()).toEqual([heroId, LURKER, 'shade'].sort());
    const seen = full.filter((id) => id !== LURKER);
    expect(started(clients.player)?.data.order.map((o) => o.id)).toEqual(seen);
    expect(started(clients.observer)?.data.order.map((o) => o.id)).toEqual(seen);
    for (const c of Object.values(clients)) c.close();
  });
});
