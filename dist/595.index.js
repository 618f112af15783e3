export const id = 595;
export const ids = [595,331];
export const modules = {

/***/ 331:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   createGitHubClient: () => (/* binding */ createGitHubClient),
/* harmony export */   processingStatus: () => (/* binding */ processingStatus),
/* harmony export */   qQ: () => (/* binding */ githubError),
/* harmony export */   uploadSarif: () => (/* binding */ uploadSarif)
/* harmony export */ });
/* unused harmony exports MAX_GZIPPED_BYTES, encodeSarif */
/* harmony import */ var node_zlib__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8522);
/* harmony import */ var node_zlib__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_zlib__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3206);
/* harmony import */ var _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(9735);
/* harmony import */ var _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(6856);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(54);





function createGitHubClient(options) {
    const maxWait = options.maxRateLimitWaitSeconds ?? 300;
    return (0,_actions_github__WEBPACK_IMPORTED_MODULE_1__/* .getOctokit */ .Q)(options.token, {
        baseUrl: options.apiUrl,
        userAgent: options.userAgent,
        retry: { retryAfterBaseValue: options.retryBaseMs ?? 1000 },
        throttle: {
            enabled: options.throttle ?? true,
            onRateLimit: (retryAfter, request, _o, count) => {
                options.log(`GitHub rate limit hit on ${request.method} ${request.url}; retrying in ${retryAfter}s.`);
                return count < 2 && retryAfter <= maxWait;
            },
            onSecondaryRateLimit: (retryAfter, request, _o, count) => {
                options.log(`GitHub secondary rate limit on ${request.method} ${request.url}; retrying in ${retryAfter}s.`);
                return count < 2 && retryAfter <= maxWait;
            },
        },
    }, _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_3__/* .retry */ .L, _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_4__/* .throttling */ .A);
}
/** GitHub rejects a gzipped SARIF file larger than this. */
const MAX_GZIPPED_BYTES = 10 * 1024 * 1024;
function encodeSarif(sarif) {
    const gzipped = (0,node_zlib__WEBPACK_IMPORTED_MODULE_0__.gzipSync)(Buffer.from(sarif, 'utf8'));
    return { encoded: gzipped.toString('base64'), gzippedBytes: gzipped.length };
}
/** `POST /repos/{owner}/{repo}/code-scanning/sarifs` (gzip + base64); answers the upload id. */
async function uploadSarif(github, repository, upload) {
    const { encoded, gzippedBytes } = encodeSarif(upload.sarif);
    if (gzippedBytes > MAX_GZIPPED_BYTES) {
        throw new Error(`The SARIF file is ${(gzippedBytes / 1048576).toFixed(1)} MiB gzipped; GitHub accepts at most 10 MiB.`);
    }
    try {
        const { data } = await github.rest.codeScanning.uploadSarif({
            ...repository,
            commit_sha: upload.commitSha,
            ref: upload.ref,
            sarif: encoded,
            tool_name: 'Scanward',
            ...(upload.startedAt ? { started_at: upload.startedAt } : {}),
        });
        if (typeof data.id !== 'string')
            throw new Error('GitHub accepted the SARIF upload but sent no upload id.');
        return { id: data.id };
    }
    catch (error) {
        throw githubError(error, 'upload the SARIF file');
    }
}
/** One look at the processing status; a not-yet-known upload (404) counts as pending. */
async function processingStatus(github, repository, uploadId) {
    try {
        const { data } = await github.rest.codeScanning.getSarif({ ...repository, sarif_id: uploadId });
        const status = data.processing_status === 'complete' || data.processing_status === 'failed'
            ? data.processing_status
            : 'pending';
        return { status, errors: (data.errors ?? []).filter((e) => typeof e === 'string') };
    }
    catch (error) {
        if (statusOf(error) === 404)
            return { status: 'pending', errors: [] };
        throw githubError(error, 'read the SARIF processing status');
    }
}
function statusOf(error) {
    const status = error?.status;
    return typeof status === 'number' ? status : undefined;
}
/** An Octokit failure as an `ApiError` with what the user can do about it. */
function githubError(error, what) {
    if (error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .ApiError */ .hD)
        return error;
    const status = statusOf(error);
    if (status === undefined)
        return error instanceof Error ? error : new Error(String(error));
    const data = error.response?.data;
    const message = typeof data?.message === 'string' ? data.message : error instanceof Error ? error.message : String(error);
    return new _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .ApiError */ .hD('GitHub', status, `HTTP_${status}`, `could not ${what}: ${message}`, undefined, hint(status, message, what));
}
function hint(status, message, what) {
    const comment = what.includes('comment');
    if (status === 403 && /not accessible by integration|permission/i.test(message)) {
        return comment
            ? 'Give the job `permissions: pull-requests: write`, or set comment: false'
            : 'Give the job `permissions: security-events: write` (and `contents: read`), or set upload-sarif: false';
    }
    if (comment)
        return undefined;
    if (status === 403 || status === 404) {
        return 'Code scanning must be available for the repository (public, or GitHub Code Security enabled) and github-token must be able to see it; otherwise set upload-sarif: false';
    }
    if (status === 401)
        return 'github-token is not valid; leave it at its default, ${{ github.token }}';
    if (status === 413)
        return 'The SARIF file is too large for GitHub';
    if (status === 422)
        return 'GitHub refused the SARIF file or the commit/ref; check that the step runs in a workflow for this repository';
    return undefined;
}


/***/ }),

/***/ 1595:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   commentMarker: () => (/* binding */ commentMarker),
/* harmony export */   renderComment: () => (/* binding */ renderComment),
/* harmony export */   upsertComment: () => (/* binding */ upsertComment)
/* harmony export */ });
/* harmony import */ var _github_api_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(331);
/* harmony import */ var _summary_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6889);


/** The hidden line that marks our comment for this target. */
function commentMarker(target) {
    return `<!-- scanward-action:pr-comment target=${encodeURIComponent(target)} -->`;
}
function renderComment(input) {
    const lines = [commentMarker(input.target), `### Scanward: ${(0,_summary_js__WEBPACK_IMPORTED_MODULE_1__/* .code */ .aY)(input.target)}`, ''];
    lines.push(`${input.gate.failed ? '❌' : '✅'} ${(0,_summary_js__WEBPACK_IMPORTED_MODULE_1__/* .cell */ .Hn)(input.gate.message)}`, '');
    const top = input.newFindings.slice(0, input.top ?? 25);
    if (top.length === 0) {
        lines.push('No new findings in this scan.', '');
    }
    else {
        lines.push(`**${input.newFindings.length} new finding(s)** in this scan:`, '');
        lines.push('| Severity | Title | Component | |', '|---|---|---|---|');
        for (const f of top) {
            const label = f.change === 'reopened' ? ' (reopened)' : '';
            lines.push(`| ${_summary_js__WEBPACK_IMPORTED_MODULE_1__/* .SEVERITY_TITLES */ .Ix[f.severity]} | ${(0,_summary_js__WEBPACK_IMPORTED_MODULE_1__/* .cell */ .Hn)(f.title)}${label} | ${(0,_summary_js__WEBPACK_IMPORTED_MODULE_1__/* .code */ .aY)(f.affected_component)} | [details](${input.findingUrl(f.id)}) |`);
        }
        if (input.newFindings.length > top.length)
            lines.push('', `…and ${input.newFindings.length - top.length} more.`);
        lines.push('');
    }
    const links = [`Scan [${(0,_summary_js__WEBPACK_IMPORTED_MODULE_1__/* .code */ .aY)(input.scanId)}](${input.scanUrl})`];
    if (input.runUrl)
        links.push(`[workflow run](${input.runUrl})`);
    lines.push(`<sub>${links.join(' · ')}. Updated on every run; the Scanward links need your Scanward credentials.</sub>`);
    return lines.join('\n');
}
/** Creates the comment, or edits ours when it exists; answers which it did. */
async function upsertComment(github, repository, pullNumber, marker, body) {
    try {
        const comments = await github.paginate(github.rest.issues.listComments, {
            ...repository,
            issue_number: pullNumber,
            per_page: 100,
        });
        const ours = comments.find((c) => typeof c.body === 'string' && c.body.includes(marker));
        if (ours) {
            const { data } = await github.rest.issues.updateComment({ ...repository, comment_id: ours.id, body });
            return { action: 'updated', id: data.id, url: data.html_url };
        }
        const { data } = await github.rest.issues.createComment({
            ...repository,
            issue_number: pullNumber,
            body,
        });
        return { action: 'created', id: data.id, url: data.html_url };
    }
    catch (error) {
        throw (0,_github_api_js__WEBPACK_IMPORTED_MODULE_0__/* .githubError */ .qQ)(error, 'write the pull request comment');
    }
}


/***/ })

};
