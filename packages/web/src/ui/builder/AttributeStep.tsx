import { ATTRIBUTES, ATTRIBUTE_LABELS, PRIORITIES, PRIORITY_LABELS, attributeSum, potentialFromSum, type TableOptions } from '../../lib/rules';
import { attributeLimit, spreadAttributes, attributesAt, prioritiesOf, problemsAt, type Draft, type DraftCheck } from '../../lib/draft';
import { Problems } from '../fields';
import type { Edit, SetDraft } from './shared';

export function AttributeStep(props: { draft: Draft; setDraft: SetDraft; edit: Edit; check: DraftCheck; options: TableOptions }) {
  const { draft } = props;
  const s = draft.sheet;
  const sum = attributeSum(s.attributes);
  const ordered = PRIORITIES.flatMap((p) => attributesAt(draft.priority, p));
  const priorities = prioritiesOf(draft.priority);
  const fill = () => {
    if (!priorities) return;
    const values = spreadAttributes(draft);
    props.edit((x) => void (x.attributes = values));
  };
  return (
    <div class="stack">
      <p>
        Spend the creation points on the attributes. Each priority has a cap (40, 30, 20 and 10 percent of the points) and a lower priority can never
        be above a higher one.
      </p>
      <p>
        <strong>
          {sum} of {s.creationPoints} creation points spent
        </strong>{' '}
        · Potential {potentialFromSum(sum, props.options)} (attribute sum ÷ {props.options.potential === 'later' ? 10 : 5}, at least 1)
      </p>
      <Problems problems={problemsAt(props.check, 'attributes')} />
      {!priorities && <p class="notice warn">Finish the order of importance (step 2) first: the caps depend on it.</p>}
      <div class="attr-grid">
        {ordered.map((a) => {
          const limit = attributeLimit(draft, a);
          const ps = problemsAt(props.check, `attributes.${a}`);
          const v = s.attributes[a];
          const set = (n: number) => props.edit((x) => void (x.attributes[a] = Math.max(0, Math.trunc(n))));
          return (
            <div key={a} class={`attr ${ps.length ? 'bad' : ''}`}>
              <div class="spread">
                <label for={`b-attr-${a}`}>{ATTRIBUTE_LABELS[a]}</label>
                <span class="tag">{PRIORITY_LABELS[draft.priority[a]]}</span>
              </div>
              <div class="stepper">
                <button type="button" aria-label={`Lower ${ATTRIBUTE_LABELS[a]}`} onClick={() => set(v - 1)} disabled={v <= 0}>
                  −
                </button>
                <input
                  id={`b-attr-${a}`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  value={v}
                  aria-invalid={ps.length ? 'true' : undefined}
                  aria-describedby={`b-attr-${a}-hint${ps.length ? ` b-attr-${a}-err` : ''}`}
                  onInput={(e) => {
                    const n = e.currentTarget.valueAsNumber;
                    if (Number.isFinite(n)) set(n);
                  }}
                />
                <button type="button" aria-label={`Raise ${ATTRIBUTE_LABELS[a]}`} onClick={() => set(v + 1)}>
                  +
                </button>
              </div>
              <span id={`b-attr-${a}-hint`} class="hint small muted">
                {limit.text}
              </span>
              <Problems id={`b-attr-${a}-err`} problems={ps} />
            </div>
          );
        })}
      </div>
      <p>
        <button type="button" onClick={fill} disabled={!priorities || sum >= s.creationPoints || !ATTRIBUTES.some((a) => s.attributes[a] === 0)}>
          Spend the remaining points for me
        </button>{' '}
        <span class="small muted">Shared among the attributes still at 0, in proportion to their caps; values you set are kept.</span>
      </p>
    </div>
  );
}
