import { loadKev, type KevCatalogue } from '../../scoring/kev.ts';
import type { Phase } from '../types.ts';

const catalogues = new Map<string, Promise<KevCatalogue>>();

/** The CISA KEV catalogue at `path`, read once per process. */
function kevAt(path: string): Promise<KevCatalogue> {
  let catalogue = catalogues.get(path);
  if (!catalogue) {
    catalogue = loadKev(path);
    catalogues.set(path, catalogue);
    catalogue.catch(() => catalogues.delete(path));
  }
  return catalogue;
}

/**
 * Marks detections whose CVEs are known to be exploited in the wild (CISA's
 * KEV catalogue, from the file SCANWARD_KEV_FILE names; the service has no
 * internet access of its own to fetch feeds). EPSS scores come from the committed
 * snapshot, in correlation (which every scan type runs, quick scans too).
 */
export const threatIntelligence: Phase = {
  name: 'threat_intelligence',
  weight: 3,
  async run(ctx) {
    const path = ctx.services.config.kevFile;
    const withCves = ctx.state.detections.filter((d) => d.cve_ids.length > 0);
    ctx.progress.setTotal(withCves.length || 1);
    if (!path) {
      ctx.state.notes.push('threat intelligence: no KEV catalogue configured (SCANWARD_KEV_FILE)');
      ctx.progress.advance();
      return;
    }
    ctx.progress.tool('cisa-kev');
    let kev: KevCatalogue;
    try {
      kev = await kevAt(path);
    } catch (err) {
      ctx.log.warn({ err, path }, 'KEV catalogue unreadable');
      ctx.state.notes.push('threat intelligence: the KEV catalogue could not be read');
      ctx.progress.advance();
      return;
    }
    for (const detection of withCves) {
      detection.kev = detection.kev === true || detection.cve_ids.some((cve) => kev.has(cve));
      ctx.progress.advance();
    }
  },
};
