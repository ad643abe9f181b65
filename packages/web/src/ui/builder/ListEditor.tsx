import type { ComponentChildren } from 'preact';
import { focusSoon } from './shared';

/**
 * One editable list of the sheet (skills, special abilities, powers, talents, gear): each item's
 * fields on an aligned grid, a footer with its check boxes and a Remove button, and an Add button
 * that puts the keyboard on the new item's first field.
 */
export function ListEditor<T>(props: {
  items: readonly T[];
  /** The key of an item (its position in the sheet's list). */
  keyOf: (item: T, pos: number) => number;
  fields: (item: T, pos: number) => ComponentChildren;
  /** Check boxes, notes and problems shown under the fields, beside Remove. */
  footer?: (item: T, pos: number) => ComponentChildren;
  bad?: (item: T, pos: number) => boolean;
  removeLabel: (item: T, pos: number) => string;
  onRemove: (item: T, pos: number) => void;
  addLabel: string;
  /** Add an item; returns the id of the field to focus. */
  onAdd: () => string;
  /** Further add buttons (gear has one per kind). */
  moreAdds?: ComponentChildren;
}) {
  return (
    <>
      {props.items.length > 0 && (
        <ul class="item-list">
          {props.items.map((item, pos) => (
            <li key={props.keyOf(item, pos)} class={props.bad?.(item, pos) ? 'bad' : ''}>
              <div class="item-grid">{props.fields(item, pos)}</div>
              <div class="item-foot">
                {props.footer?.(item, pos)}
                <button type="button" class="quiet danger" onClick={() => props.onRemove(item, pos)} aria-label={props.removeLabel(item, pos)}>
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div class="row">
        <button type="button" onClick={() => focusSoon(props.onAdd())}>
          {props.addLabel}
        </button>
        {props.moreAdds}
      </div>
    </>
  );
}
