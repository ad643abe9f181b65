import type { ComponentChildren } from 'preact';
import type { Problem } from '../lib/draft';

/** Labelled form controls whose hints and problems are tied to the control for assistive technology. */

function describedBy(id: string, hint: unknown, problems: readonly unknown[] | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : '', problems && problems.length ? `${id}-err` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export function Problems(props: { id?: string; problems: readonly Problem[] | undefined }) {
  if (!props.problems || props.problems.length === 0) return null;
  return (
    <div id={props.id} class="stack">
      {props.problems.map((p, i) => (
        <p key={i} class="error-text">
          {p.message}
          {p.source && <span class="rule-source">{p.source}</span>}
        </p>
      ))}
    </div>
  );
}

interface Base {
  id: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
  problems?: readonly Problem[];
  class?: string;
}

/** The label, hint and problems every field shows around its control. */
function FieldFrame(props: Base & { children: ComponentChildren }) {
  return (
    <div class={`field ${props.class ?? ''}`}>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && (
        <span id={`${props.id}-hint`} class="hint">
          {props.hint}
        </span>
      )}
      <Problems id={`${props.id}-err`} problems={props.problems} />
    </div>
  );
}

export function TextField(props: Base & { value: string; onInput: (v: string) => void; maxLength?: number; placeholder?: string; autoComplete?: string; /** The id of a datalist of suggestions. */ list?: string }) {
  return (
    <FieldFrame {...props}>
      <input
        id={props.id}
        type="text"
        list={props.list}
        value={props.value}
        maxLength={props.maxLength ?? 200}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete ?? 'off'}
        aria-invalid={props.problems?.length ? 'true' : undefined}
        aria-describedby={describedBy(props.id, props.hint, props.problems)}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </FieldFrame>
  );
}

export function NumberField(props: Base & { value: number; onChange: (v: number) => void; min?: number; max?: number; step?: number }) {
  return (
    <FieldFrame {...props}>
      <input
        id={props.id}
        type="number"
        inputMode="numeric"
        value={Number.isFinite(props.value) ? props.value : ''}
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        aria-invalid={props.problems?.length ? 'true' : undefined}
        aria-describedby={describedBy(props.id, props.hint, props.problems)}
        onInput={(e) => {
          const v = e.currentTarget.valueAsNumber;
          if (Number.isFinite(v)) props.onChange(v);
        }}
      />
    </FieldFrame>
  );
}

/** A whole number that may be left blank: blank is undefined, so the sheet's default applies. */
export function OptionalNumberField(props: Base & { value: number | undefined; onChange: (v: number | undefined) => void; min?: number; max?: number }) {
  return (
    <FieldFrame {...props}>
      <input
        id={props.id}
        type="number"
        inputMode="numeric"
        value={props.value ?? ''}
        min={props.min}
        max={props.max}
        step={1}
        placeholder="—"
        aria-invalid={props.problems?.length ? 'true' : undefined}
        aria-describedby={describedBy(props.id, props.hint, props.problems)}
        onInput={(e) => {
          const raw = e.currentTarget.value.trim();
          const v = e.currentTarget.valueAsNumber;
          if (raw === '') props.onChange(undefined);
          else if (Number.isFinite(v)) props.onChange(Math.trunc(v));
        }}
      />
    </FieldFrame>
  );
}

export function SelectField<T extends string>(
  props: Base & { value: T; onChange: (v: T) => void; options: readonly { value: T; label: string }[]; disabled?: boolean },
) {
  return (
    <FieldFrame {...props}>
      <select
        id={props.id}
        value={props.value}
        disabled={props.disabled}
        aria-invalid={props.problems?.length ? 'true' : undefined}
        aria-describedby={describedBy(props.id, props.hint, props.problems)}
        onChange={(e) => props.onChange(e.currentTarget.value as T)}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

export function Check(props: { id?: string; label: ComponentChildren; checked: boolean; onChange: (v: boolean) => void; disabled?: boolean }) {
  return (
    <label class="check" for={props.id}>
      <input id={props.id} type="checkbox" checked={props.checked} disabled={props.disabled} onChange={(e) => props.onChange(e.currentTarget.checked)} />
      {props.label}
    </label>
  );
}
