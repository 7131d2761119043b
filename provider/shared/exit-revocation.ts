/**
 * Revocation at exit of the refresh tokens a password login minted in this process, so program runs
 * and provider processes (every preview and up) leave the account's live refresh tokens as they found
 * them. Used by the program's `getClient`/`getAccessToken` and by the account resources of both engine
 * faces.
 */
import type { Session } from "../../sdk/session";

// Sessions that log in with a password mint a refresh token each run; they are revoked when the process
// ends, so program runs (every preview and up) leave no live token behind. One set per process, shared by
// every copy of the package, like the sessions themselves.
const MINTED = Symbol.for("pulumi-dns-account.minted-sessions");
/** How long revocation may hold up a process that was told to stop, or that stops on its own (the engine waits about a second). */
const SIGNAL_REVOKE_MS = 5_000;

/**
 * A signal on which {@link revokeAtExit} revokes, then re-raises it.
 *
 * @example
 * ```ts
 * const signals: ExitSignal[] = ["SIGTERM"];
 * ```
 */
export type ExitSignal = "SIGTERM" | "SIGINT";

interface Minted {
  sessions: Set<Session>;
  hooked: boolean;
  /** The signals hooked (or to hook) by revokeAtExit; its listeners, once hooked. */
  signals: ExitSignal[];
  listeners: Map<ExitSignal, () => void>;
  /**
   * Set once the process revokes because it is about to end ({@link revokeMintedAtEnd}: a signal, the engine gone, tofu's Shutdown):
   * a password session registered after that is revoked at once, before it logs in, so a call still in
   * flight cannot mint a refresh token that nothing would revoke.
   */
  ending: boolean;
}

function minted(): Minted {
  const g = globalThis as unknown as Record<symbol, Partial<Minted> | undefined>;
  const m = (g[MINTED] ??= {});
  // A copy of the module from an older version may have made the record without the newer fields.
  m.sessions ??= new Set();
  m.hooked ??= false;
  m.signals ??= ["SIGTERM", "SIGINT"];
  m.listeners ??= new Map();
  m.ending ??= false;
  return m as Minted;
}

/** Revokes every password session of this process (each once); failures are left to expire on their own. */
async function revokeMintedSessions(): Promise<void> {
  const m = minted();
  const sessions = [...m.sessions];
  m.sessions.clear();
  await Promise.allSettled(sessions.map((s) => s.revoke()));
}

/**
 * Revokes now every password session of this process that is not revoked yet, waiting at most
 * `withinMs` (default 5 s) for the service: for a process that is about to end on its own account, as
 * the native plugin does when its engine is gone (provider/plugin/engine-watch.ts). A revocation that
 * fails or takes longer is left to expire on its own. A process that exits right after uses
 * {@link revokeMintedAtEnd}.
 *
 * @example
 * ```ts
 * await revokeMintedNow();
 * process.exit(0);
 * ```
 */
export function revokeMintedNow(withinMs = SIGNAL_REVOKE_MS): Promise<void> {
  const deadline = new Promise<void>((resolve) => setTimeout(resolve, withinMs).unref());
  return Promise.race([revokeMintedSessions(), deadline]);
}

/**
 * {@link revokeMintedNow} for a process that exits once it resolves (a signal, the engine gone, tofu's
 * Shutdown): from now on the process is ending, so a password session registered later (a call still in
 * flight, whose shared session was just revoked and is replaced) is revoked before it can log in. Not for
 * a process that goes on (a test that runs a server in-process): it would revoke every later login.
 *
 * @example
 * ```ts
 * await revokeMintedAtEnd();
 * process.exit(0);
 * ```
 */
export function revokeMintedAtEnd(withinMs = SIGNAL_REVOKE_MS): Promise<void> {
  minted().ending = true;
  return revokeMintedNow(withinMs);
}

/**
 * Sets the signals on which {@link revokeAtExit} revokes and then re-raises (default SIGTERM and SIGINT),
 * for this process (every copy of the module): a process that must survive a signal leaves it out. The
 * OpenTofu face keeps only SIGTERM, since go-plugin's rule is that a plugin ignores SIGINT (tofu sends
 * the user's Ctrl-C to the whole process group, and stops the provider through StopProvider and
 * Shutdown). Listeners already hooked for a signal left out are removed.
 *
 * @example
 * ```ts
 * revokeOnSignals(["SIGTERM"]);
 * process.on("SIGINT", () => {}); // ignored
 * ```
 */
export function revokeOnSignals(signals: readonly ExitSignal[]): void {
  const m = minted();
  m.signals = [...signals];
  for (const [signal, listener] of m.listeners) {
    if (signals.includes(signal)) continue;
    process.removeListener(signal, listener);
    m.listeners.delete(signal);
  }
  if (m.hooked) for (const signal of signals) hookSignal(m, signal);
}

/** Revokes on `signal`, then re-raises it so the process ends exactly as it would have (once per process). */
function hookSignal(m: Minted, signal: ExitSignal): void {
  if (m.listeners.has(signal)) return;
  const onSignal = (): void => {
    process.removeListener(signal, onSignal);
    m.listeners.delete(signal);
    void revokeMintedAtEnd().finally(() => process.kill(process.pid, signal));
  };
  m.listeners.set(signal, onSignal);
  process.on(signal, onSignal);
}

/**
 * Revokes `session` (a password login's) when the process ends: when its event loop empties, or when it
 * is stopped with SIGTERM/SIGINT (then re-raised, so the process ends exactly as it would have; see
 * {@link revokeOnSignals} for a process that keeps one of them).
 *
 * @example
 * ```ts
 * const session = sharedSession({ credentials: { username, password } });
 * revokeAtExit(session);
 * ```
 */
export function revokeAtExit(session: Session): void {
  const m = minted();
  if (m.ending) {
    // The process is ending: this session never logs in (its calls fail as revoked).
    void session.revoke().catch(() => undefined);
    return;
  }
  m.sessions.add(session);
  if (m.hooked) return;
  m.hooked = true;
  // A program ends when its event loop empties: revoke then (the async work keeps the loop alive once more).
  process.on("beforeExit", () => {
    if (m.sessions.size > 0) void revokeMintedSessions();
  });
  // A provider host never empties its loop: the engine stops it with a signal. Revoke, then re-raise the
  // signal so the process ends exactly as it would have.
  for (const signal of m.signals) hookSignal(m, signal);
}

