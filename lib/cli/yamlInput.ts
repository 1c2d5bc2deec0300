/**
 * Reading a YAML file a command is given (`lint -f`, `lint --kruise-configuration`): the text of a path or of stdin,
 * and its non-empty documents one by one, a parse error as the user's error naming the file.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { CliError } from './io.js';

/**
 * The text of `file`, a path or `-` for stdin.
 * @throws CliError `the path "<file>" does not exist` when it cannot be read
 */
export function readInput(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch {
    throw new CliError(`the path "${file}" does not exist`);
  }
}

/**
 * The documents of `text` that are not empty (null), in order, each with its index among all the documents (the
 * empty ones counted), as plain values. Lazy: a document is parsed-checked when the caller reaches it.
 * @param file named in the error
 * @throws CliError `<file>: <the parser's first message>` at the first document that does not parse
 */
export function* yamlDocuments(text: string, file: string): Generator<{ index: number; value: unknown }> {
  const docs = parseAllDocuments(text);
  const list = Array.isArray(docs) ? docs : [docs];
  for (const [index, d] of list.entries()) {
    if (d.errors.length > 0) throw new CliError(`${file}: ${d.errors[0]?.message ?? 'invalid YAML'}`);
    const value: unknown = d.toJS();
    if (value !== null && value !== undefined) yield { index, value };
  }
}
