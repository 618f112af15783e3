export const id = 761;
export const ids = [761];
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


/***/ })

};
