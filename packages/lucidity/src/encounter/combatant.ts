import { z } from 'zod';
import { RuleError } from '@personae/core';
import { ATTRIBUTES, type Attributes } from '../attributes';
import { seed } from '../citation';
import type { LucidityOptions } from '../options';
import { checkSheet, traitNames } from '../sheet';

/** A weapon as the encounter uses it. */
export interface Weapon {
  readonly name: string;
  readonly damage: string;
  readonly attribute: 'STR' | 'DEX';
  readonly kind: 'melee' | 'ranged';
  readonly skill?: string;
  readonly penetration: number;
  readonly improvised: boolean;
  readonly unarmed?: boolean;
}

/** A character in an encounter: what the rules read, and its tracks. */
export interface Combatant {
  readonly id: string;
  readonly name: string;
  readonly side: 'party' | 'foe';
  /** Hidden from players until the GM reveals it. */
  readonly hidden: boolean;
  /** The participant who commands it; null for the GM's characters. */
  readonly controller: string | null;
  readonly pc: boolean;
  readonly level: number;
  readonly attributes: Attributes;
  readonly traits: readonly string[];
  readonly skills: Readonly<Record<string, number>>;
  readonly weapons: readonly Weapon[];
  readonly defense: number;
  /** Armour Protection. */
  readonly protection: number;
  /** Protection from shields (Shieldbreaker ignores it). */
  readonly shieldProtection: number;
  readonly maxHealth: number;
  readonly maxLucidity: number;
  readonly maxEnergy: number;
  readonly health: number;
  readonly lucidity: number;
  readonly energy: number;
  readonly initiative: number | null;
  /** Actions left this turn (2 at its start), the move action, readied actions. */
  readonly actions: number;
  readonly moveAction: boolean;
  readonly readied: { readonly actions: number; readonly trigger: string } | null;
  /** Round in which this character last made an opportunity attack (one per round). */
  readonly opportunityRound: number;
  /** Buffs and breaks offered to its next roll (Help/Interfere). */
  readonly pendingBuffs: number;
  readonly pendingBreaks: number;
  /** Damage taken while already at 0 Health this round (calls for the end-of-round roll). */
  readonly zeroHealthDamage: boolean;
  readonly damageThisTurn: number;
  /** Adrenaline Rush: +6 Protection until this round has passed. */
  readonly adrenalineUntil: number;
  readonly condition: 'active' | 'unconscious' | 'final-turn' | 'dead';
  readonly injuries: readonly string[];
}

const weaponSchema = z
  .object({
    name: z.string().min(1),
    damage: z.string().regex(/^\s*(\d*d\d+|\d+)(\s*[+-]\s*(\d*d\d+|\d+))*\s*$/i, 'a damage expression such as 1d8+2'),
    attribute: z.enum(['STR', 'DEX']).default('STR'),
    kind: z.enum(['melee', 'ranged']).default('melee'),
    skill: z.string().optional(),
    penetration: z.number().int().min(0).max(20).default(0),
    improvised: z.boolean().default(false),
  })
  .strict();

/** A GM's creature or NPC without a full sheet: the numbers an encounter needs. */
export const StatBlockSchema = z
  .object({
    name: z.string().min(1),
    level: z.number().int().min(1).max(20).default(1),
    attributes: z.object(Object.fromEntries(ATTRIBUTES.map((a) => [a, z.number().int().min(-5).max(10).default(0)])) as Record<(typeof ATTRIBUTES)[number], z.ZodDefault<z.ZodNumber>>).strict().optional(),
    traits: z.array(z.string()).default([]),
    skills: z.record(z.string(), z.number().int().min(0).max(10)).default({}),
    weapons: z.array(weaponSchema).default([]),
    defense: z.number().int().min(0).max(100).optional(),
    protection: z.number().int().min(0).max(100).default(0),
    shieldProtection: z.number().int().min(0).max(100).default(0),
    health: z.number().int().min(1).max(10000),
    lucidity: z.number().int().min(0).max(100).default(0),
    energy: z.number().int().min(0).max(1000).default(0),
  })
  .strict();
export type StatBlock = z.input<typeof StatBlockSchema>;

const UNARMED = (traits: readonly string[], opts: LucidityOptions): Weapon => ({
  name: 'Unarmed strike',
  damage: traits.includes('Brawler') ? '1d8' : opts.unarmedDamage,
  attribute: 'STR',
  kind: 'melee',
  penetration: 0,
  improvised: false,
  unarmed: true,
});

interface Placement {
  readonly id: string;
  readonly side: 'party' | 'foe';
  readonly hidden: boolean;
  readonly controller: string | null;
}

function fresh(p: Placement, rest: Omit<Combatant, keyof Placement | 'initiative' | 'actions' | 'moveAction' | 'readied' | 'opportunityRound' | 'pendingBuffs' | 'pendingBreaks' | 'zeroHealthDamage' | 'damageThisTurn' | 'adrenalineUntil' | 'condition' | 'injuries'>): Combatant {
  return { ...p, ...rest, initiative: null, actions: 0, moveAction: false, readied: null, opportunityRound: 0, pendingBuffs: 0, pendingBreaks: 0, zeroHealthDamage: false, damageThisTurn: 0, adrenalineUntil: 0, condition: rest.health > 0 ? 'active' : 'unconscious', injuries: [] };
}

/** A combatant from a Lucidity sheet; an illegal sheet is refused with its first problem. */
export function combatantFromSheet(p: Placement, raw: unknown, opts: LucidityOptions): Combatant {
  const r = checkSheet(raw, opts);
  if (!r.ok) {
    const first = r.problems[0]!;
    throw new RuleError('lucidity.sheet', `the sheet of ${p.id} is not legal: ${first.field}: ${first.message}${r.problems.length > 1 ? ` (and ${r.problems.length - 1} more)` : ''}`, `sheet.${first.field}`, first.rule);
  }
  const s = r.sheet;
  const d = r.derived;
  const traits = traitNames(s);
  const weapons: Weapon[] = s.items
    .filter((i) => i.weapon)
    .map((i) => ({ name: i.name, damage: i.weapon!.damage, attribute: i.weapon!.attribute, kind: i.weapon!.kind, ...(i.weapon!.skill ? { skill: i.weapon!.skill } : {}), penetration: i.weapon!.penetration, improvised: i.weapon!.improvised }));
  const armor = s.items.reduce((n, i) => n + (i.armor?.protection ?? 0) + (i.weapon?.protection ?? 0), 0);
  const shield = s.items.reduce((n, i) => n + (i.shield?.protection ?? 0), 0);
  return fresh(p, {
    name: s.name,
    pc: true,
    level: s.level,
    attributes: s.attributes,
    traits,
    skills: s.skills,
    weapons: [...weapons, UNARMED(traits, opts)],
    defense: d.defense,
    protection: armor,
    shieldProtection: shield,
    maxHealth: d.maxHealth,
    maxLucidity: d.maxLucidity,
    maxEnergy: d.maxEnergy,
    health: d.current.health,
    lucidity: d.current.lucidity,
    energy: d.current.energy,
  });
}

/** A combatant from a stat block (Defense 10 + DEX + AWA when not given). */
export function combatantFromStatBlock(p: Placement, raw: unknown, opts: LucidityOptions): Combatant {
  const parsed = StatBlockSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join('.');
    throw new RuleError('lucidity.stat-block', `the stat block of ${p.id}: ${field || 'block'}: ${issue.message}`, `statBlock.${field}`, seed('How Combat Works'));
  }
  const b = parsed.data;
  const attributes = (b.attributes ?? Object.fromEntries(ATTRIBUTES.map((a) => [a, 0]))) as Attributes;
  return fresh(p, {
    name: b.name,
    pc: false,
    level: b.level,
    attributes,
    traits: b.traits,
    skills: b.skills,
    weapons: [...b.weapons.map((w) => ({ ...w, ...(w.skill ? { skill: w.skill } : {}) }) as Weapon), UNARMED(b.traits, opts)],
    defense: b.defense ?? opts.defenseBase + attributes.DEX + attributes.AWA,
    protection: b.protection,
    shieldProtection: b.shieldProtection,
    maxHealth: b.health,
    maxLucidity: b.lucidity,
    maxEnergy: b.energy,
    health: b.health,
    lucidity: b.lucidity,
    energy: b.energy,
  });
}
