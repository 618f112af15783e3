import type { FindingStatus, Severity } from './export-finding.ts';

/** Page geometry, palette and type styles of the PDF report, in PDF points. */

export const PAGE = {
  size: 'A4',
  width: 595.28,
  height: 841.89,
  margins: { top: 64, bottom: 64, left: 50, right: 50 },
} as const;

export const CONTENT_WIDTH = PAGE.width - PAGE.margins.left - PAGE.margins.right;

export const COLORS = {
  ink: '#111827',
  body: '#1F2937',
  muted: '#6B7280',
  rule: '#D1D5DB',
  stripe: '#F3F4F6',
  panel: '#F9FAFB',
  brand: '#0F2A44',
  brandAccent: '#38BDF8',
  onBrand: '#FFFFFF',
  link: '#1D4ED8',
} as const;

export const SEVERITY_COLORS: Record<Severity, string> = {
  critical: '#991B1B',
  high: '#DC2626',
  medium: '#D97706',
  low: '#2563EB',
  info: '#6B7280',
};

export const SEVERITY_LABELS: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
};

export const STATUS_LABELS: Record<FindingStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  resolved: 'Resolved',
  false_positive: 'False positive',
  accepted: 'Accepted',
};

export interface TextStyle {
  font: 'Helvetica' | 'Helvetica-Bold' | 'Helvetica-Oblique' | 'Courier';
  size: number;
  color: string;
}

export const STYLES = {
  coverKicker: { font: 'Helvetica-Bold', size: 10, color: COLORS.brandAccent },
  coverTitle: { font: 'Helvetica-Bold', size: 26, color: COLORS.onBrand },
  coverSubtitle: { font: 'Helvetica', size: 13, color: COLORS.onBrand },
  h1: { font: 'Helvetica-Bold', size: 16, color: COLORS.ink },
  h2: { font: 'Helvetica-Bold', size: 12, color: COLORS.ink },
  h3: { font: 'Helvetica-Bold', size: 9.5, color: COLORS.ink },
  body: { font: 'Helvetica', size: 9.5, color: COLORS.body },
  small: { font: 'Helvetica', size: 8, color: COLORS.body },
  label: { font: 'Helvetica-Bold', size: 8, color: COLORS.muted },
  muted: { font: 'Helvetica', size: 8, color: COLORS.muted },
  note: { font: 'Helvetica-Oblique', size: 8, color: COLORS.muted },
  bigNumber: { font: 'Helvetica-Bold', size: 20, color: COLORS.ink },
  tableHeader: { font: 'Helvetica-Bold', size: 8, color: COLORS.onBrand },
  tableCell: { font: 'Helvetica', size: 8, color: COLORS.body },
  tableTitle: { font: 'Helvetica-Bold', size: 8, color: COLORS.ink },
  badge: { font: 'Helvetica-Bold', size: 6.5, color: COLORS.onBrand },
  code: { font: 'Courier', size: 7.5, color: COLORS.ink },
  link: { font: 'Helvetica', size: 8.5, color: COLORS.link },
  footer: { font: 'Helvetica', size: 7.5, color: COLORS.muted },
} as const satisfies Record<string, TextStyle>;
