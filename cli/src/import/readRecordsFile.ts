import { readFileSync } from 'node:fs';
import { UsageError } from '../output';

/** A JSON array, or NDJSON (one JSON value per line; blank lines skipped). */
export function readRecordsFile(file: string): unknown[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (text.trimStart().startsWith('[')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (Array.isArray(parsed)) return parsed;
    } catch (error) {
      throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
  }
  return text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      throw new UsageError(`${file} line ${index + 1} is not valid JSON (expected a JSON array or NDJSON)`);
    }
  });
}
