import { apiClientRef, useApi } from '../../api/context';
import { DELIVERY_STATUSES } from '../../api/vocabulary';
import { useCollection } from '../../data';
import { Notice, Problem, when } from '../../ui';
import { ItemTable } from './section';

/** The last deliveries of one webhook, each with a button to send it again. */
export function Deliveries({ webhookId }: { webhookId: string }) {
  const api = useApi(apiClientRef);
  const deliveries = useCollection(`settings/webhooks/${webhookId}/deliveries`, () =>
    api.GET('/api/v1/webhooks/{webhook_id}/deliveries', {
      params: { path: { webhook_id: webhookId }, query: { per_page: 20 } },
    }),
  );
  const redeliver = (id: string) =>
    void deliveries.act(
      api.POST('/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver', {
        params: { path: { webhook_id: webhookId, delivery_id: id } },
      }),
      () => 'Queued for redelivery.',
    );

  return (
    <>
      <Problem message={deliveries.error} />
      {deliveries.items?.length === 0 && <p>No deliveries yet.</p>}
      {deliveries.items && deliveries.items.length > 0 && (
        <>
          <Notice message={deliveries.notice} />
          <ItemTable
            items={deliveries.items}
            columns={[
              { header: 'Event', cell: (d) => d.event },
              { header: 'Status', cell: (d) => DELIVERY_STATUSES.label(d.status) },
              { header: 'Answer', cell: (d) => d.status_code ?? d.error ?? '—' },
              { header: 'Attempts', cell: (d) => d.attempts },
              { header: 'When', cell: (d) => when(d.created_at) },
            ]}
            actions={(d) => (
              <button type="button" className="link" onClick={() => redeliver(d.id)}>
                Redeliver
              </button>
            )}
          />
        </>
      )}
    </>
  );
}
