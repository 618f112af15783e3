import ReactMarkdown, { type Components } from 'react-markdown';

/**
 * Text the API gives as Markdown (a finding's description and remediation), rendered
 * safely: react-markdown builds React elements from the Markdown syntax tree, so there is no
 * `dangerouslySetInnerHTML` anywhere. Raw HTML in the text is not rendered (react-markdown
 * without rehype-raw leaves it out), only the elements below are kept (headings become
 * plain paragraphs' content, so a page's heading order stays its own), and links get
 * react-markdown's URL filter (no `javascript:`). docs/dependencies.md says why this library.
 */

const ALLOWED = ['p', 'a', 'code', 'pre', 'em', 'strong', 'ul', 'ol', 'li', 'blockquote', 'br', 'hr', 'del'];

const components: Components = {
  a: ({ href, children }) => (
    <a href={href} rel="noreferrer" target="_blank">
      {children}
    </a>
  ),
  pre: ({ children }) => <pre tabIndex={0}>{children}</pre>,
};

export function Markdown({ text, inline = false }: { text: string; inline?: boolean }) {
  return (
    <div className={inline ? 'markdown inline' : 'markdown'}>
      <ReactMarkdown allowedElements={ALLOWED} unwrapDisallowed components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
