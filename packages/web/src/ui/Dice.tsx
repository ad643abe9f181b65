import type { ChallengeResult, SideResult } from '../lib/rules';
import { signed } from '../lib/format';

/** How each die of a side took part: the deciding pair, tied pairs, dice set aside, unused dice. */
function roles(result: ChallengeResult, side: 'actor' | 'reactor'): ('decides' | 'tied' | 'unused' | 'compared')[] {
  const s = result[side];
  const decided = result.decidedBy;
  return s.dice.map((_, i) => {
    const pos = i + 1;
    const step = result.steps.find((x) => x.position === pos);
    if (typeof decided === 'number' && pos === decided) return 'decides';
    if (decided === 'extra-dice' && !step && pos === result.steps.length + 1 && result.winner === side) return 'decides';
    if (step && step.result === 'tie') return 'tied';
    if (!step) return 'unused';
    return 'compared';
  });
}

export function Die(props: { value: number; role?: string; small?: boolean; label?: string }) {
  const cls = ['die', props.value === 10 ? 'ten' : '', props.role === 'decides' ? 'decides' : '', props.role === 'tied' ? 'tied' : '', props.role === 'gone' ? 'gone' : '', props.small ? 'small' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <li class={cls} aria-label={props.label}>
      {props.value}
    </li>
  );
}

function dieLabel(v: number, role: string): string {
  const parts = [String(v)];
  if (v === 10) parts.push('natural 10');
  if (role === 'decides') parts.push('deciding die');
  if (role === 'tied') parts.push('tied');
  if (role === 'gone') parts.push('set aside by armor');
  return parts.join(', ');
}

/** Whether a side's dice were typed in from physical dice rather than rolled by the table. */
export function entered(s: SideResult): boolean {
  return s.roll.source === 'given';
}

export function Pool(props: { side: SideResult; roles: string[]; title?: string; small?: boolean }) {
  const s = props.side;
  return (
    <div class="pool">
      <h4>
        {props.title ?? s.name}{' '}
        <span class="muted small">
          {s.dice.length} {s.dice.length === 1 ? 'die' : 'dice'} {signed(s.modifier)}
        </span>
        {entered(s) && (
          <>
            {' '}
            <span class="tag physical" title="These results were read off physical dice and typed in; the table did not roll them.">
              Physical dice
            </span>
          </>
        )}
      </h4>
      <ul class="dice" aria-label={`${s.name}'s dice, highest first`}>
        {s.dice.map((d, i) => (
          <Die key={i} value={d} role={props.roles[i]} small={props.small} label={dieLabel(d, props.roles[i] ?? '')} />
        ))}
        {s.ignored.map((d, i) => (
          <Die key={`x${i}`} value={d} role="gone" small={props.small} label={dieLabel(d, 'gone')} />
        ))}
      </ul>
      {s.modifiers.length > 0 && (
        <p class="breakdown">
          {s.modifiers.map((m) => `${signed(m.value)} ${m.source}`).join(', ')}
        </p>
      )}
    </div>
  );
}

/** The outcome in words; success is graded clear or glancing only at tables that grade it (option grades). */
export function verdictText(r: ChallengeResult, graded = true): string {
  if (r.outcome === 'success') return graded ? `${r.grade === 'glancing' ? 'Glancing' : 'Clear'} success` : 'Success';
  if (r.outcome === 'failure') return 'Failure';
  return 'Full tie';
}

export function decidedText(r: ChallengeResult): string {
  if (r.kind === 'automatic') return 'no roll: automatic success';
  if (r.decidedBy === 1) return 'decided on the highest dice';
  if (r.decidedBy === 'extra-dice') return 'every pair tied: decided by extra dice';
  if (typeof r.decidedBy === 'number') return `decided by tie-break at pair ${r.decidedBy}`;
  return 'every pair tied';
}

/**
 * A resolved challenge: both pools sorted, the deciding pair highlighted, grade, criticals and every step.
 * `fresh` marks a roll just made here: its dice tumble briefly, unless the reader asked for reduced motion.
 */
export function ChallengeView(props: { result: ChallengeResult; small?: boolean; open?: boolean; graded?: boolean; fresh?: boolean }) {
  const r = props.result;
  const reactorTitle = r.kind === 'unopposed' ? `GM (${r.difficulty?.label ?? 'difficulty'})` : r.reactor.name;
  return (
    <div class={`result ${r.outcome}${props.fresh ? ' fresh' : ''}`}>
      <p class={`verdict ${r.outcome}`}>
        {r.actor.name}: {verdictText(r, props.graded ?? true)}
      </p>
      <p class="small">
        {decidedText(r)}
        {r.criticals.actor || r.criticals.reactor
          ? ` · criticals: ${r.actor.name} ${r.criticals.actor}${r.kind === 'unopposed' ? '' : `, ${r.reactor.name} ${r.criticals.reactor}`}`
          : ' · no criticals'}
      </p>
      <div class="pools">
        <Pool side={r.actor} roles={roles(r, 'actor')} small={props.small} />
        <Pool side={r.reactor} roles={roles(r, 'reactor')} title={reactorTitle} small={props.small} />
      </div>
      <details open={props.open}>
        <summary>How it was decided</summary>
        <ol class="explanation">
          {r.explanation.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ol>
      </details>
    </div>
  );
}
