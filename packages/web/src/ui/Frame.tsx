// The frame every page shares (skip link, top bar) and links that stay inside the app.
import type { ComponentChildren } from 'preact';
import { navigate } from '../lib/route';

/** A link that stays inside the app (no reload), still a real link for new tabs and assistive tech. */
export function link(to: string) {
  return (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
}

export function Frame(props: { children?: ComponentChildren; where?: ComponentChildren; right?: ComponentChildren }) {
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/" onClick={link('/')}>
          Personae Table
        </a>
        <div class="where">{props.where}</div>
        {props.right}
      </header>
      {props.children}
    </>
  );
}
