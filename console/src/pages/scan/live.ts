import type { Schemas } from '../../api/contract';
import type { Live } from '../../data';
import { withProgress } from '../scans';

type Scan = Schemas['ScanDetail'];
type ScanFindings = Schemas['ScanFindingList'];

/** The scan follows the stream: progress in place, a start or an end read again (counts, changes, timings). */
export function liveScan(id: string): Live<Scan> {
  return {
    on(event, scan) {
      if (!event.type.startsWith('scan.') || (event.data as { id: string }).id !== id) return undefined;
      if (event.type !== 'scan.progress') return 'reload';
      const { phases_completed, current_tool } = event.data;
      const order = [...scan.phases_completed, ...scan.phases_remaining];
      return {
        ...withProgress(scan, event),
        phases_completed,
        phases_remaining: order.filter((p) => !phases_completed.includes(p)),
        ...(current_tool ? { current_tool } : { current_tool: undefined }),
      };
    },
  };
}

/** The scan's findings are read again when it finds, or someone triages, one of them, and when it ends. */
export function liveScanFindings(id: string): Live<ScanFindings> {
  return {
    on(event, list) {
      switch (event.type) {
        case 'vulnerability.found':
          return event.data.scan_id === id ? 'reload' : undefined;
        case 'finding.updated':
          return list.items.some((f) => f.id === event.data.id) ? 'reload' : undefined;
        case 'scan.completed':
        case 'scan.failed':
          return event.data.id === id ? 'reload' : undefined;
        default:
          return undefined;
      }
    },
  };
}
