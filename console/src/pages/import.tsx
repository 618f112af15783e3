import { useState, type FormEvent } from 'react';
import type { Schemas } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import { useAction, useLoad } from '../data';
import { Link } from '../router';
import { useMayChange } from '../session';
import { Page, Problem } from '../ui';
import { Counts } from './scans';

const FORMATS = ['', 'nuclei', 'zap', 'nmap', 'openvas', 'scanward'] as const;

/**
 * Import another tool's report (POST /api/v1/imports, docs/imports.md): the file, the target it
 * is about (typed, or one of the organization's assets), and what it brought — as the scan
 * the import became labels it ("Imported from a nuclei report, 18 results, 9 findings").
 */
export function ImportReport() {
  const api = useApi(apiClientRef);
  // Importing writes scans (write:scans): a viewer is told so rather than given a form the API refuses.
  const viewer = !useMayChange('scans');
  const assets = useLoad(
    () => api.GET('/api/v1/assets', { params: { query: { per_page: 100 } } }),
    'import-assets',
  );
  const [file, setFile] = useState<File | null>(null);
  const [target, setTarget] = useState('');
  const [format, setFormat] = useState<(typeof FORMATS)[number]>('');
  const [busy, setBusy] = useState(false);
  const action = useAction();
  const [result, setResult] = useState<Schemas['ImportResult'] | undefined>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return action.fail('Choose the report file.');
    setBusy(true);
    const form = new FormData();
    form.set('target', target.trim());
    if (format) form.set('format', format);
    form.set('file', file, file.name);
    await action.act(
      api.POST('/api/v1/imports', {
        body: form as unknown as Schemas['ImportUpload'],
        bodySerializer: (body) => body as unknown as FormData,
      }),
      setResult,
    );
    setBusy(false);
  };

  return (
    <Page title="Import a report">
      <p>
        A report of nuclei, OWASP ZAP, nmap, OpenVAS/Greenbone or Scanward becomes a completed scan of the
        target; its results join the findings Scanward's own scans keep, each tool listed under &ldquo;Seen
        by&rdquo;.
      </p>
      {viewer ? (
        <p className="card">Importing a report needs the member or admin role; yours is viewer.</p>
      ) : (
        <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="import-form">
          <h2 id="import-form">Report</h2>
          <label>
            Report file
            <input type="file" required onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
          </label>
          <label>
            Target or asset
            <input
              required
              list="import-assets"
              value={target}
              placeholder="127.0.0.1, a URL or a name"
              onChange={(e) => setTarget(e.currentTarget.value)}
            />
            <datalist id="import-assets">
              {(assets.data?.items ?? []).map((a) => (
                <option key={a.id} value={a.address}>
                  {a.names.join(', ')}
                </option>
              ))}
            </datalist>
          </label>
          <label>
            Format
            <select
              value={format}
              onChange={(e) => setFormat(e.currentTarget.value as (typeof FORMATS)[number])}
            >
              {FORMATS.map((f) => (
                <option key={f} value={f}>
                  {f || 'detect from the report'}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Importing…' : 'Import'}
          </button>
        </form>
      )}
      <Problem message={action.error} />
      {result && (
        <section aria-labelledby="import-result" data-testid="import-result">
          <h2 id="import-result">Imported</h2>
          <p>
            <Link href={`/scans/${result.id}`}>{result.label}</Link>
          </p>
          <p>
            <Counts scan={result} />
            {result.changes && (
              <>
                {' '}
                — {result.changes.new} new · {result.changes.unchanged} already known ·{' '}
                {result.changes.reopened} reopened · {result.changes.resolved} resolved
              </>
            )}
          </p>
        </section>
      )}
    </Page>
  );
}
