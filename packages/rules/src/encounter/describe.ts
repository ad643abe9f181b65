import { withArticle } from '@personae/core';
import { STAGE_LABEL } from '../time';
import type { EncounterEvent } from './events';
import { STATUS_LABEL, STATUS_PENALTY, statusForHits, threshold } from './injury';
import { placeText, type CharacterState, type Snapshot } from './state';

/**
 * Events in words, for a log on the screen: each event gives one or more lines; lines that explain
 * a roll step by step are indented. `before` is the snapshot the event applied to (for names).
 */
export function describeEvent(e: EncounterEvent, before: Snapshot | null): string[] {
  const name = (id: string) => (id === 'gm' ? 'the GM' : (before?.characters[id]?.def.name ?? id));
  const names = (ids: readonly string[]) => ids.map(name).join(', ');
  switch (e.type) {
    case 'set-up':
      return [`Table set up: "${e.title}", ${e.characters.length} characters: ${e.characters.map((c) => c.name).join(', ')}.`];
    case 'options-changed':
      return ['The table options change.'];
    case 'character-joined':
      return [`${e.character.name} joins the scene.`];
    case 'character-updated':
      return [`${e.character.name}'s character is updated.`];
    case 'character-left':
      return [`${name(e.id)} leaves the scene.`];
    case 'session-began':
      return [`Session ${e.session} begins.`];
    case 'session-ended':
      return [`Session ${e.session} ends: the table is between sessions.`];
    case 'day-began':
      return [`Day ${e.day} begins.`];
    case 'scene-began':
      return [`Scene ${e.scene} begins${e.title ? `: ${e.title}` : ''}.`];
    case 'scene-ended':
      return [`Scene ${e.scene} ends.`];
    case 'escalated':
      return [`${e.by === 'gm' ? 'The GM escalates' : `${name(e.by)} escalates`} the ${STAGE_LABEL[e.from]} to ${withArticle(STAGE_LABEL[e.to])}.`];
    case 'de-escalated':
      return [`${e.by === 'gm' ? 'The GM' : name(e.by)} de-escalates the ${STAGE_LABEL[e.from]} to ${withArticle(STAGE_LABEL[e.to])}.`];
    case 'encounter-ended':
      return [`The ${STAGE_LABEL[e.peak]} ends.`];
    case 'order-set':
      return [`Action order (${e.method}):`, ...e.explanation.map((l) => `  ${l}`)];
    case 'order-changed':
      return [`Action order ${e.reason}: ${names(e.order)}.`];
    case 'round-began':
      return [`== Round ${e.round} ==`];
    case 'round-ended':
      return [`-- end of round ${e.round} --`];
    case 'turn-began':
      return [`-- ${name(e.actor)}'s turn${e.actionSpent ? ' (its action went to a concerted effort)' : ''} --`];
    case 'turn-skipped':
      return [`${name(e.actor)}'s turn passes: ${e.reason}.`];
    case 'turn-ended':
      return [];
    case 'moved':
      return [`${name(e.actor)} moves${e.description ? ` (${e.description})` : ''}${e.to !== undefined ? ` to ${placeText(e.to)}` : ''}${e.usesAction ? ', using the action for a second move' : ''}.`];
    case 'action-taken':
      return [`${name(e.actor)} ${e.what}.`];
    case 'ability-used':
      return [`  ${name(e.actor)} benefits from ${e.ability} (one special ability this turn).`];
    case 'challenge-resolved': {
      const r = e.result;
      // The words of the options in force when it was rolled: clear and glancing are srd-v4's (option grades).
      const graded = before?.options.grades !== 'core-2011';
      const verdict = r.outcome === 'success' ? `${graded && r.grade === 'glancing' ? 'a glancing ' : ''}success` : r.outcome;
      return [
        `  ${label(e.kind)}: ${name(e.actor)} (${e.skill}) against ${name(e.reactor)} (${e.reactorSkill}) to ${e.purpose}: ${verdict}.`,
        ...e.notes.map((l) => `    ${l}`),
        ...r.explanation.map((l) => `    ${l}`),
      ];
    }
    case 'virtual-answered':
      return [`  ${name(e.actor)} asks "${e.question}": ${e.explanation}`];
    case 'hits-sustained': {
      const c = before?.characters[e.target];
      const lost = e.lost > 0 ? `; ${e.lost} lost (one attack never rolls over more than one status)` : '';
      const status = c && e.tallied !== c.status ? `, ${STATUS_LABEL[e.tallied]} by the tally` : '';
      return [`${name(e.target)} sustains ${e.after - e.before} hit(s) (${e.sources.join(' + ')}): ${e.before} -> ${e.after}${lost}${status}.`];
    }
    case 'hits-removed':
      return [`${name(e.target)}: ${e.before - e.after} hit(s) removed (${e.before} -> ${e.after}): ${e.reason}.`];
    case 'status-changed':
      return [`${name(e.target)} is now ${STATUS_LABEL[e.to]} (was ${STATUS_LABEL[e.from]}; ${e.reason})${STATUS_PENALTY[e.to] && e.to !== 'dead' ? `: -${STATUS_PENALTY[e.to]} ${STATUS_PENALTY[e.to] === 1 ? 'die' : 'dice'}` : ''}.`];
    case 'consciousness-changed':
      return [`${name(e.target)} ${e.conscious ? 'regains consciousness' : 'falls unconscious'} (${e.reason}).`];
    case 'stabilized':
      return [`  ${name(e.target)} is stabilized: it will not die at the end of the encounter.`];
    case 'died':
      return [`${name(e.target)} dies: ${e.reason}.`];
    case 'recovery-set':
      return e.reason === 'one recovery challenge a scene' || e.reason === 'healed' ? [] : [`  ${name(e.target)}: ${e.reason}.`];
    case 'criticals-banked':
      if (e.withheld) return [`  ${e.count} critical(s) from ${e.earnedBy === 'gm' ? "the GM's" : `${name(e.earnedBy)}'s`} natural 10s (${e.reason}) bank nothing: ${e.withheld}.`];
      return [`  ${e.count} critical(s) for ${e.owner === 'gm' ? "the GM's pool" : name(e.owner)} (${e.reason})${e.lost ? `, ${e.lost} lost over the bank's cap` : ''}.`];
    case 'criticals-spent':
      if (e.toGm) return [`  ${name(e.by)} turns ${e.count} critical(s)${e.owner === 'gm' ? " from the GM's pool" : ''} in to the GM for something special: ${e.purpose}.`];
      return [`  ${name(e.by)} spends ${e.count} critical(s)${e.owner === 'gm' ? " from the GM's pool" : ''}: ${e.purpose}.`];
    case 'resolve-worn': {
      const attr = e.attribute.charAt(0).toUpperCase() + e.attribute.slice(1);
      const worn = `${name(e.target)} gives ground: resolve ${e.after}/${e.size} worn (1 + ${attr}; option nonViolentExtended = health-track).`;
      return e.yielded ? [worn, `${name(e.target)} yields to ${name(e.by)}.`] : [worn];
    }
    case 'readied-success-used':
      return [`  ${name(e.actor)}'s critical spent ahead makes this challenge succeed.`];
    case 'criticals-expired':
      return [`${e.count} critical(s) of ${e.owner === 'gm' ? "the GM's pool" : name(e.owner)} expire: ${e.reason}.`];
    case 'criticals-given':
      return [`${name(e.from)} gives ${e.count} critical(s) to ${name(e.to)}.`];
    case 'usage-counted':
      return [`  ${e.what}.`];
    case 'defense-declared':
      return [`  ${name(e.actor)} stands ready to ${e.defense.kind === 'power' ? `resist with ${e.defense.power}` : `${e.defense.kind} with ${e.defense.skill}`} until its next turn.`];
    case 'defense-ended':
      return [];
    case 'assist-declared':
      return [`  ${name(e.actor)} will assist ${name(e.primary)}.`];
    case 'assist-spent':
      return [];
    case 'action-spent-ahead':
      return [`  ${name(e.actor)}'s next action is spent: ${e.reason}.`];
    case 'effect-started':
      return [`  ${e.effect.power} takes effect on ${names(e.effect.targets)} (${e.effect.duration}; effect #${e.effect.id}).`];
    case 'effect-maintained':
      return [`  Effect #${e.id} is kept up for round ${e.round}.`];
    case 'effect-ended':
      return [`Effect #${e.id} ends: ${e.reason}.`];
    case 'follow-up-pending':
      return e.kind === 'taunt'
        ? [`  ${name(e.owner)}'s ${e.ability}: ${name(e.actor)} must attack ${name(e.reactor)} at once.`]
        : [`  ${name(e.owner)}'s ${e.ability}: ${name(e.actor)} may issue ${name(e.reactor)} an immediate follow-up challenge.`];
    case 'follow-up-ended':
      return e.taken ? [] : [`  ${e.ability}'s follow-up from ${name(e.actor)} to ${name(e.reactor)} lapses: ${e.reason}.`];
    case 'roll-tallied': {
      const verdict = e.outcome === 'success' ? `${before?.options.grades !== 'core-2011' && e.grade === 'glancing' ? 'a glancing ' : 'a '}success` : e.outcome === 'failure' ? 'a failure' : 'a tie';
      return [`  ${name(e.actor)}'s challenge from the roller${e.purpose ? ` (${e.purpose})` : ''} goes into its development tally: ${verdict}.`];
    }
    case 'undone':
      return [`UNDO: back to the state after event #${e.toSequence}.`];
    case 'redone':
      return [`REDO: forward to the state after event #${e.toSequence}.`];
  }
}

function label(kind: string): string {
  return { attack: 'Attack Challenge', power: 'Power Challenge', interaction: 'Interaction Challenge', virtual: 'Virtual Interaction Challenge', recovery: 'Recovery Challenge', unopposed: 'Unopposed Challenge' }[kind] ?? kind;
}

/** One line per character: hits, status and penalty, consciousness. */
export function describeCharacter(now: Snapshot, c: CharacterState): string {
  const t = threshold(c.def, now.options);
  const tallied = c.status === 'dead' ? 'dead' : statusForHits(c.def, now.options, c.hits);
  const parts = [`${c.def.name}: ${c.hits}/${t} hits before ${c.def.tier === 'minion' && c.def.role !== 'main' ? 'Incapacitated' : 'Injured'}`, STATUS_LABEL[c.status]];
  if (STATUS_PENALTY[c.status] && c.status !== 'dead') parts.push(`-${STATUS_PENALTY[c.status]} dice`);
  if (tallied !== c.status) parts.push(`${STATUS_LABEL[tallied]} at the end of the round`);
  if (!c.conscious && c.status !== 'dead') parts.push('unconscious');
  if (c.stabilized) parts.push('stabilized');
  if (!c.present) parts.push('not in the scene');
  if (c.position !== null) parts.push(`position ${placeText(c.position)}`);
  if (c.readiedSuccess) parts.push('next challenge succeeds (a critical spent ahead)');
  if (c.resolve) parts.push(`resolve ${c.resolve.worn}/${c.resolve.size} worn${c.resolve.yielded ? ', yielded' : ''}`);
  const tally = c.tally;
  if (tally.successes || tally.failures || tally.uncounted) {
    parts.push(`this session ${tally.successes} success(es), ${tally.failures} failure(s)${tally.uncounted ? `, ${tally.uncounted} glancing success(es) not counted` : ''}`);
  }
  const crits = (now.banks[c.def.id] ?? []).reduce((s, e) => s + e.count, 0);
  if (crits) parts.push(`${crits} critical(s)`);
  return parts.join(', ');
}

/** The table at a glance: time, stage, order and turn, characters, effects. */
export function describeSnapshot(now: Snapshot): string[] {
  const lines = [`Session ${now.clock.session}, day ${now.clock.day}, scene ${now.clock.scene}: ${STAGE_LABEL[now.clock.stage]}.`];
  if (now.combat) {
    const turn = now.combat.turn;
    lines.push(
      `Round ${now.combat.round}; order: ${now.combat.order.map((id) => (id === turn.actor ? `[${now.characters[id]?.def.name ?? id}]` : (now.characters[id]?.def.name ?? id))).join(', ')}.`,
      `${now.characters[turn.actor]?.def.name ?? turn.actor}'s turn: ${turn.moves} move(s), action ${turn.actionUsed ? 'used' : 'free'}${turn.ability ? `, special ability ${turn.ability} used` : ''}.`,
    );
  }
  for (const id of now.roster) lines.push(`  ${describeCharacter(now, now.characters[id]!)}`);
  for (const e of now.effects) lines.push(`  Effect #${e.id}: ${e.power} (${e.duration}) by ${now.characters[e.owner]?.def.name ?? e.owner} on ${e.targets.map((t) => now.characters[t]?.def.name ?? t).join(', ')}.`);
  const f = now.followUp;
  if (f) {
    const n = (id: string) => now.characters[id]?.def.name ?? id;
    lines.push(f.kind === 'taunt' ? `  ${n(f.actor)} owes ${n(f.reactor)} an immediate attack (${f.ability}).` : `  ${n(f.actor)} may issue ${n(f.reactor)} a follow-up challenge (${f.ability}).`);
  }
  const gm = (now.banks.gm ?? []).reduce((s, e) => s + e.count, 0);
  if (gm) lines.push(`  GM's pool: ${gm} critical(s).`);
  return lines;
}
