import { createInterface } from "node:readline";
import { Writable } from "node:stream";

/** True when both stdin and stderr are terminals, so the user can be asked. */
export function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

/**
 * Asks a question on the terminal (prompt on stderr). With `secret`, what the user types is not echoed.
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
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      if (secret) process.stderr.write("\n");
      resolve(answer);
    });
    muted = secret;
  });
}

/** Reads all of stdin as text, without the trailing newline. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}
