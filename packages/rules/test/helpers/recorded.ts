import type { DiceSource } from '@personae/dice';
import { personaeTable, type TableCommandInput, type TableEvent, type TableState, type Viewer } from '../../src/index';

type Context = Parameters<typeof personaeTable.decide>[2];

/**
 * Drives a table as the server does (parse, decide, fold each event through JSON) and records what
 * each of the given seats receives: every event as redacted for it, then its view of the state.
 */
export class Recorded {
  state: TableState = personaeTable.initialState();
  readonly seen: Map<Viewer, string[]>;

  constructor(
    viewers: readonly Viewer[],
    private readonly dice: DiceSource,
    private readonly context: Omit<Context, 'actor' | 'dice' | 'now'> = {},
  ) {
    this.seen = new Map(viewers.map((v) => [v, []]));
  }

  run(viewer: Viewer, raw: TableCommandInput): TableEvent[] {
    const parsed = personaeTable.parseCommand(raw);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const events = personaeTable.decide(this.state, parsed.command, { ...this.context, actor: viewer, dice: this.dice, now: '2026-11-25T20:00:00.000Z' });
    for (const e of events) {
      const stored = JSON.parse(JSON.stringify(e)) as TableEvent;
      this.state = personaeTable.evolve(this.state, stored);
      for (const [v, frames] of this.seen) frames.push(JSON.stringify(personaeTable.redactEvent(stored, v, this.state)));
    }
    for (const [v, frames] of this.seen) frames.push(JSON.stringify(personaeTable.viewState(this.state, v)));
    return events;
  }

  wire(v: Viewer): string {
    return this.seen.get(v)!.join('\n');
  }
}
