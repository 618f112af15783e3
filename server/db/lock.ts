import lockfile from 'proper-lockfile';

export interface DataDirLock {
  release(): Promise<void>;
}

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `the embedded database in ${dataDir} is in use by another Scanward process. ` +
        'Stop the server first, or use PostgreSQL (set DATABASE_URL) to run several processes.',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * PGlite is a single-process database: two processes writing one data directory
 * would corrupt it. The lock is a directory beside the data (`<dir>.lock`) whose
 * modification time the holder refreshes; a crashed holder's lock goes stale.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  try {
    const release = await lockfile.lock(dataDir, {
      stale: 15_000,
      update: 5_000,
      realpath: false,
      onCompromised: (err) => {
        // Someone removed or took over our lock: stop rather than risk the data.
        console.error(`fatal: lost the lock on ${dataDir}: ${err.message}`);
        process.exit(1);
      },
    });
    return { release: () => release().catch(() => undefined) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dataDir);
    throw err;
  }
}
