import type { TableOptions } from '../../lib/rules';
import { derivedOf, type Draft } from '../../lib/draft';

export function MaximaStep(props: { draft: Draft; options: TableOptions }) {
  const a = props.draft.sheet.attributes;
  const d = derivedOf(props.draft, props.options);
  const rows: [string, string, string][] = [
    ['Unlocked skills', `${a.competence}`, `Competence ${a.competence}; Block, Dodge and Resist are free`],
    ['Special abilities', `${a.cunning}`, `Cunning ${a.cunning}; a Quality counts two, the culture ability is free`],
    ['Powers and upgrades', `${a.power}`, `Power ${a.power}; unused points may pay for special ability upgrades`],
    ['Talents and upgrades', `${a.knowledge}`, `Knowledge ${a.knowledge}; the native language is free`],
    ['Prowess Pool', `${d.prowessPool} dice`, `3 × Prowess ${a.prowess}: dice for skills above their starting 2`],
    ['Dice on one skill', `${d.maxSkillDice}`, `Potential ${d.potential} + 2`],
    ['Hits before Injured', `${d.hitsBeforeInjured}`, d.hitsBeforeInjuredParts.map((p) => `${p.value} ${p.source}`).join(' + ')],
  ];
  return (
    <div class="stack">
      <p>The attributes set how many traits the character starts with. Unused slots can be filled later.</p>
      <div class="sheet-view">
        <div class="table-scroll"><table>
          <thead>
            <tr>
              <th scope="col">Trait</th>
              <th scope="col">Most at creation</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([k, v, why]) => (
              <tr key={k}>
                <th scope="row">{k}</th>
                <td>{v}</td>
                <td>{why}</td>
              </tr>
            ))}
          </tbody>
        </table></div>
      </div>
    </div>
  );
}
