import { sumLabeled, type Labeled } from '../effects';
import type { Batch } from './batch';
import { RuleError, rule } from './errors';
import { applyAttackHits, knocksOut, ladder, severity, STATUS_LABEL, statusForHits, threshold, type Status } from './injury';
import type { CharacterState, Snapshot } from './state';

/** The status the tallied hits amount to (it takes effect at the end of the round in a violent encounter). */
export function talliedStatus(now: Snapshot, c: CharacterState): Status {
  return c.status === 'dead' ? 'dead' : statusForHits(c.def, now.options, c.hits);
}

/** Whether a new status takes effect as soon as hits are tallied (outside violent encounters, or by option). */
export function statusesAtOnce(now: Snapshot): boolean {
  return now.clock.stage !== 'violent' || now.options.injuryTiming === 'immediate';
}

/**
 * Whether hits count against this character: an obstacle sustains them only where the group gives it
 * health (personae-core-2011.txt "Obstacles"; option obstacleHealth = hits, and its own `health`).
 */
export function sustainsHits(now: Snapshot, c: CharacterState): boolean {
  return !c.def.obstacle || (now.options.obstacleHealth === 'hits' && c.def.obstacle.health !== undefined);
}

/** Make the tallied status the status in effect, with its consequences for consciousness. */
export function applyStatusNow(b: Batch, id: string, reason: string): void {
  const c = b.now.characters[id];
  if (!c || c.status === 'dead') return;
  const tallied = talliedStatus(b.now, c);
  if (tallied !== c.status) {
    b.emit({ type: 'status-changed', target: id, from: c.status, to: tallied, reason });
    // personae-core-2011.txt "Injury and Death": reaching Incapacitated, the character falls unconscious.
    const worse = severity(tallied) > severity(c.status);
    if (worse && knocksOut(tallied) && c.conscious) {
      b.emit({ type: 'consciousness-changed', target: id, conscious: false, reason: `${STATUS_LABEL[tallied]}: falls unconscious` });
    } else if (!worse && !knocksOut(tallied) && !c.conscious) {
      b.emit({ type: 'consciousness-changed', target: id, conscious: true, reason: `no longer ${STATUS_LABEL[c.status]}` });
    }
  }
}

/**
 * Tally the hits of a successful attack or harmful power (personae-core-2011.txt "Injury and
 * Death"): at once, but the status they amount to waits for the end of the round. `outright` is a
 * critical-spending ability such as Horrific Wound: the target sustains enough hits to reach its
 * first status however many that takes; the status takes effect when any other would.
 */
export function inflict(b: Batch, by: string, targetId: string, hits: readonly Labeled[], outright?: string): void {
  const now = b.now;
  const target = now.characters[targetId]!;
  if (!sustainsHits(now, target)) return;
  const incoming = Math.max(1, sumLabeled(hits));
  const applied = applyAttackHits(target.def, now.options, target.hits, incoming);
  let after = applied.after;
  const sources = hits.map((h) => `${h.value} ${h.source}`);
  if (outright) {
    after = Math.max(after, threshold(target.def, now.options));
    sources.push(`${outright}: enough hits to reach ${STATUS_LABEL[ladder(target.def)[0]!]}`);
  }
  b.emit({
    type: 'hits-sustained',
    target: targetId,
    by,
    incoming,
    before: target.hits,
    after,
    lost: Math.max(0, target.hits + incoming - after),
    sources,
    tallied: statusForHits(target.def, now.options, after),
  });
  // The status follows the general timing (option injuryTiming), Horrific Wound's included: the
  // ability gives the hits, not an earlier status (personae-core-2011.txt "Injury and Death").
  if (statusesAtOnce(b.now)) applyStatusNow(b, targetId, outright ?? 'hits tallied');
}

/**
 * A healing power (personae-core-2011.txt "Healing and Recovery": supernatural healing may roll back
 * a health status, remove hits, or both). Statuses are rolled back first, then hits removed; the new
 * status takes effect at once.
 */
export function heal(b: Batch, by: string, targetId: string, amount: { hits: number; statuses: number }, source: string): void {
  const now = b.now;
  const target = now.characters[targetId]!;
  const section = rule('core', 'Healing and Recovery');
  if (target.status === 'dead' && !now.options.raiseDead) {
    throw new RuleError('cannot-raise-dead', `${target.def.name} is dead, and this table does not let powers revive the dead (option raiseDead)`, 'target', section);
  }
  const t = threshold(target.def, now.options);
  const steps = ladder(target.def);
  const level = target.hits < t ? -1 : Math.min(target.hits - t, steps.length - 1);
  let hits = target.hits;
  if (amount.statuses > 0 && level >= 0) {
    const to = level - amount.statuses;
    hits = to >= 0 ? Math.min(hits, t + to) : Math.min(hits, t - 1);
  }
  hits = Math.max(0, hits - amount.hits);
  if (hits === target.hits && target.status !== 'dead') {
    throw new RuleError('nothing-to-heal', `${target.def.name} has no injury ${source} can remove`, 'target', section);
  }
  if (hits !== target.hits) b.emit({ type: 'hits-removed', target: targetId, before: target.hits, after: hits, reason: `${source} (healing by ${now.characters[by]?.def.name ?? by})` });
  if (target.status === 'dead') {
    const to = statusForHits(target.def, now.options, hits);
    b.emit({ type: 'status-changed', target: targetId, from: 'dead', to, reason: `${source}: revived (option raiseDead)` });
    if (!knocksOut(to)) b.emit({ type: 'consciousness-changed', target: targetId, conscious: true, reason: 'revived' });
    return;
  }
  applyStatusNow(b, targetId, source);
}
