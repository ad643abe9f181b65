import type { LucidityEvent, RollRecord } from './events';

function rollText(r: RollRecord): string {
  if (r.guaranteed) return 'a guaranteed success (final turn)';
  if (r.lucidity) return `Lucidity roll d20 ${r.d20} against ${r.lucidity.target}: ${r.success ? `success, Lucidity -> ${r.lucidity.lucidityAfter}` : 'failure'}`;
  const mods = r.modifiers.map((m) => ` ${m.value >= 0 ? '+' : ''}${m.value} ${m.label}`).join('');
  return `d20 ${r.d20}${mods} = ${r.total} against ${r.target}`;
}

/** One line for the log, in the seed's words. `name` turns an id into the name to show. */
export function describeLucidityEvent(e: LucidityEvent, name: (id: string) => string = (id) => id): string {
  switch (e.type) {
    case 'combatant-added':
      return `${e.data.combatant.name} joins (${e.data.combatant.side}${e.data.combatant.hidden ? ', hidden' : ''})`;
    case 'encounter-started':
      return `initiative (d20 + AWA): ${e.data.rolls.map((r) => `${name(r.id)} ${r.total}`).join(', ')}; order ${e.data.order.map(name).join(', ')}`;
    case 'attacked': {
      const d = e.data;
      const head = `${name(d.attacker)} attacks ${name(d.target)} with ${d.weapon}${d.reaction ? ` (${d.reaction} attack)` : ` (${d.cost} action${d.cost === 1 ? '' : 's'})`}: ${rollText(d.roll)}`;
      if (!d.hit) return `${head}: miss`;
      return `${head}: hit, Penetration ${d.penetration}, damage ${d.damage}${d.damageDice.length ? ` [${d.damageDice.join(', ')}]` : ''} against Protection ${d.protection}: ${d.damageTaken} taken${d.toLucidity ? ` (${d.toLucidity} off Lucidity)` : ''}${d.dies ? '; dies' : ''}${d.exploitAllowed ? '; an exploit may follow' : ''}`;
    }
    case 'rolled':
      return `${name(e.data.actor)} rolls ${e.data.attribute}${e.data.skill ? ` (${e.data.skill})` : ''}${e.data.label ? ` for ${e.data.label}` : ''}: ${rollText(e.data.roll)}: ${e.data.roll.success ? 'success' : 'failure'}`;
    case 'lucidity-rolled':
      return `${name(e.data.actor)} makes a Lucidity roll (${e.data.purpose}): ${e.data.rolls.map((r) => `d20 ${r.d20} against ${r.target}`).join(', then ')}: ${e.data.success ? 'success' : 'failure'}, Lucidity ${e.data.lucidityAfter}${e.data.healthGained ? `, +${e.data.healthGained} Health` : ''}`;
    case 'moved':
      return `${name(e.data.actor)} moves ${e.data.feet} ft${e.data.shuffle ? ' (Shuffle, free)' : e.data.usedMoveAction ? ' (move action)' : ' (1 action)'}`;
    case 'helped':
      return `${name(e.data.actor)} ${e.data.kind === 'buff' ? 'helps' : 'interferes with'} ${name(e.data.target)}: ${e.data.count} ${e.data.kind}${e.data.count > 1 ? 's' : ''} on the next roll`;
    case 'readied':
      return `${name(e.data.actor)} readies ${e.data.actions} action(s): ${e.data.trigger}`;
    case 'damaged':
      return `${name(e.data.target)} takes ${e.data.amount} damage${e.data.reason ? ` (${e.data.reason})` : ''}${e.data.toLucidity ? `, ${e.data.toLucidity} off Lucidity` : ''}${e.data.dies ? '; dies' : ''}`;
    case 'exploit-ruled':
      return `GM ruling, ${e.data.kind} exploit by ${name(e.data.actor)} on ${name(e.data.target)}${e.data.turnabout ? ' (Exploitative, turned back)' : ''}: ${e.data.success ? 'it happens' : 'it fails'}: ${e.data.ruling}`;
    case 'wingman-hyped':
      return `${name(e.data.actor)} hypes ${name(e.data.ally)} (Wingman): a buff on non-attack ${e.data.attribute} rolls until a roll fails`;
    case 'narrative-defeat': {
      const d = e.data;
      const res = d.resistance ? `; resistance d20 ${d.resistance.d20} = ${d.resistance.total} against ${d.resistance.target}: ${d.resisted ? 'resisted, half' : 'failed, full'}` : d.resisted ? '; resisted (GM), half' : '';
      return `${name(d.actor)} outwits ${name(d.target)} (${d.ploy}): ${d.attribute} ${d.value}${res}: ${d.damage} damage${d.toLucidity ? `, ${d.toLucidity} off Lucidity` : ''}${d.dies ? '; dies' : ''}`;
    }
    case 'casting-begun':
      return `${name(e.data.actor)} begins casting ${e.data.spell} (free action; ready in round ${e.data.readyRound}, ${e.data.energyCost} Energy)`;
    case 'spell-cast':
      return `${name(e.data.actor)} casts ${e.data.spell}${e.data.target ? ` at ${name(e.data.target)}` : ''} (${e.data.cost} actions, ${e.data.energyCost} Energy, ${e.data.energyAfter} left)${e.data.effect ? `: ${e.data.effect}` : ''}`;
    case 'rested':
      return `${name(e.data.id)} ${e.data.lunarPause ? 'takes a long rest with a Lunar Pause' : 'takes a long rest'}: +${e.data.healed} Health [${e.data.healthDice.join(', ')}], +${e.data.lucidityGained} Lucidity, Energy ${e.data.energy}`;
    case 'xp-awarded':
      return `${name(e.data.id)} gains ${e.data.amount} XP${e.data.reason ? ` (${e.data.reason})` : ''}: ${e.data.xp} XP, enough for level ${e.data.levelReached}`;
    case 'levelled':
      return `${name(e.data.id)} reaches level ${e.data.to}: +1 ${e.data.raise}; Max Health ${e.data.maxHealth}, Max Lucidity ${e.data.maxLucidity}, Max Energy ${e.data.maxEnergy}`;
    case 'revealed':
      return `${name(e.data.id)} is revealed`;
    case 'controller-set':
      return e.data.controller === null ? `the GM takes ${name(e.data.id)} back` : `the GM hands ${name(e.data.id)} to participant ${e.data.controller}`;
    case 'turn-ended': {
      const parts = [`${name(e.data.ended)} ends the turn`];
      for (const z of e.data.zeroHealth) parts.push(`end of round, ${name(z.id)} at 0 Health: Lucidity (CON) d20 ${z.d20} against ${z.target}: ${z.degree === 0 ? 'success' : `Degree of Failure ${z.degree}, ${z.outcome.kind}`}`);
      for (const id of e.data.died) parts.push(`${name(id)} dies after the final turn`);
      parts.push(e.data.newRound ? `round ${e.data.round}: ${name(e.data.next)}'s turn` : `${name(e.data.next)}'s turn`);
      return parts.join('; ');
    }
    case 'undone':
      return `undo entry ${e.data.target}`;
    case 'redone':
      return `redo entry ${e.data.target}`;
  }
}
