import { describe, expect, it } from 'vitest';
import {
  AbilityEffectSchema,
  EFFECTS,
  EFFECT_TYPES,
  applyEffects,
  describeEffect,
  describeEffectWithScope,
  effectUpgrades,
  type AbilityEffect,
} from '../../src/effects';

const parse = (e: unknown): AbilityEffect => AbilityEffectSchema.parse(e);
const issuingAttack = { role: 'issue' as const, kind: 'attack' as const, answeringAttack: false };
const answeringAttack = { role: 'answer' as const, kind: 'attack' as const, answeringAttack: true };

describe('the ability effect registry', () => {
  it('has one module for every type the schema accepts, listed once for menus', () => {
    const schemaTypes = AbilityEffectSchema.options.map((o) => o.shape.type.value).sort();
    expect(Object.keys(EFFECTS).sort()).toEqual(schemaTypes);
    expect([...EFFECT_TYPES].sort()).toEqual(schemaTypes);
    for (const [type, module] of Object.entries(EFFECTS)) expect(module.type).toBe(type);
  });

  it('says what each effect does in one wording', () => {
    expect(describeEffect(parse({ type: 'bonus-result', amount: 2 }))).toBe('+2 to the result');
    expect(describeEffect(parse({ type: 'bonus-dice', dice: 1 }))).toBe('+1 die');
    expect(describeEffect(parse({ type: 'reroll', dice: 2 }))).toBe('rerolls 2 dice below the highest, keeping the second result');
    expect(describeEffect(parse({ type: 'extra-hits-before-injured', hits: 1 }))).toBe('1 more hit before Injured');
    expect(describeEffect(parse({ type: 'critical-spend', feat: 'injure-outright' }))).toBe('spend 1 critical for the target Injured');
    expect(describeEffectWithScope(parse({ type: 'bonus-result', amount: 1, scope: { skills: ['Spear'], challenges: ['attack'] } }))).toBe(
      '+1 to the result (Spear, attack challenges only)',
    );
  });

  it('counts upgrades by personae-core-2011.txt "The Framework of Advancement": one benefit free, each more one upgrade', () => {
    const second = { rerollDefault: 'second' as const };
    expect(effectUpgrades(parse({ type: 'bonus-dice', dice: 3 }), second)).toBe(2);
    // Keeping the better result costs one where the table's default keeps the second, touching the highest one more.
    expect(effectUpgrades(parse({ type: 'reroll', dice: 1, keep: 'better', mayTouchHighest: true }), second)).toBe(2);
    expect(effectUpgrades(parse({ type: 'reroll', dice: 1, keep: 'better' }), { rerollDefault: 'better' })).toBe(0);
    expect(effectUpgrades(parse({ type: 'described' }), second)).toBe(0);
  });

  it('adds to a side only what works there: extra hits when issuing an attack, armor when answering one', () => {
    const active = [
      { effect: parse({ type: 'extra-hits', hits: 2 }), source: 'Brutal Strike' },
      { effect: parse({ type: 'ignore-attacker-dice', dice: 1 }), source: 'Chain Hauberk' },
      { effect: parse({ type: 'bonus-dice', dice: 1 }), source: 'Expert Spear' },
      { effect: parse({ type: 'steer', steps: 1 }), source: 'Lucky' },
    ];
    const issuing = applyEffects(active, issuingAttack);
    expect(issuing.extraHits).toEqual([{ value: 2, source: 'Brutal Strike' }]);
    expect(issuing.ignoreOpponentDice).toEqual([]);
    expect(issuing.bonusDice).toEqual([{ value: 1, source: 'Expert Spear' }]);
    expect(issuing.steer).toEqual([{ value: 1, source: 'Lucky' }]);
    const answering = applyEffects(active, answeringAttack);
    expect(answering.extraHits).toEqual([]);
    expect(answering.steer).toEqual([]);
    expect(answering.ignoreOpponentDice).toEqual([{ value: 1, source: 'Chain Hauberk' }]);
  });

  it('names what each effect does to the odds', () => {
    expect(EFFECTS['bonus-dice'].odds).toBe('pool');
    expect(EFFECTS['ignore-attacker-dice'].odds).toBe('armor');
    expect(EFFECTS['extra-hits'].odds).toBe('none');
  });
});
