export const id = 202;
export const ids = [202,761];
export const modules = {

/***/ 5761:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   createGitHubClient: () => (/* binding */ createGitHubClient),
/* harmony export */   githubError: () => (/* binding */ githubError),
/* harmony export */   statusOf: () => (/* binding */ statusOf)
/* harmony export */ });
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3206);
/* harmony import */ var _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(9735);
/* harmony import */ var _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6856);
/* harmony import */ var _core_errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4822);




function createGitHubClient(options) {
    const maxWait = options.maxRateLimitWaitSeconds ?? 300;
    return (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__/* .getOctokit */ .Q)(options.token, {
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
    }, _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_2__/* .retry */ .L, _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_3__/* .throttling */ .A);
}
function statusOf(error) {
    const status = error?.status;
    return typeof status === 'number' ? status : undefined;
}
/** An Octokit failure as an `ApiError` with what the user can do about it. */
function githubError(error, what) {
    if (error instanceof _core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ApiError */ .hD)
        return error;
    const status = statusOf(error);
    if (status === undefined)
        return error instanceof Error ? error : new Error(String(error));
    const data = error.response?.data;
    const message = typeof data?.message === 'string' ? data.message : error instanceof Error ? error.message : String(error);
    return new _core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ApiError */ .hD('GitHub', status, `HTTP_${status}`, `could not ${what}: ${message}`, undefined, hint(status, message, what));
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

/***/ 2202:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   uploadAndWatch: () => (/* binding */ uploadAndWatch)
/* harmony export */ });
/* unused harmony exports MAX_GZIPPED_BYTES, encodeSarif, uploadSarif, processingStatus */
/* harmony import */ var node_zlib__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8522);
/* harmony import */ var node_zlib__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_zlib__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _api_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5761);


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
        throw (0,_api_js__WEBPACK_IMPORTED_MODULE_1__.githubError)(error, 'upload the SARIF file');
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
        if ((0,_api_js__WEBPACK_IMPORTED_MODULE_1__.statusOf)(error) === 404)
            return { status: 'pending', errors: [] };
        throw (0,_api_js__WEBPACK_IMPORTED_MODULE_1__.githubError)(error, 'read the SARIF processing status');
    }
}
/** Uploads the SARIF file and waits (a bounded time) for GitHub to process it. */
async function uploadAndWatch(github, repository, upload, watch) {
    const { id } = await uploadSarif(github, repository, upload);
    watch.log(`SARIF uploaded to GitHub code scanning (upload ${id}); waiting for GitHub to process it.`);
    for (let attempt = 1; attempt <= watch.attempts; attempt++) {
        const status = await processingStatus(github, repository, id);
        if (status.status === 'complete') {
            watch.log('GitHub processed the SARIF upload; alerts are in the Security tab.');
            return { state: 'processed', id };
        }
        if (status.status === 'failed') {
            throw new Error(`GitHub could not process the SARIF upload ${id}: ${status.errors.join('; ') || 'no reason given'}`);
        }
        if (attempt < watch.attempts)
            await watch.sleep(watch.intervalMs, watch.signal);
    }
    watch.log(`GitHub is still processing SARIF upload ${id}; the alerts will appear in the Security tab shortly.`);
    return { state: 'processing', id };
}


/***/ })

};
