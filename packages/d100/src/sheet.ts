import { z } from 'zod';
import { AILMENT_NAMES } from './ailments';
import type { Problem, SheetCheck } from '@personae/core';
import { AFFINITIES, ELEMENTS, REGULAR_ELEMENTS, type AffinityTable } from './elements';
import { bonus, defenseToughnessBonus, makeFighter, resourceMaxima, RESOURCES, SCORES, type Fighter, type Score } from './fighter';
import { initiativeOf } from './initiative';
import { LOCATIONS, type Location } from './location';
import { DEFAULT_OPTIONS } from './options';
import { ruleCitation, seed } from './rules';
import { woundTracksFor } from './wounds';

/**
 * The d100 character sheet (YAML or JSON): the ten Scores, Realisation, skills, affinities, an
 * optional Persona, Armour per location, weapons, wound tracks, Stress and Fate Points. The zod
 * schema gives the TypeScript type and the published JSON Schema (docs/d100/sheet.schema.json);
 * `checkSheet` adds the checks a schema cannot state, each naming field, value and rule.
 */
const score = z.number().int().min(0).max(100);
const affinity = z.enum(AFFINITIES);
const affinities = z.strictObject(Object.fromEntries(REGULAR_ELEMENTS.map((e) => [e, affinity.optional()])) as Record<(typeof REGULAR_ELEMENTS)[number], z.ZodOptional<typeof affinity>>);

export const TRAINING = ['untrained', 'known', 'trained', 'experienced', 'master'] as const;
export type Training = (typeof TRAINING)[number];
/** The skill target: the governing Score plus its training (untrained -20 up to master +30). */
export const TRAINING_BONUS: Readonly<Record<Training, number>> = { untrained: -20, known: 0, trained: 10, experienced: 20, master: 30 };

export const WEAPON_CLASSES = ['melee', 'thrown', 'pistol', 'basic', 'heavy', 'magic'] as const;
/** The classes of Ballistic weapons, tested with the Ballistics skill ("Standard Attack and other Attack Actions"). */
export const BALLISTIC_CLASSES: readonly string[] = ['pistol', 'basic', 'heavy'];

export const sheetSchema = z.strictObject({
  ruleset: z.literal('d100').optional().describe('Marks the file as a d100 sheet'),
  name: z.string().min(1).max(80),
  kind: z.enum(['evoker', 'shadow', 'npc']).default('evoker'),
  side: z.string().min(1).max(40).default('pc').describe('Characters on the same side are allies'),
  hidden: z.boolean().default(false).describe('A GM character hidden from the players'),
  scores: z.strictObject(Object.fromEntries(SCORES.map((s) => [s, score])) as Record<Score, typeof score>),
  realisation: score.default(0),
  skills: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(60),
        focus: z.string().min(1).max(60).optional(),
        score: z.enum(SCORES),
        training: z.enum(TRAINING).default('known'),
      }),
    )
    .default([]),
  affinities: affinities.default({}),
  persona: z
    .strictObject({
      name: z.string().min(1).max(80),
      wounds: z.number().int().min(1).max(100),
      woundsLeft: z.number().int().min(0).max(100).optional(),
      affinities: affinities.default({}),
    })
    .optional(),
  armour: z.strictObject(Object.fromEntries(LOCATIONS.map((l) => [l, z.number().int().min(0).max(50).optional()])) as Record<Location, z.ZodOptional<z.ZodNumber>>).default({}),
  vital: z.array(z.enum(LOCATIONS)).default(['head']),
  weapons: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(60),
        class: z.enum(WEAPON_CLASSES),
        element: z.enum(ELEMENTS),
        damage: z.number().int().min(0).max(100),
        tier: z.number().int().min(1).max(10).default(1),
        range: z.number().int().min(0).optional(),
        burst: z.number().int().min(1).optional(),
        criticalAilment: z.enum(AILMENT_NAMES).optional().describe('The ailment a magic Critical Hit with it gives under magicCritical=signature-ailment (the spell\'s Critical Effect)'),
        hands: z.union([z.literal(1), z.literal(2)]).default(1),
        longRange: z.boolean().optional().describe('A specially long-ranged Ballistic weapon, approved by the GM: it reaches between High and lower altitude bands'),
        clip: z.number().int().min(1).max(200).optional().describe('Shots one load of this Ballistic weapon holds; with it the table counts its ammunition (each attack one shot; a Fumble jams it, emptying it) and Reload refills it'),
        reload: z.number().int().min(1).max(10).optional().describe('Actions a Reload of it takes ("depends on the weapon"); 1 unless given'),
        spareLoads: z.number().int().min(0).max(100).optional().describe('Loads of ammunition carried for it besides the one in it; absent: as many as needed'),
      }),
    )
    .default([]),
  wounds: z.strictObject({ light: z.number().int().min(0), heavy: z.number().int().min(0), deadly: z.number().int().min(0).max(1) }).optional().describe('Wounds left on each track; full when absent'),
  stress: z.number().int().min(0).default(0),
  fatePoints: z.number().int().min(0).optional().describe('Fate Points left; the pool is the Realisation Bonus'),
  socialLinks: z.record(z.string(), z.number().int().min(0).max(10)).default({}),
  evokerRank: z.number().int().min(0).max(10).optional().describe('Evoker Rank: 1 for an Evoker unless given, 0 for others; Spirit and Exertion grow with it'),
  stowed: z.array(z.string().min(1).max(60)).max(20).default([]).describe('Weapons carried but put away at the start; Equip Item draws one into hand'),
  consumables: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(60),
        count: z.number().int().min(0).max(99).default(1),
        effect: z
          .strictObject({
            light: z.number().int().min(0).max(50).optional().describe('Light wounds restored'),
            heavy: z.number().int().min(0).max(50).optional().describe('Heavy wounds restored'),
            stress: z.number().int().min(0).max(200).optional().describe('Stress relieved'),
            spirit: z.number().int().min(0).max(200).optional().describe('Spirit restored'),
            exertion: z.number().int().min(0).max(200).optional().describe('Exertion restored'),
            cures: z.array(z.enum(AILMENT_NAMES)).max(15).optional().describe('Ailments it ends'),
          })
          .describe('What Use Consumable does to the character it is used on'),
      }),
    )
    .max(30)
    .default([]),
  size: z.number().int().min(-4).max(4).default(0).describe('Size categories above (positive) or below (negative) Normal: attacks against it gain 1 Advantage per category larger, suffer 1 Disadvantage per category smaller'),
  arcanaLevel: z.number().int().min(0).max(10).default(0).describe('Arcana Level: 4 lets the character Analyse Target, 7 Advanced Analyse Target'),
  arcana: z.string().min(1).max(40).optional().describe('The Arcana an Analyse Target reveals'),
  personality: z.string().min(1).max(80).optional().describe('The Personality an Analyse Target reveals'),
  flight: z.boolean().optional().describe('The character can fly, moving between the altitude bands Ground, Low and High'),
  unnaturalToughness: z.number().int().min(1).max(10).optional().describe('The rating of the Unnatural Toughness trait: it raises the Toughness Bonus in Defense'),
  spirit: z.number().int().min(0).optional().describe('Spirit left; full when absent'),
  exertion: z.number().int().min(0).optional().describe('Exertion left; full when absent'),
});

export type D100Sheet = z.infer<typeof sheetSchema>;

export interface D100Derived {
  readonly bonuses: Readonly<Record<Score | 'realisation', number>>;
  readonly woundMax: { readonly light: number; readonly heavy: number; readonly deadly: number };
  readonly fatePointPool: number;
  readonly skills: readonly { readonly name: string; readonly target: number }[];
  readonly initiative: number;
  readonly defense: Readonly<Record<Location, number>>;
  readonly movement: { readonly basicMove: number; readonly run: number };
  readonly evokerRank: number;
  readonly spiritMax: number;
  readonly exertionMax: number;
}

/** The Evoker Rank a sheet gives or implies: 1 for an Evoker, 0 for Shadows and other characters. */
export function evokerRankOf(sheet: Pick<D100Sheet, 'kind' | 'evokerRank'>): number {
  return sheet.evokerRank ?? (sheet.kind === 'evoker' ? 1 : 0);
}

export function sheetJsonSchema(): object {
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'd100 character sheet', ...z.toJSONSchema(sheetSchema, { io: 'input' }) };
}

/** The fighter a checked sheet starts a fight as. */
export function fighterFromSheet(id: string, sheet: D100Sheet): Fighter {
  const f = makeFighter({
    id,
    name: sheet.name,
    side: sheet.side,
    scores: sheet.scores,
    realisation: sheet.realisation,
    armour: sheet.armour as Partial<Record<Location, number>>,
    affinities: sheet.affinities as AffinityTable,
    persona: sheet.persona ? { name: sheet.persona.name, wounds: sheet.persona.wounds, affinities: sheet.persona.affinities as AffinityTable } : null,
    vital: sheet.vital,
    evokerRank: evokerRankOf(sheet),
    ...(sheet.unnaturalToughness ? { unnaturalToughness: sheet.unnaturalToughness } : {}),
  });
  return {
    ...f,
    tracks: sheet.wounds ? { max: f.tracks.max, left: sheet.wounds } : f.tracks,
    stress: sheet.stress,
    fate: { max: f.fate.max, current: sheet.fatePoints ?? f.fate.max },
    persona: f.persona && sheet.persona?.woundsLeft !== undefined ? { ...f.persona, wounds: sheet.persona.woundsLeft } : f.persona,
    resources: {
      spirit: { ...f.resources.spirit, current: sheet.spirit ?? f.resources.spirit.max },
      exertion: { ...f.resources.exertion, current: sheet.exertion ?? f.resources.exertion.max },
    },
  };
}

export function checkSheet(raw: unknown): SheetCheck<D100Sheet, D100Derived> {
  const parsed = sheetSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => {
        const field = i.path.join('.') || 'sheet';
        const value = i.path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string | number, unknown>)[k as string] : undefined), raw);
        return { field, value, message: `${field}: ${i.message}${value !== undefined ? ` (found ${JSON.stringify(value)})` : ''}` };
      }),
    };
  }
  const sheet = parsed.data;
  const problems: Problem[] = [];
  const tb = bonus(sheet.scores.toughness);
  const max = woundTracksFor(tb).max;
  if (sheet.wounds) {
    for (const s of ['light', 'heavy', 'deadly'] as const) {
      if (sheet.wounds[s] > max[s]) {
        problems.push({ field: `wounds.${s}`, value: sheet.wounds[s], rule: ruleCitation('woundTracks'), message: `wounds.${s}: ${sheet.wounds[s]} is more than the track holds (${max[s]} for Toughness ${sheet.scores.toughness}, TB ${tb})` });
      }
    }
  }
  const pool = bonus(sheet.realisation);
  if (sheet.fatePoints !== undefined && sheet.fatePoints > pool) {
    problems.push({ field: 'fatePoints', value: sheet.fatePoints, rule: ruleCitation('fatePoints'), message: `fatePoints: ${sheet.fatePoints} is more than the pool, the Realisation Bonus (${pool} for Realisation ${sheet.realisation})` });
  }
  if (sheet.persona && sheet.persona.woundsLeft !== undefined && sheet.persona.woundsLeft > sheet.persona.wounds) {
    problems.push({ field: 'persona.woundsLeft', value: sheet.persona.woundsLeft, rule: ruleCitation('personaWounds'), message: `persona.woundsLeft: ${sheet.persona.woundsLeft} is more than the Persona's ${sheet.persona.wounds} wounds` });
  }
  const rank = evokerRankOf(sheet);
  const maxima = resourceMaxima(sheet.scores, rank);
  for (const r of RESOURCES) {
    const left = sheet[r];
    if (left !== undefined && left > maxima[r]) {
      const how = r === 'spirit' ? `Magic Bonus ${bonus(sheet.scores.magic)} × Evoker Rank ${rank}` : `Evoker Rank ${rank} × the best of the Melee, Ballistic, Strength and Toughness Bonuses`;
      problems.push({ field: r, value: left, rule: ruleCitation('fatePoints'), message: `${r}: ${left} is more than the pool of ${maxima[r]} (${how})` });
    }
  }
  if (sheet.kind === 'shadow' && sheet.persona) {
    problems.push({ field: 'persona', value: sheet.persona.name, rule: ruleCitation('personaWounds'), message: 'persona: Shadows have affinities of their own and no Persona; only Evokers equip one' });
  }
  sheet.stowed.forEach((n, i) => {
    if (!sheet.weapons.some((w) => w.name === n)) problems.push({ field: `stowed.${i}`, value: n, rule: seed('Equipment Actions (Consumables, Reloading)'), message: `stowed.${i}: "${n}" is not one of the sheet's weapons` });
  });
  sheet.weapons.forEach((w, i) => {
    if (w.longRange && !BALLISTIC_CLASSES.includes(w.class)) problems.push({ field: `weapons.${i}.longRange`, value: w.longRange, rule: ruleCitation('flight'), message: `weapons.${i}.longRange: only a Ballistic weapon (pistol, basic, heavy) can be long-ranged, not the ${w.class} weapon "${w.name}"` });
    for (const field of ['clip', 'reload', 'spareLoads'] as const) {
      if (w[field] !== undefined && !BALLISTIC_CLASSES.includes(w.class)) problems.push({ field: `weapons.${i}.${field}`, value: w[field], rule: seed('Equipment Actions (Consumables, Reloading)'), message: `weapons.${i}.${field}: only a Ballistic weapon (pistol, basic, heavy) is reloaded, not the ${w.class} weapon "${w.name}"` });
    }
    if ((w.reload !== undefined || w.spareLoads !== undefined) && w.clip === undefined) problems.push({ field: `weapons.${i}.clip`, value: undefined, rule: seed('Equipment Actions (Consumables, Reloading)'), message: `weapons.${i}.clip: "${w.name}" gives a reload or spare loads but no clip (the shots one load holds)` });
    if (w.burst !== undefined && w.class === 'melee') problems.push({ field: `weapons.${i}.burst`, value: w.burst, rule: seed('Standard Attack and other Attack Actions'), message: `weapons.${i}.burst: the Burst quality belongs to ranged weapons, not to the melee weapon "${w.name}"` });
  });
  if (problems.length) return { ok: false, problems };
  const bonuses = Object.fromEntries([...SCORES.map((s) => [s, bonus(sheet.scores[s])]), ['realisation', pool]]) as Record<Score | 'realisation', number>;
  const f = fighterFromSheet('sheet', sheet);
  // Defense under the default reading of option unnatural: the trait's rating added to the Bonus
  const defenseTb = defenseToughnessBonus(f, DEFAULT_OPTIONS);
  const defense = Object.fromEntries(LOCATIONS.map((l) => [l, defenseTb + (sheet.armour[l] ?? 0)])) as Record<Location, number>;
  const ab = bonuses.agility;
  return {
    ok: true,
    sheet,
    derived: {
      bonuses,
      woundMax: max,
      fatePointPool: pool,
      skills: sheet.skills.map((s) => ({ name: s.focus ? `${s.name} (${s.focus})` : s.name, target: sheet.scores[s.score] + TRAINING_BONUS[s.training] })),
      initiative: initiativeOf(f).initiative,
      defense,
      movement: { basicMove: ab * 2, run: ab * 4 },
      evokerRank: rank,
      spiritMax: maxima.spirit,
      exertionMax: maxima.exertion,
    },
    warnings: [],
  };
}
