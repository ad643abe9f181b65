import { z } from 'zod';
import type { TableOptions } from '../options/options';
import { effectUpgrades } from '../effects';
import { checkCreation, powerUpgrades, unspentSlots, type SlotsLeft } from './checks';
import { DEFENSE_SKILLS, STARTING_SKILL_DICE, abilityBaseValue, effectiveEntries, effectiveSpends, sameName, talentValue, type CharacterOptions } from './derive';
import { applyPurchase, describePurchase, invertPurchase, purchaseCategory, purchaseCost } from './purchases';
import { ruleSource, type CharacterRuleName } from './rules';
import { PurchaseSchema, type CharacterSheet, type HistoryEntry, type Purchase, type SlotTrait } from './schema';

/**
 * Advancement as pure functions, in the decider shape: `decideAdvancement` validates a command
 * against the sheet and returns the history entry it would append (or an error naming the field,
 * the value and the rule, leaving the sheet as it was); `evolveAdvancement` applies an entry.
 * personae-core-2011.txt "Advancement", "Upgrades", "The Framework of Advancement".
 */

export const AdvancementCommandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('award'), points: z.number().int().min(1), note: z.string().optional() }),
  z.strictObject({ type: z.literal('spend'), purchase: PurchaseSchema, award: z.number().int().min(1).optional() }),
  z.strictObject({ type: z.literal('undo'), entry: z.number().int().min(1).optional() }),
]);
export type AdvancementCommand = z.input<typeof AdvancementCommandSchema>;

/**
 * The options advancement reads. `prioritiesChangeable` left out reads as false, the value of every
 * preset (personae-core-2011.txt "The Order of Importance").
 */
export type AdvancementOptions = CharacterOptions & Partial<Pick<TableOptions, 'prioritiesChangeable'>>;

export interface AdvancementError {
  /** The field of the command or the sheet at fault, e.g. `purchase.skill.dice`. */
  readonly path: string;
  readonly value: unknown;
  readonly rule: CharacterRuleName;
  readonly message: string;
  readonly source: string;
}

export type AdvancementDecision = { ok: true; entry: HistoryEntry } | { ok: false; error: AdvancementError };
export type AdvancementResult = { ok: true; sheet: CharacterSheet; entry: HistoryEntry } | { ok: false; error: AdvancementError };

function refuse(rule: CharacterRuleName, path: string, value: unknown, message: string): { ok: false; error: AdvancementError } {
  return { ok: false, error: { path, value, rule, message, source: ruleSource(rule) } };
}

function nextId(sheet: CharacterSheet): number {
  return sheet.history.reduce((max, e) => Math.max(max, e.id), 0) + 1;
}

/** Points left on each award in effect, and what the award has gone to so far. */
export function awardBalances(sheet: CharacterSheet): { id: number; points: number; left: number; category: 'attributes' | 'traits' | null }[] {
  const spends = effectiveSpends(sheet.history);
  return effectiveEntries(sheet.history)
    .filter((e): e is Extract<HistoryEntry, { type: 'award' }> => e.type === 'award')
    .map((a) => {
      const from = spends.filter((s) => s.award === a.id);
      const spent = from.reduce((n, s) => n + s.cost, 0);
      const cats = from.map((s) => purchaseCategory(s.purchase)).filter((c) => c !== 'none');
      return { id: a.id, points: a.points, left: a.points - spent, category: (cats[0] as 'attributes' | 'traits' | undefined) ?? null };
    });
}

function exists(list: readonly { name: string }[], name: string): boolean {
  return list.some((x) => sameName(x.name, name));
}

/** What one slot of each kind holds, and the attribute whose creation maximum it counts against. */
const SLOT_KIND = {
  skill: { left: 'skills', attribute: 'Competence', rule: 'skills-within-competence', label: 'skill' },
  'special-ability': { left: 'specialAbilities', attribute: 'Cunning', rule: 'special-abilities-within-cunning', label: 'special ability' },
  power: { left: 'powers', attribute: 'Power', rule: 'powers-within-power', label: 'power' },
  talent: { left: 'talents', attribute: 'Knowledge', rule: 'talents-within-knowledge', label: 'talent' },
} as const satisfies Record<SlotTrait['type'], { left: keyof SlotsLeft; attribute: string; rule: CharacterRuleName; label: string }>;

function slotValue(t: SlotTrait): number {
  if (t.type === 'special-ability') return abilityBaseValue(t.ability);
  if (t.type === 'talent') return talentValue(t.talent);
  if (t.type === 'power') return 1 + t.power.upgrades;
  return 1;
}

/** The purchase a slot trait would be if bought with development points: the same shape rules apply. */
function asPurchase(t: SlotTrait): Purchase {
  if (t.type === 'skill') return { kind: 'skill', skill: t.skill };
  if (t.type === 'special-ability') return { kind: 'special-ability', ability: t.ability };
  if (t.type === 'power') return { kind: 'power', power: t.power };
  return { kind: 'talent', talent: t.talent };
}

/**
 * personae-core-2011.txt "Step 4: Determine Maximum Number of Traits": traits left unspent at creation
 * may be defined later, within the creation maxima. A slot trait takes the shape of a newly acquired
 * one (a skill at 2 dice, a power and special ability without paid upgrades).
 */
function precheckSlot(sheet: CharacterSheet, t: SlotTrait, options: AdvancementOptions): { ok: false; error: AdvancementError } | null {
  if (t.type === 'special-ability' && t.ability.companion !== undefined) {
    return refuse('companion-prerequisites', 'purchase.trait.ability.companion', t.ability.companion, 'A companion joins through a special ability bought with development points, with the companion\'s sheet.');
  }
  const shape = precheck(sheet, asPurchase(t), options);
  if (shape) return { ok: false, error: { ...shape.error, path: shape.error.path.replace(/^purchase\./, 'purchase.trait.') } };
  const left = unspentSlots(sheet, options);
  if (!left) return refuse('history-replays', 'purchase', t.type, 'The sheet as created cannot be recovered from the history, so its unspent slots are unknown.');
  const kind = SLOT_KIND[t.type];
  const value = slotValue(t);
  if (value > left[kind.left]) {
    return refuse(
      kind.rule,
      'purchase.trait',
      t.type,
      `No unspent creation slot is left for this ${kind.label}: it takes ${value} and ${left[kind.left]} of the ${kind.attribute} slots ${left[kind.left] === 1 ? 'is' : 'are'} unspent.`,
    );
  }
  return null;
}

/** Checks that a purchase is possible on this sheet before looking at points. */
function precheck(sheet: CharacterSheet, p: Purchase, options: AdvancementOptions): { ok: false; error: AdvancementError } | null {
  const dup = (list: readonly { name: string }[], name: string, path: string, what: string) =>
    exists(list, name) ? refuse('trait-names-unique', path, name, `The character already has ${what} called "${name}".`) : null;
  switch (p.kind) {
    case 'skill': {
      if (p.skill.dice !== STARTING_SKILL_DICE) {
        return refuse('skill-starting-rating', 'purchase.skill.dice', p.skill.dice, `A newly unlocked skill has ${STARTING_SKILL_DICE} dice; assign Prowess Pool dice to raise it.`);
      }
      const isDefense = DEFENSE_SKILLS.some((d) => sameName(d.name, p.skill.name));
      if (isDefense) return refuse('trait-names-unique', 'purchase.skill.name', p.skill.name, `${p.skill.name} is unlocked for everyone already.`);
      return dup(sheet.skills, p.skill.name, 'purchase.skill.name', 'a skill');
    }
    case 'assign-dice':
      if (!exists(sheet.skills, p.skill) && !DEFENSE_SKILLS.some((d) => sameName(d.name, p.skill))) {
        return refuse('purchase-target-exists', 'purchase.skill', p.skill, `There is no unlocked skill called "${p.skill}" to assign dice to.`);
      }
      return null;
    case 'special-ability': {
      const d = dup(sheet.specialAbilities, p.ability.name, 'purchase.ability.name', 'a special ability');
      if (d) return d;
      if (p.ability.upgrades > p.ability.conditional.length) {
        return refuse('purchase-cost', 'purchase.ability.upgrades', p.ability.upgrades, `A new special ability starts with only its free Conditional upgrades (${p.ability.conditional.length}); buy further upgrades one at a time.`);
      }
      const needed = effectUpgrades(p.ability.effect, options);
      if (needed > p.ability.upgrades) {
        return refuse('special-ability-framework', 'purchase.ability.effect', p.ability.effect, `A new special ability gives a benefit of one; ${p.ability.name} as described takes ${needed} upgrades.`);
      }
      const wants = p.ability.companion;
      if (wants !== undefined && (!p.companion || !sameName(p.companion.name, wants))) {
        return refuse('companion-prerequisites', 'purchase.companion', p.companion?.name, `${p.ability.name} represents the companion ${wants}; include that companion's sheet.`);
      }
      if (p.companion && wants === undefined) {
        return refuse('companion-prerequisites', 'purchase.ability.companion', undefined, `A companion joins through a special ability that names it in "companion".`);
      }
      if (p.companion) return dup(sheet.companions, p.companion.name, 'purchase.companion.name', 'a companion');
      return null;
    }
    case 'special-ability-upgrade':
      return exists(sheet.specialAbilities, p.ability)
        ? null
        : refuse('purchase-target-exists', 'purchase.ability', p.ability, `There is no special ability called "${p.ability}".`);
    case 'quality': {
      const a = sheet.specialAbilities.find((x) => sameName(x.name, p.ability));
      if (!a) return refuse('purchase-target-exists', 'purchase.ability', p.ability, `There is no special ability called "${p.ability}".`);
      if (a.quality) return refuse('purchase-target-exists', 'purchase.ability', p.ability, `${a.name} is a Quality already.`);
      return null;
    }
    case 'companion-promotion': {
      const c = sheet.companions.find((x) => sameName(x.name, p.companion));
      if (!c) return refuse('purchase-target-exists', 'purchase.companion', p.companion, `There is no companion called "${p.companion}".`);
      if ((c.tier ?? 'minion') === 'major') return refuse('companion-tier', 'purchase.companion', p.companion, `${c.name} is a major ally already; there is no further step.`);
      return null;
    }
    case 'companion-attribute':
      return exists(sheet.companions, p.companion)
        ? null
        : refuse('purchase-target-exists', 'purchase.companion', p.companion, `There is no companion called "${p.companion}".`);
    case 'power': {
      const d = dup(sheet.powers, p.power.name, 'purchase.power.name', 'a power');
      if (d) return d;
      if (p.power.upgrades !== 0 || powerUpgrades(p.power) > 0) {
        return refuse('power-framework', 'purchase.power', p.power.name, `A new power affects one target, inflicts at most one hit and lasts Instant or Maintain; upgrade it afterwards.`);
      }
      return null;
    }
    case 'power-upgrade': {
      const pw = sheet.powers.find((x) => sameName(x.name, p.power));
      if (!pw) return refuse('purchase-target-exists', 'purchase.power', p.power, `There is no power called "${p.power}".`);
      if (p.improve === 'duration' && !p.duration) {
        return refuse('power-framework', 'purchase.duration', p.duration, 'A duration upgrade names the new duration: independent or special.');
      }
      if (p.improve === 'duration' && (pw.duration === 'independent' || pw.duration === 'special')) {
        return refuse('power-framework', 'purchase.duration', p.duration, `${pw.name} already lasts ${pw.duration}.`);
      }
      return null;
    }
    case 'talent':
      return dup(sheet.talents, p.talent.name, 'purchase.talent.name', 'a talent');
    case 'talent-upgrade': {
      const t = sheet.talents.find((x) => sameName(x.name, p.talent));
      if (!t) return refuse('purchase-target-exists', 'purchase.talent', p.talent, `There is no talent called "${p.talent}".`);
      const fits = p.improve === 'resourceCap' ? t.kind === 'resource' : t.kind === 'expertise';
      if (!fits) {
        return refuse('purchase-target-exists', 'purchase.improve', p.improve, `${t.name} is a ${t.kind} talent; ${p.improve === 'resourceCap' ? 'only resources raise the Resource Cap' : 'only expertise has uses and bonus dice'}.`);
      }
      return null;
    }
    case 'priorities': {
      // personae-core-2011.txt "The Order of Importance": the group decides whether priorities may change.
      if (!options.prioritiesChangeable) {
        return refuse('priorities-changeable', 'purchase.priorities', p.priorities, 'This table does not let attribute priorities change after creation (option prioritiesChangeable is false).');
      }
      const same = (a: typeof p.priorities, b: typeof p.priorities) =>
        [...a.first].sort().join() === [...b.first].sort().join() && [...a.second].sort().join() === [...b.second].sort().join() && a.third === b.third && a.handicap === b.handicap;
      if (same(p.priorities, sheet.priorities)) {
        return refuse('priorities-changeable', 'purchase.priorities', p.priorities, 'That is the order of importance the character already has.');
      }
      return null;
    }
    case 'unspent-slot':
      return precheckSlot(sheet, p.trait, options);
    case 'attribute':
    case 'prowess-pool':
    case 'hit':
      return null;
  }
}

/** Validate a command against the sheet; on success, the history entry that carries it out. */
export function decideAdvancement(sheet: CharacterSheet, command: AdvancementCommand, options: AdvancementOptions): AdvancementDecision {
  const parsed = AdvancementCommandSchema.safeParse(command);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return refuse('history-well-formed', issue.path.join('.'), undefined, `The command is not understood: ${issue.message}.`);
  }
  const cmd = parsed.data;
  const id = nextId(sheet);

  if (cmd.type === 'award') {
    return { ok: true, entry: { type: 'award', id, points: cmd.points, ...(cmd.note !== undefined ? { note: cmd.note } : {}) } };
  }

  if (cmd.type === 'undo') {
    const live = effectiveEntries(sheet.history);
    const latest = live[live.length - 1];
    if (!latest) return refuse('undo-latest-first', 'entry', cmd.entry, 'There is nothing to undo.');
    const target = cmd.entry ?? latest.id;
    if (!live.some((e) => e.id === target)) {
      return refuse('history-well-formed', 'entry', target, `Entry ${target} is not an award or spend in effect.`);
    }
    if (target !== latest.id) {
      return refuse('undo-latest-first', 'entry', target, `Entry ${latest.id} came after entry ${target}; undo it first.`);
    }
    if (latest.type === 'spend' && typeof invertPurchase(sheet, latest) === 'string') {
      return refuse('history-replays', 'entry', target, `Spend ${target} can no longer be taken back: the sheet was changed by hand since.`);
    }
    return { ok: true, entry: { type: 'undo', id, entry: target } };
  }

  const purchase = cmd.purchase;
  const pre = precheck(sheet, purchase, options);
  if (pre) return pre;
  const cost = purchaseCost(sheet, purchase, options);
  if (cost === null) return refuse('purchase-target-exists', 'purchase', purchase, `Nothing on the sheet matches "${describePurchase(purchase)}".`);

  let award: number | null = null;
  if (cost > 0) {
    const category = purchaseCategory(purchase);
    const balances = awardBalances(sheet);
    const fits = (b: (typeof balances)[number]) => b.left >= cost && (b.category === null || b.category === category);
    if (cmd.award !== undefined) {
      const b = balances.find((x) => x.id === cmd.award);
      if (!b) return refuse('history-well-formed', 'award', cmd.award, `There is no award ${cmd.award} in effect.`);
      if (b.left < cost) return refuse('development-points-available', 'award', cmd.award, `Award ${b.id} has ${b.left} of ${b.points} points left; ${describePurchase(purchase)} costs ${cost}.`);
      if (b.category !== null && b.category !== category) {
        return refuse('award-attributes-or-traits', 'award', cmd.award, `Award ${b.id} has gone to ${b.category}; it cannot also pay for ${category}.`);
      }
      award = b.id;
    } else {
      const b = balances.find(fits);
      if (!b) {
        const left = balances.reduce((n, x) => n + x.left, 0);
        const otherCategory = balances.some((x) => x.left >= cost && x.category !== null && x.category !== category);
        if (otherCategory) {
          return refuse('award-attributes-or-traits', 'purchase', purchase.kind, `The points left come from awards already spent on ${category === 'attributes' ? 'traits' : 'attributes'}; one award goes to attributes or to traits, not both.`);
        }
        return refuse('development-points-available', 'purchase', purchase.kind, `${describePurchase(purchase)} costs ${cost} but ${left === 0 ? 'no development points are left' : `no single award has ${cost} left (${left} in all)`}.`);
      }
      award = b.id;
    }
  }

  const applied = applyPurchase(sheet, purchase);
  if (typeof applied === 'string') return refuse('purchase-target-exists', 'purchase', purchase, `${applied[0]!.toUpperCase()}${applied.slice(1)}.`);
  const entry: HistoryEntry = {
    type: 'spend',
    id,
    award,
    cost,
    purchase,
    ...(applied.previous !== undefined ? { previous: applied.previous } : {}),
  };
  // Whatever rule the result would break that the sheet did not break before refuses the spend.
  const before = new Set(checkCreation(sheet, options).errors.map((e) => `${e.rule} ${e.path}`));
  const after = checkCreation({ ...applied.sheet, history: [...sheet.history, entry] }, options);
  const fresh = after.errors.find((e) => !before.has(`${e.rule} ${e.path}`));
  if (fresh) return refuse(fresh.rule, fresh.path, purchase, fresh.message);
  return { ok: true, entry };
}

/** Apply an entry that `decideAdvancement` returned: the sheet with the entry carried out and appended. */
export function evolveAdvancement(sheet: CharacterSheet, entry: HistoryEntry): CharacterSheet {
  let next: CharacterSheet = sheet;
  if (entry.type === 'spend') {
    const applied = applyPurchase(sheet, entry.purchase);
    if (typeof applied === 'string') throw new Error(`spend ${entry.id} cannot be applied: ${applied}`);
    next = applied.sheet;
  } else if (entry.type === 'undo') {
    const target = sheet.history.find((e) => e.id === entry.entry);
    if (target?.type === 'spend') {
      const back = invertPurchase(sheet, target);
      if (typeof back === 'string') throw new Error(`spend ${target.id} cannot be undone: ${back}`);
      next = back;
    }
  }
  return { ...next, history: [...sheet.history, entry] };
}

/** decide, then evolve. */
export function advance(sheet: CharacterSheet, command: AdvancementCommand, options: AdvancementOptions): AdvancementResult {
  const d = decideAdvancement(sheet, command, options);
  return d.ok ? { ok: true, sheet: evolveAdvancement(sheet, d.entry), entry: d.entry } : d;
}
