import { defineRoute, type AnyRoute } from '../http/contract.ts';
import { addControlEvidence, getControlDetail, listControls } from '../controls/controls.ts';
import { controlFindingsReader } from '../findings/control-findings.ts';
import {
  ControlDetail,
  ControlEvidence,
  ControlIdParams,
  ControlList,
  CreateEvidenceBody,
  ListControlsQuery,
} from '../schemas/controls.ts';

const tags = ['Controls'];

export const listControlsRoute = defineRoute({
  method: 'get',
  path: '/api/v1/controls',
  operationId: 'listControls',
  summary: 'List compliance controls',
  description:
    'The control catalogue (SOC 2, PCI DSS, ISO 27001) with each control’s status and evidence count in the caller’s organization, in catalogue order (framework, then reference). A control is `failing` while an open or in_progress finding maps to it, `passing` when a completed scan assessed it and nothing open maps to it, `not_assessed` otherwise.',
  tags,
  access: { permission: 'read:grc' },
  query: ListControlsQuery,
  responses: { 200: { description: 'One page of controls', schema: ControlList } },
  handler: async ({ query, principal, services }) => {
    const { page, per_page, framework, status } = query;
    return {
      body: await listControls(services.db, principal.org.id, { framework, status, page, perPage: per_page }),
    };
  },
});

export const getControlRoute = defineRoute({
  method: 'get',
  path: '/api/v1/controls/{control_id}',
  operationId: 'getControl',
  summary: 'Control details',
  description:
    'The control with the open and in_progress findings mapped to it (finding list items, most severe first) and its evidence records (newest first); each list holds at most 100 entries, `findings_total` and `evidence_count` have the totals.',
  tags,
  access: { permission: 'read:grc' },
  params: ControlIdParams,
  responses: { 200: { description: 'The control with its findings and evidence', schema: ControlDetail } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services }) => ({
    body: await getControlDetail(
      services.db,
      principal.org.id,
      params.control_id,
      controlFindingsReader(services.db, principal.org.id),
    ),
  }),
});

export const addControlEvidenceRoute = defineRoute({
  method: 'post',
  path: '/api/v1/controls/{control_id}/evidence',
  operationId: 'addControlEvidence',
  summary: 'Attach evidence to a control',
  description:
    'Records evidence a person attaches (a policy, a penetration test report, a ticket), with an optional http(s) link. It counts in `evidence_count`; only a completed scan assesses a control, so user evidence does not change its status.',
  tags,
  access: { permission: 'write:grc' },
  params: ControlIdParams,
  body: CreateEvidenceBody,
  responses: { 201: { description: 'The evidence record', schema: ControlEvidence } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, body, principal, services }) => ({
    body: await addControlEvidence(
      services.db,
      principal.org.id,
      params.control_id,
      principal.user.email,
      body,
    ),
  }),
});

export const controlRoutes: AnyRoute[] = [listControlsRoute, getControlRoute, addControlEvidenceRoute];
