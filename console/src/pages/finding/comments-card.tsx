import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { useAction } from '../../data';
import { useMayChange } from '../../session';
import { Problem, when } from '../../ui';

type Finding = Schemas['FindingDetail'];

/** The finding's comments; a role that may change findings (docs/roles.md) also adds one. */
export function CommentsCard({ finding, onAdded }: { finding: Finding; onAdded: () => void }) {
  const mayComment = useMayChange('findings');
  return (
    <section aria-labelledby="comments">
      <h2 id="comments">Comments</h2>
      {finding.comments.length === 0 ? (
        <p>No comments yet.</p>
      ) : (
        <ul className="comments">
          {finding.comments.map((c) => (
            <li key={c.id}>
              <p>{c.text}</p>
              <p className="sub">
                {c.user}, {when(c.created_at)}
              </p>
            </li>
          ))}
        </ul>
      )}
      {mayComment && <AddComment id={finding.id} onAdded={onAdded} />}
    </section>
  );
}

function AddComment({ id, onAdded }: { id: string; onAdded: () => void }) {
  const api = useApi(apiClientRef);
  const action = useAction();
  const [text, setText] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.act(
      api.POST('/api/v1/findings/{finding_id}/comments', {
        params: { path: { finding_id: id } },
        body: { text: text.trim() },
      }),
      () => {
        setText('');
        onAdded();
      },
    );
  };
  return (
    <form onSubmit={(e) => void submit(e)}>
      <label>
        Add a comment
        <textarea name="comment" rows={2} required value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <Problem message={action.error} />
      <button type="submit">Add comment</button>
    </form>
  );
}
