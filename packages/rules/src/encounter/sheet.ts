import { deriveCharacter } from '../character/derive';
import type { AnySheet } from '../character/schema';
import type { TableOptions } from '../options';
import { CombatantSchema, type Combatant, type CombatantInput } from './combatant';

/** An id made from a name: "Brogan Ironhand" -> "brogan-ironhand". */
export function idFromName(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'character';
}

/**
 * The encounter's view of a character sheet: skills with their dice and attributes, weapons and
 * shields from the gear, special abilities with their effects, powers, Expertise talents, and the
 * values the sheet derives (Potential, hits before Injured). `extra` sets what a scenario adds: an
 * id, a seat, who controls it.
 */
export function combatantFromSheet(sheet: AnySheet, options: Pick<TableOptions, 'potential'>, extra: Partial<CombatantInput> = {}): Combatant {
  const derived = deriveCharacter(sheet, options);
  const id = extra.id ?? idFromName(sheet.name);
  const input: CombatantInput = {
    id,
    name: sheet.name,
    role: sheet.role,
    tier: derived.tier ?? 'major',
    ...(sheet.player ? { controller: sheet.player } : {}),
    attributes: { ...sheet.attributes },
    potential: derived.potential,
    // Minor and minion thresholds follow the tier (and option minionThreshold), not the sheet's count.
    ...(derived.tier === null || derived.tier === 'major' ? { hitsBeforeInjured: derived.hitsBeforeInjured } : {}),
    skills: derived.skills.map((s) => ({
      name: s.name,
      dice: Math.max(1, s.dice),
      attribute: s.attribute,
      ...(s.weapon ? { weapon: s.weapon } : {}),
      ...(s.shield ? { shield: s.shield } : {}),
    })),
    weapons: sheet.gear.flatMap((g) => (g.type === 'weapon' ? [{ name: g.name, size: g.size, range: g.range, group: g.group }] : [])),
    shields: sheet.gear.flatMap((g) => (g.type === 'shield' ? [{ name: g.name, weight: g.weight }] : [])),
    specialAbilities: sheet.specialAbilities.map((a) => ({ name: a.name, quality: a.quality, effect: a.effect, ...(a.description ? { description: a.description } : {}) })),
    powers: sheet.powers.map((p) => ({
      name: p.name,
      skill: p.skill ?? 'Magic',
      duration: p.duration,
      kind: p.hits > 0 ? ('harm' as const) : ('effect' as const),
      hits: Math.max(1, p.hits),
      targets: p.targets,
      ...(p.description ? { description: p.description } : {}),
    })),
    expertise: sheet.talents.flatMap((t) => (t.kind === 'expertise' ? [{ name: t.name, dice: t.dice, uses: t.uses }] : [])),
    criticals: sheet.criticals,
    hits: sheet.health.hits,
    ...extra,
  };
  return CombatantSchema.parse(input);
}
