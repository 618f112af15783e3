import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * CISA's Known Exploited Vulnerabilities catalogue, in the JSON format CISA publishes
 * (https://www.cisa.gov/known-exploited-vulnerabilities-catalog). Field names are
 * CISA's own, so a downloaded file is read as it is.
 */

const CVE_ID = /^CVE-\d{4}-\d{4,19}$/;

const KevEntrySchema = z.object({
  cveID: z.string().regex(CVE_ID),
  vendorProject: z.string(),
  product: z.string(),
  vulnerabilityName: z.string(),
  dateAdded: z.string(),
  shortDescription: z.string(),
  requiredAction: z.string(),
  dueDate: z.string(),
  knownRansomwareCampaignUse: z.string().optional(),
  notes: z.string().optional(),
  cwes: z.array(z.string()).optional(),
});
export type KevEntry = z.infer<typeof KevEntrySchema>;

const KevFileSchema = z.object({
  catalogVersion: z.string(),
  dateReleased: z.string(),
  count: z.number().int().optional(),
  vulnerabilities: z.array(KevEntrySchema),
});

/** The file is missing, not JSON, or not in CISA's catalogue format. */
export class KevFormatError extends Error {
  readonly code = 'INVALID_KEV_CATALOGUE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KevFormatError';
  }
}

export class KevCatalogue {
  private readonly byCve: ReadonlyMap<string, KevEntry>;

  constructor(
    readonly version: string,
    readonly dateReleased: string,
    entries: readonly KevEntry[],
  ) {
    this.byCve = new Map(entries.map((entry) => [entry.cveID.toUpperCase(), entry]));
  }

  /** An empty catalogue, for running without KEV data. */
  static empty(): KevCatalogue {
    return new KevCatalogue('none', '', []);
  }

  get size(): number {
    return this.byCve.size;
  }

  /** Whether the CVE is known to be exploited (case-insensitive id). */
  has(cve: string): boolean {
    return this.byCve.has(cve.trim().toUpperCase());
  }

  get(cve: string): KevEntry | undefined {
    return this.byCve.get(cve.trim().toUpperCase());
  }

  /** The catalogue entries of those of `cves` that are listed, in the order given. */
  entriesFor(cves: readonly string[]): KevEntry[] {
    return cves.flatMap((cve) => {
      const entry = this.get(cve);
      return entry ? [entry] : [];
    });
  }
}

/** Builds a catalogue from already-parsed JSON; throws {@link KevFormatError}. */
export function parseKev(json: unknown): KevCatalogue {
  const parsed = KevFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || '(root)';
    throw new KevFormatError(`not a CISA KEV catalogue: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const { catalogVersion, dateReleased, vulnerabilities } = parsed.data;
  return new KevCatalogue(catalogVersion, dateReleased, vulnerabilities);
}

/** Reads a KEV catalogue file (`known_exploited_vulnerabilities.json`). */
export async function loadKev(path: string): Promise<KevCatalogue> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new KevFormatError(`cannot read KEV catalogue ${path}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new KevFormatError(`KEV catalogue ${path} is not valid JSON`, { cause: error });
  }
  return parseKev(json);
}
