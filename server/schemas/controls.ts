import { z } from 'zod';
import { IdParam, Page, PerPage, Timestamp, paginated } from './common.ts';
import { FindingListItem } from './findings.ts';

/**
 * Wire shapes of the compliance controls API (interface-spec.md "Control";
 * decisions.md "Controls (GRC)"). Pure zod.
 */

export const CONTROL_STATUSES = ['passing', 'failing', 'not_assessed'] as const;
export const ControlStatus = z.enum(CONTROL_STATUSES).meta({
  id: 'ControlStatus',
  description:
    '`failing` while an open or in_progress finding maps to the control; `passing` when a completed scan assessed it and nothing open maps to it; `not_assessed` otherwise',
});
export type ControlStatus = z.infer<typeof ControlStatus>;

/** The same slugs as controls/catalogue.ts FRAMEWORK_SLUGS (that module is not pure zod). */
export const ComplianceFramework = z
  .enum(['soc2', 'pci-dss', 'iso27001'])
  .meta({ id: 'ComplianceFramework' });

const ControlId = z.string().meta({ example: 'ctrl_soc2_cc7_1' });

export const Control = z
  .object({
    id: ControlId,
    name: z.string(),
    status: ControlStatus,
    frameworks: z.array(ComplianceFramework).meta({ description: 'Framework slugs the control belongs to' }),
    evidence_count: z
      .number()
      .int()
      .meta({ description: 'Evidence records: one per completed scan that assessed it, plus user evidence' }),
    reference: z.string().meta({ description: "The framework's own identifier", example: 'CC7.1' }),
    description: z.string(),
  })
  .meta({ id: 'Control' });
export type Control = z.infer<typeof Control>;

export const ControlList = paginated(Control, 'ControlList');

export const ListControlsQuery = z.object({
  page: Page,
  per_page: PerPage,
  framework: ComplianceFramework.optional().meta({ description: 'Only controls of this framework' }),
  status: ControlStatus.optional(),
});
export type ListControlsQuery = z.infer<typeof ListControlsQuery>;

export const ControlIdParams = z.object({ control_id: IdParam('control', 'ctrl_soc2_cc7_1') });

export const EvidenceKind = z.enum(['scan', 'user']).meta({ id: 'EvidenceKind' });

export const ControlEvidence = z
  .object({
    id: z.string().meta({ example: 'evid_0a1b2c3d4e5f6g7h8i9j0k1l' }),
    control_id: ControlId,
    kind: EvidenceKind.meta({
      description:
        '`scan`: recorded when a completed scan assessed the control; `user`: attached by a person',
    }),
    title: z.string(),
    description: z.string().nullable(),
    url: z.string().nullable(),
    scan_id: z.string().nullable().meta({ description: 'The assessing scan (scan evidence only)' }),
    created_at: Timestamp,
    created_by: z
      .string()
      .optional()
      .meta({ description: 'E-mail of the user who attached it (user evidence only)' }),
  })
  .meta({ id: 'ControlEvidence' });
export type ControlEvidence = z.infer<typeof ControlEvidence>;

/** How many findings and evidence records the detail view lists at most. */
export const CONTROL_DETAIL_LIMIT = 100;

export const ControlDetail = Control.extend({
  findings: z.array(FindingListItem).meta({
    description: `Open and in_progress findings mapped to the control, most severe first (at most ${CONTROL_DETAIL_LIMIT})`,
  }),
  findings_total: z.number().int().meta({ description: 'How many open and in_progress findings map to it' }),
  evidence: z.array(ControlEvidence).meta({
    description: `Evidence records, newest first (at most ${CONTROL_DETAIL_LIMIT}; evidence_count has the total)`,
  }),
}).meta({ id: 'ControlDetail' });
export type ControlDetail = z.infer<typeof ControlDetail>;

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2048, { error: 'must be at most 2048 characters' });

export const CreateEvidenceBody = z
  .object({
    title: z
      .string({ error: 'is required' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(200, { error: 'must be at most 200 characters' }),
    description: z
      .string({ error: 'is required' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(5000, { error: 'must be at most 5000 characters' }),
    url: httpUrl.optional().meta({ example: 'https://wiki.example.com/pentest-2026-q1' }),
  })
  .meta({ id: 'CreateEvidenceRequest' });
export type CreateEvidenceBody = z.infer<typeof CreateEvidenceBody>;
