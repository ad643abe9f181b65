import type { BloodLossRecord, EncounterEvent, OpposedRecord } from './encounter';

/**
 * The target numbers of a character's rolls, as a viewer who does not know its Scores is shown them
 * (d100-combat-rules.txt, "Analysing Targets, Disrupting Targets and Tricks": only an Advanced Analyse
 * Target reveals an enemy's Scores, Wounds and Traits; option detailsReveal). A target number less its
 * listed modifiers is the Score it was rolled against, and a defense is its Toughness Bonus and
 * Unnatural Toughness, so both are written as null for such a character; the roll, success, degrees,
 * critical, fumble and the outcome stay.
 */
export function hideUnknownNumbers(event: EncounterEvent, unknown: (id: string) => boolean): EncounterEvent {
  const num = <T>(id: string, n: T): T => (unknown(id) ? (null as T) : n);
  const test = <T extends { target: number } | null | undefined>(id: string, t: T): T => (t && unknown(id) ? { ...t, target: null } : t);
  const opposedFor = (id: string, r: OpposedRecord): OpposedRecord => ({ ...r, target: num(id, r.target), enemyTarget: num(r.enemy, r.enemyTarget) });
  const e = event;
  switch (e.type) {
    case 'encounter-started':
      return { ...e, data: { ...e.data, order: e.data.order.map((o) => ({ ...o, score: num(o.id, o.score) })) } };
    case 'fell':
      return { ...e, data: { ...e.data, test: test(e.data.who, e.data.test), defense: num(e.data.who, e.data.defense) } };
    case 'turn-started': {
      if (!unknown(e.data.id)) return e;
      const { confused, miasma, bloodLoss } = e.data;
      const b = bloodLoss && ({ ...bloodLoss, target: null, ...(bloodLoss.base !== undefined ? { base: null } : {}), ...(bloodLoss.otherBase !== undefined ? { otherBase: null } : {}) } as unknown as BloodLossRecord);
      return { ...e, data: { ...e.data, ...(confused ? { confused: test(e.data.id, confused) } : {}), ...(miasma ? { miasma: test(e.data.id, miasma) } : {}), ...(b ? { bloodLoss: b } : {}) } };
    }
    case 'attack-resolved': {
      const d = e.data;
      const struck = d.summary.protectedBy ?? d.defender;
      const burst = d.summary.burst && { ...d.summary.burst, extra: d.summary.burst.extra.map((h) => ({ ...h, defense: num(h.id, h.defense) })) };
      return {
        ...e,
        data: {
          ...d,
          spec: { ...d.spec, attackTarget: num(d.attacker, d.spec.attackTarget), evasionTarget: num(d.defender, d.spec.evasionTarget) },
          summary: { ...d.summary, defense: num(struck, d.summary.defense), ...(burst ? { burst } : {}) },
          ...(d.shockTest ? { shockTest: test(d.attacker, d.shockTest) } : {}),
        },
      };
    }
    case 'exhaustion-tested':
    case 'movement-tested':
    case 'test-rolled':
      return { ...e, data: test(e.data.who, e.data) } as EncounterEvent;
    case 'staunched':
    case 'ailment-fought':
      return { ...e, data: { ...e.data, test: test(e.data.who, e.data.test) } } as EncounterEvent;
    case 'moved':
      return { ...e, data: { ...e.data, ...(e.data.stealth ? { stealth: test(e.data.who, e.data.stealth) } : {}), ...(e.data.terrainTest ? { terrainTest: test(e.data.who, e.data.terrainTest) } : {}) } };
    case 'all-out-attack':
      return { ...e, data: { ...e.data, participants: e.data.participants.map((p) => ({ ...p, target: num(p.id, p.target) })) } };
    case 'disrupted':
      return { ...e, data: { ...e.data, result: opposedFor(e.data.who, e.data.result) } };
    case 'disengaged':
      return { ...e, data: { ...e.data, results: e.data.results.map((r) => opposedFor(e.data.who, r)) } };
    case 'grapple-escape':
      return e.data.result ? { ...e, data: { ...e.data, result: opposedFor(e.data.who, e.data.result) } } : e;
    case 'grapple-resolved':
    case 'trick-resolved': {
      const d = e.data;
      const impact = e.type === 'trick-resolved' && e.data.impact ? { impact: { ...e.data.impact, defense: num(d.defender, e.data.impact.defense) } } : {};
      return { ...e, data: { ...d, attack: num(d.attacker, d.attack), evasion: num(d.defender, d.evasion), ...impact } } as EncounterEvent;
    }
    case 'test-rerolled':
      return { ...e, data: { ...e.data, replacement: hideUnknownNumbers(e.data.replacement, unknown) } };
    case 'turn-ended':
      return e.data.frozen ? { ...e, data: { ...e.data, frozen: test(e.data.id, e.data.frozen) } } : e;
    default:
      return e;
  }
}
