import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { onNavigate, parseRoute, type Route } from '../lib/route';
import { Frame, link } from './Frame';
import { JoinPage } from './Join';
import { StartPage } from './Start';

type Loaded = { TablePage: ComponentType<{ tableId: string; token: string | null; watch: boolean }> } & {
  BuilderPage: ComponentType;
  RollerPage: ComponentType;
  D100RollerPage: ComponentType;
  LucidityRollerPage: ComponentType;
};

// The pages that run the rules library are loaded when first needed, so the start page stays small.
let pages: Promise<Loaded> | null = null;
const loadPages = () => (pages ??= import('./pages').then((m) => m as Loaded));

function currentRoute(): Route {
  return parseRoute(window.location.pathname, window.location.hash);
}

const rulesPages = (r: Route) => r.page === 'table' || r.page === 'builder' || r.page === 'roller' || r.page === 'ruleset-roller';
// A link straight to a table or the builder starts fetching its page before the first render.
if (rulesPages(currentRoute())) void loadPages();

export function App() {
  const [route, setRoute] = useState<Route>(currentRoute);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => onNavigate(() => setRoute(currentRoute())), []);
  const needsRules = rulesPages(route);
  useEffect(() => {
    // On the start and join pages the next page is fetched while the browser is idle, so it opens at once.
    if (needsRules) return;
    const idle = window.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 300));
    idle(() => void loadPages());
  }, [needsRules]);
  useEffect(() => {
    if (needsRules && !loaded) void loadPages().then(setLoaded);
  }, [needsRules, loaded]);
  useEffect(() => {
    // Focus moves to the page's heading after navigation, so screen readers announce the new page.
    const h = document.querySelector<HTMLElement>('main h1');
    if (h) {
      h.tabIndex = -1;
      h.focus({ preventScroll: true });
    }
  }, [route.page]);

  let body;
  switch (route.page) {
    case 'start':
      body = <StartPage />;
      break;
    case 'join':
      body = <JoinPage tableId={route.tableId} invite={route.invite} />;
      break;
    case 'table':
      body = loaded ? <loaded.TablePage key={route.tableId} tableId={route.tableId} token={route.token} watch={route.watch} /> : <Frame />;
      break;
    case 'builder':
      body = loaded ? <loaded.BuilderPage /> : <Frame />;
      break;
    case 'roller':
      body = loaded ? <loaded.RollerPage /> : <Frame />;
      break;
    case 'ruleset-roller':
      body = !loaded ? <Frame /> : route.ruleset === 'd100' ? <loaded.D100RollerPage /> : <loaded.LucidityRollerPage />;
      break;
    default:
      body = (
        <Frame>
          <main id="main">
            <h1>Page not found</h1>
            <p>There is nothing at {route.path}.</p>
            <p>
              <a href="/" onClick={link('/')}>
                Go to the start page
              </a>
            </p>
          </main>
        </Frame>
      );
  }
  return body;
}
