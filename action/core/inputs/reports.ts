import { FINDING_SEVERITIES } from '../../../server/schemas/findings.ts';
import type { Severity } from '../scan.ts';
import { parseBoolean, parseChoice, type InputReader } from './read.ts';

/**
 * The reports group: the least severe finding reported (`report-severity`) and, on GitHub,
 * the code scanning upload (`upload-sarif`, `sarif-file`) and the pull request comment
 * (`comment`), both with `github-token`.
 */

/** GitHub-only: the code scanning upload and the pull request comment. */
export interface GitHubInputs {
  uploadSarif: boolean;
  /** Where the SARIF file is written, relative to the workspace. */
  sarifFile: string;
  /** Post (or update) the sticky pull request comment. */
  comment: boolean;
  githubToken?: string | undefined;
}

export function parseReportInputs(input: InputReader): {
  reportSeverity: Severity | undefined;
  github: GitHubInputs;
} {
  const { read, problems } = input;
  const reportSeverity = parseChoice(
    input,
    'report-severity',
    'info',
    FINDING_SEVERITIES,
    (raw) => `\`report-severity\` is "${raw}"; use one of ${FINDING_SEVERITIES.join(', ')}.`,
  );
  const comment = parseBoolean('comment', read('comment') || 'false', problems);
  const uploadSarif = parseBoolean('upload-sarif', read('upload-sarif') || 'true', problems);
  const githubToken = read('github-token') || undefined;
  if (uploadSarif && !githubToken) {
    problems.push(
      '`github-token` is empty but upload-sarif is true. Leave github-token at its default (${{ github.token }}) or set upload-sarif: false.',
    );
  }
  if (comment && !githubToken) {
    problems.push(
      '`github-token` is empty but comment is true; leave github-token at its default (${{ github.token }}).',
    );
  }
  const sarifFile = read('sarif-file') || 'scanward.sarif';
  return { reportSeverity, github: { uploadSarif: uploadSarif!, sarifFile, comment: comment!, githubToken } };
}
