// The service's CLI login by device (RFC 8628), emulated so that a client's login flow can be tested: a login is
// started, approved or denied by a test (the control routes), and polled until it ends. Held in memory only: a
// login lasts minutes, and a restart forgets it as the service would forget one it never finished.
import type * as z from 'zod';
import type { DeviceAuthInitiateResponse, DeviceAuthTokensResponse } from '../../../api/v1/schemas.js';

/** How long the codes last, and how often a client may poll, in seconds of the sandbox's clock (WorkOS's own). */
export const DEVICE_LOGIN = { expiresInSeconds: 300, intervalSeconds: 5 } as const;
/** What a poll too soon adds to the interval (RFC 8628, 3.5). */
const SLOW_DOWN_STEP_SECONDS = 5;
/** Logins kept at most: initiate takes no token, so a caller could otherwise make them without end. */
const LOGINS_MAX = 1000;
/** An expired login still answers `expired` this long, then is forgotten (404 as any unknown code). */
const EXPIRED_KEPT_MS = 3600 * 1000;
/** RFC 8628's suggested user-code letters: no vowels, no look-alikes. */
const USER_CODE_LETTERS = 'BCDFGHJKLMNPQRSTVWXZ';

export type DeviceDecision = 'approved' | 'denied';
/** Where a login stands, as the verification page and the control routes say it. */
export type DeviceLoginState = 'pending' | DeviceDecision | 'expired';

interface DeviceLogin {
  deviceCode: string;
  userCode: string;
  expiresAt: number;
  interval: number;
  lastPollAt?: number;
  decision?: DeviceDecision;
  /** Which login of this sandbox's run it is: its session's id is made from it. */
  serial: number;
}

export interface DeviceLoginView {
  userCode: string;
  state: DeviceLoginState;
  expiresAt: string;
}

/** Ids from the sandbox's seed (QueueEngine.stableId): the same requests on a manual clock give the same codes. */
type MintId = (name: string) => string;

export class DeviceLogins {
  private readonly byDeviceCode = new Map<string, DeviceLogin>();
  private readonly byUserCode = new Map<string, DeviceLogin>();
  private made = 0;

  /** `startedAt`: the sandbox's time when it started, so a restarted sandbox does not hand out a code it gave before. */
  constructor(
    private readonly startedAt: number,
    /** Where the sandbox answers (`http://127.0.0.1:4000`), known once it listens. */
    private readonly origin: () => string,
  ) {}

  initiate(now: number, mint: MintId): z.input<typeof DeviceAuthInitiateResponse> {
    this.forget(now);
    const serial = this.made++;
    const name = `device-login:${this.startedAt}:${serial}`;
    const deviceCode = mint(name);
    let userCode = userCodeOf(mint(`${name}:user-code`));
    // Two live logins may not share a user code; another digest settles it.
    for (let again = 1; this.byUserCode.has(userCode); again++) userCode = userCodeOf(mint(`${name}:user-code:${again}`));
    const login: DeviceLogin = { deviceCode, userCode, expiresAt: now + DEVICE_LOGIN.expiresInSeconds * 1000, interval: DEVICE_LOGIN.intervalSeconds, serial };
    this.byDeviceCode.set(deviceCode, login);
    this.byUserCode.set(userCode, login);
    const verificationUri = `${this.origin()}/_sandbox/device`;
    return {
      deviceCode,
      userCode,
      verificationUri,
      verificationUriComplete: `${verificationUri}?user_code=${userCode}`,
      expiresIn: DEVICE_LOGIN.expiresInSeconds,
      interval: DEVICE_LOGIN.intervalSeconds,
    };
  }

  /** A poll; undefined for a code no login has (never made, forgotten, or its session handed out already). */
  poll(deviceCode: string, now: number, mint: MintId): z.input<typeof DeviceAuthTokensResponse> | undefined {
    const login = this.byDeviceCode.get(deviceCode);
    if (!login) return undefined;
    if (now >= login.expiresAt) return { status: 'expired' };
    const tooSoon = login.lastPollAt !== undefined && now - login.lastPollAt < login.interval * 1000;
    login.lastPollAt = now;
    if (tooSoon) {
      login.interval += SLOW_DOWN_STEP_SECONDS;
      return { status: 'slow_down', interval: login.interval };
    }
    if (login.decision === 'denied') return { status: 'denied' };
    if (login.decision !== 'approved') return { status: 'pending' };
    // A session is handed out once: the code is spent.
    this.drop(login);
    return { status: 'success', sealedSession: `sandbox_session_${mint(`device-login:${this.startedAt}:${login.serial}:session`).replaceAll('-', '')}` };
  }

  /** Approves or denies the login of a user code; answers its state after, or undefined for a code no login has. */
  decide(userCode: string, decision: DeviceDecision, now: number): DeviceLoginView | undefined {
    const login = this.byUserCode.get(normalUserCode(userCode));
    if (!login) return undefined;
    // A login expired, or decided already, stays as it is: the user's page would say so, not change it.
    if (now < login.expiresAt && login.decision === undefined) login.decision = decision;
    return viewOf(login, now);
  }

  /** Every login kept, or the one of a user code (undefined: no login has it). */
  view(now: number, userCode?: string): DeviceLoginView[] | undefined {
    if (userCode === undefined) return [...this.byDeviceCode.values()].map((login) => viewOf(login, now));
    const login = this.byUserCode.get(normalUserCode(userCode));
    return login ? [viewOf(login, now)] : undefined;
  }

  private forget(now: number): void {
    for (const login of this.byDeviceCode.values()) {
      if (now - login.expiresAt > EXPIRED_KEPT_MS || this.byDeviceCode.size >= LOGINS_MAX) this.drop(login);
    }
  }

  private drop(login: DeviceLogin): void {
    this.byDeviceCode.delete(login.deviceCode);
    this.byUserCode.delete(login.userCode);
  }
}

function viewOf(login: DeviceLogin, now: number): DeviceLoginView {
  const state = now >= login.expiresAt ? 'expired' : (login.decision ?? 'pending');
  return { userCode: login.userCode, state, expiresAt: new Date(login.expiresAt).toISOString() };
}

/** `BCDF-GHJK` from a digest's first 8 bytes. */
function userCodeOf(uuid: string): string {
  const hex = uuid.replaceAll('-', '');
  let code = '';
  for (let i = 0; i < 8; i++) code += USER_CODE_LETTERS[parseInt(hex.slice(i * 2, i * 2 + 2), 16) % USER_CODE_LETTERS.length];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** A user code as a person types it: any case, the dash or a space left out. */
function normalUserCode(typed: string): string {
  const letters = typed.toUpperCase().replace(/[\s-]/g, '');
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}
