import type { FairnessRow } from '@personae/core';
import type { Participant } from '../lib/api';
import { whoName } from './Log';

const pct = (x: number) => (x < 0.00001 ? '< 0.001%' : `${(x * 100).toFixed(x < 0.001 ? 3 : 1)}%`);

/**
 * The GM's fairness check of physical dice: for each participant who typed dice in, a chi-square test
 * of the faces entered against a fair die (a d10 at a Personae table), and the successes of their
 * rolls against the exact odds. The server sends it in the GM's view only (`rows`, null for anyone
 * else). `die` says which faces are tested, `rolls` what an outcome is.
 */
export function DiceFairness(props: { rows: readonly FairnessRow[] | null; participants: readonly Participant[]; sides?: number; die?: string; rolls?: string }) {
  const rows = props.rows;
  if (!rows) return null;
  const sides = props.sides ?? 10;
  const die = props.die ?? `a fair d${sides}`;
  const rolls = props.rolls ?? 'Challenges';
  return (
    <section class="card stack" aria-labelledby="fair-h">
      <h2 id="fair-h">Dice fairness (GM only)</h2>
      <p class="hint">
        For dice typed in from physical dice. Faces: Pearson's chi-square test against {die}; a die is called suspicious when its p-value is under 1% and
        there are at least 5 dice expected per face ({5 * sides} dice). Outcomes: the successes seen against those the exact odds expected, as a z-score.
      </p>
      {rows.length === 0 ? (
        <p class="muted">No one has typed in dice yet.</p>
      ) : (
        <div class="scroll-x">
          <table class="fairness" aria-label="Dice fairness per participant">
            <thead>
              <tr>
                <th scope="col">Who</th>
                <th scope="col">Dice</th>
                <th scope="col">Faces 1 to {sides}</th>
                <th scope="col">Chi-square</th>
                <th scope="col">p-value</th>
                <th scope="col">{rolls}</th>
                <th scope="col">Successes (expected)</th>
                <th scope="col">z</th>
                <th scope="col">Verdict</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const verdict = !r.faces.enoughData
                  ? `too little data (${r.faces.dice} of ${5 * sides} dice)`
                  : r.faces.suspicious
                    ? 'suspicious faces'
                    : Math.abs(r.outcomes.z) >= 3
                      ? 'outcomes far from the odds'
                      : 'fits a fair die';
                return (
                  <tr key={r.participantId} data-participant={r.participantId} data-suspicious={r.faces.suspicious ? 'yes' : 'no'}>
                    <th scope="row">{whoName(props.participants, r.participantId)}</th>
                    <td>{r.faces.dice}</td>
                    <td class="mono">{r.faces.counts.join(' ')}</td>
                    <td>{r.faces.chiSquare.toFixed(1)} (df {r.faces.degreesOfFreedom})</td>
                    <td>{pct(r.faces.pValue)}</td>
                    <td>{r.outcomes.challenges}</td>
                    <td>
                      {r.outcomes.successes} ({r.outcomes.expected.toFixed(1)})
                    </td>
                    <td>{r.outcomes.z.toFixed(2)}</td>
                    <td>
                      <strong>{verdict}</strong>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
