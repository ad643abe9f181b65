import { useState } from 'preact/hooks';
import { commandPools, type CharacterView, type EncounterCommand } from '@personae/d100';
import type { EnteredPools } from '@personae/core';
import type { RulesetTableProps } from '../types';
import { parseDice, type D100View } from './model';

/**
 * Physical dice on the d100 forms: a box for each named pool of the form's commands that the viewer
 * may fill (the GM any; a player those of the characters they play), shown to the GM always and to a
 * player when the table takes physical dice (setting physicalDice). A blank box is rolled by the
 * server, which checks every pool again (the web app only offers what the server would take).
 */

type Me = RulesetTableProps['me'];

/** Who plays a character: its controller when the view names one, else the participant of the same id. */
export function controls(c: CharacterView, me: Me): boolean {
  if (me.role === 'gm') return true;
  if (me.role !== 'player') return false;
  const controller = (c as CharacterView & { controller?: string | null }).controller;
  return controller !== undefined ? controller === me.participantId : c.id === me.participantId;
}

/** A box for a pool: its name and words for it. */
export interface PoolBox {
  readonly name: string;
  readonly label: string;
  readonly sides: number;
}

/**
 * The pools of `command` the viewer may fill, as boxes. Per-character pools that a form cannot
 * foresee (an Exhausted character's test after Stress) are left to the server, and `keep` drops
 * pools the form's situation does not roll.
 */
export function poolBoxes(view: D100View, me: Me, command: Record<string, unknown>, keep: (name: string) => boolean = () => true, purpose = ''): PoolBox[] {
  const find = (id: string) => view.characters.find((c) => c.id === id);
  const pools = commandPools(command as EncounterCommand, {
    ids: view.characters.map((c) => c.id),
    grappler: (id) => find(id)?.conditions.grappledBy ?? null,
    distracted: (id) => find(id)?.conditions.distracting ?? null,
  });
  return pools
    .filter((p) => !p.name.startsWith('exhaustion:') && keep(p.name))
    .filter((p) => {
      const c = find(p.who);
      return me.role === 'gm' || (c !== undefined && controls(c, me));
    })
    .map((p) => ({ name: p.name, sides: p.sides, label: `${find(p.who)?.name ?? "The GM's character"}'s ${p.what}${purpose ? ` ${purpose}` : ''} (d${p.sides})` }));
}

/** The boxes of several commands, one per pool name (the first command's words). */
export function mergedBoxes(...lists: PoolBox[][]): PoolBox[] {
  const out = new Map<string, PoolBox>();
  for (const list of lists) for (const b of list) if (!out.has(b.name)) out.set(b.name, b);
  return [...out.values()];
}

/** Whether the viewer is offered boxes at all: the GM always, a player when the table takes physical dice. */
export function mayType(me: Me, physicalDice: boolean): boolean {
  return me.role === 'gm' || (me.role === 'player' && physicalDice);
}

/** The text typed in each box, by pool name. */
export function usePoolText(): { text: Readonly<Record<string, string>>; set: (name: string, value: string) => void; clear: () => void } {
  const [text, setText] = useState<Record<string, string>>({});
  return { text, set: (name, value) => setText((t) => ({ ...t, [name]: value })), clear: () => setText({}) };
}

/**
 * The pools to send with a command: the typed boxes among `boxes` that the command rolls. Undefined
 * when none was typed; a box that is not d100 results throws, naming it.
 */
export function typedPools(boxes: readonly PoolBox[], text: Readonly<Record<string, string>>): EnteredPools | undefined {
  const out: Record<string, number[]> = {};
  for (const b of boxes) {
    const typed = parseDice(text[b.name] ?? '');
    if ('error' in typed) throw new Error(`${b.label}: ${typed.error}`);
    const over = typed.dice.find((d) => d > b.sides);
    if (over !== undefined) throw new Error(`${b.label}: ${over} is not a d${b.sides} result (1 to ${b.sides})`);
    if (typed.dice.length) out[b.name] = typed.dice;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The boxes of a form, ids `<prefix>-<pool name>`. */
export function PoolFields(props: { idPrefix: string; boxes: readonly PoolBox[]; text: Readonly<Record<string, string>>; onInput: (name: string, value: string) => void }) {
  if (!props.boxes.length) return null;
  return (
    <fieldset class="row dice-pools" aria-label="Physical dice">
      {props.boxes.map((b) => {
        const id = `${props.idPrefix}-${b.name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
        return (
          <div class="field" key={b.name}>
            <label for={id}>{b.label}</label>
            <input id={id} type="text" inputMode="numeric" data-pool={b.name} value={props.text[b.name] ?? ''} placeholder="blank: the table rolls" onInput={(e) => props.onInput(b.name, e.currentTarget.value)} />
          </div>
        );
      })}
    </fieldset>
  );
}
