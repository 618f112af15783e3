/**
 * Where the team's shared test data lives (`../shared/data/` beside the checkout, see its
 * README): the first `shared/data` folder among the repository's parent directories, so a
 * git worktree under `wt/<name>/` finds the same folder as the main checkout. Undefined when
 * there is none; tests that need it skip with a message saying so.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

function find(): string | undefined {
  let dir = dirname(REPOSITORY.replace(/\/$/, ''));
  for (;;) {
    const candidate = join(dir, 'shared', 'data');
    if (existsSync(join(candidate, 'README.md'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export const SHARED_DATA: string | undefined = find();

/** The path of a file in the shared data, or undefined when the folder or the file is absent. */
export function sharedFile(name: string): string | undefined {
  if (!SHARED_DATA) return undefined;
  const path = join(SHARED_DATA, name);
  return existsSync(path) ? path : undefined;
}
