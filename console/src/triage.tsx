import type { Schemas } from './api/contract';

/**
 * The reason a move to `accepted` or `false_positive` needs (docs/finding-lifecycle.md,
 * "Accepting a risk"): a justification, and for `accepted` an optional last day. One form part
 * for the finding page and the list's bulk change, so both send it alike.
 */
export interface Justified {
  justification: string;
  /** `YYYY-MM-DD`, or '' for an acceptance without end. */
  expiresOn: string;
}

const NEEDS_JUSTIFICATION: ReadonlySet<Schemas['FindingStatus']> = new Set(['accepted', 'false_positive']);

/** The request fields the chosen status takes: none, or the justification (and the expiry of an acceptance). */
export function justified(
  status: Schemas['FindingStatus'],
  { justification, expiresOn }: Justified,
): { justification?: string; expires_at?: string } {
  if (!NEEDS_JUSTIFICATION.has(status)) return {};
  return {
    justification: justification.trim(),
    // The acceptance ends at the end of the chosen day, in UTC.
    ...(status === 'accepted' && expiresOn ? { expires_at: `${expiresOn}T23:59:59.000Z` } : {}),
  };
}

export function JustificationFields(props: {
  status: Schemas['FindingStatus'];
  value: Justified;
  onChange: (value: Justified) => void;
}) {
  const { status, value, onChange } = props;
  if (!NEEDS_JUSTIFICATION.has(status)) return null;
  return (
    <>
      <label>
        Justification (required)
        <textarea
          name="justification"
          rows={2}
          required
          maxLength={2000}
          value={value.justification}
          onChange={(e) => onChange({ ...value, justification: e.target.value })}
        />
      </label>
      {status === 'accepted' && (
        <label>
          Accepted until (optional)
          <input
            type="date"
            name="expires_on"
            value={value.expiresOn}
            onChange={(e) => onChange({ ...value, expiresOn: e.target.value })}
          />
        </label>
      )}
    </>
  );
}
