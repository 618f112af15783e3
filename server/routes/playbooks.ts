import { defineRoute, type AnyRoute } from '../http/contract.ts';
import { notFound } from '../errors.ts';
import { getPlaybook } from '../remediation/playbooks/index.ts';
import { Playbook, PlaybookIdParams } from '../schemas/ai.ts';

const tags = ['Findings'];

export const getPlaybookRoute = defineRoute({
  method: 'get',
  path: '/api/v1/playbooks/{playbook_id}',
  operationId: 'getPlaybook',
  summary: 'An Ansible playbook',
  description:
    'The remediation playbook an AI analysis names in `ansible_playbook_id`; `content` is the playbook YAML. Review its variables before running it.',
  tags,
  access: { permission: 'read:findings' },
  params: PlaybookIdParams,
  responses: { 200: { description: 'The playbook', schema: Playbook } },
  errors: ['NOT_FOUND'],
  handler: async ({ params }) => {
    const playbook = getPlaybook(params.playbook_id);
    if (!playbook) throw notFound('playbook');
    return {
      body: {
        id: playbook.id,
        title: playbook.title,
        description: playbook.description,
        content: playbook.content,
      },
    };
  },
});

export const playbookRoutes: AnyRoute[] = [getPlaybookRoute];
