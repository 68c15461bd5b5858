// Runs a file of reference evaluation cases (`rule-cases.*.jsonl`) through the engine:
//   pnpm --filter @cartwright/rules-engine conformance <file>
// A relative path is taken from the directory pnpm was started in (pnpm sets INIT_CWD to it; the
// script itself runs in the package directory). Prints one line per case that did not pass, then
// `N passed, M failed`. Exit code: 0 all passed, 1 some failed, 2 usage or I/O error.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeResult, runCases } from '../src/conformance/run.ts';

function main(args: readonly string[]): number {
  // `pnpm run conformance -- <file>` hands the `--` on.
  const files = args[0] === '--' ? args.slice(1) : args;
  if (files.length !== 1 || files[0] === '' || files[0]!.startsWith('-')) {
    process.stderr.write('usage: conformance <rule-cases.jsonl>\n');
    return 2;
  }
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), files[0]!);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    process.stderr.write(`conformance: cannot read ${path}: ${(error as Error).message}\n`);
    return 2;
  }
  const summary = runCases(text.split(/\r?\n/));
  const unknown = new Map<string, number>();
  for (const result of summary.results) {
    if (result.outcome !== 'pass') process.stdout.write(`${describeResult(result)}\n`);
    for (const key of result.unknownFacts) unknown.set(key, (unknown.get(key) ?? 0) + 1);
  }
  for (const [key, count] of unknown) {
    process.stderr.write(`conformance: fact key not translated in ${count} case(s): ${key}\n`);
  }
  process.stdout.write(`${summary.passed} passed, ${summary.failed} failed\n`);
  return summary.failed > 0 ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
