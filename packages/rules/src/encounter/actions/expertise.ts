import { periodKey } from '../../time';
import type { Batch } from '../batch';
import { same } from '../combatant';
import { RuleError, rule } from '../errors';
import type { CharacterState } from '../state';

/** personae-core-2011.txt "Expertise": one more die, once per session per talent (more with upgrades). */
export function expertise(b: Batch, who: CharacterState, talent: string | undefined, field: string): { name: string; dice: number } | undefined {
  if (!talent) return undefined;
  const e = who.def.expertise.find((x) => same(x.name, talent));
  if (!e) throw new RuleError('unknown-talent', `${who.def.name} has no Expertise talent "${talent}"`, field);
  const key = `expertise|${who.def.id}|${e.name.toLowerCase()}|${periodKey(b.now.clock, 'session')}`;
  if ((b.now.usage[key] ?? 0) >= e.uses) {
    throw new RuleError('expertise-used', `${who.def.name} has already called on ${e.name} ${e.uses === 1 ? 'once' : `${e.uses} times`} this session`, field, rule('core', 'Expertise'));
  }
  return { name: e.name, dice: e.dice };
}

export function countExpertise(b: Batch, who: CharacterState, used: { name: string } | undefined): void {
  if (!used) return;
  b.emit({ type: 'usage-counted', key: `expertise|${who.def.id}|${used.name.toLowerCase()}|${periodKey(b.now.clock, 'session')}`, what: `${who.def.name} calls on Expertise: ${used.name}` });
}
