import { useMemo, useState } from 'preact/hooks';
import { cryptoDice, type DiceSource } from '@personae/dice';
import { PRESETS, freePoolSide, presetOptions, resolveChallenge, resolveUnopposed, difficultyLabel, type ChallengeResult, type Preset } from '../lib/rules';
import type { ResolvedSide } from '../lib/roller';
import { Frame } from './Frame';
import { ChallengeView } from './Dice';
import { SelectField } from './fields';
import { Roller, type RollCommand } from './Roller';

/** The roller without a table: the same odds and explanations, rolled in this browser. */
export function RollerPage() {
  const [preset, setPreset] = useState<Preset>('core-2011');
  const options = useMemo(() => presetOptions(preset), [preset]);
  const [history, setHistory] = useState<{ id: number; result: ChallengeResult; purpose: string }[]>([]);
  const dice: DiceSource = useMemo(() => cryptoDice(), []);

  const roll = async (command: RollCommand, sides: { actor: ResolvedSide; reactor: ResolvedSide | null }) => {
    const result =
      'reactor' in command && sides.reactor
        ? resolveChallenge({ actor: freePoolSide(sides.actor), reactor: freePoolSide(sides.reactor) }, dice, options)
        : resolveUnopposed(
            {
              player: freePoolSide(sides.actor),
              difficulty: { value: (command as { difficulty: number }).difficulty, label: difficultyLabel((command as { difficulty: number }).difficulty) },
              ...((command as { gmGiven?: number[] }).gmGiven ? { gmGiven: (command as { gmGiven: number[] }).gmGiven } : {}),
            },
            dice,
            options,
          );
    setHistory((h) => [{ id: (h[0]?.id ?? 0) + 1, result, purpose: command.purpose ?? '' }, ...h].slice(0, 50));
    return result;
  };

  return (
    <Frame where="Odds and dice roller">
      <main id="main">
        <div class="spread">
          <h1>Odds and dice roller</h1>
          <SelectField id="r-preset" label="Rules" value={preset} options={PRESETS.map((p) => ({ value: p, label: p }))} onChange={setPreset} />
        </div>
        <p class="muted">Declare both sides, read the exact odds, then roll here or enter the dice you rolled at the table.</p>
        <div class="table-layout">
          <section class="card">
            <Roller key={preset} idPrefix="r" options={options} characters={[]} mine={[]} physicalDice gm={false} onRoll={roll} />
          </section>
          <section class="card" aria-labelledby="r-log-h">
            <h2 id="r-log-h">Rolls</h2>
            <div aria-live="polite" class="sr-only">
              {history[0] ? `${history[0].result.actor.name}: ${history[0].result.outcome}` : ''}
            </div>
            {history.length === 0 ? (
              <p class="muted">No rolls yet.</p>
            ) : (
              <ol class="log" reversed>
                {history.map((h) => (
                  <li key={h.id}>
                    {h.purpose && <p class="small">{h.purpose}</p>}
                    <ChallengeView result={h.result} small graded={options.grades === 'srd-v4'} />
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
      </main>
    </Frame>
  );
}
