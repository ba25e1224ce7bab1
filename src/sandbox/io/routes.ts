// The routes the sandbox finds by path: the v1 face's operations under `/v1/` (io/v1/routes.ts), and the
// control routes under `/_sandbox/` (and `/v1/_sandbox/`, where clients pointed at the v1 URL find them). v2's
// face finds its own (io/v2/route.ts).
import { CONTROLS } from './control.js';
import type { Route } from './route.js';
import { DEVICE_CONTROLS, V1_ROOT, V1_ROUTES } from './v1/routes.js';
import { WEBHOOK_CONTROLS } from './webhooks/control-routes.js';

const ROUTES = new Map<string, Route>(V1_ROUTES);
const ALL_CONTROLS = { ...CONTROLS, ...WEBHOOK_CONTROLS, ...DEVICE_CONTROLS };
/** Where the control routes are found. */
const CONTROL_ROOTS = [`${V1_ROOT}/_sandbox/`, '/_sandbox/'];
for (const [name, route] of Object.entries(ALL_CONTROLS)) {
  for (const root of CONTROL_ROOTS) ROUTES.set(`${root}${name}`, route);
}

export function findRoute(pathname: string): Route | undefined {
  return ROUTES.get(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
}

/** Whether a request target names one of the sandbox's own routes (`/_sandbox/…`, `/v1/_sandbox/…`). */
export function isControlTarget(target: string): boolean {
  return CONTROL_ROOTS.some((root) => target.startsWith(root));
}

/** The route whose path is exactly the target, as well-behaved clients send it: no URL need be parsed. */
export function exactRoute(target: string | undefined): Route | undefined {
  return target === undefined ? undefined : ROUTES.get(target);
}

const CONTROL_ROUTES: ReadonlySet<Route> = new Set(Object.values(ALL_CONTROLS));

/** Whether the route is one of the sandbox's own (`/_sandbox/...`), which take a v1 token or a v2 key. */
export function isControlRoute(route: Route): boolean {
  return CONTROL_ROUTES.has(route);
}
