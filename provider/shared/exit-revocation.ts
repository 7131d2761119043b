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

interface Minted {
  sessions: Set<Session>;
  hooked: boolean;
}

function minted(): Minted {
  const g = globalThis as unknown as Record<symbol, Minted | undefined>;
  g[MINTED] ??= { sessions: new Set(), hooked: false };
  return g[MINTED]!;
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
 * fails or takes longer is left to expire on its own.
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
 * Revokes `session` (a password login's) when the process ends: when its event loop empties, or when it
 * is stopped with SIGTERM/SIGINT (then re-raised, so the process ends exactly as it would have).
 *
 * @example
 * ```ts
 * const session = sharedSession({ credentials: { username, password } });
 * revokeAtExit(session);
 * ```
 */
export function revokeAtExit(session: Session): void {
  const m = minted();
  m.sessions.add(session);
  if (m.hooked) return;
  m.hooked = true;
  // A program ends when its event loop empties: revoke then (the async work keeps the loop alive once more).
  process.on("beforeExit", () => {
    if (m.sessions.size > 0) void revokeMintedSessions();
  });
  // A provider host never empties its loop: the engine stops it with a signal. Revoke, then re-raise the
  // signal so the process ends exactly as it would have.
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const onSignal = (): void => {
      process.removeListener(signal, onSignal);
      void revokeMintedNow().finally(() => process.kill(process.pid, signal));
    };
    process.on(signal, onSignal);
  }
}

