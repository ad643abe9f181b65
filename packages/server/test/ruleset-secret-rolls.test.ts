import '@personae/d100';
import '@personae/lucidity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRevealedDice } from '@personae/core';
import { d100DiceOf } from '@personae/d100';
import { lucidityDiceOf } from '@personae/lucidity';
import { connectAs, createTable, http, joinTable, startServer, type Running, type TestClient } from './helpers';

/**
 * Secret rolls and the fairness check of typed dice at d100 and Lucidity tables, over the real server:
 * a player reads every frame, the state and the export; before the reveal they hold the commitment and
 * none of the roll's dice, its salt or what it was; after it, they check the dice themselves.
 */
let srv: Running;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(async () => {
  await srv.close();
});

const wire = (c: TestClient) => c.frames.join('\n');
const stateOf = async (tableId: string, token: string) => (await http(srv.url, 'GET', `/api/tables/${tableId}/state`, { token })).body;
const exportOf = async (tableId: string, token: string) => (await http(srv.url, 'GET', `/api/tables/${tableId}/export`, { token })).text;
let n = 0;
const as = async (c: TestClient, command: unknown, extra: Record<string, unknown> = {}) => {
  const ack = await c.command(`c${++n}`, command, extra);
  expect(ack, JSON.stringify(ack)).toMatchObject({ type: 'ack' });
  return ack;
};

const scores = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 40, willpower: 30, fellowship: 30 };
const SECRET = 'Gloomstalker Ambush Check';

interface Case {
  readonly ruleset: 'd100' | 'lucidity';
  readonly diceOf: (e: unknown) => number[];
  /** Sets the table up: the player's character, the GM's hidden one; returns the secret command. */
  setup(gm: TestClient, player: TestClient, participantId: string, version: () => Promise<number>): Promise<unknown>;
  /** A command the player makes for their own character, with the dice they type in. */
  typed(participantId: string): { command: unknown; dice: Record<string, number[]> };
}

const cases: Case[] = [
  {
    ruleset: 'd100',
    diceOf: d100DiceOf,
    async setup(gm, player) {
      await as(player, { type: 'add-character', id: 'hero', sheet: { name: 'Hero', side: 'pc', arcanaLevel: 4, scores, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] } });
      await as(gm, { type: 'add-character', id: 'stalker', sheet: { name: 'Stalker', kind: 'shadow', side: 'shadows', hidden: true, scores, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] } });
      return { type: 'test', who: 'stalker', score: 'perception', label: SECRET };
    },
    typed: (p) => ({ command: { type: 'test', who: `${p}:hero`, score: 'perception', label: 'Search' }, dice: { actor: [37] } }),
  },
  {
    ruleset: 'lucidity',
    diceOf: lucidityDiceOf,
    async setup(gm, _player, p) {
      await as(gm, { type: 'add', id: 'ana', side: 'party', controller: p, statBlock: { name: 'Ana', health: 10, lucidity: 14, energy: 5, attributes: { STR: 1, CON: 1 }, weapons: [{ name: 'Axe', damage: '1d8' }] } });
      await as(gm, { type: 'add', id: 'stalker', side: 'foe', hidden: true, statBlock: { name: 'Stalker', health: 5, attributes: { AWA: 2 }, weapons: [{ name: 'Bite', damage: '1d6' }] } });
      return { type: 'roll', actor: 'stalker', attribute: 'AWA', target: 12, label: SECRET };
    },
    typed: () => ({ command: { type: 'roll', actor: 'ana', attribute: 'STR', target: 12 }, dice: { d20: [17] } }),
  },
];

describe.each(cases)('secret rolls at a $ruleset table over the server', (c) => {
  it('sends everyone the commitment at once, the dice and salt to the GM only, and a reveal anyone can check', async () => {
    const t = await createTable(srv.url, { name: `Secret ${c.ruleset}`, ruleset: c.ruleset, settings: { physicalDice: true } });
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const gm = (await connectAs(srv.wsUrl, t.tableId, t.gm.token)).client;
    const player = (await connectAs(srv.wsUrl, t.tableId, ann.token)).client;
    const observer = (await connectAs(srv.wsUrl, t.tableId, t.observer.token)).client;
    try {
      const secret = await c.setup(gm, player, ann.participantId, async () => (await stateOf(t.tableId, t.gm.token)).version);
      await as(gm, secret);
      const version = (await stateOf(t.tableId, t.gm.token)).version as number;
      for (const x of [gm, player, observer]) await x.untilSeq(version);
      const committedGm = gm.events().find((m) => m.event?.type === 'roll-committed')!;
      const { hash, salt, dice, rolls } = committedGm.event;
      expect(committedGm.seq).toBe(version);
      expect(dice).toEqual(rolls.flatMap(c.diceOf));
      expect(JSON.stringify(rolls)).toContain(SECRET);

      for (const x of [player, observer]) {
        expect(x.events().find((m) => m.seq === version)!.event).toEqual({ type: 'roll-committed', hash, reveal: 'gm', by: t.gm.participantId });
        // The roll itself is not sent.
        expect(x.events().find((m) => m.seq === version - 1)!.event).toBeNull();
      }
      const playerState = await stateOf(t.tableId, ann.token);
      expect(playerState.state.secretRolls.sealed).toEqual([]);
      expect(playerState.state.secretRolls.log).toEqual([{ kind: 'committed', seq: version, hash, reveal: 'gm', by: t.gm.participantId }]);
      expect((await stateOf(t.tableId, t.gm.token)).state.secretRolls.sealed).toEqual([{ hash, committedAt: version }]);
      for (const text of [wire(player), wire(observer), JSON.stringify(playerState), await exportOf(t.tableId, ann.token)]) {
        expect(text).toContain(hash);
        expect(text).not.toContain(salt);
        expect(text).not.toContain(SECRET);
      }

      // Only the GM reveals; a player's attempt changes nothing.
      expect(await player.command('p-reveal', { type: 'reveal-roll', hash })).toMatchObject({ type: 'error', code: 'gm-only' });
      expect(await gm.command('bad-hash', { type: 'reveal-roll', hash: 'f'.repeat(64) })).toMatchObject({ type: 'error', code: 'unknown-commitment' });
      expect((await stateOf(t.tableId, t.gm.token)).version).toBe(version);
      await as(gm, { type: 'reveal-roll', hash });
      for (const x of [gm, player, observer]) await x.untilSeq(version + 1);
      for (const x of [player, observer]) {
        const revealed = x.events().find((m) => m.seq === version + 1)!.event;
        expect(revealed).toMatchObject({ type: 'roll-revealed', hash, salt, dice, committedAt: version, when: 'gm' });
        expect(checkRevealedDice(hash, revealed, revealed.rolls.flatMap(c.diceOf))).toEqual({ ok: true });
        const changed = { ...revealed, dice: revealed.dice.map((d: number, i: number) => (i === 0 ? d + 1 : d)) };
        expect(checkRevealedDice(hash, changed, undefined).ok).toBe(false);
        // The reveal shows the hidden character's dice and outcome, not its name, id or what it rolled for.
        expect(revealed.rolls.map((r: { type: string }) => r.type)).toEqual(rolls.map(() => 'withheld-roll'));
        expect(JSON.stringify(revealed.rolls)).toMatch(/"success":(true|false)/);
      }
      const playerLog = (await stateOf(t.tableId, ann.token)).state.secretRolls.log;
      expect(playerLog[1]).toMatchObject({ kind: 'revealed', hash, committedAt: version });
      expect(checkRevealedDice(hash, playerLog[1], playerLog[1].rolls.flatMap(c.diceOf))).toEqual({ ok: true });
      for (const text of [wire(player), wire(observer), JSON.stringify(await stateOf(t.tableId, ann.token)), await exportOf(t.tableId, ann.token)]) {
        for (const w of [SECRET, 'Stalker', 'stalker']) expect(text).not.toContain(w);
      }
      expect(wire(gm)).toContain(SECRET);
    } finally {
      for (const x of [gm, player, observer]) x.close();
    }
  });

  it("keeps the fairness check of typed dice in the GM's view: a player who typed dice in never receives it", async () => {
    const t = await createTable(srv.url, { name: `Fair ${c.ruleset}`, ruleset: c.ruleset, settings: { physicalDice: true } });
    const bea = await joinTable(srv.url, t.tableId, t.invite.token, 'Bea');
    const gm = (await connectAs(srv.wsUrl, t.tableId, t.gm.token)).client;
    const player = (await connectAs(srv.wsUrl, t.tableId, bea.token)).client;
    try {
      await c.setup(gm, player, bea.participantId, async () => 0);
      const { command, dice } = c.typed(bea.participantId);
      for (let i = 0; i < 3; i++) await as(player, command, { dice });
      const gmView = (await stateOf(t.tableId, t.gm.token)).state;
      expect(gmView.diceFairness).toEqual([expect.objectContaining({ participantId: bea.participantId, faces: expect.objectContaining({ enoughData: false }), outcomes: expect.objectContaining({ challenges: 3 }) })]);
      expect(gmView.diceFairness[0].faces.dice).toBe(c.ruleset === 'd100' ? 6 : 3);
      player.send({ type: 'state' });
      await player.waitFor((m) => m.type === 'state');
      const playerView = await stateOf(t.tableId, bea.token);
      expect(playerView.state.diceFairness).toBeNull();
      for (const text of [wire(player), JSON.stringify(playerView), await exportOf(t.tableId, bea.token)]) {
        expect(text).not.toContain('chiSquare');
        expect(text).not.toContain('dice-tallied');
      }
    } finally {
      gm.close();
      player.close();
    }
  });
});
