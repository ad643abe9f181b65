/** The app's pages, read from the location. Secrets travel in the fragment, never in the path. */
export type Route =
  | { page: 'start' }
  | { page: 'builder' }
  | { page: 'roller' }
  | { page: 'ruleset-roller'; ruleset: 'd100' | 'lucidity' }
  | { page: 'join'; tableId: string; invite: string | null }
  | { page: 'table'; tableId: string; token: string | null; watch: boolean }
  | { page: 'not-found'; path: string };

export function hashParams(hash: string): URLSearchParams {
  return new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
}

export function parseRoute(pathname: string, hash: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const params = hashParams(hash);
  if (parts.length === 0) return { page: 'start' };
  const [head, id] = parts;
  if (head === 'builder' && parts.length === 1) return { page: 'builder' };
  if (head === 'roller' && parts.length === 1) return { page: 'roller' };
  if (head === 'roller' && parts.length === 2 && (id === 'd100' || id === 'lucidity')) return { page: 'ruleset-roller', ruleset: id };
  if (head === 'join' && id && parts.length === 2) return { page: 'join', tableId: id, invite: params.get('invite') };
  if ((head === 'table' || head === 'watch') && id && parts.length === 2) {
    return { page: 'table', tableId: id, token: params.get('token'), watch: head === 'watch' };
  }
  return { page: 'not-found', path: pathname };
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** Go to another page of the app without reloading it. */
export function navigate(url: string, replace = false): void {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const l of listeners) l();
}

export function onNavigate(listener: Listener): () => void {
  listeners.add(listener);
  const pop = () => listener();
  window.addEventListener('popstate', pop);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', pop);
  };
}
