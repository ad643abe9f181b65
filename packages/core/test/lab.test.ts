import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { commitRoll, faceFit, newSalt, outcomeFit, upperRegularizedGamma, verifyRoll } from '../src';

describe('provably fair secret rolls', () => {
  const roll = { dice: [7, 3, 10, 1], salt: '00112233445566778899aabbccddeeff' };

  it('commits with SHA-256 of a canonical text of salt and dice', () => {
    const expected = createHash('sha256').update('personae-roll-v1|00112233445566778899aabbccddeeff|7,3,10,1').digest('hex');
    expect(commitRoll(roll).hash).toBe(expected);
  });

  it('verifies the revealed roll and refuses a tampered one', () => {
    const c = commitRoll(roll);
    expect(verifyRoll(c, roll)).toEqual({ ok: true });
    const changed = verifyRoll(c, { ...roll, dice: [7, 3, 10, 2] });
    expect(changed.ok).toBe(false);
    expect(changed.ok === false && changed.reason).toBe('mismatch');
    expect(verifyRoll(c, { ...roll, salt: 'ff112233445566778899aabbccddeeff' }).ok).toBe(false);
    expect(verifyRoll(c, { dice: [0], salt: roll.salt })).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('makes fresh 16-byte salts', () => {
    const a = newSalt();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newSalt()).not.toBe(a);
  });
});

describe('fairness of typed-in dice', () => {
  it('computes chi-square tail probabilities (table values)', () => {
    // chi-square critical values: df 9 at 0.01 is 21.666; df 10 at 0.05 is 18.307; df 1 at 0.05 is 3.841
    expect(upperRegularizedGamma(9 / 2, 21.666 / 2)).toBeCloseTo(0.01, 4);
    expect(upperRegularizedGamma(10 / 2, 18.307 / 2)).toBeCloseTo(0.05, 4);
    expect(upperRegularizedGamma(1 / 2, 3.841 / 2)).toBeCloseTo(0.05, 3);
  });

  it('flags a loaded d10 and passes fair ones at the stated error rate', () => {
    const dice = seededDice(11);
    const loaded = Array.from({ length: 600 }, () => (dice.die(4) === 1 ? 10 : dice.die(10)));
    const fit = faceFit(loaded, 10);
    expect(fit.enoughData).toBe(true);
    expect(fit.suspicious).toBe(true);

    let flagged = 0;
    const samples = 400;
    for (let s = 0; s < samples; s++) {
      const faces = Array.from({ length: 200 }, () => dice.die(10));
      if (faceFit(faces, 10, 0.01).suspicious) flagged++;
    }
    // at a 1 % level, 400 fair samples flag about 4; 12 or more would happen with chance below 0.1 %
    expect(flagged).toBeLessThan(12);
  });

  it('says when there is too little data', () => {
    const fit = faceFit([10, 10, 10], 10);
    expect(fit.enoughData).toBe(false);
    expect(fit.suspicious).toBe(false);
    expect(() => faceFit([11], 10)).toThrow(/1 to 10/);
  });

  it('compares successes with the exact chances', () => {
    const rolls = Array.from({ length: 100 }, (_, i) => ({ chance: 0.5, succeeded: i < 80 }));
    const fit = outcomeFit(rolls);
    expect(fit.expected).toBe(50);
    expect(fit.z).toBeCloseTo(6, 6);
  });
});
