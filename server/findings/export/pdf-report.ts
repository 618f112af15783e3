import {
  FINDING_STATUSES,
  SEVERITIES,
  type ExportFinding,
  type ExportFindingSource,
  type ExportMetadata,
  type ExportTotals,
  type Severity,
} from './export-finding.ts';
import {
  COLORS,
  CONTENT_WIDTH,
  PAGE,
  SEVERITY_COLORS,
  SEVERITY_LABELS,
  STATUS_LABELS,
  STYLES,
  type TextStyle,
} from './pdf-theme.ts';
import { toWinAnsi } from './win-ansi.ts';

/**
 * Draws the findings report onto a pdfkit document, one part at a time, so the
 * caller can hand each finished page to the reader before the next rows arrive:
 * `cover()`, then `startTable()`, one `tableRow()` per finding and `endTable()`,
 * then `startDetails()` and one `findingSection()` per finding. Nothing here keeps a
 * finding after drawing it.
 */

const LEFT = PAGE.margins.left;
const RIGHT = PAGE.width - PAGE.margins.right;
const BOTTOM = PAGE.height - PAGE.margins.bottom;

interface TableColumn {
  header: string;
  width: number;
  align?: 'right';
}

const TABLE = {
  number: { header: '#', width: 30 },
  severity: { header: 'Severity', width: 56 },
  title: { header: 'Title', width: 156 },
  component: { header: 'Affected component', width: 113 },
  status: { header: 'Status', width: 62 },
  cvss: { header: 'CVSS', width: 28, align: 'right' },
  firstSeen: { header: 'First seen', width: 50 },
} as const satisfies Record<string, TableColumn>;
const TABLE_COLUMNS: readonly TableColumn[] = Object.values(TABLE);
const CELL_PADDING = 4;
const CELL_LINE_HEIGHT = 10;
const TABLE_HEADER_HEIGHT = 18;
/** Long cells are cut to this many lines; the detail section shows them whole. */
const MAX_CELL_LINES = 2;
/** Long code examples are cut to this many lines. */
const MAX_CODE_LINES = 40;

const BADGE_WIDTH = 50;
const BADGE_HEIGHT = 12;

interface Field {
  label: string;
  value: string;
}

export class FindingsReport {
  private readonly doc: PDFKit.PDFDocument;
  private readonly metadata: ExportMetadata;
  private readonly totals: ExportTotals;
  private pageNumber = 0;
  /** The style of the text being drawn, restored after page decorations interrupt it. */
  private current: TextStyle = STYLES.body;
  private findingsOnPage = 0;

  constructor(doc: PDFKit.PDFDocument, metadata: ExportMetadata, totals: ExportTotals) {
    this.doc = doc;
    this.metadata = metadata;
    this.totals = totals;
    doc.on('pageAdded', () => this.decoratePage());
  }

  // ---- Cover and summary ----

  cover(): void {
    const { doc, metadata } = this;
    doc.addPage();
    const bandHeight = 196;
    doc.rect(0, 0, PAGE.width, bandHeight).fill(COLORS.brand);
    doc.rect(0, bandHeight, PAGE.width, 4).fill(COLORS.brandAccent);
    this.line('SCANWARD', LEFT, 58, STYLES.coverKicker, { characterSpacing: 2 });
    this.line('Vulnerability Findings Report', LEFT, 80, STYLES.coverTitle);
    this.use(STYLES.coverSubtitle);
    this.fitLines(metadata.organization, CONTENT_WIDTH, 2).forEach((text, i) =>
      this.line(text, LEFT, 122 + i * 17, STYLES.coverSubtitle),
    );
    this.line(`Generated ${formatTimestamp(metadata.generatedAt)}`, LEFT, 166, {
      ...STYLES.small,
      color: COLORS.brandAccent,
    });

    doc.y = bandHeight + 28;
    this.heading('Report details', STYLES.h2);
    this.fields(
      [
        { label: 'Organization', value: metadata.organization },
        { label: 'Generated', value: formatTimestamp(metadata.generatedAt) },
        { label: 'Reporting period', value: describePeriod(metadata.from, metadata.to) },
        { label: 'Filters', value: describeFilters(metadata.filters) },
        { label: 'Findings in report', value: formatCount(this.totals.total) },
      ],
      100,
    );

    doc.y += 14;
    this.keepWithNext(180);
    this.heading('Summary', STYLES.h2);
    this.severityCards();
    doc.y += 16;
    this.keepWithNext(150);
    this.heading('Findings by severity', STYLES.h3);
    this.severityChart();
    doc.y += 14;
    this.keepWithNext(130);
    this.heading('Findings by status', STYLES.h3);
    this.statusTable();
    doc.y += 14;
    this.paragraph(
      'This report contains security-sensitive information about the systems named in it. ' +
        'Share it only with people who need it, under your data classification policy.',
      STYLES.note,
    );
  }

  private severityCards(): void {
    const { doc } = this;
    const gap = 8;
    const width = (CONTENT_WIDTH - gap * (SEVERITIES.length - 1)) / SEVERITIES.length;
    const height = 54;
    const top = doc.y;
    SEVERITIES.forEach((severity, i) => {
      const x = LEFT + i * (width + gap);
      doc.rect(x, top, width, height).fill(COLORS.panel);
      doc.rect(x, top, width, 3).fill(SEVERITY_COLORS[severity]);
      this.line(formatCount(this.severityCount(severity)), x + 10, top + 12, STYLES.bigNumber);
      this.line(SEVERITY_LABELS[severity], x + 10, top + 37, STYLES.label);
    });
    doc.y = top + height;
  }

  private severityCount(severity: Severity): number {
    return this.totals.by_severity[severity] ?? 0;
  }

  /** A horizontal bar per severity, on a scale with round gridlines. */
  private severityChart(): void {
    const { doc } = this;
    const labelWidth = 62;
    const countWidth = 44;
    const rowHeight = 22;
    const barHeight = 13;
    const barLeft = LEFT + labelWidth;
    const barSpan = CONTENT_WIDTH - labelWidth - countWidth;
    const top = doc.y + 4;
    const chartHeight = rowHeight * SEVERITIES.length;
    const scale = niceScale(Math.max(...SEVERITIES.map((s) => this.severityCount(s))));

    for (let value = 0; value <= scale.top; value += scale.step) {
      const x = barLeft + (value / scale.top) * barSpan;
      doc
        .moveTo(x, top)
        .lineTo(x, top + chartHeight)
        .lineWidth(value === 0 ? 0.8 : 0.4)
        .strokeColor(value === 0 ? COLORS.muted : COLORS.rule)
        .stroke();
      const tick = formatCount(value);
      this.use(STYLES.muted);
      this.line(tick, x - doc.widthOfString(tick) / 2, top + chartHeight + 4, STYLES.muted);
    }
    SEVERITIES.forEach((severity, i) => {
      const count = this.severityCount(severity);
      const rowTop = top + i * rowHeight + (rowHeight - barHeight) / 2;
      this.line(SEVERITY_LABELS[severity], LEFT, rowTop + 3, STYLES.small);
      const width = (count / scale.top) * barSpan;
      if (width > 0) doc.rect(barLeft, rowTop, width, barHeight).fill(SEVERITY_COLORS[severity]);
      this.line(formatCount(count), barLeft + width + 5, rowTop + 3, {
        ...STYLES.small,
        font: 'Helvetica-Bold',
      });
    });
    doc.y = top + chartHeight + 16;
  }

  private statusTable(): void {
    const { doc } = this;
    const total = this.totals.total;
    const columns = { label: LEFT + 8, count: LEFT + 150, share: LEFT + 215, bar: LEFT + 270 };
    const barSpan = RIGHT - columns.bar - 8;
    const rowHeight = 17;
    let y = doc.y + 2;
    this.line('Status', columns.label, y + 4, STYLES.label);
    this.rightAligned('Findings', columns.count, y + 4, STYLES.label);
    this.rightAligned('Share', columns.share, y + 4, STYLES.label);
    y += rowHeight;
    this.rule(y);
    for (const [i, status] of FINDING_STATUSES.entries()) {
      const count = this.totals.by_status[status] ?? 0;
      const share = total > 0 ? count / total : 0;
      if (i % 2 === 1) doc.rect(LEFT, y, CONTENT_WIDTH, rowHeight).fill(COLORS.stripe);
      this.line(STATUS_LABELS[status], columns.label, y + 5, STYLES.small);
      this.rightAligned(formatCount(count), columns.count, y + 5, STYLES.small);
      this.rightAligned(`${(share * 100).toFixed(1)}%`, columns.share, y + 5, STYLES.small);
      doc.rect(columns.bar, y + 6, barSpan, 5).fill(COLORS.rule);
      if (share > 0) doc.rect(columns.bar, y + 6, barSpan * share, 5).fill(COLORS.brand);
      y += rowHeight;
    }
    this.rule(y);
    doc.y = y + 4;
  }

  // ---- Findings table ----

  startTable(): void {
    const { doc } = this;
    doc.addPage();
    this.heading('Findings', STYLES.h1);
    const total = this.totals.total;
    if (total > 0) {
      this.paragraph(
        `${formatCount(total)} ${total === 1 ? 'finding' : 'findings'}. Each is described in full, ` +
          'under the same number, in the Finding details section that follows the table.',
        STYLES.muted,
      );
    }
    doc.y += 8;
  }

  /** Closes the table after `rows` rows. */
  endTable(rows: number): void {
    if (rows === 0) this.paragraph('No findings match the selected period and filters.', STYLES.body);
  }

  /** Column headers on a dark band; drawn at the top of the table and of every page it continues on. */
  private tableHeader(): void {
    const { doc } = this;
    const y = doc.y;
    doc.rect(LEFT, y, CONTENT_WIDTH, TABLE_HEADER_HEIGHT).fill(COLORS.brand);
    let x = LEFT;
    for (const column of TABLE_COLUMNS) {
      if (column.align === 'right') {
        this.rightAligned(column.header, x + column.width - CELL_PADDING, y + 5.5, STYLES.tableHeader);
      } else {
        this.line(column.header, x + CELL_PADDING, y + 5.5, STYLES.tableHeader);
      }
      x += column.width;
    }
    doc.y = y + TABLE_HEADER_HEIGHT;
  }

  /** One table row; `number` is the finding's 1-based position, repeated in its detail section. */
  tableRow(finding: ExportFinding, number: number): void {
    const { doc } = this;
    const textWidth = (column: TableColumn) => column.width - 2 * CELL_PADDING;
    this.use(STYLES.tableTitle);
    const titleLines = this.fitLines(finding.title, textWidth(TABLE.title), MAX_CELL_LINES);
    this.use(STYLES.tableCell);
    const componentLines = this.fitLines(
      finding.affected_component,
      textWidth(TABLE.component),
      MAX_CELL_LINES,
    );
    const lines = Math.max(1, titleLines.length, componentLines.length);
    const height = Math.max(BADGE_HEIGHT, lines * CELL_LINE_HEIGHT) + 2 * CELL_PADDING + 2;

    if (number === 1) {
      this.keepWithNext(TABLE_HEADER_HEIGHT + height);
      this.tableHeader();
    } else if (doc.y + height > BOTTOM) {
      doc.addPage();
      this.tableHeader();
    }
    const y = doc.y;
    if (number % 2 === 0) doc.rect(LEFT, y, CONTENT_WIDTH, height).fill(COLORS.stripe);
    const textTop = y + CELL_PADDING + 2;
    let x = LEFT;
    const cell = (column: TableColumn, draw: (left: number) => void) => {
      draw(x + CELL_PADDING);
      x += column.width;
    };
    cell(TABLE.number, (left) => this.line(String(number), left, textTop, STYLES.muted));
    cell(TABLE.severity, (left) => this.badge(finding.severity, left, y + CELL_PADDING));
    cell(TABLE.title, (left) =>
      titleLines.forEach((text, i) =>
        this.line(text, left, textTop + i * CELL_LINE_HEIGHT, STYLES.tableTitle),
      ),
    );
    cell(TABLE.component, (left) =>
      componentLines.forEach((text, i) =>
        this.line(text, left, textTop + i * CELL_LINE_HEIGHT, STYLES.tableCell),
      ),
    );
    cell(TABLE.status, (left) => this.line(STATUS_LABELS[finding.status], left, textTop, STYLES.tableCell));
    cell(TABLE.cvss, (left) =>
      this.rightAligned(
        formatCvss(finding.cvss_score),
        left + textWidth(TABLE.cvss),
        textTop,
        STYLES.tableCell,
      ),
    );
    cell(TABLE.firstSeen, (left) =>
      this.line(formatDay(finding.first_seen_at), left, textTop, STYLES.tableCell),
    );
    this.rule(y + height);
    doc.y = y + height;
  }

  // ---- Finding details ----

  startDetails(): void {
    this.doc.addPage();
    this.heading('Finding details', STYLES.h1);
    this.doc.y += 4;
    this.findingsOnPage = 0;
  }

  findingSection(finding: ExportFinding, number: number): void {
    const { doc } = this;
    this.keepWithNext(140);
    if (this.findingsOnPage > 0) {
      doc.y += 10;
      this.rule(doc.y, COLORS.muted);
      doc.y += 16;
    }

    const top = doc.y;
    this.badge(finding.severity, LEFT, top + 1.5);
    this.use(STYLES.h2);
    doc.text(toWinAnsi(`#${number}  ${finding.title}`), LEFT + BADGE_WIDTH + 10, top, {
      width: CONTENT_WIDTH - BADGE_WIDTH - 10,
      lineGap: 1,
    });
    doc.y += 8;

    this.fields([
      [
        { label: 'Finding ID', value: finding.id },
        { label: 'Status', value: STATUS_LABELS[finding.status] },
      ],
      [
        { label: 'CVSS score', value: formatCvss(finding.cvss_score) },
        { label: 'EPSS', value: formatEpss(finding.epss_score) },
      ],
      ...(finding.cvss_vector ? [{ label: 'CVSS vector', value: finding.cvss_vector }] : []),
      [
        { label: 'Target', value: finding.target },
        { label: 'Detected by', value: `${finding.tool} (${finding.template_id})` },
      ],
      { label: 'Component', value: finding.affected_component },
      [
        { label: 'CVE', value: finding.cve_ids.join(', ') || 'None' },
        { label: 'CWE', value: finding.cwe_ids.join(', ') || 'None' },
      ],
      { label: 'Frameworks', value: describeFrameworks(finding.frameworks) },
      [
        { label: 'First seen', value: `${formatDay(finding.first_seen_at)} (${finding.scan_id})` },
        {
          label: 'Last seen',
          value:
            `${formatDay(finding.last_seen_at)} (${finding.last_scan_id}), ` +
            `${formatCount(finding.times_seen)} ${finding.times_seen === 1 ? 'time' : 'times'} in all`,
        },
      ],
      ...(finding.sources && finding.sources.length > 0
        ? [{ label: 'Seen by', value: describeSources(finding.sources) }]
        : []),
    ]);

    this.riskDecision(finding);
    this.textSection('Description', finding.description);
    this.textSection('Impact', finding.impact);
    this.remediation(finding);
    this.findingsOnPage += 1;
  }

  /**
   * Why a finding is accepted or a false positive, who decided and when, and until when an
   * acceptance holds: an auditor reads the decision beside the finding it excuses.
   */
  private riskDecision(finding: ExportFinding): void {
    if (!finding.justification) return;
    const by = [finding.justified_by, finding.justified_at && `on ${formatDay(finding.justified_at)}`]
      .filter(Boolean)
      .join(' ');
    const reason = /[.!?]$/.test(finding.justification) ? finding.justification : `${finding.justification}.`;
    const until = finding.acceptance_expires_at
      ? ` Accepted until ${formatDay(finding.acceptance_expires_at)}, then reopened.`
      : '';
    this.textSection(
      'Risk decision',
      `${STATUS_LABELS[finding.status]}${by ? ` by ${by}` : ''}: ${reason}${until}`,
    );
  }

  private textSection(title: string, text: string): void {
    this.doc.y += 8;
    this.keepWithNext(36);
    this.heading(title, STYLES.h3);
    this.paragraph(text.trim() || 'Not provided.', text.trim() ? STYLES.body : STYLES.note);
  }

  private remediation(finding: ExportFinding): void {
    const { doc } = this;
    const { summary, steps, code_example: code, references } = finding.remediation;
    this.textSection('Remediation', summary);

    if (steps.length > 0) {
      doc.y += 4;
      this.keepWithNext(30);
      this.heading('Steps', STYLES.label);
      steps.forEach((step, i) => this.listItem(`${i + 1}.`, step, STYLES.body));
    }

    if (code.trim()) {
      doc.y += 4;
      this.codeBlock('Example', code);
    }

    if (references.length > 0) {
      doc.y += 4;
      this.keepWithNext(30);
      this.heading('References', STYLES.label);
      // Plain text, not link annotations: pdfkit keeps every annotation in memory
      // until the document ends, and viewers turn printed URLs into links anyway.
      for (const reference of references) this.listItem('•', reference, STYLES.link);
    }
  }

  /** A titled panel of code, kept on one page with its title when it fits on one. */
  private codeBlock(title: string, code: string): void {
    const { doc } = this;
    const lines = code.replace(/\s+$/, '').split(/\r\n?|\n/);
    const text = toWinAnsi(lines.slice(0, MAX_CODE_LINES).join('\n'));
    const padding = 6;
    const width = CONTENT_WIDTH - 2 * padding;
    this.use(STYLES.code);
    const height = doc.heightOfString(text, { width }) + 2 * padding;
    const titleHeight = STYLES.label.size + 6;
    const fitsOnAPage = titleHeight + height <= BOTTOM - PAGE.margins.top;
    this.keepWithNext(titleHeight + (fitsOnAPage ? height : 60));
    this.heading(title, STYLES.label);
    const top = doc.y;
    // The panel goes behind the code only when all of it is on this page; a longer example flows without one.
    const panel = top + height <= BOTTOM;
    if (panel) doc.rect(LEFT, top, CONTENT_WIDTH, height).fill(COLORS.stripe);
    this.use(STYLES.code);
    doc.text(text, LEFT + padding, top + padding, { width });
    if (panel) doc.y = top + height;
    doc.y += 3;
    doc.x = LEFT;
    if (lines.length > MAX_CODE_LINES) {
      this.paragraph(`(${lines.length - MAX_CODE_LINES} more lines in the JSON export)`, STYLES.note);
    }
  }

  // ---- Building blocks ----

  /** Header and footer of every page, drawn as the page starts, whatever was being drawn. */
  private decoratePage(): void {
    const { doc, metadata } = this;
    this.pageNumber += 1;
    const interrupted = this.current;
    const cursor = { x: doc.x, y: doc.y };
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // text in the footer must not start another page

    const footerY = PAGE.height - 40;
    this.rule(footerY - 7);
    const pageLabel = `Page ${this.pageNumber}`;
    this.rightAligned(pageLabel, RIGHT, footerY, STYLES.footer);
    this.use(STYLES.footer);
    const [footerText = ''] = this.fitLines(
      `Scanward findings report · ${metadata.organization} · Confidential`,
      CONTENT_WIDTH - 80,
      1,
    );
    this.line(footerText, LEFT, footerY, STYLES.footer);

    if (this.pageNumber > 1) {
      const generated = `Generated ${formatTimestamp(metadata.generatedAt)}`;
      this.rightAligned(generated, RIGHT, 32, STYLES.footer);
      this.use(STYLES.footer);
      const [headerText = ''] = this.fitLines(
        `Vulnerability Findings Report · ${metadata.organization}`,
        CONTENT_WIDTH - doc.widthOfString(generated) - 20,
        1,
      );
      this.line(headerText, LEFT, 32, STYLES.footer);
      this.rule(44);
    }

    doc.page.margins.bottom = bottomMargin;
    doc.x = cursor.x;
    doc.y = cursor.y;
    this.use(interrupted);
  }

  private use(style: TextStyle): void {
    this.doc.font(style.font).fontSize(style.size).fillColor(style.color);
    this.current = style;
  }

  /** One line of text at a fixed position; never wraps and never starts a page. */
  private line(
    text: string,
    x: number,
    y: number,
    style: TextStyle,
    options: PDFKit.Mixins.TextOptions = {},
  ): void {
    this.use(style);
    this.doc.text(toWinAnsi(text), x, y, { ...options, lineBreak: false });
  }

  private rightAligned(text: string, right: number, y: number, style: TextStyle): void {
    this.use(style);
    const safe = toWinAnsi(text);
    this.doc.text(safe, right - this.doc.widthOfString(safe), y, { lineBreak: false });
  }

  /** Wrapped text at the cursor across the full width; continues on new pages as needed. */
  private paragraph(text: string, style: TextStyle): void {
    this.use(style);
    this.doc.text(toWinAnsi(text), LEFT, this.doc.y, { width: CONTENT_WIDTH, lineGap: 1.5 });
  }

  private heading(text: string, style: TextStyle): void {
    this.paragraph(text, style);
    this.doc.y += style.size >= 12 ? 6 : 3;
  }

  private listItem(marker: string, text: string, style: TextStyle): void {
    const { doc } = this;
    const indent = 18;
    this.use(style);
    const body = toWinAnsi(text);
    this.keepWithNext(Math.min(doc.heightOfString(body, { width: CONTENT_WIDTH - indent }), 3 * style.size));
    const y = doc.y;
    this.rightAligned(marker, LEFT + indent - 5, y, { ...style, color: COLORS.muted });
    this.use(style);
    doc.text(body, LEFT + indent, y, { width: CONTENT_WIDTH - indent, lineGap: 1.5 });
    doc.y += 2;
    doc.x = LEFT;
  }

  /**
   * Label and value pairs, one to a row or two side by side; values wrap, and a row
   * never splits across pages.
   */
  private fields(rows: ReadonlyArray<Field | readonly [Field, Field]>, labelWidth = 70): void {
    const { doc } = this;
    const halfWidth = CONTENT_WIDTH / 2;
    for (const row of rows) {
      const cells = isPair(row)
        ? row.map((field, i) => ({ field, left: LEFT + i * halfWidth, width: halfWidth - labelWidth - 10 }))
        : [{ field: row, left: LEFT, width: CONTENT_WIDTH - labelWidth }];
      this.use(STYLES.small);
      const heights = cells.map(({ field, width }) =>
        doc.heightOfString(toWinAnsi(field.value), { width, lineGap: 1 }),
      );
      const height = Math.max(...heights);
      this.keepWithNext(height);
      const y = doc.y;
      for (const { field, left, width } of cells) {
        this.line(field.label, left, y + 0.5, STYLES.label);
        this.use(STYLES.small);
        doc.text(toWinAnsi(field.value), left + labelWidth, y, { width, lineGap: 1 });
      }
      doc.y = y + height + 3;
      doc.x = LEFT;
    }
  }

  private badge(severity: Severity, x: number, y: number): void {
    const { doc } = this;
    doc.roundedRect(x, y, BADGE_WIDTH, BADGE_HEIGHT, 3).fill(SEVERITY_COLORS[severity]);
    const label = SEVERITY_LABELS[severity].toUpperCase();
    this.use(STYLES.badge);
    this.line(label, x + (BADGE_WIDTH - doc.widthOfString(label)) / 2, y + 3.2, STYLES.badge);
  }

  private rule(y: number, color: string = COLORS.rule): void {
    this.doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.5).strokeColor(color).stroke();
  }

  /** Starts a new page unless `height` more points fit on this one. */
  private keepWithNext(height: number): void {
    if (this.doc.y + height > BOTTOM) {
      this.doc.addPage();
      this.findingsOnPage = 0;
    }
  }

  /**
   * `text` wrapped into at most `maxLines` lines of `width` in the current font,
   * breaking words that are wider than a line, the last line ending in `…` when cut.
   */
  private fitLines(text: string, width: number, maxLines: number): string[] {
    const fits = (candidate: string) => this.doc.widthOfString(candidate) <= width;
    // A cell never shows more than a few hundred characters; measuring more is wasted work.
    const words = toWinAnsi(text).slice(0, 400).replace(/\s+/g, ' ').trim().split(' ');
    const lines: string[] = [];
    let current = '';
    for (const word of words) {
      if (lines.length > maxLines) break;
      const candidate = current ? `${current} ${word}` : word;
      if (fits(candidate)) {
        current = candidate;
        continue;
      }
      if (current) lines.push(current);
      let rest = word;
      while (!fits(rest) && lines.length <= maxLines) {
        const cut = longestFittingPrefix(rest, fits);
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      current = rest;
    }
    if (current) lines.push(current);
    if (lines.length <= maxLines) return lines;
    const kept = lines.slice(0, maxLines);
    let last = kept[maxLines - 1] ?? '';
    while (last && !fits(`${last}…`)) last = last.slice(0, -1);
    kept[maxLines - 1] = `${last.trimEnd()}…`;
    return kept;
  }
}

function isPair(row: Field | readonly [Field, Field]): row is readonly [Field, Field] {
  return Array.isArray(row);
}

/** The number of leading characters of `text` that fit, at least one. */
function longestFittingPrefix(text: string, fits: (candidate: string) => boolean): number {
  let low = 1;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(text.slice(0, mid))) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** A chart axis from 0 to `top` in steps of 1, 2 or 5 times a power of ten, about four of them. */
export function niceScale(max: number): { top: number; step: number } {
  if (max <= 0) return { top: 1, step: 1 };
  const rough = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const normalized = rough / magnitude;
  const factor = normalized <= 1 ? 1 : normalized <= 2 ? 2 : normalized <= 5 ? 5 : 10;
  const step = Math.max(1, factor * magnitude);
  return { top: Math.ceil(max / step) * step, step };
}

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

function formatTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function formatDay(iso: string): string {
  return /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : iso;
}

function formatCvss(score: number): string {
  return Number.isFinite(score) ? score.toFixed(1) : '-';
}

function formatEpss(score: number | null): string {
  if (score === null || !Number.isFinite(score)) return 'Not available';
  return `${(score * 100).toFixed(1)}% (${score.toFixed(4)})`;
}

function describePeriod(from: Date | undefined, to: Date | undefined): string {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  if (from && to) return `${day(from)} to ${day(to)}`;
  if (from) return `From ${day(from)}`;
  if (to) return `Until ${day(to)}`;
  return 'All findings, any date';
}

function describeFilters(filters: Record<string, string>): string {
  const entries = Object.entries(filters);
  if (entries.length === 0) return 'None';
  return entries.map(([name, value]) => `${name} = ${value}`).join('; ');
}

/** Each framework with its controls by reference and name (`CC6.1 Logical access security`), never raw ids. */
function describeFrameworks(frameworks: ExportFinding['frameworks']): string {
  if (frameworks.length === 0) return 'None';
  return frameworks
    .map((framework) => {
      const controls = framework.control_details
        ? framework.control_details.map((control) =>
            control.name === control.id ? control.reference : `${control.reference} ${control.name}`,
          )
        : framework.controls;
      return controls.length > 0 ? `${framework.name} (${controls.join(', ')})` : framework.name;
    })
    .join('; ');
}

/** "Seen by": each source, strongest first: `Scanward scan (scanward-probe): critical 9.8, proof; nuclei import: high, proof`. */
export function describeSources(sources: readonly ExportFindingSource[]): string {
  return sources
    .map((s) => {
      const who = s.source === 'scan' ? `Scanward scan (${s.tool})` : `${s.tool} import`;
      const score = s.cvss_score > 0 ? ` ${formatCvss(s.cvss_score)}` : '';
      const how = s.established === 'confirmed' ? 'proof' : 'version match';
      const gone = s.status === 'resolved' ? ', no longer reported' : '';
      return `${who}: ${s.severity}${score}, ${how}${gone}`;
    })
    .join('; ');
}
