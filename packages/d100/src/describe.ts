import { AILMENTS } from './ailments';
import type { ShownEncounterEvent } from './encounter';
import { BLOOD_LOSS_TESTS } from './conditions';
import { bonus } from './fighter';
import { woundTracksFor } from './wounds';
import type { TieRoll } from './test';

/**
 * The events of a d100 encounter in words, one line each, for the CLI's replay and the table's log.
 * `name` turns a character id into the name to show.
 */
export function ailmentTitle(name: string): string {
  return (AILMENTS as Record<string, { title: string } | undefined>)[name]?.title ?? name;
}

const CONFUSED_ACTS: Readonly<Record<string, string>> = { nothing: 'does nothing', drop: 'drops what one hand holds', 'attack-nearest': 'attacks the nearest character', 'attack-self': 'attacks itself' };

/**
 * A target number or defense as the log prints it: one left out for a viewer who does not know the
 * character's Scores (option detailsReveal, hideUnknownNumbers in ./encounter.ts) is not printed.
 */
function shown(n: number | null | undefined): string {
  return n === null || n === undefined ? 'a target not known' : String(n);
}

function defenseOf(n: number | null | undefined): string {
  return n === null || n === undefined ? 'a defense not known' : `defense ${n}`;
}

function opposed(r: { enemy: string; roll: number; target: number | null; enemyRoll: number | null; enemyTarget: number | null; won: boolean; tieRolls?: readonly TieRoll[] }, name: (id: string) => string): string {
  return `${r.roll} vs ${shown(r.target)}${r.enemyRoll !== null ? ` against ${name(r.enemy)}'s ${r.enemyRoll} vs ${shown(r.enemyTarget)}` : ` (${name(r.enemy)} does not oppose)`}${tieBreak(r.tieRolls)}: ${r.won ? 'won' : 'lost'}`;
}

/** The pairs rolled again to break a tie of equal degrees (option opposedTie=reroll), the actor's roll first. */
function tieBreak(rolls: readonly TieRoll[] | undefined): string {
  if (!rolls?.length) return '';
  return `; a tie of equal degrees, rolled again: ${rolls.map((r) => `${r.actor} against ${r.reactor}`).join(', then ')}`;
}

/** "Fate Points", Block Heavy Wound in the log: who spent how many points blocking. */
function blocked(who: string, n: number): string {
  return `${who} spends ${n === 1 ? 'a Fate Point to block a Heavy wound' : `${n} Fate Points to block ${n} Heavy wounds`}`;
}

/** `e` as any viewer receives it: the GM's whole events are ShownEncounterEvents too. */
const scoreTitle = (s: string): string => s[0]!.toUpperCase() + s.slice(1);

export function describeD100Event(e: ShownEncounterEvent, name: (id: string) => string): string {
  switch (e.type) {
    case 'options-set': {
      const set = Object.entries(e.data.options).map(([k, v]) => `${k}=${String(v)}`);
      return `options set (preset ${e.data.preset}${set.length ? `; ${set.join(', ')}` : ''})`;
    }
    case 'character-added': {
      // a sheet shown without its Scores (option detailsReveal) tells no wounds
      const s = e.data.sheet;
      const t = s.scores && woundTracksFor(bonus(s.scores.toughness)).max;
      const left = s.wounds ?? t;
      const tracks = t && left ? `Light ${left.light}/${t.light}, Heavy ${left.heavy}/${t.heavy}, Deadly ${left.deadly}/${t.deadly}` : 'wounds not known';
      const fate = s.fatePoints ?? bonus(s.realisation);
      const who = [s.kind, `side ${s.side}`, ...(s.hidden ? ['hidden'] : []), ...(e.data.controller ? [`played by ${e.data.controller}`] : [])].join(', ');
      const persona = s.persona ? `, Persona ${s.persona.name}${s.persona.wounds !== undefined ? ` (${s.persona.woundsLeft ?? s.persona.wounds} wounds)` : ''}` : '';
      return `${s.name} joins (${who}): ${tracks}, Stress ${s.stress}, Fate Points ${fate}${persona}`;
    }
    case 'controller-set':
      return `${name(e.data.id)} is now played by ${e.data.controller ?? 'the GM'}`;
    case 'encounter-started':
      return `initiative: ${e.data.surprised?.length ? `(Surprised: ${e.data.surprised.map(name).join(', ')}) ` : ''}${e.data.order.map((o) => `${name(o.id)} ${o.initiative}${o.rollOff.length ? ` (roll-off ${o.rollOff.join(', ')})` : ''}`).join(', ')}`;
    case 'turn-started': {
      const FATE_TESTS = { bloodLoss: 'Blood Loss', confused: 'Confused (Intelligence)', miasma: 'Miasma (Willpower)' } as const;
      const c = e.data.confused;
      const confused = c ? `; Confused: Intelligence ${c.roll} vs ${shown(c.target)}, ${c.success ? 'passed' : `${c.degrees} DoF: ${c.acts.map((a) => CONFUSED_ACTS[a] ?? a).join(' and ')}${c.hand ? ` (${c.hand})` : ''}${c.dropped ? `: ${c.dropped.join(', ') || 'nothing in it'}` : ''}`}` : '';
      const m = e.data.miasma;
      const miasma = m ? `; Miasma: Willpower ${m.roll} vs ${shown(m.target)}, ${m.success ? 'passed' : `failed, ${m.stress} Stress`}` : '';
      const b = e.data.bloodLoss;
      const mods = b?.modifiers.length ? ` (${b.modifiers.map((x) => `${x.label} ${x.value > 0 ? '+' : ''}${x.value}`).join(', ')})` : '';
      const test = BLOOD_LOSS_TESTS[b?.test ?? 'toughness'];
      const why = b?.chosen === 'declared' ? ' (as declared)' : b?.chosen === 'better' && b.otherBase !== undefined && b.otherBase !== null && b.base !== null ? ` (the better: ${test} ${b.base} over ${BLOOD_LOSS_TESTS[b.test === 'endurance' ? 'toughness' : 'endurance']} ${b.otherBase})` : '';
      const bleeding = b ? `; Blood Loss${b.stemmed ? ', stemming it with the Action' : ''}: ${test}${why} ${b.roll} vs ${shown(b.target)}${mods}, ${b.success ? 'passed' : `failed by ${b.degrees} DoF`}${b.fateSpent ? `; ${blocked(name(e.data.id), b.fateSpent)}` : ''}` : '';
      const fate = e.data.fate ? `; the Fate Point's ${e.data.fate.advantages} Advantage(s) go to the ${FATE_TESTS[e.data.fate.test]} test` : '';
      const flight = e.data.fleeing ? `; Panicked: it spends this Turn's Move and Action fleeing from ${name(e.data.fleeing)}` : '';
      return `round ${e.data.round}: ${name(e.data.id)}'s turn${bleeding}${confused}${miasma}${fate}${flight}`;
    }
    case 'attack-resolved': {
      const s = e.data.summary;
      const rolls = s.condemnedRolls ? `rolls ${s.condemnedRolls.join(' and ')} (Condemned), kept ${s.roll}` : `roll ${s.roll}`;
      const how = e.data.spec.chanceAttack ? 'makes a Chance Attack on' : e.data.spec.action === 'charge' ? 'charges' : e.data.spec.action === 'focused' ? 'makes a Focused Attack on' : e.data.spec.action === 'all-weapon' ? 'attacks with every weapon' : 'attacks';
      const head = `${name(e.data.attacker)} ${how} ${name(e.data.defender)}: ${rolls}${s.evasionRoll !== null ? `, evasion ${s.evasionRoll}` : s.evasionSpent ? ', no evasion left this Round' : ''}${tieBreak(s.tieRolls)}`;
      if (!s.hit) return `${head}: ${s.fumble ? `Fumble, ${e.data.spec.ammunition ? `${e.data.spec.ammunition} jams and loses its ammunition, ` : ''}` : ''}miss`;
      const parts = [`${head}: ${s.critical ? 'Critical Hit' : 'hit'}${s.location ? ` to the ${s.location}` : ''}${s.protectedBy ? `, taken by ${name(s.protectedBy)}` : ''}`];
      if (s.damage !== null) parts.push(`damage ${s.damage} against ${defenseOf(s.defense)}`);
      parts.push(s.wounds.length ? `wounds ${s.wounds.join(', ')}` : 'no wound');
      if (s.savage.length) parts.push(`Savage ${s.savage.join(', ')}`);
      if (s.fateSpent) parts.push(blocked(name(s.protectedBy ?? e.data.defender), s.fateSpent));
      if (s.repelled) parts.push('repelled');
      if (s.oneMore) parts.push('Staggered: One More');
      if (s.criticalAilment) parts.push(`the Critical Effect: ${ailmentTitle(s.criticalAilment)}`);
      for (const h of s.burst?.extra ?? []) parts.push(`burst hits ${name(h.id)} (${h.location}, ${h.wounds.length} wound(s))`);
      const st = e.data.shockTest;
      if (st) parts.push(`Shocked target: Agility ${st.roll} vs ${shown(st.target)}, ${st.success ? 'unharmed' : `${name(e.data.attacker)} is Shocked too`}`);
      return parts.join('; ');
    }
    case 'baton-passed':
      return `${name(e.data.from)} passes the baton to ${name(e.data.to)} (+${e.data.advantages} Advantage)`;
    case 'all-out-attack':
      return `All-Out Attack by ${e.data.participants.map((p) => `${name(p.id)} (${p.roll} vs ${shown(p.target)})`).join(', ')}: ${e.data.woundsEach} wound(s) each${Object.entries(e.data.fateSpent ?? {}).map(([id, n]) => `; ${blocked(name(id), n)}`).join('')}${e.data.killed.length ? `; out: ${e.data.killed.map(name).join(', ')}` : ''}`;
    case 'defending':
      return `${name(e.data.id)} defends`;
    case 'protecting':
      return `${name(e.data.id)} protects ${name(e.data.ally)}`;
    case 'placed':
      return `${name(e.data.target)} stands at (${e.data.position.x}, ${e.data.position.y}), elevation ${e.data.position.elevation} m${e.data.altitude && e.data.altitude !== 'ground' ? `, flying ${e.data.altitude === 'low' ? 'Low' : 'High'}` : ''}`;
    case 'moved': {
      const d = e.data;
      const t = d.terrainTest;
      const terrain = t ? `; at full speed through Difficult Terrain: ${t.roll} vs ${shown(t.target)}, ${t.success ? 'passed' : `${t.degrees} DoF${t.prone ? ', falls prone' : ''}${t.damage !== null ? `, takes damage ${t.damage}` : ''}`}` : '';
      const st = d.stealth;
      const stealth = st ? `; stealth test${st.fullSpeed ? ' at full speed' : ''}: ${st.roll} vs ${shown(st.target)}, ${st.success ? 'unseen' : 'given away'}` : '';
      return `${name(d.who)} ${d.flight ? `flees from ${name(d.flight)} (Panicked):` : d.run ? 'runs' : 'moves'} ${d.metres} m (of ${d.allowance}) to (${d.to.x}, ${d.to.y})${d.altitude ? `, ${d.altitude === 'ground' ? 'landing at Ground' : `flying ${d.altitude === 'low' ? 'Low' : 'High'}`}` : ''}${d.oneMore ? ' with the One More' : ''}${terrain}${stealth}${d.left.length ? `; a Flee from ${d.left.map(name).join(', ')}` : ''}${d.engaged.length ? `; Engaged in Melee with ${d.engaged.map(name).join(', ')}` : ''}`;
    }
    case 'terrain-set':
      return e.data.kind || e.data.dtn ? `${name(e.data.target)} is in ${e.data.kind === 'damaging' ? `Damaging terrain (damage ${e.data.damage ?? 0})` : 'Uneven/Slippery terrain'}, Difficult Terrain Number ${e.data.dtn}` : `${name(e.data.target)} is on open ground`;
    case 'movement-tested': {
      const o = e.data.outcome;
      const result = [o.hindrance === 0 ? 'not Hindered' : o.hindrance === 1 ? 'Hindered' : 'doubly Hindered', ...(o.falls ? ['falls'] : []), ...(o.sinks ? ['sinks'] : [])].join(', ');
      return `${name(e.data.who)} tests a ${e.data.kind}: ${e.data.roll} vs ${shown(e.data.target)}, ${e.data.degrees} ${e.data.success ? 'DoS' : 'DoF'}: ${result}`;
    }
    case 'wounds-restored':
      return `${name(e.data.target)} regains ${e.data.light} Light and ${e.data.heavy} Heavy wound(s)`;
    case 'resource-used':
      return `${name(e.data.who)} spends ${e.data.amount} ${e.data.resource === 'spirit' ? 'Spirit' : 'Exertion'}${e.data.label ? ` (${e.data.label})` : ''}`;
    case 'injuries-treated':
      return `${name(e.data.target)} is treated (${e.data.how})`;
    case 'ailment-inflicted': {
      const r = e.data.resistance;
      const test = r ? `${name(e.data.target)} tests ${scoreTitle(r.score)} to resist ${ailmentTitle(e.data.ailment)}: ${r.roll} vs ${shown(r.target)}${r.modifiers.length ? ` (${r.modifiers.map((m) => `${m.label} ${m.value > 0 ? '+' : ''}${m.value}`).join(', ')})` : ''}, ${r.success ? `${r.degrees} DoS, resisted` : 'failed'}` : '';
      if (r?.success) return test;
      return `${test ? `${test}; ` : ''}${name(e.data.target)} is ${ailmentTitle(e.data.ailment)}${e.data.turns ? ` for ${e.data.turns} turn(s)` : ''}${e.data.source ? ` by ${name(e.data.source)}` : ''}`;
    }
    case 'condition-set':
      return `${name(e.data.target)}: ${e.data.condition} ${e.data.value ? 'on' : 'off'}`;
    case 'fate-spent':
      return `${name(e.data.who)} spends a Fate Point: ${e.data.spend}${e.data.ailment ? ` (${ailmentTitle(e.data.ailment)})` : ''}${e.data.location ? ` (${e.data.location})` : ''}${e.data.resource ? ` (${e.data.resource})` : ''}`;
    case 'test-rolled':
      return `${name(e.data.who)} tests ${e.data.label || e.data.score}: ${e.data.roll} vs ${shown(e.data.target === null ? null : e.data.target + e.data.modifiers.reduce((n, m) => n + m.value, 0))}, ${e.data.success ? `success, ${e.data.degrees} DoS` : `failure, ${e.data.degrees} DoF`}`;
    case 'test-rerolled':
      return `${e.data.forcedBy ? `${name(e.data.forcedBy)}'s Distraction makes ${name(e.data.who)} reroll` : `${name(e.data.who)} spends a Fate Point to reroll`} the ${e.data.test === 'test' ? 'test' : `${e.data.test} test`}: ${e.data.oldRoll} then ${e.data.newRoll}, ${e.data.kept} stands; ${describeD100Event(e.data.replacement, name)}`;
    case 'disengaged':
      return e.data.method === 'action' ? `${name(e.data.who)} spends the Action to disengage` : `${name(e.data.who)} disengages: ${e.data.results.map((r) => opposed(r, name)).join('; ')}${e.data.fled.length ? `; a Flee from ${e.data.fled.map(name).join(', ')}` : ''}`;
    case 'fled':
      return `${name(e.data.who)} flees from ${e.data.from.map(name).join(', ')}${e.data.reason ? ` (${e.data.reason})` : ''}`;
    case 'grapple-resolved':
      return `${name(e.data.attacker)} grapples ${name(e.data.defender)}: ${e.data.attackRoll} vs ${shown(e.data.attack)}${e.data.evasionRoll !== null ? `, evasion ${e.data.evasionRoll} vs ${shown(e.data.evasion)}` : ''}${tieBreak(e.data.tieRolls)}: ${e.data.won ? 'grappled' : 'fails'}`;
    case 'grapple-escape':
      return e.data.result ? `${name(e.data.who)} tries to break ${name(e.data.grappler)}'s grapple (${e.data.declared}): ${opposed(e.data.result, name)}` : `${name(e.data.who)} is released from ${name(e.data.grappler)}'s grapple`;
    case 'turn-ended':
      return `${name(e.data.id)} ends the turn${e.data.frozen ? `; Frozen: ${e.data.frozen.roll} vs ${shown(e.data.frozen.target)}, ${e.data.frozen.success ? 'breaks free' : 'stays frozen'}` : ''}${e.data.expired.length ? `; ${e.data.expired.map(ailmentTitle).join(', ')} wears off` : ''}${e.data.forfeited ? '; the One More is forfeited' : ''}`;
    case 'round-ended':
      return `round ${e.data.round} ends${e.data.crashes?.length ? `; ${e.data.crashes.map((c) => name(c.who)).join(', ')} crash(es) to the ground` : ''}`;
    case 'fell': {
      const d = e.data;
      const test = d.test ? `; ${d.test.roll} vs ${shown(d.test.target)}, ${d.test.success ? `${d.test.degrees} DoS` : 'failed'}` : '';
      return `${name(d.who)} falls ${d.metres} m${test}: damage ${d.damage} against ${defenseOf(d.defense)} at the ${d.location}; ${d.wounds.length ? `wounds ${d.wounds.join(', ')}` : 'no wound'}`;
    }
    case 'equipped':
      return `${name(e.data.who)} draws ${e.data.item}${e.data.stow ? ` and puts ${e.data.stow} away` : ''} (${e.data.cost === 'free' ? 'a free action' : 'an Action'})`;
    case 'scattered': {
      const d = e.data;
      const where = d.direction === 'up' ? `straight up ${d.metres} m` : d.metres === 0 ? 'nowhere (0 m)' : `${d.metres} m ${d.direction === 'towards the attacker' ? `towards ${name(d.attacker)}` : d.direction}`;
      return `${name(d.attacker)}'s attack on ${name(d.defender)} scatters ${where} (roll ${d.roll})${d.to ? `, coming down at (${d.to.x}, ${d.to.y})` : ''}`;
    }
    case 'reloading': {
      const d = e.data;
      const hurry = d.hurry ? `, hurried with ${d.hurry.skill === 'ballistics' ? 'Ballistics' : 'Survival'}: ${d.hurry.roll} vs ${shown(d.hurry.target)}, ${d.hurry.success ? `${d.hurry.degrees} DoS` : 'failed'}` : '';
      return `${name(d.who)} reloads ${d.weapon}${hurry} (an Action): ${d.left ? `${d.left} more Action${d.left === 1 ? '' : 's'} to go` : 'loaded'}`;
    }
    case 'consumable-used':
      return `${name(e.data.who)} uses ${e.data.item}${e.data.target !== e.data.who ? ` on ${name(e.data.target)}` : ''}`;
    case 'went-stealthy':
      return `${name(e.data.who)} goes stealthy`;
    case 'disrupted': {
      const d = e.data;
      const effect = d.kind === 'distract' ? `${name(d.who)} may force one reroll of ${name(d.target)}'s tests until its next turn` : `${name(d.target)} takes a Disadvantage on tests against ${name(d.who)} and its adjacent allies until ${name(d.who)}'s next turn`;
      return `${name(d.who)} tries ${d.kind === 'distract' ? 'to Distract' : 'a Scary Face on'} ${name(d.target)}: ${opposed(d.result, name)}${d.won ? `; ${effect}` : ''}`;
    }
    case 'analysed':
      return `${name(e.data.who)} ${e.data.advanced ? 'makes an Advanced Analyse of' : 'analyses'} ${name(e.data.target)}: its affinities, Arcana and Personality${e.data.advanced ? ', Wounds, Scores and Traits' : ''} are revealed`;
    case 'trick-resolved': {
      const d = e.data;
      const rolls = `${d.attackRoll} vs ${shown(d.attack)}${d.evasionRoll !== null ? `, evasion ${d.evasionRoll} vs ${shown(d.evasion)}` : ''}${tieBreak(d.tieRolls)}`;
      const i = d.impact;
      const into = i ? `${i.obstacle} m into a solid object, ${i.left} m short: ${i.left} Stress, damage ${i.damage} against ${defenseOf(i.defense)} at the ${i.location}, ${i.wounds.length ? `wounds ${i.wounds.join(', ')}` : 'no wound'}` : `${d.metres} m`;
      const result = !d.won ? 'fails' : d.kind === 'knockdown' ? `${name(d.defender)} is knocked prone` : `${name(d.defender)} is pushed ${into}`;
      return `${name(d.attacker)} tries a ${d.kind === 'push' ? 'Push' : 'Knockdown'} on ${name(d.defender)}: ${rolls}: ${result}`;
    }
    case 'exhaustion-tested':
      return `${name(e.data.who)} is Exhausted and takes Stress: Toughness ${e.data.roll} vs ${shown(e.data.target)}${e.data.fate ? ` with the Fate Point's ${e.data.fate} Advantage(s)` : ''}, ${e.data.success ? 'stays conscious' : `falls unconscious for ${e.data.minutes} minute(s)`}`;
    case 'staunched':
      return `${name(e.data.who)} gives ${name(e.data.target)} first aid (Medical): ${e.data.test.roll} vs ${shown(e.data.test.target)}, ${e.data.test.success ? 'the bleeding stops' : 'it bleeds on'}`;
    case 'bleeding-test-chosen':
      return `${name(e.data.who)} will test ${BLOOD_LOSS_TESTS[e.data.test]} against its Blood Loss`;
    case 'confused-target-chosen':
      return `the GM names ${name(e.data.target)} as the nearest character, whom ${name(e.data.who)} attacks (Confused)`;
    case 'fate-block-declared':
      return e.data.heavy ? `${name(e.data.who)} will spend up to ${e.data.heavy} Fate Point(s) blocking Heavy wounds it incurs` : `${name(e.data.who)} will spend no Fate Point blocking Heavy wounds`;
    case 'stemming-declared':
      return e.data.stem ? `${name(e.data.who)} will spend the Action at the start of its next turn stemming its bleeding` : `${name(e.data.who)} will not stem its bleeding after all`;
    case 'power-wasted':
      return `${name(e.data.who)} is Amnesiac: the action spent on ${e.data.power} is wasted`;
    case 'ailment-fought': {
      const d = e.data;
      const t = d.test ? `: ${d.test.roll} vs ${shown(d.test.target)}` : ': a full Move and Action';
      return `${name(d.who)} fights ${ailmentTitle(d.ailment)}${t}, ${d.ended ? 'it ends' : 'it holds'}`;
    }
    case 'miasma-set':
      return e.data.rate ? `the Sea of Chaos: Miasma growth rate ${e.data.rate}` : 'out of the Sea of Chaos';
    case 'week-started':
      return 'a new week: Fate Points refill';
    case 'undone':
      return 'the last action is undone';
  }
}
