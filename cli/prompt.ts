import { createInterface } from "node:readline";
import { Writable } from "node:stream";

// Why node:readline and not a prompt library: @inquirer/password 5 (ESM-only) leaves its promise pending
// when the terminal sends EOF (Ctrl-D), so the process would exit 0, and reveals the password on Ctrl-T
// by default; read@6 needs Node 22 and read@4 has the same EOF hole. Cancel and EOF are the point here
// (`dns-account login && deploy` must stop), so they are handled directly, in a few lines.

/** The user left a prompt: Ctrl-C (`exitCode` 130, as shells report SIGINT) or Ctrl-D / end of input (1). */
export class PromptAbortedError extends Error {
  constructor(
    readonly reason: "interrupt" | "eof",
    readonly exitCode = reason === "interrupt" ? 130 : 1,
  ) {
    super(reason === "interrupt" ? "interrupted (Ctrl-C): nothing was changed" : "no answer (end of input): nothing was changed");
  }
}

/**
 * True when both stdin and stderr are terminals, so the user can be asked.
 *
 * @example
 * ```ts
 * if (!canPrompt()) throw new Error("set DNS_ACCOUNT_PASSWORD");
 * ```
 */
export function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

/**
 * Asks a question on the terminal (prompt on stderr). With `secret`, what the user types is not echoed.
 * Ctrl-C and Ctrl-D reject with a {@link PromptAbortedError}.
 *
 * @example
 * ```ts
 * const password = await ask("Password: ", true);
 * ```
 */
export function ask(question: string, secret = false): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve, reject) => {
    let settled = false;
    const leave = (reason: "interrupt" | "eof"): void => {
      if (settled) return;
      settled = true;
      rl.close();
      process.stderr.write("\n");
      reject(new PromptAbortedError(reason));
    };
    rl.on("SIGINT", () => leave("interrupt"));
    rl.on("close", () => leave("eof"));
    rl.question(question, (answer) => {
      settled = true;
      rl.close();
      if (secret) process.stderr.write("\n");
      resolve(answer);
    });
    muted = secret;
  });
}

/**
 * Reads all of stdin as text, without the trailing newline.
 *
 * @example
 * ```ts
 * const password = await readStdin(); // printf '%s' "$PW" | dns-account login --password-stdin
 * ```
 */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}
