import { useContext } from 'preact/hooks';
import { PortraitUrls } from './portraits';

/**
 * A character's portrait made from its name: its initials on a colour of its own, the same on every
 * device. Decorative: the name is always written beside it.
 */
export function avatarOf(name: string): { initials: string; hue: number } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const initials = (words.length > 1 ? `${words[0]![0]}${words[words.length - 1]![0]}` : (words[0] ?? '?').slice(0, 2)).toUpperCase();
  // FNV-1a over the name, spread round the colour wheel, so that similar names get distant colours.
  let h = 0x811c9dc5;
  for (const ch of name) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
  return { initials, hue: Math.round((h % 1000) * 137.508) % 360 };
}

/** The character's uploaded portrait when it has one (`id`), otherwise the one made from its name. */
export function Avatar(props: { name: string; id?: string | undefined; size?: 'small' | 'large' }) {
  const uploaded = useContext(PortraitUrls).get(props.id ?? '');
  if (uploaded) return <img class={`avatar photo${props.size ? ` ${props.size}` : ''}`} src={uploaded} alt="" data-portrait={props.id} />;
  const a = avatarOf(props.name);
  // Dark and saturated enough that white initials stay readable at any hue.
  return (
    <span class={`avatar${props.size ? ` ${props.size}` : ''}`} aria-hidden="true" style={{ background: `hsl(${a.hue} 45% 32%)` }}>
      {a.initials}
    </span>
  );
}
