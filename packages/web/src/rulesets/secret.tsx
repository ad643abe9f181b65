import { checkRevealedDice, commitmentOpening, describeWithheld, isWithheldRoll, type FairnessRow, type SecretLogEntry, type SecretRoller, type SecretRollsView, type WithheldRoll } from '@personae/core';
import type { Participant } from '../lib/api';
import { DiceFairness } from '../ui/Fairness';
import { ErrorLine, useAction } from './shared';

/**
 * Secret rolls and the fairness check at a d100 or Lucidity table (withSecretRolls in @personae/core):
 * every viewer's list of commitments and reveals, each reveal checked here in the browser; for the GM,
 * when the table reveals and the rolls still sealed, each with a Reveal button; and the GM's dice
 * fairness. The Personae table has its own (ui/SecretRolls.tsx, its log's marks).
 */

export type SecretVerdict = { readonly kind: 'sealed' } | { readonly kind: 'revealed' } | { readonly kind: 'verified'; readonly committedAt: number } | { readonly kind: 'not-verified'; readonly message: string };

/**
 * What the browser makes of each entry: a commitment is sealed until a reveal names it; a reveal is
 * verified when the commitment it names was published before it in the list, its dice and salt hash
 * to it, and the rolls it reveals show those dice (`diceOf`, the ruleset's reading of its events).
 */
export function secretVerdicts<E>(log: readonly SecretLogEntry<E>[], diceOf: (event: E | WithheldRoll) => number[]): Map<number, SecretVerdict> {
  const out = new Map<number, SecretVerdict>();
  const committed = new Map<string, number>();
  const revealed = new Set(log.filter((e) => e.kind === 'revealed').map((e) => e.hash));
  for (const e of log) {
    if (e.kind === 'committed') {
      committed.set(e.hash, e.seq);
      out.set(e.seq, revealed.has(e.hash) ? { kind: 'revealed' } : { kind: 'sealed' });
      continue;
    }
    const at = committed.get(e.hash);
    if (at === undefined || at >= e.seq) {
      out.set(e.seq, { kind: 'not-verified', message: 'the commitment it names is not in this list (older entries are not kept, or it was never published)' });
      continue;
    }
    const check = checkRevealedDice(e.hash, e, e.rolls.flatMap(diceOf));
    out.set(e.seq, check.ok ? { kind: 'verified', committedAt: at } : { kind: 'not-verified', message: check.message });
  }
  return out;
}

/** Who rolled a commitment, from the participant it names (null: it names none, or one who left). */
export function secretRoller(participants: readonly Participant[], by: string | undefined): SecretRoller {
  const p = by === undefined ? undefined : participants.find((x) => x.id === by);
  if (!p) return null;
  return p.role === 'gm' ? { gm: true } : { gm: false, name: p.displayName };
}

const MOMENT: Record<string, string> = { gm: 'When I reveal them', round: 'At the end of each Round', week: 'At the start of each new week', rest: 'When a combatant rests' };
const momentText = (m: string) => MOMENT[m] ?? `At the end of each ${m}`;

export function RulesetSecretRolls<E>(props: {
  view: SecretRollsView<E>;
  gm: boolean;
  participants: readonly Participant[];
  send: (command: unknown) => Promise<void>;
  diceOf: (event: E | WithheldRoll) => number[];
  /** A revealed roll in words. */
  describe: (event: E) => string;
  fairness: { sides: number; die: string; rolls: string };
}) {
  const { reveal, choices, sealed, log } = props.view.secretRolls;
  const act = useAction();
  const verdicts = secretVerdicts(log, props.diceOf);
  return (
    <>
      <section class="card stack" aria-labelledby="rs-secret-h" id="rs-secret">
        <h2 id="rs-secret-h">Secret rolls</h2>
        <p class="hint">
          A roll players are not shown (a hidden character's) is sealed: everyone's list shows at once a commitment to its dice (a SHA-256 hash with a random salt).
          When it is revealed, each browser checks the dice against the commitment.
        </p>
        {props.gm ? (
          <div class="field">
            <label for="rs-secret-when">Reveal secret rolls</label>
            <select id="rs-secret-when" value={reveal} disabled={act.busy} onChange={(e) => void act.run(() => props.send({ type: 'secret-reveal', reveal: e.currentTarget.value }))}>
              {choices.map((k) => (
                <option key={k} value={k}>
                  {momentText(k)}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p>
            Secret rolls are revealed: <strong>{reveal === 'gm' ? 'when the GM reveals them' : momentText(reveal).toLowerCase()}</strong>.
          </p>
        )}
        {props.gm && sealed.length > 0 && (
          <ul class="stack" aria-label="Sealed rolls">
            {sealed.map((s) => (
              <li key={s.hash} class="row">
                <span class="grow">
                  #{s.committedAt} · <span class="hash">{s.hash.slice(0, 16)}…</span>
                </span>
                <button type="button" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'reveal-roll', hash: s.hash }))}>
                  Reveal #{s.committedAt}
                </button>
              </li>
            ))}
            {sealed.length > 1 && (
              <li>
                <button type="button" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'reveal-roll' }))}>
                  Reveal all
                </button>
              </li>
            )}
          </ul>
        )}
        <ErrorLine id="rs-secret-err" error={act.error} />
        {log.length === 0 ? (
          <p class="muted">No secret roll yet.</p>
        ) : (
          <ol class="log rs-log" reversed aria-label="Commitments and reveals">
            {[...log].reverse().map((e) => {
              const v = verdicts.get(e.seq)!;
              return (
                <li key={e.seq} data-seq={e.seq} data-kind={e.kind}>
                  {e.kind === 'committed' ? (
                    <>
                      #{e.seq} {commitmentOpening(secretRoller(props.participants, e.by), e.reveal)}. Commitment (SHA-256 of the dice and a salt): <span class="hash">{e.hash}</span>{' '}
                      {v.kind === 'sealed' && <span class="tag sealed">Sealed: waiting for the reveal</span>}
                    </>
                  ) : (
                    <>
                      #{e.seq} {e.when === 'gm' ? 'The GM reveals' : `At the end of the ${e.when}, the table reveals`} the secret roll committed in entry #{e.committedAt}: dice{' '}
                      {e.dice.join(', ')}, salt <span class="hash">{e.salt}</span>. {e.rolls.map((r) => (isWithheldRoll(r) ? describeWithheld(r, props.diceOf) : props.describe(r))).join(' ')}{' '}
                      {v.kind === 'verified' ? (
                        <span class="tag verified" data-verified="yes">
                          Verified: matches the commitment of #{v.committedAt}
                        </span>
                      ) : v.kind === 'not-verified' ? (
                        <span class="tag not-verified" data-verified="no" title={v.message}>
                          NOT verified: {v.message}
                        </span>
                      ) : null}
                    </>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </section>
      {props.gm && <DiceFairness rows={props.view.diceFairness as readonly FairnessRow[] | null} participants={props.participants} {...props.fairness} />}
    </>
  );
}
