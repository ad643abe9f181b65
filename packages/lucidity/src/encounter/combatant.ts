import { z } from 'zod';
import { RuleError } from '@personae/core';
import { ATTRIBUTES, type Attribute, type Attributes } from '../attributes';
import { xpForLevel } from '../advancement';
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
  /** Hands it needs (Guts: "massive" weapons, dual-wielding larger ones). */
  readonly hands?: 1 | 2 | 'massive';
}

/** A spell the character knows (the seed gives Energy and casting time, no list: inventory U24). */
export interface Spell {
  readonly name: string;
  readonly energyCost: number;
  readonly castingTimeRounds: number;
  readonly effect: string;
}

/** A spell being prepared ("Begin Casting a Spell"): castable from round `readyRound`. */
export interface Casting {
  readonly spell: string;
  readonly energyCost: number;
  readonly readyRound: number;
  /** Rounds added by damage taken while casting. */
  readonly delays: number;
  /** Damage counted toward the next delay under castDelayDamage=cumulative. */
  readonly damageSinceDelay: number;
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
  readonly xp: number;
  readonly spells: readonly Spell[];
  readonly casting: Casting | null;
  /** Protection from its weapons, which Defender shares with adjacent allies (armour is not shared). */
  readonly weaponProtection: number;
  /** Wingman: a buff on non-attack rolls with this attribute until a roll fails. */
  readonly wingman: { readonly attribute: Attribute; readonly from: string } | null;
  /** Wingman has been used on this character since its last rest. */
  readonly wingmanSpent: boolean;
  /** Inspirator has been used since the last rest. */
  readonly inspiratorUsed: boolean;
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
    hands: z.union([z.literal(1), z.literal(2), z.literal('massive')]).default(1),
  })
  .strict();

const spellSchema = z.object({ name: z.string().min(1), energyCost: z.number().int().min(0).max(100), castingTimeRounds: z.number().int().min(0).max(100).default(0), effect: z.string().default('') }).strict();

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
    xp: z.number().int().min(0).max(1_000_000).optional(),
    spells: z.array(spellSchema).default([]),
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

type Trackers = 'initiative' | 'actions' | 'moveAction' | 'readied' | 'opportunityRound' | 'pendingBuffs' | 'pendingBreaks' | 'zeroHealthDamage' | 'damageThisTurn' | 'adrenalineUntil' | 'condition' | 'injuries' | 'casting' | 'wingman' | 'wingmanSpent' | 'inspiratorUsed';

function fresh(p: Placement, rest: Omit<Combatant, keyof Placement | Trackers>): Combatant {
  return {
    ...p,
    ...rest,
    initiative: null,
    actions: 0,
    moveAction: false,
    readied: null,
    opportunityRound: 0,
    pendingBuffs: 0,
    pendingBreaks: 0,
    zeroHealthDamage: false,
    damageThisTurn: 0,
    adrenalineUntil: 0,
    condition: rest.health > 0 ? 'active' : 'unconscious',
    injuries: [],
    casting: null,
    wingman: null,
    wingmanSpent: false,
    inspiratorUsed: false,
  };
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
    .map((i) => ({ name: i.name, damage: i.weapon!.damage, attribute: i.weapon!.attribute, kind: i.weapon!.kind, ...(i.weapon!.skill ? { skill: i.weapon!.skill } : {}), penetration: i.weapon!.penetration, improvised: i.weapon!.improvised, hands: i.weapon!.hands }));
  const weaponProtection = s.items.reduce((n, i) => n + (i.weapon?.protection ?? 0), 0);
  const armor = s.items.reduce((n, i) => n + (i.armor?.protection ?? 0), 0) + weaponProtection;
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
    xp: s.xp ?? xpForLevel(s.level, opts) ?? 0,
    spells: s.spells,
    weaponProtection,
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
    xp: b.xp ?? xpForLevel(b.level, opts) ?? 0,
    spells: b.spells,
    weaponProtection: 0,
  });
}
