/** One fenced code block of a Markdown file. */
export interface FencedBlock {
  /** The info string's first word (`sh`, `ts`, `yaml`, …); empty when the fence has none. */
  lang: string;
  /** The block's text, without the fences and without the indentation of a block inside a list item. */
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The first non-empty line of the text, trimmed: how the block is named in messages. */
  first: string;
  /** The Markdown file it is in, as messages name it (`README.md`, `docs/cli.md`). */
  file: string;
}

/**
 * Every fenced code block (```` ``` ```` or `~~~`, at any indentation, as in list items) of a Markdown
 * text, in order. An unclosed fence is an error, so no block can hide by breaking the Markdown.
 *
 * @example
 * ```ts
 * const [block] = fencedBlocks("text\n```sh\nnpm ci\n```\n"); // { lang: "sh", text: "npm ci\n", line: 2, first: "npm ci", file: "README.md" }
 * ```
 */
export function fencedBlocks(markdown: string, file = "README.md"): FencedBlock[] {
  const lines = markdown.split("\n");
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3}|\s*)(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const close = new RegExp(`^\\s*${fence![0] === "`" ? "`" : "~"}{${fence!.length},}\\s*$`);
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j]!)) j++;
    if (j >= lines.length) throw new Error(`${file} line ${i + 1}: a code fence that never closes`);
    const body = lines.slice(i + 1, j).map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l.trimStart()));
    const text = body.join("\n") + "\n";
    blocks.push({ lang: info!.toLowerCase(), text, line: i + 1, first: body.find((l) => l.trim() !== "")?.trim() ?? "", file });
    i = j;
  }
  return blocks;
}
