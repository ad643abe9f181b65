/**
 * What the table server sends every viewer after each new event, as the table's log grows: the
 * whole view (what it sent before `state-patch`) against the changes from the viewer's last view.
 *
 *   node --import tsx bench/view-push.ts [rounds=100]
 *
 * A Personae table with a GM and five players; one player rolls (a 3-dice challenge against 2 dice)
 * until the log holds N entries, then for `rounds` more rolls it builds the six views after each
 * roll and serializes them both ways, alternating which way goes first (each row adds `rounds`
 * entries to the log). Prints, per starting log length, the
 * bytes per viewer and the milliseconds for all six viewers, each way, and the ratio.
 */
import { cryptoDice } from '@personae/dice';
import { personaeTable as table } from '@personae/rules';
import { loadavg } from 'node:os';
import { diffState } from '../packages/server/src/state-patch';

const rounds = Number(process.argv[2] ?? 100);
const actors = [{ role: 'gm' as const, participantId: 'g' }, ...[1, 2, 3, 4, 5].map((i) => ({ role: 'player' as const, participantId: `p${i}` }))];
const participants = new Set(actors.map((a) => a.participantId));
const dice = cryptoDice();
const parsed = table.parseCommand({ type: 'roll', actor: { name: 'Roller', dice: 3 }, reactor: { name: 'Opposition', dice: 2 } });
if (!parsed.ok) throw new Error(parsed.error.message);
let state = table.initialState();
let seq = 0;
const roll = () => {
  const events = table.decide(state, parsed.command, { actor: actors[1]!, dice, now: new Date().toISOString(), settings: { physicalDice: false } as never, participants });
  for (const e of events) state = table.evolve(state, JSON.parse(JSON.stringify(e)));
  seq += events.length;
};

console.log(`load average ${loadavg()[0]!.toFixed(2)}; ${rounds} rolls per row, six viewers each`);
console.log('log from | whole view: bytes/viewer, ms/6 viewers | changes: bytes/viewer, ms/6 viewers | time ratio');
for (const size of [10, 50, 200, 500, 2000]) {
  while (seq < size) roll();
  let previous = actors.map((a) => table.viewState(state, a));
  let wholeMs = 0;
  let wholeBytes = 0;
  let patchMs = 0;
  let patchBytes = 0;
  for (let r = 0; r < rounds; r++) {
    roll();
    const whole = () => {
      const t0 = performance.now();
      for (const a of actors) wholeBytes += JSON.stringify({ type: 'state', version: seq, state: table.viewState(state, a) }).length;
      wholeMs += performance.now() - t0;
    };
    const patch = () => {
      const t0 = performance.now();
      const views = actors.map((a) => table.viewState(state, a));
      views.forEach((v, i) => {
        patchBytes += JSON.stringify({ type: 'state-patch', version: seq, base: seq - 1, ...diffState(previous[i], v) }).length;
      });
      patchMs += performance.now() - t0;
      return views;
    };
    let views;
    if (r % 2 === 0) {
      whole();
      views = patch();
    } else {
      views = patch();
      whole();
    }
    previous = views;
  }
  const per = (x: number) => x / rounds;
  console.log(
    `${String(size).padStart(11)} | ${Math.round(per(wholeBytes) / 6).toLocaleString('en').padStart(10)} B, ${per(wholeMs).toFixed(2).padStart(7)} ms | ` +
      `${Math.round(per(patchBytes) / 6).toLocaleString('en').padStart(6)} B, ${per(patchMs).toFixed(2).padStart(6)} ms | ${(patchMs / wholeMs).toFixed(3)}`,
  );
}
