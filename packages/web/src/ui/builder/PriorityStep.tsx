import { ATTRIBUTES, ATTRIBUTE_LABELS, PRIORITIES, PRIORITY_LABELS } from '../../lib/rules';
import { attributesAt, prioritiesOf, problemsAt, PRIORITY_SLOTS, type Draft, type DraftCheck } from '../../lib/draft';
import { Problems } from '../fields';
import type { SetDraft } from './shared';

export function PriorityStep(props: { draft: Draft; setDraft: SetDraft; check: DraftCheck }) {
  const map = props.draft.priority;
  const problem = problemsAt(props.check, 'priorities');
  return (
    <div class="stack">
      <p>Rank the six attributes: two First, two Second, one Third and one Handicap. A higher priority allows a higher value.</p>
      <div class="table-scroll"><table class="priority-grid" aria-describedby={problem.length ? 'prio-err' : undefined}>
        <caption class="small muted" style={{ textAlign: 'left', paddingBottom: '6px' }}>
          {PRIORITIES.map((p) => `${PRIORITY_LABELS[p]}: ${attributesAt(map, p).length} of ${PRIORITY_SLOTS[p]}`).join(' · ')}
        </caption>
        <thead>
          <tr>
            <th scope="col">Attribute</th>
            {PRIORITIES.map((p) => (
              <th scope="col" key={p}>
                {PRIORITY_LABELS[p]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ATTRIBUTES.map((a) => (
            <tr key={a}>
              <th scope="row" id={`prio-${a}`}>
                {ATTRIBUTE_LABELS[a]}
              </th>
              {PRIORITIES.map((p) => (
                <td key={p}>
                  <label>
                    <input
                      type="radio"
                      name={`prio-${a}`}
                      checked={map[a] === p}
                      aria-label={`${ATTRIBUTE_LABELS[a]}: ${PRIORITY_LABELS[p]}`}
                      onChange={() => props.setDraft((d) => ({ ...d, priority: { ...d.priority, [a]: p } }))}
                    />
                  </label>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table></div>
      <Problems id="prio-err" problems={problem} />
      {!problem.length && prioritiesOf(map) && <p class="ok-text">The order of importance is complete.</p>}
    </div>
  );
}
