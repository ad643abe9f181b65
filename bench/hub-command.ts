/**
 * The table server's own work per command, without sockets or a database: a TableHub (the Personae
 * domain, as the server runs it) over a store that answers at once, with six viewers per table (a GM
 * and five players) whose messages are counted and dropped. Each command is the roll
 * bench/server-load.ts sends (1-5 dice against 2), from a player, at tables taken in turn.
 *
 *   node --import tsx bench/hub-command.ts [commands=18000] [--tables 200] [--rounds 5] [--receive views|both] [--characters] [--against DIR]
 *
 * Every round plays on new tables, so the logs are as long as in the first phase of server-load
 * (200 tables, 15 s at one roll a second from each of six clients: 90 entries a table at the end).
 * `--receive views` (the default) makes the viewers ask for views alone, as the web app does (no event
 * messages); `both` sends them every event message and then the view.
 * `--characters` starts every table in play, as real tables are: the GM adds a dwarf for the first
 * player and a merchant hidden from the players, and the player turns an encounter between them
 * violent (views then carry characters, a scene and development rows), before the rolls.
 * Prints per round the CPU time per command (the process, all threads; with no writer thread this
 * is the hub: checking, deciding, folding, redacting, the six views and their changes, and the
 * messages' text), the bytes handed to the viewers per command, and the machine's load average.
 *
 * `--against DIR` measures this code beside other code in the same process: DIR is a checkout of the
 * repository (with its node_modules), whose packages/server/src makes a second hub. Each round plays
 * the same commands on both, on tables of their own, in alternating blocks of 500, and prints the CPU
 * time per command of each and their ratio (this / DIR): a busy machine's drift falls on both alike.
 */
import { loadSheet } from '@personae/rules';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TableHub, type Viewer } from '../packages/server/src/tables';
import { registryDomains } from '../packages/server/src/rulesets';
import type { Store, TableRecord, ParticipantRecord } from '../packages/server/src/store';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const commands = Number(args[0] && !args[0].startsWith('--') ? args[0] : 18_000);
const tableCount = option('tables', 200);
const rounds = option('rounds', 5);
const receiveAt = args.indexOf('--receive');
const receive = receiveAt >= 0 ? args[receiveAt + 1] : 'views';
if (receive !== 'views' && receive !== 'both') throw new Error('--receive is views or both');
const inPlay = args.includes('--characters');
const sheet = (file: string) => {
  const loaded = loadSheet(readFileSync(new URL(`../examples/characters/${file}`, import.meta.url), 'utf8'), file);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return JSON.parse(JSON.stringify(loaded.sheet)) as Record<string, unknown>;
};
const SHEETS = inPlay ? [sheet('dwarf-iron-constitution.yaml'), sheet('merchant-privateer-scoundrel.yaml')] : [];

const participants: ParticipantRecord[] = [
  { id: 'p_gm', role: 'gm', displayName: 'GM', joinedAt: '2026-01-01T00:00:00.000Z', removedAt: null },
  ...[1, 2, 3, 4, 5].map((i) => ({ id: `p_${i}`, role: 'player' as const, displayName: `P${i}`, joinedAt: '2026-01-01T00:00:00.000Z', removedAt: null })),
];
const records = new Map<string, TableRecord>();
/** Only what the command path asks of a store; every append is accepted. */
const store = {
  kind: 'sqlite',
  getTable: async (id: string) => records.get(id) ?? null,
  listParticipants: async () => participants,
  readEvents: async () => [],
  loadTables: async (ids: string[]) => new Map(ids.flatMap((id) => (records.has(id) ? [[id, { table: records.get(id)!, participants, events: [] }] as const] : []))),
  getCommand: async () => null,
  appendEvents: async () => ({ ok: true }) as const,
} as unknown as Store;
const log = { info() {}, warn() {}, error() {} };
const hubOptions = { tableCommandRate: { burst: 1e9, perSecond: 1e9 } };
type Hub = Pick<TableHub<unknown, unknown, unknown>, 'commandFromViewer'>;
const thisHub: Hub = new TableHub(store, registryDomains(), log, hubOptions);
const againstAt = args.indexOf('--against');
const againstDir = againstAt >= 0 ? args[againstAt + 1]! : null;
/** The hub of the code in --against, over the same store. */
async function otherHub(dir: string): Promise<Hub> {
  const root = pathToFileURL(`${resolve(dir)}/`);
  // Its own copy of the rules registers its rulesets where its registryDomains looks.
  await import(new URL('node_modules/@personae/rules/src/index.ts', root).href);
  const [{ TableHub: Other }, { registryDomains: otherDomains }] = await Promise.all([
    import(new URL('packages/server/src/tables.ts', root).href),
    import(new URL('packages/server/src/rulesets.ts', root).href),
  ]);
  return new Other(store, otherDomains(), log, hubOptions) as Hub;
}

let bytes = 0;
let n = 0;
let messages = 0;

/** New tables for a round, each with its six viewers, so every round starts from empty logs. */
async function newTables(round: number, hub: Hub = thisHub): Promise<Map<string, Viewer[]>> {
  const viewers = new Map<string, Viewer[]>();
  for (let i = 0; i < tableCount; i++) {
    const id = `${hub === thisHub ? '' : 'other-'}r${round}t${i}`;
    records.set(id, { id, name: `Bench ${i}`, createdAt: '2026-01-01T00:00:00.000Z', ruleset: 'personae', settings: { physicalDice: false }, version: 0 });
    const list = participants.map(
      (p): Viewer => ({
        actor: { role: p.role, participantId: p.id },
        tokenHash: p.id,
        open: true,
        events: receive === 'both',
        send: (m) => {
          bytes += JSON.stringify(m).length;
          messages++;
        },
        sendText: (text) => {
          bytes += text.length;
          messages++;
        },
        close() {},
      }),
    );
    viewers.set(id, list);
    // Subscribing needs a token; the viewers are added to the loaded table as subscribe leaves them.
    const t = await (hub as unknown as { get(id: string): Promise<{ viewers: Set<Viewer>; state: { characters: object } }> }).get(id);
    for (const v of list) t.viewers.add(v);
    if (inPlay) {
      const setUp = async (viewer: Viewer, command: object) => {
        const result = await hub.commandFromViewer(id, viewer, { commandId: `s${++n}`, command });
        if (!result.ok) throw new Error(result.error.message);
      };
      await setUp(list[0]!, { type: 'add-character', sheet: SHEETS[0], owner: 'p_1' });
      await setUp(list[0]!, { type: 'add-character', sheet: SHEETS[1], hidden: true });
      const dwarf = Object.keys(t.state.characters)[0]!;
      await setUp(list[1]!, { type: 'encounter', command: { type: 'escalate', actor: dwarf, to: 'non-violent' } });
      await setUp(list[1]!, { type: 'encounter', command: { type: 'escalate', actor: dwarf, to: 'violent' } });
    }
  }
  return viewers;
}

async function runCommands(viewers: Map<string, Viewer[]>, count: number, hub: Hub = thisHub, from = 0): Promise<void> {
  const ids = [...viewers.keys()];
  for (let i = from; i < from + count; i++) {
    const tableId = ids[i % ids.length]!;
    const viewer = viewers.get(tableId)![1 + (i % 5)]!;
    const result = await hub.commandFromViewer(tableId, viewer, {
      commandId: `b${++n}`,
      command: { type: 'roll', actor: { name: 'Roller', dice: 1 + (n % 5) }, reactor: { name: 'Opposition', dice: 2 } },
    });
    if (!result.ok) throw new Error(result.error.message);
  }
}

/** Commands each hub plays in turn with --against. */
const BLOCK = 500;

/** One round of --against: the same commands on both hubs, in alternating blocks, which one first taking turns. */
async function againstRound(r: number, other: Hub): Promise<void> {
  const sides = [
    { hub: thisHub, viewers: await newTables(r), us: 0 },
    { hub: other, viewers: await newTables(r, other), us: 0 },
  ];
  for (let from = 0, block = 0; from < commands; from += BLOCK, block++) {
    const count = Math.min(BLOCK, commands - from);
    // Both hubs are sent the same commands (the dice counts follow the command number).
    const first = n;
    for (const side of block % 2 === 0 ? sides : [...sides].reverse()) {
      n = first;
      const c0 = process.cpuUsage();
      await runCommands(side.viewers, count, side.hub, from);
      const c = process.cpuUsage(c0);
      side.us += c.user + c.system;
    }
  }
  const [mine, theirs] = sides.map((side) => side.us / commands) as [number, number];
  console.log(JSON.stringify({ round: r, cpuUsPerCommand: Number(mine.toFixed(1)), againstCpuUsPerCommand: Number(theirs.toFixed(1)), ratio: Number((mine / theirs).toFixed(3)), loadAverage: Number(loadavg()[0]!.toFixed(2)) }));
}

await runCommands(await newTables(0), commands);
const other = againstDir === null ? null : await otherHub(againstDir);
if (other) await runCommands(await newTables(0, other), commands, other);
console.log(`load average ${loadavg()[0]!.toFixed(2)}; ${commands} commands per round, ${tableCount} tables of six viewers receiving ${receive === 'views' ? 'views alone' : 'events and views'}${inPlay ? ', characters in play' : ''}${other ? `; this code against ${againstDir}, alternating blocks of ${BLOCK}` : ''}`);
for (let r = 1; r <= rounds; r++) {
  if (other) {
    await againstRound(r, other);
    continue;
  }
  const viewers = await newTables(r);
  bytes = 0;
  messages = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await runCommands(viewers, commands);
  const c = process.cpuUsage(c0);
  const ms = performance.now() - t0;
  console.log(
    JSON.stringify({
      round: r,
      cpuUsPerCommand: Number(((c.user + c.system) / commands).toFixed(1)),
      wallUsPerCommand: Number(((ms * 1000) / commands).toFixed(1)),
      messagesPerCommand: Number((messages / commands).toFixed(2)),
      bytesPerCommand: Math.round(bytes / commands),
      loadAverage: Number(loadavg()[0]!.toFixed(2)),
    }),
  );
}
