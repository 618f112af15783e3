#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 135:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(500);
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_timers_promises__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(136);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__nccwpck_require__.n(node_url__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var _ci_run_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(89);
var __rewriteRelativeImportExtension = (undefined && undefined.__rewriteRelativeImportExtension) || function (path, preserveJsx) {
    if (typeof path === "string" && /^\.\.?\//.test(path)) {
        return path.replace(/\.(tsx)$|((?:\.d)?)((?:\.[^./]+?)?)\.([cm]?)ts$/i, function (m, tsx, d, ext, cm) {
            return tsx ? preserveJsx ? ".jsx" : ".js" : d && (!ext || !cm) ? m : (d + ext + "." + cm.toLowerCase() + "js");
        });
    }
    return path;
};





/**
 * The `scanward-ci` command's entry (dist/ci/index.js after bundling): wires
 * the process into `runCi(deps)` and turns its answer into the exit code.
 * SIGINT/SIGTERM (the CI cancelling the job) cancel the scan.
 */
const aborter = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => aborter.abort(new Error(`received ${signal}`)));
}
process.exitCode = await (0,_ci_run_js__WEBPACK_IMPORTED_MODULE_4__/* .runCi */ .ql)({
    argv: process.argv.slice(2),
    env: process.env,
    stderr: (text) => process.stderr.write(text),
    stdout: (text) => process.stdout.write(text),
    fetch: (input, init) => fetch(input, init),
    sleep: async (ms, signal) => {
        await (0,node_timers_promises__WEBPACK_IMPORTED_MODULE_2__.setTimeout)(ms, undefined, { signal });
    },
    now: () => Date.now(),
    writeFile: (path, data) => (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile)(path, data, 'utf8'),
    readFile: (path) => (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)(path),
    mkdir: async (path) => {
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir)(path, { recursive: true });
    },
    cwd: process.cwd(),
    signal: aborter.signal,
    // The local engine (mode: local) is its own bundle beside this one, loaded only when asked for.
    loadEngine: async () => (await import(__rewriteRelativeImportExtension(
    /* webpackIgnore: true */ (0,node_url__WEBPACK_IMPORTED_MODULE_3__.pathToFileURL)((0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)((0,node_path__WEBPACK_IMPORTED_MODULE_1__.dirname)((0,node_url__WEBPACK_IMPORTED_MODULE_3__.fileURLToPath)(import.meta.url)), '..', 'local', 'engine.mjs')).href))),
    sinceStart: () => performance.now(),
});

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 89:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  ql: () => (/* binding */ runCi)
});

// UNUSED EXPORTS: EXIT, USAGE

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(760);
;// CONCATENATED MODULE: ./action/core/errors.ts
/**
 * The two kinds of failure the Action reports differently (as actions/checkout
 * and github/codeql-action do): a `ConfigurationError` is the user's to fix
 * (a bad input, a target outside the scan scope, a used-up quota) and is shown
 * as it is; anything else is an internal failure and is reported with a hint to
 * re-run and the stack in the debug log.
 */
class ConfigurationError extends Error {
    constructor(message) {
        super(message);
        this.name = 'ConfigurationError';
    }
}
/** An error answer of an HTTP API, in the Scanward `{detail, error_code, field?}` shape where it has one. */
class ApiError extends Error {
    service;
    status;
    code;
    detail;
    field;
    hint;
    constructor(service, status, code, detail, field, 
    /** What the user can do about it, when we know. */
    hint) {
        const where = field ? ` (field: ${field})` : '';
        super(`${service} API answered ${status} ${code}: ${detail}${where}${hint ? `. ${hint}` : ''}`);
        this.service = service;
        this.status = status;
        this.code = code;
        this.detail = detail;
        this.field = field;
        this.hint = hint;
        this.name = 'ApiError';
    }
    /** 4xx answers (except rate limits, which are retried) are configuration problems, not bugs. */
    get isUserError() {
        return this.status >= 400 && this.status < 500 && this.status !== 429;
    }
}
/**
 * The service answered with a redirect. The API clients never follow one: fetch would carry
 * `X-API-Key` (it drops only `Authorization`) to wherever `Location` points, another host
 * included. A redirect means `api-url` is not the service's own address (http:// moved to
 * https://, a moved host, a proxy's log-in page), so it is the user's to fix.
 */
class RedirectError extends ConfigurationError {
    status;
    location;
    constructor(status, 
    /** Where the answer pointed, resolved against the request's URL; undefined without a `Location`. */
    location, what) {
        super(`${what}: the service answered ${status} with a redirect to ${location ?? '(no Location header)'}. ` +
            'Scanward clients never follow a redirect, so the credentials are not sent to another address; ' +
            'set api-url to the address the service answers on itself.');
        this.status = status;
        this.location = location;
        this.name = 'RedirectError';
    }
}
/** The request never got an HTTP answer (connection refused, DNS, timeout), even after retries. */
class NetworkError extends Error {
    constructor(message, options) {
        super(message, options);
        this.name = 'NetworkError';
    }
}
function isUserError(error) {
    return error instanceof ConfigurationError || (error instanceof ApiError && error.isUserError);
}

;// CONCATENATED MODULE: ./action/core/inputs/auth.ts
/** The service group: not `named` (and no problem) in local mode without `api-url`. */
function parseServiceInputs(input, local, idTokenAvailable) {
    const { read, problems, warnings } = input;
    // A local scan records its result on the service only when one is named (api-url). Credentials
    // alone (a SCANWARD_API_KEY the CI sets for every job) name no service: the scan runs locally.
    const named = !local || read('api-url') !== '';
    if (!named) {
        const credentials = ['api-key', 'token', 'id-token', 'id-token-env'].some((name) => read(name) !== '') ||
            read('auth').toLowerCase() === 'oidc';
        if (credentials)
            warnings.push('credentials are set but `api-url` is not: the local scan runs without a Scanward service and its result is not recorded; set api-url to record it.');
        return { named };
    }
    const apiUrl = parseApiUrl(read('api-url'), problems, warnings);
    const auth = parseAuth({
        mode: read('auth').toLowerCase(),
        apiKey: read('api-key'),
        token: read('token'),
        audience: read('audience'),
        organization: read('organization'),
        idToken: read('id-token'),
        idTokenSource: read('id-token-env'),
    }, apiUrl, idTokenAvailable, problems);
    return { named, apiUrl, auth };
}
function parseApiUrl(raw, problems, warnings) {
    if (raw === '') {
        problems.push('`api-url` is required: the address of your Scanward service, e.g. https://scanward.example.com.');
        return undefined;
    }
    let url;
    try {
        url = new URL(raw);
    }
    catch {
        problems.push(`\`api-url\` "${raw}" is not a URL; write it like https://scanward.example.com.`);
        return undefined;
    }
    const problem = url.protocol !== 'https:' && url.protocol !== 'http:'
        ? `\`api-url\` must start with https:// (or http://), not ${url.protocol}//.`
        : url.username || url.password
            ? '`api-url` must not contain credentials; pass them with api-key or token.'
            : url.search || url.hash
                ? '`api-url` must not have a query string or fragment.'
                : undefined;
    if (problem) {
        problems.push(problem);
        return undefined;
    }
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
        warnings.push('`api-url` uses plain http: the API key crosses the network unencrypted. Use https.');
    }
    // The spec publishes the base with /api/v1; the Action appends it, so accept both spellings.
    const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    return `${url.origin}${path}`;
}
function isLoopbackHost(host) {
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
const AUTH_HELP = 'Set `api-key` (an API key with read:scans and write:scans, from a secret: api-key: ${{ secrets.SCANWARD_API_KEY }}), ' +
    '`token` (a bearer token), or sign in without a secret with `auth: oidc` (the job needs `permissions: id-token: write` ' +
    'and a trust policy in Scanward; docs/github-action.md).';
function parseAuth(fields, apiUrl, idTokenAvailable, problems) {
    const problem = authConflict(fields);
    if (problem) {
        problems.push(problem);
        return undefined;
    }
    const { mode, apiKey, token, idToken, idTokenSource } = fields;
    if (apiKey)
        return { kind: 'api-key', apiKey };
    if (token)
        return { kind: 'token', token: token.replace(/^Bearer\s+/i, '') };
    if (idTokenSource) {
        if (idToken)
            return { kind: 'id-token', idToken };
        problems.push(`\`id-token-env\` names ${idTokenSource}, which is empty or unset; in GitLab declare it under \`id_tokens:\` with the audience of your Scanward trust policy.`);
        return undefined;
    }
    if (mode === 'oidc' || idTokenAvailable)
        return parseOidc(fields, apiUrl, idTokenAvailable, problems);
    problems.push(AUTH_HELP);
    return undefined;
}
/** What the credentials given contradict: the `auth` asked for, or each other. */
function authConflict({ mode, apiKey, token, idTokenSource }) {
    if (!['', 'api-key', 'token', 'oidc'].includes(mode))
        return `\`auth\` is "${mode}"; use api-key, token or oidc (or leave it out).`;
    if (apiKey && token)
        return 'Set either `api-key` or `token`, not both.';
    const given = [apiKey && 'api-key', token && 'token', idTokenSource && 'id-token-env'].filter(Boolean);
    if (given.length > 1)
        return `Set only one of \`api-key\`, \`token\` and \`id-token-env\` (${given.join(' and ')} are set).`;
    if (mode === 'api-key' && !apiKey)
        return '`auth` is api-key but `api-key` is empty. ' + AUTH_HELP;
    if (mode === 'token' && !token)
        return '`auth` is token but `token` is empty. ' + AUTH_HELP;
    if (mode === 'oidc' && (apiKey || token))
        return '`auth` is oidc: leave `api-key` and `token` out (the job signs in with its own identity).';
    return undefined;
}
/** Keyless sign-in with the runner's ID token: `organization` (or `audience`) says whose. */
function parseOidc({ audience, organization }, apiUrl, idTokenAvailable, problems) {
    if (!idTokenAvailable) {
        problems.push('`auth` is oidc but the runner offers no ID token: give the job `permissions: id-token: write` (docs/github-action.md).');
        return undefined;
    }
    if (organization && !/^org_[a-z0-9]{1,96}$/.test(organization)) {
        problems.push(`\`organization\` is "${organization}"; use your organization's id, like org_0123456789abcdefghijklmn (Scanward: Settings → CI trust).`);
        return undefined;
    }
    if (!audience && !organization) {
        problems.push("`auth` is oidc: set `organization` to your organization's id (Scanward: Settings → CI trust shows it), " +
            "so the job asks for its ID token with the organization's audience (docs/ci-trust.md).");
        return undefined;
    }
    if (!apiUrl)
        return undefined;
    return {
        kind: 'oidc',
        ...(audience ? { audience } : {}),
        ...(organization ? { organizationId: organization } : {}),
    };
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/util.js

// functions
function assertEqual(val) {
    return val;
}
function assertNotEqual(val) {
    return val;
}
function toZod() {
    return (schema) => schema;
}
function assertIs(_arg) { }
function assertNever(_x) {
    throw new Error("Unexpected value in exhaustive check");
}
function assert(_) { }
function getEnumValues(entries) {
    const numericValues = Object.values(entries).filter((v) => typeof v === "number");
    const values = Object.entries(entries)
        .filter(([k, _]) => numericValues.indexOf(+k) === -1)
        .map(([_, v]) => v);
    return values;
}
function joinValues(array, separator = "|") {
    return array.map((val) => stringifyPrimitive(val)).join(separator);
}
function jsonStringifyReplacer(_, value) {
    if (typeof value === "bigint")
        return value.toString();
    return value;
}
// the accessor lives on a shared prototype: an own accessor makes every box a dictionary-mode object (~360 B and a slow load per read against ~100 B and an inlined getter here)
class Cached {
    constructor(getter) {
        this._getter = getter;
        this._value = undefined;
    }
    get value() {
        const getter = this._getter;
        if (getter !== undefined) {
            this._value = getter();
            this._getter = undefined;
        }
        return this._value;
    }
}
function cached(getter) {
    return new Cached(getter);
}
function nullish(input) {
    return input === null || input === undefined;
}
function cleanRegex(source) {
    const start = source.startsWith("^") ? 1 : 0;
    const end = source.endsWith("$") ? source.length - 1 : source.length;
    return source.slice(start, end);
}
function floatSafeRemainder(val, step) {
    const ratio = val / step;
    const roundedRatio = Math.round(ratio);
    // `val` and `step` each round to a double before the division rounds again, so a true decimal multiple's quotient can sit up to 1.5 of these scaled epsilons from the integer. A 1x tolerance therefore rejected 2.03 as a multiple of 0.07; 4x covers the worst case with margin.
    const tolerance = 4 * Number.EPSILON * Math.max(Math.abs(ratio), 1);
    if (Math.abs(ratio - roundedRatio) < tolerance)
        return 0;
    return ratio - roundedRatio;
}
const EVALUATING = /* @__PURE__*/ (/* unused pure expression or super */ null && (Symbol("evaluating")));
function defineLazy(object, key, getter) {
    let value = undefined;
    Object.defineProperty(object, key, {
        get() {
            if (value === EVALUATING) {
                // Circular reference detected, return undefined to break the cycle
                return undefined;
            }
            if (value === undefined) {
                value = EVALUATING;
                value = getter();
            }
            return value;
        },
        set(v) {
            Object.defineProperty(object, key, {
                value: v,
                // configurable: true,
            });
            // object[key] = v;
        },
        configurable: true,
    });
}
function objectClone(obj) {
    return Object.create(Object.getPrototypeOf(obj), Object.getOwnPropertyDescriptors(obj));
}
function util_assignProp(target, prop, value) {
    Object.defineProperty(target, prop, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
    });
}
/**
 * Whichever object a def's `shape` currently answers from: the one the caller passed until the first read, the frozen copy after it.
 *
 * Its keys and descriptors read without invoking anything, which is what lets a discriminated union check its discriminator, and the cycle walk read a shape, without resolving a getter that references the schema being constructed. A def that answers `shape` from an accessor of its own has none.
 */
function rawShape(def) {
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    return desc?.get ? desc.get.raw : desc?.value;
}
// where a builder reads its source's keys and descriptors, resolving only a shape a def answers for itself. A shape resolves by object spread, so only its enumerable keys are ever part of it.
function sourceShape(schema) {
    return rawShape(schema._zod.def) ?? schema._zod.def.shape;
}
// a key whose value is not settled yet, self-caching so every read after the first gets the same one
function deferProp(target, key, getter) {
    Object.defineProperty(target, key, {
        get() {
            const value = getter();
            util_assignProp(this, key, value);
            return value;
        },
        enumerable: true,
        configurable: true,
    });
}
// Writes a settled key. A plain assignment is much cheaper than `defineProperty` and produces the same descriptor, but it runs whatever setter already answers to the key — an accessor this shape deferred, or an inherited one, which `__proto__` has on every object and prototype pollution can add for any name.
function putProp(target, key, value) {
    if (key in target)
        util_assignProp(target, key, value);
    else
        target[key] = value;
}
/**
 * Copies `keys` of `source`'s shape onto `target`, each value passed through `wrap`.
 *
 * A key the source has resolved is copied through now, so the derived shape states it outright and nothing has to resolve it to learn what it holds. A key the source still defers stays deferred, and reads back through the source's own `shape`, so it resolves once and both shapes get that one schema.
 */
function mirrorShape(target, source, keys, wrap) {
    const raw = sourceShape(source);
    for (const key of keys) {
        const desc = Object.getOwnPropertyDescriptor(raw, key);
        if (!desc.enumerable)
            continue;
        if (desc.get) {
            deferProp(target, key, () => {
                const value = source._zod.def.shape[key];
                return wrap ? wrap(value, key) : value;
            });
        }
        else
            putProp(target, key, wrap ? wrap(desc.value, key) : desc.value);
    }
}
// same, for a plain shape a caller passed rather than a schema's
function mirrorProps(target, source) {
    for (const key of Reflect.ownKeys(source)) {
        const desc = Object.getOwnPropertyDescriptor(source, key);
        if (!desc.enumerable)
            continue;
        if (desc.get)
            deferProp(target, key, () => source[key]);
        else
            putProp(target, key, desc.value);
    }
}
function mergeDefs(...defs) {
    const mergedDescriptors = {};
    for (const def of defs) {
        const descriptors = Object.getOwnPropertyDescriptors(def);
        Object.assign(mergedDescriptors, descriptors);
    }
    return Object.defineProperties({}, mergedDescriptors);
}
function cloneDef(schema) {
    return mergeDefs(schema._zod.def);
}
function getElementAtPath(obj, path) {
    if (!path)
        return obj;
    return path.reduce((acc, key) => acc?.[key], obj);
}
function promiseAllObject(promisesObj) {
    const keys = Object.keys(promisesObj);
    const promises = keys.map((key) => promisesObj[key]);
    return Promise.all(promises).then((results) => {
        const resolvedObj = {};
        for (let i = 0; i < keys.length; i++) {
            resolvedObj[keys[i]] = results[i];
        }
        return resolvedObj;
    });
}
function randomString(length = 10) {
    const chars = "abcdefghijklmnopqrstuvwxyz";
    let str = "";
    for (let i = 0; i < length; i++) {
        str += chars[Math.floor(Math.random() * chars.length)];
    }
    return str;
}
function esc(str) {
    return JSON.stringify(str);
}
function slugify(input) {
    return input
        .toLowerCase()
        .trim()
        .replace(/[^\w\s-]/g, "")
        .replace(/[\s_-]+/g, "-")
        .replace(/^-+|-+$/g, "");
}
const captureStackTrace = ("captureStackTrace" in Error ? Error.captureStackTrace : (..._args) => { });
function util_isObject(data) {
    return typeof data === "object" && data !== null && !Array.isArray(data);
}
const util_allowsEval = /* @__PURE__*/ cached(() => {
    // Skip the probe under `jitless`: strict CSPs report the caught `new Function` as a `securitypolicyviolation` even though the throw is swallowed.
    if (globalConfig.jitless) {
        return false;
    }
    // @ts-ignore
    if (typeof navigator !== "undefined" && navigator?.userAgent?.includes("Cloudflare")) {
        return false;
    }
    try {
        const F = Function;
        new F("");
        return true;
    }
    catch (_) {
        return false;
    }
});
function isPlainObject(o) {
    if (util_isObject(o) === false)
        return false;
    // modified constructor
    const ctor = o.constructor;
    if (ctor === undefined)
        return true;
    if (typeof ctor !== "function")
        return true;
    // modified prototype
    const prot = ctor.prototype;
    if (util_isObject(prot) === false)
        return false;
    // ctor doesn't have static `isPrototypeOf`
    if (Object.prototype.hasOwnProperty.call(prot, "isPrototypeOf") === false) {
        return false;
    }
    return true;
}
function shallowClone(o) {
    if (isPlainObject(o))
        return { ...o };
    if (Array.isArray(o))
        return [...o];
    if (o instanceof Map)
        return new Map(o);
    if (o instanceof Set)
        return new Set(o);
    return o;
}
function numKeys(data) {
    let keyCount = 0;
    for (const key in data) {
        if (Object.prototype.hasOwnProperty.call(data, key)) {
            keyCount++;
        }
    }
    return keyCount;
}
const getParsedType = (data) => {
    const t = typeof data;
    switch (t) {
        case "undefined":
            return "undefined";
        case "string":
            return "string";
        case "number":
            return Number.isNaN(data) ? "nan" : "number";
        case "boolean":
            return "boolean";
        case "function":
            return "function";
        case "bigint":
            return "bigint";
        case "symbol":
            return "symbol";
        case "object":
            if (Array.isArray(data)) {
                return "array";
            }
            if (data === null) {
                return "null";
            }
            if (data.then && typeof data.then === "function" && data.catch && typeof data.catch === "function") {
                return "promise";
            }
            if (typeof Map !== "undefined" && data instanceof Map) {
                return "map";
            }
            if (typeof Set !== "undefined" && data instanceof Set) {
                return "set";
            }
            if (typeof Date !== "undefined" && data instanceof Date) {
                return "date";
            }
            // @ts-ignore
            if (typeof File !== "undefined" && data instanceof File) {
                return "file";
            }
            return "object";
        default:
            throw new Error(`Unknown data type: ${t}`);
    }
};
const propertyKeyTypes = /* @__PURE__*/ new Set(["string", "number", "symbol"]);
const primitiveTypes = /* @__PURE__*/ new Set([
    "string",
    "number",
    "bigint",
    "boolean",
    "symbol",
    "undefined",
]);
function escapeRegex(str) {
    return str.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
// zod-specific utils
function clone(inst, def, params) {
    const cl = new inst._zod.constr(def ?? inst._zod.def);
    if (!def || params?.parent)
        cl._zod.parent = inst;
    return cl;
}
function normalizeParams(_params) {
    const params = _params;
    if (!params)
        return {};
    if (typeof params === "string")
        return { error: () => params };
    if (params?.message !== undefined) {
        if (params?.error !== undefined)
            throw new Error("Cannot specify both `message` and `error` params");
        params.error = params.message;
    }
    delete params.message;
    if (typeof params.error === "string")
        return { ...params, error: () => params.error };
    return params;
}
function createTransparentProxy(getter) {
    let target;
    return new Proxy({}, {
        get(_, prop, receiver) {
            target ?? (target = getter());
            return Reflect.get(target, prop, receiver);
        },
        set(_, prop, value, receiver) {
            target ?? (target = getter());
            return Reflect.set(target, prop, value, receiver);
        },
        has(_, prop) {
            target ?? (target = getter());
            return Reflect.has(target, prop);
        },
        deleteProperty(_, prop) {
            target ?? (target = getter());
            return Reflect.deleteProperty(target, prop);
        },
        ownKeys(_) {
            target ?? (target = getter());
            return Reflect.ownKeys(target);
        },
        getOwnPropertyDescriptor(_, prop) {
            target ?? (target = getter());
            return Reflect.getOwnPropertyDescriptor(target, prop);
        },
        defineProperty(_, prop, descriptor) {
            target ?? (target = getter());
            return Reflect.defineProperty(target, prop, descriptor);
        },
    });
}
function stringifyPrimitive(value) {
    if (typeof value === "bigint")
        return value.toString() + "n";
    if (typeof value === "string")
        return `"${value}"`;
    return `${value}`;
}
function optionalKeys(shape) {
    return Object.keys(shape).filter((k) => {
        return shape[k]._zod.optin !== undefined && shape[k]._zod.optout === "optional";
    });
}
// Wrapped in a `@__PURE__` IIFE: esbuild never tree-shakes a top-level initializer that contains a member access on `Number`, so the bare object literal survived into every bundle.
const NUMBER_FORMAT_RANGES = /*@__PURE__*/ (() => ({
    safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    int32: [-2147483648, 2147483647],
    uint32: [0, 4294967295],
    float32: [-3.4028234663852886e38, 3.4028234663852886e38],
    float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
}))();
const BIGINT_FORMAT_RANGES = {
    int64: [/* @__PURE__*/ BigInt("-9223372036854775808"), /* @__PURE__*/ BigInt("9223372036854775807")],
    uint64: [/* @__PURE__*/ BigInt(0), /* @__PURE__*/ BigInt("18446744073709551615")],
};
function pick(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".pick() cannot be used on object schemas containing refinements");
    }
    const newShape = {};
    mirrorShape(newShape, schema, maskedKeys(schema, mask));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
// the mask keys that select something, checked against the source's shape without resolving it
function maskedKeys(schema, mask) {
    const raw = sourceShape(schema);
    const keys = [];
    // `for...in` skips symbols, so a symbol in the mask would select nothing
    for (const key of Reflect.ownKeys(mask)) {
        if (!Object.getOwnPropertyDescriptor(raw, key)?.enumerable) {
            throw new Error(`Unrecognized key: "${String(key)}"`);
        }
        if (mask[key])
            keys.push(key);
    }
    return keys;
}
function omit(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".omit() cannot be used on object schemas containing refinements");
    }
    const omitted = new Set(maskedKeys(schema, mask));
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)).filter((key) => !omitted.has(key)));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
function extend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to extend: expected a plain object");
    }
    const checks = schema._zod.def.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        // Only throw if new shape overlaps with existing shape. Use getOwnPropertyDescriptor to check key existence without accessing values
        const existingShape = sourceShape(schema);
        for (const key of Reflect.ownKeys(shape)) {
            if (Object.getOwnPropertyDescriptor(existingShape, key) !== undefined) {
                throw new Error("Cannot overwrite keys on object schemas containing refinements. Use `.safeExtend()` instead.");
            }
        }
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
// the source's keys, then the caller's overlaid on top
function extended(schema, shape) {
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)));
    mirrorProps(newShape, shape);
    return newShape;
}
function safeExtend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to safeExtend: expected a plain object");
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
function merge(a, b) {
    if (!b?._zod?.def) {
        throw new Error("Invalid input to merge: expected an object schema. To merge a plain shape, use `.extend()`.");
    }
    if (a._zod.def.checks?.length) {
        throw new Error(".merge() cannot be used on object schemas containing refinements. Use .safeExtend() instead.");
    }
    const newShape = {};
    mirrorShape(newShape, a, Reflect.ownKeys(sourceShape(a)));
    mirrorShape(newShape, b, Reflect.ownKeys(sourceShape(b)));
    const def = mergeDefs(a._zod.def, {
        shape: newShape,
        get catchall() {
            return b._zod.def.catchall;
        },
        checks: b._zod.def.checks ?? [],
    });
    return clone(a, def);
}
function partial(Class, schema, mask, name = "partial") {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(`.${name}() cannot be used on object schemas containing refinements`);
    }
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), Class &&
        ((value, key) => (selected && !selected.has(key) ? value : new Class({ type: "optional", innerType: value }))));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape, checks: [] }));
}
function required(Class, schema, mask) {
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), (value, key) => 
    // overwrite with non-optional
    selected && !selected.has(key) ? value : new Class({ type: "nonoptional", innerType: value }));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape }));
}
// invalid_type | too_big | too_small | invalid_format | not_multiple_of | unrecognized_keys | invalid_union | invalid_key | invalid_element | invalid_value | custom
function aborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue !== true) {
            return true;
        }
    }
    return false;
}
// Checks for explicit abort (continue === false), as opposed to implicit abort (continue === undefined). Used to respect `abort: true` in .refine() even for checks that have a `when` function.
function explicitlyAborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue === false) {
            return true;
        }
    }
    return false;
}
function prefixIssues(path, issues) {
    return issues.map((iss) => {
        var _a;
        (_a = iss).path ?? (_a.path = []);
        iss.path.unshift(path);
        return iss;
    });
}
function unwrapMessage(message) {
    return typeof message === "string" ? message : message?.message;
}
/* A check holds no link back to the schema it is attached to — the same check instance is shared by every clone of that schema — so the owner is stamped onto the issues a check just raised, at the only point where both are in scope. Runs on the failure path only; `start` is the issue count from before the check ran. */
/** The leading size checks of `defChecks` that set an upper bound, each paired with it. */
function sizeCaps(defChecks) {
    const caps = [];
    for (const ch of defChecks ?? []) {
        const d = ch._zod.def;
        // a later check may rewrite the value
        if (!/_(length|size)$|_equals$/.test(d.check))
            break;
        const max = d.maximum ?? d.length ?? d.size;
        if (max >= 0)
            caps.push([max, ch]);
    }
    return caps;
}
function attachSchema(issues, start, inst) {
    var _a;
    for (let i = start; i < issues.length; i++) {
        (_a = issues[i]).schema ?? (_a.schema = inst);
    }
}
function finalizeIssue(iss, ctx, config) {
    var _a;
    // A schema that raised an issue itself owns it outright, and outranks any stamp an enclosing check left in `attachSchema`. String formats and z.custom() are schema and check at once, so when they act as a check they defer to that stamp instead.
    const traits = iss.inst?._zod?.traits;
    if (traits?.has("$ZodType")) {
        if (traits.has("$ZodCheck"))
            (_a = iss).schema ?? (_a.schema = iss.inst);
        else
            iss.schema = iss.inst;
    }
    // Decreasing specificity, first map to return a message wins. `inst` is whatever raised the issue, so a check's own map outranks the owning schema's.
    const schemaError = iss.schema !== iss.inst ? iss.schema?._zod.def?.error : undefined;
    const message = iss.message
        ? iss.message
        : (unwrapMessage(iss.inst?._zod.def?.error?.(iss)) ??
            unwrapMessage(schemaError?.(iss)) ??
            unwrapMessage(ctx?.error?.(iss)) ??
            unwrapMessage(config.customError?.(iss)) ??
            unwrapMessage(config.localeError?.(iss)) ??
            "Invalid input");
    // an explicit own-key copy beats object rest with excluded keys, which v8 routes through a generic runtime call; Object.keys rather than for-in so an issue pushed with a prototype does not leak inherited keys, and an own __proto__ key is dropped rather than assigned through the setter
    const full = {};
    for (const k of Object.keys(iss)) {
        if (k === "inst" || k === "schema" || k === "continue" || k === "input" || k === "__proto__")
            continue;
        full[k] = iss[k];
    }
    full.path ?? (full.path = []);
    full.message = message;
    if (ctx?.reportInput) {
        full.input = iss.input;
    }
    return full;
}
function getSizableOrigin(input) {
    if (input instanceof Set)
        return "set";
    if (input instanceof Map)
        return "map";
    // @ts-ignore
    if (input instanceof File)
        return "file";
    return "unknown";
}
const highSurrogate = /[\uD800-\uDBFF]/;
// Code points in `str`: a surrogate pair counts once, a lone surrogate as itself. Hand-rolled because the string iterator allocates and runs ~250x slower on this path; the regex probe exits ~50x quicker for a string with no astral characters.
function codePointLength(str) {
    const units = str.length;
    if (!highSurrogate.test(str))
        return units;
    let count = units;
    for (let i = 0; i < units - 1; i++) {
        if ((str.charCodeAt(i) & 0xfc00) === 0xd800 && (str.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
            count--;
            i++;
        }
    }
    return count;
}
function getLengthableOrigin(input) {
    if (Array.isArray(input))
        return "array";
    if (typeof input === "string")
        return "string";
    return "unknown";
}
function parsedType(data) {
    const t = typeof data;
    switch (t) {
        case "number": {
            return Number.isNaN(data) ? "nan" : "number";
        }
        case "object": {
            if (data === null) {
                return "null";
            }
            if (Array.isArray(data)) {
                return "array";
            }
            const obj = data;
            if (obj && Object.getPrototypeOf(obj) !== Object.prototype && "constructor" in obj && obj.constructor) {
                return obj.constructor.name;
            }
        }
    }
    return t;
}
function util_issue(...args) {
    const [iss, input, inst] = args;
    if (typeof iss === "string") {
        return {
            message: iss,
            code: "custom",
            input,
            inst,
        };
    }
    return { ...iss };
}
function cleanEnum(obj) {
    return Object.entries(obj)
        .filter(([k, _]) => {
        // return true if NaN, meaning it's not a number, thus a string key
        return Number.isNaN(Number.parseInt(k, 10));
    })
        .map((el) => el[1]);
}
// Codec utility functions
function base64ToUint8Array(base64) {
    const binaryString = atob(base64);
    const bytes = new Uint8Array(binaryString.length);
    for (let i = 0; i < binaryString.length; i++) {
        bytes[i] = binaryString.charCodeAt(i);
    }
    return bytes;
}
function uint8ArrayToBase64(bytes) {
    let binaryString = "";
    for (let i = 0; i < bytes.length; i++) {
        binaryString += String.fromCharCode(bytes[i]);
    }
    return btoa(binaryString);
}
function base64urlToUint8Array(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    const padding = "=".repeat((4 - (base64.length % 4)) % 4);
    return base64ToUint8Array(base64 + padding);
}
function uint8ArrayToBase64url(bytes) {
    return uint8ArrayToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=/g, "");
}
function hexToUint8Array(hex) {
    const cleanHex = hex.replace(/^0x/, "");
    if (cleanHex.length % 2 !== 0) {
        throw new Error("Invalid hex string length");
    }
    const bytes = new Uint8Array(cleanHex.length / 2);
    for (let i = 0; i < cleanHex.length; i += 2) {
        bytes[i / 2] = Number.parseInt(cleanHex.slice(i, i + 2), 16);
    }
    return bytes;
}
function uint8ArrayToHex(bytes) {
    return Array.from(bytes)
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
}
// instanceof
class Class {
    constructor(..._args) { }
}
//////////    PROTOTYPE INSTALLERS     //////////
//
// Members live on the prototype and materialize per instance on first read, which keeps own-property count under the step where V8 stops using inline slots. Changing anything here means re-measuring runtime, memory and bundle size together — see "The three axes" in AGENTS.md.
/**
 * Installs a trait's members on its prototype. Each value builds that member for the instance on first read; the built value shadows the accessor as an own property, so a detached `const { parse } = schema` keeps working.
 *
 * Call this from a `proto` initializer, which runs once per prototype — never per instance.
 */
function members(proto, table) {
    for (const key in table) {
        const desc = Object.getOwnPropertyDescriptor(table, key);
        // a getter installs as written, so it stays live: `description` reads through to the registry on every access. not enumerable: an object literal's is, and a prototype member never was
        if (desc.get)
            Object.defineProperty(proto, key, { ...desc, enumerable: false });
        // a method materializes bound on first read, which is what keeps a detached member working: `const opt = schema.optional; opt()`
        else
            defineBound(proto, key, desc.value);
    }
}
/** Shadows a prototype member with an own value, so a getter that builds from the instance runs once. */
function own(inst, key, value, enumerable = true) {
    Object.defineProperty(inst, key, { configurable: true, writable: true, enumerable, value });
    return value;
}
/** Like {@link own}, for a member that was never an own data property and has to stay out of `Object.keys`. */
function hide(inst, key, value) {
    return own(inst, key, value, false);
}
/** Adds members a table derives from the instance: each builds on first read and shadows as own data, and assignment shadows the same way, as when these were own properties. */
function derived(computes, table) {
    for (const key in computes) {
        const compute = computes[key];
        // an object literal's accessor is configurable and enumerable, and `members` copies the descriptor as written
        Object.defineProperty(table, key, {
            configurable: true,
            enumerable: true,
            get() {
                return own(this, key, compute(this));
            },
            set(value) {
                own(this, key, value);
            },
        });
    }
    return table;
}
function defineBound(proto, key, fn) {
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // vitest's spyOn calls a prototype getter bare to find the function it wraps, so a nullish receiver answers the raw method
            return this == null ? fn : own(this, key, fn.bind(this));
        },
        set(value) {
            own(this, key, value);
        },
    });
}
/** Returns the prototype to install on, or `undefined` if this group is already installed on it. */
function claim(inst, sentinel) {
    const proto = Object.getPrototypeOf(inst);
    // Runs on every construction, so `in` rather than the costlier `hasOwnProperty.call`. Sentinels are keys the group itself defines.
    return sentinel in proto ? undefined : proto;
}
// The internals whose init chain is installing. A second call for the same one is a derived constructor overriding its base, so it must not construct another schema in between or the override is dropped.
let installing;
// Set while a getter is running, so a value that resolved through a recursion break is not memoized. One shared descriptor shadows the key for the duration, which costs no per-key allocation.
let broke = false;
const breaker = {
    configurable: true,
    get() {
        broke = true;
        return undefined;
    },
};
/**
 * Installs a lazily-derived internal on the `_zod` prototype of `inst`'s
 * constructor, computed from the internals object itself and cached there on
 * first read. One accessor per constructor rather than one per instance.
 */
function defineLazyInternal(inst, key, compute) {
    const proto = Object.getPrototypeOf(inst._zod);
    if (key in proto && installing !== inst._zod) {
        // A repeat construction: everything is installed already. Cleared here so the reference is not held past the first construction of every type.
        installing = undefined;
        return;
    }
    installing = inst._zod;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing so a re-entrant read from a recursive schema resolves to undefined instead of running the getter again.
            Object.defineProperty(this, key, breaker);
            const outer = broke;
            broke = false;
            try {
                const value = compute(this);
                // A result that resolved through a recursion break is recomputed once the graph is complete; everything else memoizes, undefined included.
                if (broke)
                    delete this[key];
                else
                    Object.defineProperty(this, key, { configurable: true, writable: true, value });
                broke = broke || outer;
                return value;
            }
            catch (err) {
                // A compute that threw memoizes nothing, so a later read runs it again and fails the same way. The shadow goes with it, since leaving it installed would answer undefined for every later read.
                delete this[key];
                broke = broke || outer;
                throw err;
            }
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, value });
        },
    });
}
/**
 * Installs `key` on `inst`'s prototype, computed by `make` on first read and cached there as an own
 * data property. One accessor per constructor rather than one per instance, because an own accessor
 * puts every instance after the first into v8 dictionary mode. The key doubles as the sentinel.
 */
function installLazyProp(inst, key, make, enumerable) {
    const proto = claim(inst, key);
    if (!proto)
        return;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing, so a re-entrant read from a self-referential shape resolves to undefined instead of running the getter again. A data property rather than an accessor: an own accessor is the dictionary-mode transition this exists to avoid.
            const desc = { configurable: true, writable: true, enumerable, value: undefined };
            Object.defineProperty(this, key, desc);
            // a compute that throws leaves the shadow behind, so later reads answer undefined instead of re-throwing; `defineLazy` did the same, and `defineLazyInternal`'s delete-on-catch would cost bytes in every bundle for a case only a throwing user getter reaches
            desc.value = make(this);
            Object.defineProperty(this, key, desc);
            return desc.value;
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, enumerable, value });
        },
    });
}
/** Marks the thunk `_catch` synthesises for a constant catch value. `Function.length` cannot tell that thunk from a user callback — rest and defaulted parameters both report arity 0 — and a user callback reads `ctx.error`, whose issues only finalize correctly against the caller's per-parse error map. Provenance can say what arity cannot. A plain string key rather than `Symbol.for`, whose call at module scope no bundler can prove pure — the same shape that anchored `urlCanParse` into every build. */
const CONSTANT_CATCH = "~constantCatch";
/** Wraps a constant catch value in a thunk tagged with {@link CONSTANT_CATCH}. */
function constantCatch(value) {
    const fn = () => value;
    fn[CONSTANT_CATCH] = true;
    return fn;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/core.js
var _a;

/** A special constant with type `never` */
const NEVER = /*@__PURE__*/ Object.freeze({
    status: "aborted",
});
/* Shared descriptor for installing `_zod`; defineProperty reads it
 * synchronously, so reusing one object avoids a per-instance allocation. */
const _zodDesc = { value: undefined, enumerable: false };
// null where suppressing the capture would be unrecoverable: `parse()` puts the frames back with `captureStackTrace`, so without it the throw would lose its stack. also latched to null once `stackTraceLimit` proves unassignable, which a realm can do at any point by hardening Error
let _E = "captureStackTrace" in Error ? Error : null;
// v8 captures a stack trace inside the Error constructor, which dominates a failed parse; costs only the frames, and parse() restores those. the constructor must RUN: Object.create is cheaper and passes instanceof, but Error.isError and util.types.isNativeError check an internal slot
function newError(Definition) {
    const E = _E;
    if (E) {
        const saved = E.stackTraceLimit;
        if (typeof saved === "number") {
            try {
                E.stackTraceLimit = 0;
            }
            catch {
                _E = null;
                return new Definition();
            }
            try {
                return new Definition();
            }
            finally {
                E.stackTraceLimit = saved;
            }
        }
    }
    return new Definition();
}
function $constructor(name, initializer, 
/** This trait's members, installed once on every prototype that composes it. They cannot be declared in the initializer above: that runs per instance, and the prototype is shared. */
proto, params) {
    // Prototype for this constructor's `_zod` internals. Lazily-derived fields (`values`, `pattern`, `optin`, …) install here once rather than as an accessor on every instance.
    const zodProto = {};
    // Assigning the fields in the constructor body is what gives instances in-object slots; building the object literally and reparenting it costs a second allocation and a generic property copy.
    function Internals(def) {
        this.def = def;
        this.constr = _;
        this.traits = new Set();
    }
    Internals.prototype = zodProto;
    const protoMembers = proto;
    // One trait's members land on every prototype whose chain composes it, so the answer is per prototype rather than per trait.
    const initialized = protoMembers && new WeakSet();
    function init(inst, def) {
        if (!inst._zod) {
            _zodDesc.value = new Internals(def);
            try {
                Object.defineProperty(inst, "_zod", _zodDesc);
            }
            finally {
                // Cleared even on throw, so the shared descriptor never leaks one instance's internals into the next.
                _zodDesc.value = undefined;
            }
        }
        else if (inst._zod.traits.has(name)) {
            return;
        }
        inst._zod.traits.add(name);
        initializer(inst, def);
        if (initialized) {
            // `super(def)` from a user subclass gives `this` a prototype the subclass owns, and installing there would overwrite whatever the subclass declared. `constr` built the instance, so its prototype is the one below the subclass's that should carry the members. A receiver whose chain never reaches that prototype installs on its own, which for a plain object handed straight to `init` means `Object.prototype` — unchanged from before.
            const own = Object.getPrototypeOf(inst);
            const ctorProto = inst._zod.constr.prototype;
            let up = own;
            while (up && up !== ctorProto)
                up = Object.getPrototypeOf(up);
            const target = up ?? own;
            if (!initialized.has(target)) {
                initialized.add(target);
                members(target, protoMembers);
            }
        }
        // support prototype modifications; for-in avoids the array allocation of Object.keys on the (usually empty) prototype
        const proto = _.prototype;
        for (const k in proto) {
            if (!Object.prototype.hasOwnProperty.call(proto, k))
                continue;
            if (!(k in inst)) {
                inst[k] = proto[k].bind(inst);
            }
        }
    }
    // doesn't work if Parent has a constructor with arguments
    const Parent = params?.Parent ?? Object;
    class Definition extends Parent {
    }
    Object.defineProperty(Definition, "name", { value: name });
    function _(def) {
        const inst = params?.Parent ? newError(Definition) : this;
        init(inst, def);
        const deferred = inst._zod.deferred;
        if (deferred) {
            for (const fn of deferred) {
                fn();
            }
            // Released: initializers run once, and the list would otherwise be retained for the schema's lifetime.
            inst._zod.deferred = undefined;
        }
        // Global post-processor hook. Internal: installed by `import "zod/compile"` to enable AOT compilation for every constructed schema. Runs last, once the instance is fully built, because it hands the instance to compile(). The post-processor is expected to be reentrancy-guarded by its own implementation.
        const pp = globalThis.__zod_globalConfig?.postProcessor;
        if (pp)
            pp(inst);
        return inst;
    }
    Object.defineProperty(_, "init", { value: init });
    Object.defineProperty(_, Symbol.hasInstance, {
        value: (inst) => {
            if (params?.Parent && inst instanceof params.Parent)
                return true;
            return inst?._zod?.traits?.has(name);
        },
    });
    Object.defineProperty(_, "name", { value: name });
    return _;
}
//////////////////////////////   UTILITIES   ///////////////////////////////////////
const $brand = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("zod_brand")));
class $ZodAsyncError extends Error {
    constructor() {
        super(`Encountered Promise during synchronous parse. Use .parseAsync() instead.`);
    }
}
class $ZodEncodeError extends Error {
    constructor(name) {
        super(`Encountered unidirectional transform during encode: ${name}`);
        this.name = "ZodEncodeError";
    }
}
(_a = globalThis).__zod_globalConfig ?? (_a.__zod_globalConfig = {});
const globalConfig = globalThis.__zod_globalConfig;
function config(newConfig) {
    if (newConfig)
        Object.assign(globalConfig, newConfig);
    return globalConfig;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/memoizer.js

class $ZodCyclicError extends Error {
    constructor() {
        super(`Cannot parse a reference cycle that closes through a transform`);
        this.name = "ZodCyclicError";
    }
}
/** Keyed off the context object every schema in one parse call already shares. */
const STATE = "~memo";
const NO_ISSUES = [];
// a value a cycle can close through
function isRef(value) {
    return value !== null && typeof value === "object";
}
// Receivers prefix paths in place, so the cache and every hand-out need their own copies.
function cloneIssues(issues) {
    return issues.map((iss) => (iss.path ? { ...iss, path: iss.path.slice() } : { ...iss }));
}
const recursive = /*@__PURE__*/ new WeakMap();
/** What the walk established, in order of certainty: ordered so the strongest answer among children wins. */
const NONE = 0;
const ASSUMED = 1;
const PROVEN = 2;
/** Whether this schema's subtree contains a cycle, so one parse can re-enter it. */
function isRecursive(inst, stack, resolve) {
    const cached = recursive.get(inst);
    if (cached !== undefined)
        return cached ? PROVEN : NONE;
    // Relative to the walk in progress, so not cached.
    if (stack.has(inst))
        return PROVEN;
    stack.add(inst);
    let result = NONE;
    const check = (child) => {
        if (result !== PROVEN && child?._zod) {
            const answer = isRecursive(child, stack, resolve);
            if (answer > result)
                result = answer;
        }
    };
    // `Reflect.ownKeys` rather than `Object.keys`, so a cycle through a declared symbol key is still seen
    const shape = (sh, spread) => {
        let answer = NONE;
        for (const key of Reflect.ownKeys(sh)) {
            const desc = Object.getOwnPropertyDescriptor(sh, key);
            // an object resolves its shape by spread, so a key it does not enumerate is never parsed; `z.properties` reads every own key and so keeps them all
            if (spread && !desc.enumerable)
                continue;
            // resolving runs user code, and a factory mints a fresh subtree per read, so an edge the walk can't follow counts as a cycle
            const child = desc.get ? ASSUMED : desc.value?._zod ? isRecursive(desc.value, stack, resolve) : NONE;
            if (child > answer)
                answer = child;
        }
        return answer;
    };
    const merge = (answer) => {
        if (answer > result)
            result = answer;
    };
    const def = inst._zod.def;
    const kind = def.type;
    switch (kind) {
        case "object": {
            const raw = rawShape(def);
            // a def with no raw shape answers `shape` from an accessor of its own, and running that can mint a whole fresh subtree
            merge(raw ? shape(raw, true) : ASSUMED);
            check(def.catchall);
            break;
        }
        case "array":
            check(def.element);
            break;
        case "tuple":
            for (const el of def.items)
                check(el);
            check(def.rest);
            break;
        case "record":
        case "map":
            check(def.keyType);
            check(def.valueType);
            break;
        case "set":
            check(def.valueType);
            break;
        case "union":
            for (const el of def.options)
                check(el);
            break;
        case "intersection":
            check(def.left);
            check(def.right);
            break;
        case "optional":
        case "nullable":
        case "default":
        case "prefault":
        case "catch":
        case "readonly":
        case "nonoptional":
        case "promise":
        case "success":
            check(def.innerType);
            break;
        case "pipe":
            check(def.in);
            check(def.out);
            break;
        case "function":
            check(def.input);
            check(def.output);
            break;
        // `$ZodLazy` caches its inner on the def, so a resolved edge is followed exactly
        case "lazy": {
            const inner = def._cachedInner ?? (resolve ? inst._zod.innerType : undefined);
            // walked with resolution off: one hop sees past the deferral, and a lazy that yields only another unresolved lazy is generative, so it stops there
            merge(inner ? isRecursive(inner, stack, false) : ASSUMED);
            break;
        }
        // a leaf by choice: `parts` are regex fragments, not data positions
        case "template_literal":
        // leaves
        case "string":
        case "number":
        case "int":
        case "boolean":
        case "bigint":
        case "symbol":
        case "undefined":
        case "null":
        case "void":
        case "never":
        case "any":
        case "unknown":
        case "date":
        case "nan":
        case "enum":
        case "literal":
        case "file":
        case "transform":
        case "custom":
            break;
        default: {
            // a new built-in kind becomes a compile error here
            kind;
            // a user-defined kind can still hold children, and only its author knows where, so fall back to scanning the def — skipping accessors, since reading one can run user code
            for (const key in def) {
                const desc = Object.getOwnPropertyDescriptor(def, key);
                if (!desc || desc.get)
                    continue;
                const value = desc.value;
                if (!value || typeof value !== "object")
                    continue;
                if (value._zod)
                    check(value);
                else if (Array.isArray(value))
                    for (const el of value)
                        check(el);
            }
        }
    }
    stack.delete(inst);
    return settle(inst, result);
}
/** An assumed answer must not outlive the resolution that settles it, so only a certain one is cached. */
function settle(inst, answer) {
    if (answer !== ASSUMED)
        recursive.set(inst, answer === PROVEN);
    return answer;
}
/**
 * Whether one parse can re-enter this schema, i.e. its subtree contains a cycle.
 * Exported for `z.compile`, which refuses to compile such a schema: cycle
 * breaking is driven from here off state keyed on the parse context, and a
 * generated fast path has no context to key on.
 */
function isRecursiveSchema(inst) {
    // z.compile never parses, so nothing would ever resolve a lazy for it; it runs once and already treats a throw here as recursive
    return isRecursive(inst, new Set(), true) !== NONE;
}
function bucketFor(state, inst) {
    let bucket = state.buckets.get(inst);
    if (!bucket) {
        bucket = new WeakMap();
        state.buckets.set(inst, bucket);
    }
    return bucket;
}
// Set immediately before delegating to core and cleared immediately after, so `alloc` registers only for a visit this module is driving.
let handoff;
// Allocated but unfinished entries. `alloc` and the matching pop both happen in the synchronous part of a parse, so they nest even when children are async, and one stack serves every schema.
const memoizer_open = [];
const memo = {
    alloc(_inst, payload, empty) {
        const bucket = handoff;
        if (!bucket)
            return empty;
        handoff = undefined;
        const entry = { value: empty, issues: null };
        bucket.set(payload.value, entry);
        memoizer_open.push(entry);
        return empty;
    },
    guard(inst) {
        var _a;
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred.push(() => {
            const base = inst._zod.parse;
            const wrapped = (payload, ctx) => {
                // The value is a placeholder a back-edge is still waiting on, so the cycle closes through this transform. Its output can't exist in time to bind.
                if (ctx.direction !== "backward" && isBackEdge(ctx, payload.value))
                    throw new $ZodCyclicError();
                return base(payload, ctx);
            };
            inst._zod.parse = wrapped;
            if (inst._zod.run === base)
                inst._zod.run = wrapped;
        });
    },
    attach(inst) {
        var _a;
        let isRecursiveInst;
        let rechecked = false;
        // a recursive schema is re-entered many times per parse and its bucket never changes
        let lastCtx;
        let lastBucket;
        // Wraps `parse` in a deferred so it sees the container's final parse. Core's own deferred copies `parse` into `run` when there are no checks, and it ran first, so `run` is patched to match; with checks, `run` reads `parse` dynamically.
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred.push(() => {
            const base = inst._zod.parse;
            const wrapped = (payload, ctx) => {
                if (isRecursiveInst === undefined) {
                    const walked = isRecursive(inst, new Set(), false);
                    if (walked === NONE) {
                        // Nothing here can ever fire, so take it back out.
                        inst._zod.parse = base;
                        if (inst._zod.run === wrapped)
                            inst._zod.run = base;
                        return base(payload, ctx);
                    }
                    // this parse resolves the deferred edges on its own path, so ask once more before latching
                    if (walked === PROVEN || rechecked)
                        isRecursiveInst = true;
                    else
                        rechecked = true;
                }
                const input = payload.value;
                if (!isRef(input))
                    return base(payload, ctx);
                let state = ctx[STATE];
                if (!state) {
                    state = { buckets: new WeakMap(), backEdges: undefined };
                    ctx[STATE] = state;
                }
                let bucket;
                if (lastCtx === ctx) {
                    bucket = lastBucket;
                }
                else {
                    bucket = bucketFor(state, inst);
                    lastCtx = ctx;
                    lastBucket = bucket;
                }
                const hit = bucket.get(input);
                if (hit) {
                    payload.value = hit.value;
                    if (hit.issues) {
                        if (hit.issues.length)
                            payload.issues.push(...cloneIssues(hit.issues));
                    }
                    else {
                        // Still being parsed: its own checks cover it, so skip them here.
                        payload.memo = true;
                        state.backEdges ?? (state.backEdges = new WeakSet());
                        state.backEdges.add(hit.value);
                    }
                    return payload;
                }
                handoff = bucket;
                const depth = memoizer_open.length;
                const result = base(payload, ctx);
                handoff = undefined;
                // A container that rejected its input outright allocated nothing.
                const entry = memoizer_open.length > depth ? memoizer_open.pop() : undefined;
                // Both paths written out so the sync one allocates no closure. It runs once per node, and capturing here cost more than everything else combined.
                if (result instanceof Promise) {
                    return result.then((r) => {
                        if (entry)
                            entry.issues = r.issues.length ? cloneIssues(r.issues) : NO_ISSUES;
                        return r;
                    });
                }
                if (entry)
                    entry.issues = result.issues.length ? cloneIssues(result.issues) : NO_ISSUES;
                return result;
            };
            inst._zod.parse = wrapped;
            if (inst._zod.run === base)
                inst._zod.run = wrapped;
        });
    },
};
/** The memoizer that gives containers cycle support. `zod` installs it by default; `zod/mini` opts in with `config({ memoizer: memoizer() })`. */
function memoizer() {
    return memo;
}
/** Whether this value is a node a back-edge resolved to before it finished. */
function isBackEdge(ctx, value) {
    const backEdges = ctx[STATE]?.backEdges;
    return backEdges !== undefined && isRef(value) && backEdges.has(value);
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/regexes.js

/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const cuid = /^[cC][0-9a-z]{6,}$/;
const cuid2 = /^[0-9a-z]+$/;
const ulid = /^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/;
const xid = /^[0-9a-vA-V]{20}$/;
const ksuid = /^[A-Za-z0-9]{27}$/;
const nanoid = /^[a-zA-Z0-9_-]{21}$/;
function nanoidOfLength(length) {
    return new RegExp(`^[a-zA-Z0-9_-]{${length}}$`);
}
/** ISO 8601-1 duration regex. Does not support the 8601-2 extensions like negative durations or fractional/negative components. */
const duration = /^P(?:(\d+W)|(?!.*W)(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+([.,]\d+)?S)?)?)$/;
/** Implements ISO 8601-2 extensions like explicit +- prefixes, mixing weeks with other units, and fractional/negative components. */
const extendedDuration = /^[-+]?P(?!$)(?:(?:[-+]?\d+Y)|(?:[-+]?\d+[.,]\d+Y$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:(?:[-+]?\d+W)|(?:[-+]?\d+[.,]\d+W$))?(?:(?:[-+]?\d+D)|(?:[-+]?\d+[.,]\d+D$))?(?:T(?=[\d+-])(?:(?:[-+]?\d+H)|(?:[-+]?\d+[.,]\d+H$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:[-+]?\d+(?:[.,]\d+)?S)?)??$/;
/** A regex for any UUID-like identifier: 8-4-4-4-12 hex pattern */
const guid = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
/** Returns a regex for validating an RFC 9562/4122 UUID.
 *
 * @param version Optionally specify a version 1-8. If no version is specified, all versions are supported. */
const uuid = (version) => {
    if (!version)
        return /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
    return new RegExp(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-${version}[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$`);
};
const uuid4 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(4)));
const uuid6 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(6)));
const uuid7 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(7)));
/** Practical email validation */
const email = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
/** Equivalent to the HTML5 input[type=email] validation implemented by browsers. Source: https://developer.mozilla.org/en-US/docs/Web/HTML/Element/input/email */
const html5Email = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
/** The classic emailregex.com regex for RFC 5322-compliant emails */
const rfc5322Email = /^(([^<>()\[\]\\.,;:\s@"]+(\.[^<>()\[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;
/** A loose regex that allows Unicode characters, enforces length limits, and that's about it. */
const unicodeEmail = /^[^\s@"]{1,64}@[^\s@]{1,255}$/u;
const idnEmail = (/* unused pure expression or super */ null && (unicodeEmail));
const browserEmail = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
// from https://thekevinscott.com/emojis-in-javascript/#writing-a-regular-expression
// Single character class, not an alternation: the two properties overlap (U+1F9B0-U+1F9B3), so `(A|B)+` backtracks exponentially on a failed match. The leading lookahead then demands one anchor — a pictograph, a regional indicator, or the enclosing keycap — because `\p{Emoji_Component}` on its own covers ASCII digits, `#`, `*`, ZWJ, variation selectors and skin tone modifiers, none of which is an emoji without a base.
const _emoji = `^(?=[\\s\\S]*[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u20E3])[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$`;
function emoji() {
    return new RegExp(_emoji, "u");
}
const ipv4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
const ipv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))$/;
const mac = (delimiter) => {
    const escapedDelim = util.escapeRegex(delimiter ?? ":");
    return new RegExp(`^(?:[0-9A-F]{2}${escapedDelim}){5}[0-9A-F]{2}$|^(?:[0-9a-f]{2}${escapedDelim}){5}[0-9a-f]{2}$`);
};
const cidrv4 = /^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\/([0-9]|[1-2][0-9]|3[0-2])$/;
const cidrv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))\/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$/;
// https://stackoverflow.com/questions/7860392/determine-if-string-is-in-base64-using-javascript
const base64 = /^$|^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$/;
const base64url = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;
// based on https://stackoverflow.com/questions/106179/regular-expression-to-match-dns-hostname-or-ip-address
// export const hostname: RegExp = /^([a-zA-Z0-9-]+\.)*[a-zA-Z0-9-]+$/;
const hostname = /^(?=.{1,253}\.?$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[-0-9a-zA-Z]{0,61}[0-9a-zA-Z])?)*\.?$/;
const domain = /^(?=.{1,253}$)([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/;
const httpProtocol = /^https?$/;
// https://blog.stevenlevithan.com/archives/validate-phone-number#r4-3 (regex sans spaces) E.164: leading digit must be 1-9; total digits (excluding '+') between 7-15
const e164 = /^\+[1-9]\d{6,14}$/;
// Credit card shape: 12–19 digits, optionally separated by single spaces or single hyphens. ISO/IEC 7812 caps the PAN at 19 digits; 12 is the shortest issued length (Maestro).
const creditCard = /^\d(?:[ -]?\d){11,18}$/;
// ISO 4217 alpha codes from the SIX list, regenerated by scripts/update-iso-4217.ts
const currencyCode = /^(?:AED|AFN|ALL|AMD|AOA|ARS|AUD|AWG|AZN|BAM|BBD|BDT|BHD|BIF|BMD|BND|BOB|BOV|BRL|BSD|BTN|BWP|BYN|BZD|CAD|CDF|CHE|CHF|CHW|CLF|CLP|CNY|COP|COU|CRC|CUP|CVE|CZK|DJF|DKK|DOP|DZD|EGP|ERN|ETB|EUR|FJD|FKP|GBP|GEL|GHS|GIP|GMD|GNF|GTQ|GYD|HKD|HNL|HTG|HUF|IDR|ILS|INR|IQD|IRR|ISK|JMD|JOD|JPY|KES|KGS|KHR|KMF|KPW|KRW|KWD|KYD|KZT|LAK|LBP|LKR|LRD|LSL|LYD|MAD|MDL|MGA|MKD|MMK|MNT|MOP|MRU|MUR|MVR|MWK|MXN|MXV|MYR|MZN|NAD|NGN|NIO|NOK|NPR|NZD|OMR|PAB|PEN|PGK|PHP|PKR|PLN|PYG|QAR|RON|RSD|RUB|RWF|SAR|SBD|SCR|SDG|SEK|SGD|SHP|SLE|SOS|SRD|SSP|STN|SVC|SYP|SZL|THB|TJS|TMT|TND|TOP|TRY|TTD|TWD|TZS|UAH|UGX|USD|USN|UYI|UYU|UYW|UZS|VED|VES|VND|VUV|WST|XAD|XAF|XAG|XAU|XBA|XBB|XBC|XBD|XCD|XCG|XDR|XOF|XPD|XPF|XPT|XSU|XTS|XUA|XXX|YER|ZAR|ZMW|ZWG)$/;
// iban electronic format: 2-letter country, check digits 02-98 (the only values `98 - remainder` can produce), 11-30 bban characters
const iban = /^[A-Z]{2}(?!00|01|99)\d{2}[A-Z0-9]{11,30}$/;
const dateSource = `(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))`;
/** Anchors a pattern source. The interpolation lives here rather than at the call site because
 * esbuild will not drop a `@__PURE__` call whose own argument interpolates a variable, but it
 * will drop `anchor(dateSource)`. Keeping it inline pinned `date` into every bundle. */
function regexes_anchor(source) {
    return new RegExp(`^${source}$`);
}
const date = /*@__PURE__*/ regexes_anchor(dateSource);
function timeSource(args) {
    const hhmm = `(?:[01]\\d|2[0-3]):[0-5]\\d`;
    const regex = typeof args.precision === "number"
        ? args.precision === -1
            ? `${hhmm}`
            : args.precision === 0
                ? `${hhmm}:[0-5]\\d`
                : `${hhmm}:[0-5]\\d\\.\\d{${args.precision}}`
        : args.seconds
            ? `${hhmm}:[0-5]\\d(?:\\.\\d+)?`
            : `${hhmm}(?::[0-5]\\d(?:\\.\\d+)?)?`;
    return regex;
}
function time(args) {
    return new RegExp(`^${timeSource(args)}$`);
}
// Adapted from https://stackoverflow.com/a/3143231
function datetime(args) {
    const opts = ["Z"];
    // if (args.offset) opts.push(`([+-]\\d{2}:\\d{2})`);
    if (args.offset)
        opts.push(`([+-](?:[01]\\d|2[0-3]):[0-5]\\d)`);
    // RFC 3339 mandates seconds wherever the time carries a `Z` or an offset, so only the unqualified form `local` adds may omit them
    const qualified = `${timeSource({ precision: args.precision, seconds: true })}(?:${opts.join("|")})`;
    const timeRegex = args.local ? `${qualified}|${timeSource({ precision: args.precision })}` : qualified;
    return new RegExp(`^${dateSource}T(?:${timeRegex})$`);
}
// the unbounded form of `string()` as a literal, so every plain string shares one instance instead of building its own
const anyString = /^[\s\S]{0,}$/;
const string = (params) => {
    const regex = params ? `[\\s\\S]{${params?.minimum ?? 0},${params?.maximum ?? ""}}` : `[\\s\\S]*`;
    return new RegExp(`^${regex}$`);
};
const bigint = /^-?\d+n?$/;
const integer = /^-?\d+$/;
const number = /^-?\d+(?:\.\d+)?$/;
const regexes_boolean = /^(?:true|false)$/i;
const _null = /^null$/i;

const _undefined = /^undefined$/i;

// regex for string with no uppercase letters
const lowercase = /^[^A-Z]*$/;
// regex for string with no lowercase letters
const uppercase = /^[^a-z]*$/;
// regex for hexadecimal strings (any length)
const hex = /^[0-9a-fA-F]*$/;
// Hash regexes for different algorithms and encodings
// Helper function to create base64 regex with exact length and padding
function fixedBase64(bodyLength, padding) {
    return new RegExp(`^[A-Za-z0-9+/]{${bodyLength}}${padding}$`);
}
// Helper function to create base64url regex with exact length (no padding)
function fixedBase64url(length) {
    return new RegExp(`^[A-Za-z0-9_-]{${length}}$`);
}
// MD5 (16 bytes): base64 = 24 chars total (22 + "==")
const md5_hex = /^[0-9a-fA-F]{32}$/;
const md5_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(22, "==")));
const md5_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(22)));
// SHA1 (20 bytes): base64 = 28 chars total (27 + "=")
const sha1_hex = /^[0-9a-fA-F]{40}$/;
const sha1_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(27, "=")));
const sha1_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(27)));
// SHA256 (32 bytes): base64 = 44 chars total (43 + "=")
const sha256_hex = /^[0-9a-fA-F]{64}$/;
const sha256_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(43, "=")));
const sha256_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(43)));
// SHA384 (48 bytes): base64 = 64 chars total (no padding)
const sha384_hex = /^[0-9a-fA-F]{96}$/;
const sha384_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(64, "")));
const sha384_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(64)));
// SHA512 (64 bytes): base64 = 88 chars total (86 + "==")
const sha512_hex = /^[0-9a-fA-F]{128}$/;
const sha512_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(86, "==")));
const sha512_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(86)));

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/checks.js
// import { $ZodType } from "./schemas.js";



const $ZodCheck = /*@__PURE__*/ $constructor("$ZodCheck", (inst, def) => {
    var _a;
    inst._zod ?? (inst._zod = {});
    inst._zod.def = def;
    (_a = inst._zod).onattach ?? (_a.onattach = []);
});
/** Default `when` for size-based checks: run only on non-nullish values with a `size`. */
const _whenHasSize = (payload) => {
    const val = payload.value;
    return !util.nullish(val) && val.size !== undefined;
};
/** Default `when` for length-based checks: run only on non-nullish values with a `length`. */
const _whenHasLength = (payload) => {
    const val = payload.value;
    return !nullish(val) && val.length !== undefined;
};
const numericOriginMap = {
    number: "number",
    bigint: "bigint",
    object: "date",
};
const $ZodCheckLessThan = /*@__PURE__*/ $constructor("$ZodCheckLessThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value <= def.value : payload.value < def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_big",
            maximum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckGreaterThan = /*@__PURE__*/ $constructor("$ZodCheckGreaterThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value >= def.value : payload.value > def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_small",
            minimum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckMultipleOf = 
/*@__PURE__*/ $constructor("$ZodCheckMultipleOf", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        if (typeof payload.value !== typeof def.value)
            throw new Error("Cannot mix number and bigint in multiple_of check.");
        const isMultiple = typeof payload.value === "bigint"
            ? // `value % 0n` throws, and nothing is a multiple of zero — the number branch already fails this way via NaN
                def.value !== BigInt(0) && payload.value % def.value === BigInt(0)
            : floatSafeRemainder(payload.value, def.value) === 0;
        if (isMultiple)
            return;
        payload.issues.push({
            origin: typeof payload.value,
            code: "not_multiple_of",
            divisor: def.value,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckNumberFormat = /*@__PURE__*/ $constructor("$ZodCheckNumberFormat", (inst, def) => {
    $ZodCheck.init(inst, def); // no format checks
    def.format = def.format || "float64";
    const isInt = def.format?.includes("int");
    const origin = isInt ? "int" : "number";
    const [minimum, maximum] = NUMBER_FORMAT_RANGES[def.format];
    inst._zod.check = (payload) => {
        const input = payload.value;
        if (isInt) {
            if (!Number.isInteger(input)) {
                // invalid_format issue
                // payload.issues.push({
                //   expected: def.format,
                //   format: def.format,
                //   code: "invalid_format",
                //   input,
                //   inst,
                // });
                // invalid_type issue
                payload.issues.push({
                    expected: origin,
                    format: def.format,
                    code: "invalid_type",
                    continue: false,
                    input,
                    inst,
                });
                return;
                // not_multiple_of issue
                // payload.issues.push({
                //   code: "not_multiple_of",
                //   origin: "number",
                //   input,
                //   inst,
                //   divisor: 1,
                // });
            }
            if (!Number.isSafeInteger(input)) {
                if (input > 0) {
                    // too_big
                    payload.issues.push({
                        input,
                        code: "too_big",
                        maximum: Number.MAX_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                else {
                    // too_small
                    payload.issues.push({
                        input,
                        code: "too_small",
                        minimum: Number.MIN_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                return;
            }
        }
        if (input < minimum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_small",
                minimum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
        if (input > maximum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_big",
                maximum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodCheckBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckBigIntFormat", (inst, def) => {
    $ZodCheck.init(inst, def); // no format checks
    const [minimum, maximum] = util.BIGINT_FORMAT_RANGES[def.format];
    inst._zod.check = (payload) => {
        const input = payload.value;
        if (input < minimum) {
            payload.issues.push({
                origin: "bigint",
                input,
                code: "too_small",
                minimum: minimum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
        if (input > maximum) {
            payload.issues.push({
                origin: "bigint",
                input,
                code: "too_big",
                maximum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
    };
})));
const $ZodCheckMaxSize = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMaxSize", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size <= def.maximum)
            return;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            code: "too_big",
            maximum: def.maximum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckMinSize = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMinSize", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size >= def.minimum)
            return;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            code: "too_small",
            minimum: def.minimum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckSizeEquals = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckSizeEquals", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size === def.size)
            return;
        const tooBig = size > def.size;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            ...(tooBig ? { code: "too_big", maximum: def.size } : { code: "too_small", minimum: def.size }),
            inclusive: true,
            exact: true,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckMaxLength = /*@__PURE__*/ $constructor("$ZodCheckMaxLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // Strings are measured in Unicode code points, not UTF-16 units. A code point is at most two units, so a string that already fits in units fits in code points; only an overflow has to be counted.
        const length = typeof input === "string" && units > def.maximum ? codePointLength(input) : units;
        if (length <= def.maximum)
            return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_big",
            maximum: def.maximum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckMinLength = /*@__PURE__*/ $constructor("$ZodCheckMinLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so fewer units than the floor can never reach it and twice the floor always clears it. Only in between is the exact count in doubt.
        const length = typeof input === "string" && units >= def.minimum && units < def.minimum * 2
            ? codePointLength(input)
            : units;
        if (length >= def.minimum)
            return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_small",
            minimum: def.minimum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckLengthEquals = /*@__PURE__*/ $constructor("$ZodCheckLengthEquals", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so outside `[length, length * 2]` units the target is missed either way — and missed in the same direction in both measures.
        const length = typeof input === "string" && units >= def.length && units <= def.length * 2
            ? codePointLength(input)
            : units;
        if (length === def.length)
            return;
        const origin = getLengthableOrigin(input);
        const tooBig = length > def.length;
        payload.issues.push({
            origin,
            ...(tooBig ? { code: "too_big", maximum: def.length } : { code: "too_small", minimum: def.length }),
            inclusive: true,
            exact: true,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckStringFormat = /*@__PURE__*/ $constructor("$ZodCheckStringFormat", (inst, def) => {
    var _a, _b;
    $ZodCheck.init(inst, def);
    if (def.pattern)
        (_a = inst._zod).check ?? (_a.check = (payload) => {
            def.pattern.lastIndex = 0;
            if (def.pattern.test(payload.value))
                return;
            payload.issues.push({
                origin: "string",
                code: "invalid_format",
                format: def.format,
                input: payload.value,
                ...(def.pattern ? { pattern: def.pattern.toString() } : {}),
                inst,
                continue: !def.abort,
            });
        });
    else
        (_b = inst._zod).check ?? (_b.check = () => { });
});
const $ZodCheckRegex = /*@__PURE__*/ $constructor("$ZodCheckRegex", (inst, def) => {
    $ZodCheckStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        def.pattern.lastIndex = 0;
        if (def.pattern.test(payload.value))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "regex",
            input: payload.value,
            pattern: def.pattern.toString(),
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckLowerCase = /*@__PURE__*/ $constructor("$ZodCheckLowerCase", (inst, def) => {
    def.pattern ?? (def.pattern = lowercase);
    $ZodCheckStringFormat.init(inst, def);
});
const $ZodCheckUpperCase = /*@__PURE__*/ $constructor("$ZodCheckUpperCase", (inst, def) => {
    def.pattern ?? (def.pattern = uppercase);
    $ZodCheckStringFormat.init(inst, def);
});
const $ZodCheckIncludes = /*@__PURE__*/ $constructor("$ZodCheckIncludes", (inst, def) => {
    $ZodCheck.init(inst, def);
    const escapedRegex = escapeRegex(def.includes);
    // `String.prototype.includes(sub, position)` matches `sub` at `position`
    // OR LATER, so the pattern must allow at least `position` leading chars
    // (`{N,}`), not exactly `position` chars (`{N}`).
    const pattern = new RegExp(typeof def.position === "number" ? `^.{${def.position},}${escapedRegex}` : escapedRegex);
    def.pattern = pattern;
    inst._zod.check = (payload) => {
        if (payload.value.includes(def.includes, def.position))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "includes",
            includes: def.includes,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckStartsWith = /*@__PURE__*/ $constructor("$ZodCheckStartsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`^${escapeRegex(def.prefix)}.*`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.startsWith(def.prefix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "starts_with",
            prefix: def.prefix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckEndsWith = /*@__PURE__*/ $constructor("$ZodCheckEndsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`.*${escapeRegex(def.suffix)}$`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.endsWith(def.suffix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "ends_with",
            suffix: def.suffix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
///////////////////////////////////
/////    $ZodCheckProperty    /////
///////////////////////////////////
function handleCheckPropertyResult(result, payload, property) {
    if (result.issues.length) {
        payload.issues.push(...prefixIssues(property, result.issues));
    }
}
const $ZodCheckProperty = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckProperty", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        const result = def.schema._zod.run({
            value: payload.value[def.property],
            issues: [],
        }, {});
        if (result instanceof Promise) {
            return result.then((result) => handleCheckPropertyResult(result, payload, def.property));
        }
        handleCheckPropertyResult(result, payload, def.property);
        return;
    };
})));
const $ZodCheckProperties = /*@__PURE__*/ $constructor("$ZodCheckProperties", (inst, def) => {
    $ZodCheck.init(inst, def);
    hide(inst, Symbol.iterator, function* () {
        yield inst;
    });
    // key and schema snapshotted together: reading one live and the other cached lets a later mutation of the caller's shape object pair a stale key with a missing schema
    let entries;
    inst._zod.check = (payload) => {
        // the base schema already typed the value, so only a nullish one is rejected here: the properties read on a primitive too, matching z.property() on a string's length
        if (payload.value == null) {
            payload.issues.push({ expected: "object", code: "invalid_type", input: payload.value, inst });
            return undefined;
        }
        entries ?? (entries = Reflect.ownKeys(def.shape).map((key) => [key, def.shape[key]]));
        const input = payload.value;
        let proms;
        for (const [key, schema] of entries) {
            const result = schema._zod.run({ value: input[key], issues: [] }, {});
            if (result instanceof Promise) {
                proms ?? (proms = []);
                proms.push(result.then((result) => handleCheckPropertyResult(result, payload, key)));
            }
            else {
                handleCheckPropertyResult(result, payload, key);
            }
        }
        if (proms)
            return Promise.all(proms).then(() => undefined);
        return undefined;
    };
});
const $ZodCheckMimeType = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMimeType", (inst, def) => {
    $ZodCheck.init(inst, def);
    const mimeSet = new Set(def.mime);
    inst._zod.check = (payload) => {
        if (mimeSet.has(payload.value.type))
            return;
        payload.issues.push({
            code: "invalid_value",
            values: def.mime,
            input: payload.value.type,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckOverwrite = /*@__PURE__*/ $constructor("$ZodCheckOverwrite", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        payload.value = def.tx(payload.value);
    };
});

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/doc.js
class Doc {
    constructor(args = [], closed = {}) {
        this.content = [];
        this.indent = 0;
        this.args = args;
        this.closed = closed;
    }
    // the compiler catches a child's throw and keeps writing into this doc, so the indent has to unwind with it
    indented(fn) {
        this.indent += 1;
        try {
            fn(this);
        }
        finally {
            this.indent -= 1;
        }
    }
    write(arg) {
        if (typeof arg === "function") {
            arg(this, { execution: "sync" });
            arg(this, { execution: "async" });
            return;
        }
        const content = arg;
        const lines = content.split("\n").filter((x) => x);
        const minIndent = Math.min(...lines.map((x) => x.length - x.trimStart().length));
        const dedented = lines.map((x) => x.slice(minIndent)).map((x) => " ".repeat(this.indent * 2) + x);
        for (const line of dedented) {
            this.content.push(line);
        }
    }
    compile() {
        const F = Function;
        const content = this?.content ?? [``];
        const factory = new F(...Object.keys(this.closed), `return function (${this.args.join(", ")}) {\n${content.join("\n")}\n};`);
        return factory(...Object.values(this.closed));
    }
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/versions.js
const version = {
    major: 4,
    minor: 6,
    patch: 7,
};

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/schemas.js







const $ZodType = /*@__PURE__*/ $constructor("$ZodType", (inst, def) => {
    var _a;
    inst ?? (inst = {});
    inst._zod.def = def; // set _def property
    inst._zod.bag = inst._zod.bag || {}; // initialize _bag object
    inst._zod.version = version;
    const defChecks = inst._zod.def.checks;
    // if inst is itself a checks.$ZodCheck, run it as a check
    const checks = inst._zod.traits.has("$ZodCheck")
        ? [inst, ...(defChecks ?? [])]
        : defChecks?.length
            ? [...defChecks]
            : [];
    for (const ch of checks) {
        for (const fn of ch._zod.onattach) {
            fn(inst);
        }
    }
    if (checks.length === 0) {
        // deferred initializer inst._zod.parse is not yet defined
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred?.push(() => {
            inst._zod.run = inst._zod.parse;
        });
    }
    else {
        const runChecks = (payload, checks, ctx) => {
            if (payload.memo)
                return payload;
            let isAborted = aborted(payload);
            let asyncResult;
            for (const ch of checks) {
                if (ch._zod.def.when) {
                    if (explicitlyAborted(payload))
                        continue;
                    const shouldRun = ch._zod.def.when(payload);
                    if (!shouldRun)
                        continue;
                }
                else if (isAborted) {
                    continue;
                }
                const currLen = payload.issues.length;
                const _ = ch._zod.check(payload);
                if (_ instanceof Promise && ctx?.async === false) {
                    throw new $ZodAsyncError();
                }
                if (asyncResult || _ instanceof Promise) {
                    asyncResult = (asyncResult ?? Promise.resolve()).then(async () => {
                        await _;
                        const nextLen = payload.issues.length;
                        if (nextLen === currLen)
                            return;
                        attachSchema(payload.issues, currLen, inst);
                        if (!isAborted)
                            isAborted = aborted(payload, currLen);
                    });
                }
                else {
                    const nextLen = payload.issues.length;
                    if (nextLen === currLen)
                        continue;
                    attachSchema(payload.issues, currLen, inst);
                    if (!isAborted)
                        isAborted = aborted(payload, currLen);
                }
            }
            if (asyncResult) {
                return asyncResult.then(() => {
                    return payload;
                });
            }
            return payload;
        };
        const handleCanaryResult = (canary, payload, ctx) => {
            // abort if the canary is aborted
            if (aborted(canary)) {
                canary.aborted = true;
                return canary;
            }
            // run checks first, then
            const checkResult = runChecks(payload, checks, ctx);
            if (checkResult instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return checkResult.then((checkResult) => inst._zod.parse(checkResult, ctx));
            }
            return inst._zod.parse(checkResult, ctx);
        };
        inst._zod.run = (payload, ctx) => {
            if (ctx.skipChecks) {
                return inst._zod.parse(payload, ctx);
            }
            if (ctx.direction === "backward") {
                // run canary initial pass (no checks)
                const canary = inst._zod.parse({ value: payload.value, issues: [] }, { ...ctx, skipChecks: true });
                if (canary instanceof Promise) {
                    return canary.then((canary) => {
                        return handleCanaryResult(canary, payload, ctx);
                    });
                }
                return handleCanaryResult(canary, payload, ctx);
            }
            // forward
            const result = inst._zod.parse(payload, ctx);
            if (result instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return result.then((result) => runChecks(result, checks, ctx));
            }
            return runChecks(result, checks, ctx);
        };
    }
}, {
    // Wrappers extend this by installing a richer factory over it; reading it eagerly would defeat the laziness.
    get "~standard"() {
        return hide(this, "~standard", standardProps(this));
    },
    set "~standard"(value) {
        own(this, "~standard", value);
    },
});
/** The Standard Schema surface for `inst`. Shared so wrappers can extend it without forcing it. */
// a Standard Schema result only reports issues, so a failure finalizes them straight off the raw payload: no ZodError, and no lazy result to read through
const toStandardResult = (r, ctx) => r.issues.length ? { issues: r.issues.map((iss) => finalizeIssue(iss, ctx, config())) } : { value: r.value };
async function validateAsync(inst, value) {
    const ctx = { async: true };
    return toStandardResult((await inst._zod.run({ value, issues: [] }, ctx)), ctx);
}
function standardProps(inst) {
    return {
        validate: (value) => {
            const ctx = { async: false };
            try {
                const r = inst._zod.run({ value, issues: [] }, ctx);
                if (!(r instanceof Promise))
                    return toStandardResult(r, ctx);
            }
            catch (_) { }
            // async function so a synchronously throwing check rejects instead of escaping validate
            return validateAsync(inst, value);
        },
        vendor: "zod",
        version: 1,
    };
}

const $ZodString = /*@__PURE__*/ $constructor("$ZodString", (inst, def) => {
    $ZodType.init(inst, def);
    // a format's own pattern, else unbounded; a template literal derives the check-aware form itself
    inst._zod.pattern = def.pattern ?? anyString;
    inst._zod.parse = (payload, _) => {
        if (def.coerce)
            try {
                payload.value = String(payload.value);
            }
            catch (_) { }
        if (typeof payload.value === "string")
            return payload;
        payload.issues.push({
            expected: "string",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodStringFormat = /*@__PURE__*/ $constructor("$ZodStringFormat", (inst, def) => {
    // check initialization must come first
    $ZodCheckStringFormat.init(inst, def);
    $ZodString.init(inst, def);
});
const $ZodGUID = /*@__PURE__*/ $constructor("$ZodGUID", (inst, def) => {
    def.pattern ?? (def.pattern = guid);
    $ZodStringFormat.init(inst, def);
});
const $ZodUUID = /*@__PURE__*/ $constructor("$ZodUUID", (inst, def) => {
    if (def.version) {
        const versionMap = {
            v1: 1,
            v2: 2,
            v3: 3,
            v4: 4,
            v5: 5,
            v6: 6,
            v7: 7,
            v8: 8,
        };
        const v = versionMap[def.version];
        if (v === undefined)
            throw new Error(`Invalid UUID version: "${def.version}"`);
        def.pattern ?? (def.pattern = uuid(v));
    }
    else
        def.pattern ?? (def.pattern = uuid());
    $ZodStringFormat.init(inst, def);
});
const $ZodEmail = /*@__PURE__*/ $constructor("$ZodEmail", (inst, def) => {
    def.pattern ?? (def.pattern = email);
    $ZodStringFormat.init(inst, def);
});
/** The `://` guard rejected the input before the URL constructor saw it. */
const URL_BAD_FORMAT = 1;
/** The URL parser rejected the input. */
const URL_UNPARSEABLE = 2;
function canParseURL(input) {
    try {
        if (typeof URL !== "undefined" && typeof URL.canParse === "function")
            return URL.canParse(input);
        new URL(input);
        return true;
    }
    catch {
        return false;
    }
}
function validateURL(trimmed, def) {
    if (!("normalize" in def) && !("hostname" in def) && !("protocol" in def)) {
        return canParseURL(trimmed) || URL_UNPARSEABLE;
    }
    return parseURLObject(trimmed, def);
}
/** Parses a URL while preserving the non-normalizing HTTP guard. */
function parseURLObject(trimmed, def) {
    // When normalize is off, require :// for http/https URLs. This prevents strings like "http:example.com" or "https:/path" from being silently accepted
    if (!def.normalize && def.protocol?.source === httpProtocol.source && !/^https?:\/\//i.test(trimmed)) {
        return URL_BAD_FORMAT;
    }
    try {
        if (typeof URL !== "undefined") {
            const URLStatic = URL;
            if (typeof URLStatic.parse === "function")
                return URLStatic.parse(trimmed) ?? URL_UNPARSEABLE;
        }
        // @ts-ignore
        return new URL(trimmed);
    }
    catch {
        return URL_UNPARSEABLE;
    }
}
const asciiTabOrNewline = /[\t\n\r]/g;
/** The URL parser deletes every ASCII tab, LF and CR from its input before it parses, so `new URL("https://exa\nmple.com")` reports on `example.com`. Applying the same deletion to the returned value closes the half of that divergence which can move the host; the parser's other rewrite, stripping C0 controls at the edges, cannot. */
function stripTabAndNewline(value) {
    return value.replace(asciiTabOrNewline, "");
}
function urlHostnameOk(url, hostname) {
    hostname.lastIndex = 0;
    return hostname.test(url.hostname);
}
function urlProtocolOk(url, protocol) {
    protocol.lastIndex = 0;
    return protocol.test(url.protocol.endsWith(":") ? url.protocol.slice(0, -1) : url.protocol);
}
const $ZodURL = /*@__PURE__*/ $constructor("$ZodURL", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        try {
            // Trim whitespace from input
            const trimmed = payload.value.trim();
            const url = validateURL(trimmed, def);
            if (url === URL_BAD_FORMAT) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid URL format",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === URL_UNPARSEABLE) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === true) {
                payload.value = stripTabAndNewline(trimmed);
                return;
            }
            if (def.hostname && !urlHostnameOk(url, def.hostname)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid hostname",
                    pattern: def.hostname.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            if (def.protocol && !urlProtocolOk(url, def.protocol)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid protocol",
                    pattern: def.protocol.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            // Set the output value based on normalize flag
            payload.value = def.normalize ? url.href : stripTabAndNewline(trimmed);
            return;
        }
        catch (_) {
            payload.issues.push({
                code: "invalid_format",
                format: "url",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodEmoji = /*@__PURE__*/ $constructor("$ZodEmoji", (inst, def) => {
    def.pattern ?? (def.pattern = emoji());
    $ZodStringFormat.init(inst, def);
});
const $ZodNanoID = /*@__PURE__*/ $constructor("$ZodNanoID", (inst, def) => {
    if (def.length !== undefined && (!Number.isInteger(def.length) || def.length < 1))
        throw new Error(`Invalid nanoid length: ${def.length}`);
    def.pattern ?? (def.pattern = def.length === undefined ? nanoid : nanoidOfLength(def.length));
    $ZodStringFormat.init(inst, def);
});
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link $ZodCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const $ZodCUID = /*@__PURE__*/ $constructor("$ZodCUID", (inst, def) => {
    def.pattern ?? (def.pattern = cuid);
    $ZodStringFormat.init(inst, def);
});
const $ZodCUID2 = /*@__PURE__*/ $constructor("$ZodCUID2", (inst, def) => {
    def.pattern ?? (def.pattern = cuid2);
    $ZodStringFormat.init(inst, def);
});
const $ZodULID = /*@__PURE__*/ $constructor("$ZodULID", (inst, def) => {
    def.pattern ?? (def.pattern = ulid);
    $ZodStringFormat.init(inst, def);
});
const $ZodXID = /*@__PURE__*/ $constructor("$ZodXID", (inst, def) => {
    def.pattern ?? (def.pattern = xid);
    $ZodStringFormat.init(inst, def);
});
const $ZodKSUID = /*@__PURE__*/ $constructor("$ZodKSUID", (inst, def) => {
    def.pattern ?? (def.pattern = ksuid);
    $ZodStringFormat.init(inst, def);
});
const $ZodISODateTime = /*@__PURE__*/ $constructor("$ZodISODateTime", (inst, def) => {
    def.pattern ?? (def.pattern = datetime(def));
    $ZodStringFormat.init(inst, def);
});
const $ZodISODate = /*@__PURE__*/ $constructor("$ZodISODate", (inst, def) => {
    def.pattern ?? (def.pattern = date);
    $ZodStringFormat.init(inst, def);
});
const $ZodISOTime = /*@__PURE__*/ $constructor("$ZodISOTime", (inst, def) => {
    def.pattern ?? (def.pattern = time(def));
    $ZodStringFormat.init(inst, def);
});
const $ZodISODuration = /*@__PURE__*/ $constructor("$ZodISODuration", (inst, def) => {
    def.pattern ?? (def.pattern = duration);
    $ZodStringFormat.init(inst, def);
});
const $ZodIPv4 = /*@__PURE__*/ $constructor("$ZodIPv4", (inst, def) => {
    def.pattern ?? (def.pattern = ipv4);
    $ZodStringFormat.init(inst, def);
});
/** An IPv6 address is written with hex digits, colons and dots, and nothing else. The guard is what makes the check below an IPv6 check: `new URL("http://[...]")` parses an authority, not an address, so `@` and `\` re-delimit it and `"::@1\\"` validates against the host `0.0.0.1`. The URL parser also deletes ASCII tab, LF and CR rather than failing, which is how `"::1\n"` validated as `::1`. */
const ipv6Alphabet = /^[0-9a-fA-F:.]+$/;
function isValidIPv6(value) {
    if (!ipv6Alphabet.test(value))
        return false;
    return canParseURL(`http://[${value}]`);
}
const $ZodIPv6 = /*@__PURE__*/ $constructor("$ZodIPv6", (inst, def) => {
    def.pattern ?? (def.pattern = ipv6);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidIPv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "ipv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodMAC = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodMAC", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.mac(def.delimiter));
    $ZodStringFormat.init(inst, def);
})));
const $ZodCIDRv4 = /*@__PURE__*/ $constructor("$ZodCIDRv4", (inst, def) => {
    def.pattern ?? (def.pattern = cidrv4);
    $ZodStringFormat.init(inst, def);
});
function isValidCIDRv6(value) {
    const parts = value.split("/");
    if (parts.length !== 2)
        return false;
    const [address, prefix] = parts;
    if (!prefix)
        return false;
    const prefixNum = Number(prefix);
    if (`${prefixNum}` !== prefix)
        return false;
    if (prefixNum < 0 || prefixNum > 128)
        return false;
    return isValidIPv6(address);
}
const $ZodCIDRv6 = /*@__PURE__*/ $constructor("$ZodCIDRv6", (inst, def) => {
    def.pattern ?? (def.pattern = cidrv6); // not used for validation
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidCIDRv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "cidrv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
//////////////////////////////   ZodBase64   //////////////////////////////
function isValidBase64(data) {
    if (data === "")
        return true;
    // atob ignores whitespace, so reject it up front.
    if (/\s/.test(data))
        return false;
    if (data.length % 4 !== 0)
        return false;
    try {
        // @ts-ignore
        atob(data);
        return true;
    }
    catch {
        return false;
    }
}
// lax on purpose: the quantified regexes.base64 overflows the regex stack on multi-MB input and its leading ^$| alternation leaks through template-literal composition; isValidBase64 enforces length and padding
const base64Charset = /^[0-9a-zA-Z+/]*={0,2}$/;
const $ZodBase64 = /*@__PURE__*/ $constructor("$ZodBase64", (inst, def) => {
    def.pattern ?? (def.pattern = base64Charset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
//////////////////////////////   ZodBase64URL   //////////////////////////////
// lax on purpose: the quantified regexes.base64url overflows the regex stack on multi-MB input; isValidBase64 enforces length on the padded string
const base64urlCharset = /^[A-Za-z0-9_-]*$/;
function isValidBase64URL(data) {
    if (!base64urlCharset.test(data))
        return false;
    const base64 = data.replace(/[-_]/g, (c) => (c === "-" ? "+" : "/"));
    const padded = base64.padEnd(Math.ceil(base64.length / 4) * 4, "=");
    return isValidBase64(padded);
}
const $ZodBase64URL = /*@__PURE__*/ $constructor("$ZodBase64URL", (inst, def) => {
    def.pattern ?? (def.pattern = base64urlCharset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64URL(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64url",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodE164 = /*@__PURE__*/ $constructor("$ZodE164", (inst, def) => {
    def.pattern ?? (def.pattern = e164);
    $ZodStringFormat.init(inst, def);
});
//////////////////////////////   ZodCreditCard   //////////////////////////////
const CC_SANITIZE = /[- ]/g;
/** Luhn checksum on a digit-only string. Adapted from valibot (MIT). */
function isLuhnAlgo(digits) {
    let length = digits.length;
    let bit = 1;
    let sum = 0;
    while (length) {
        const value = digits.charCodeAt(--length) - 48;
        bit ^= 1;
        sum += bit ? [0, 2, 4, 6, 8, 1, 3, 5, 7, 9][value] : value;
    }
    return sum % 10 === 0;
}
function isValidCreditCard(input) {
    if (!regexes.creditCard.test(input))
        return false;
    return isLuhnAlgo(input.replace(CC_SANITIZE, ""));
}
const $ZodCreditCard = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCreditCard", (inst, def) => {
    // Shape only — the Luhn check below is not expressible as a pattern, so consumers of `pattern` (JSON Schema, template literals) get the length and separator rules alone.
    def.pattern ?? (def.pattern = regexes.creditCard);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidCreditCard(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "credit_card",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
//////////////////////////////   ZodIBAN   //////////////////////////////
// iso 7064 mod 97-10 checksum without BigInt
function isIso7064Mod97(iban) {
    let remainder = 0;
    const len = iban.length;
    for (let i = 4; i < len; i++) {
        const code = iban.charCodeAt(i);
        remainder = (code >= 65 ? remainder * 100 + (code - 55) : remainder * 10 + (code - 48)) % 97;
    }
    for (let i = 0; i < 4; i++) {
        const code = iban.charCodeAt(i);
        remainder = (code >= 65 ? remainder * 100 + (code - 55) : remainder * 10 + (code - 48)) % 97;
    }
    return remainder === 1;
}
function isValidIBAN(input) {
    if (!regexes.iban.test(input))
        return false;
    return isIso7064Mod97(input);
}
const $ZodIBAN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodIBAN", (inst, def) => {
    // shape only — checksum is not expressible as a pattern
    def.pattern ?? (def.pattern = regexes.iban);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidIBAN(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "iban",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
//////////////////////////////   ZodJWT   //////////////////////////////
function isValidJWT(token, algorithm = null) {
    try {
        const tokensParts = token.split(".");
        if (tokensParts.length !== 3)
            return false;
        const [header] = tokensParts;
        if (!header)
            return false;
        // @ts-ignore
        const parsedHeader = JSON.parse(atob(header));
        if ("typ" in parsedHeader && parsedHeader?.typ !== "JWT")
            return false;
        if (!parsedHeader.alg)
            return false;
        if (algorithm && (!("alg" in parsedHeader) || parsedHeader.alg !== algorithm))
            return false;
        return true;
    }
    catch {
        return false;
    }
}
const $ZodJWT = /*@__PURE__*/ $constructor("$ZodJWT", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidJWT(payload.value, def.alg))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "jwt",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCustomStringFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCustomStringFormat", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (def.fn(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: def.format,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodNumber = /*@__PURE__*/ $constructor("$ZodNumber", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = number;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Number(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "number" && !Number.isNaN(input) && Number.isFinite(input)) {
            return payload;
        }
        const received = typeof input === "number"
            ? Number.isNaN(input)
                ? "NaN"
                : !Number.isFinite(input)
                    ? String(input)
                    : undefined
            : undefined;
        payload.issues.push({
            expected: "number",
            code: "invalid_type",
            input,
            inst,
            ...(received ? { received } : {}),
        });
        return payload;
    };
});
const $ZodNumberFormat = /*@__PURE__*/ $constructor("$ZodNumberFormat", (inst, def) => {
    $ZodCheckNumberFormat.init(inst, def);
    $ZodNumber.init(inst, def); // no format checks
});
const $ZodBoolean = /*@__PURE__*/ $constructor("$ZodBoolean", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes_boolean;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Boolean(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "boolean")
            return payload;
        payload.issues.push({
            expected: "boolean",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
});
const $ZodBigInt = /*@__PURE__*/ $constructor("$ZodBigInt", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = bigint;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = BigInt(payload.value);
            }
            catch (_) { }
        if (typeof payload.value === "bigint")
            return payload;
        payload.issues.push({
            expected: "bigint",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodBigIntFormat", (inst, def) => {
    checks.$ZodCheckBigIntFormat.init(inst, def);
    $ZodBigInt.init(inst, def); // no format checks
})));
const $ZodSymbol = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSymbol", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "symbol")
            return payload;
        payload.issues.push({
            expected: "symbol",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodUndefined = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodUndefined", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes.undefined;
    inst._zod.values = new Set([undefined]);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "undefined")
            return payload;
        payload.issues.push({
            expected: "undefined",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodNull = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodNull", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes.null;
    inst._zod.values = new Set([null]);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (input === null)
            return payload;
        payload.issues.push({
            expected: "null",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodAny = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodAny", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload) => payload;
})));
const $ZodUnknown = /*@__PURE__*/ $constructor("$ZodUnknown", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload) => payload;
});
const $ZodNever = /*@__PURE__*/ $constructor("$ZodNever", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        payload.issues.push({
            expected: "never",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodVoid = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodVoid", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "undefined")
            return payload;
        payload.issues.push({
            expected: "void",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodDate = /*@__PURE__*/ $constructor("$ZodDate", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce) {
            try {
                payload.value = new Date(payload.value);
            }
            catch (_err) { }
        }
        const input = payload.value;
        const isDate = input instanceof Date;
        const isValidDate = isDate && !Number.isNaN(input.getTime());
        if (isValidDate)
            return payload;
        payload.issues.push({
            expected: "date",
            code: "invalid_type",
            input,
            ...(isDate ? { received: "Invalid Date" } : {}),
            inst,
        });
        return payload;
    };
});
// an oversized container fails its leading size checks before any element is parsed
function capSize(inst, size) {
    const caps = sizeCaps(inst._zod.def.checks);
    if (!caps.length)
        return;
    const cap = Math.min(...caps.map((c) => c[0]));
    const parse = inst._zod.parse;
    inst._zod.parse = (payload, ctx) => {
        const n = size(payload.value);
        if (n > cap && !ctx?.skipChecks && ctx?.direction !== "backward") {
            for (const [max, ch] of sizeCaps(inst._zod.def.checks)) {
                if (n > max && ch._zod.def.when(payload)) {
                    const start = payload.issues.length;
                    ch._zod.check(payload);
                    // the value is still the raw input, so no later check may read it
                    payload.issues[start].continue = false;
                    attachSchema(payload.issues, start, inst);
                    return payload;
                }
            }
        }
        return parse(payload, ctx);
    };
}
const arraySize = (input) => (Array.isArray(input) ? input.length : -1);
const mapSize = (input) => (input instanceof Map ? input.size : -1);
const setSize = (input) => (input instanceof Set ? input.size : -1);
function handleArrayResult(result, final, index) {
    if (result.issues.length) {
        final.issues.push(...prefixIssues(index, result.issues));
    }
    final.value[index] = result.value;
}
const $ZodArray = /*@__PURE__*/ $constructor("$ZodArray", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!Array.isArray(input)) {
            payload.issues.push({
                expected: "array",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, Array(input.length), ctx) : Array(input.length);
        const proms = [];
        const abortEarly = ctx?.abortEarly;
        for (let i = 0; i < input.length; i++) {
            const item = input[i];
            const result = def.element._zod.run({
                value: item,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                proms.push(result.then((result) => handleArrayResult(result, payload, i)));
            }
            else {
                handleArrayResult(result, payload, i);
                // the element's payload is authoritative here, since handleArrayResult forwards every issue; an object's is not, because it drops a failed absent optional
                if (abortEarly && result.issues.length !== 0 && aborted(result))
                    break;
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload; //handleArrayResultsAsync(parseResults, final);
    };
    capSize(inst, arraySize);
});
function handlePropertyResult(result, final, key, input, optin, optout) {
    const isPresent = key in input;
    const isOptionalOut = optout === "optional";
    // The middle rung means "absence permitted, nothing supplied in its place", so an absent key contributes nothing — whatever the schema made of `undefined` is invented, not substituted. Only `optional` reaches this with a value: `defaulted` substitutes, and a schema that isn't optional-out has to keep the key.
    if (!isPresent && isOptionalOut && optin === "optional") {
        return;
    }
    if (result.issues.length) {
        // For optional-in/out schemas, ignore errors on absent keys.
        if (optin !== undefined && isOptionalOut && !isPresent) {
            return;
        }
        final.issues.push(...prefixIssues(key, result.issues));
    }
    if (!isPresent && optin === undefined) {
        if (!result.issues.length) {
            final.issues.push({
                code: "invalid_type",
                expected: "nonoptional",
                input: undefined,
                path: [key],
            });
        }
        return;
    }
    if (result.value === undefined) {
        if (isPresent || (optin === "defaulted" && !isOptionalOut)) {
            final.value[key] = undefined;
        }
    }
    else {
        final.value[key] = result.value;
    }
}
// one shared instance; a fresh [] per schema cost 56 bytes retained
const NO_SYMBOL_KEYS = [];
function normalizeDef(def) {
    const keys = Object.keys(def.shape);
    const ownSymbols = Object.getOwnPropertySymbols(def.shape);
    const symbolKeys = ownSymbols.length ? ownSymbols : NO_SYMBOL_KEYS;
    // aliases `keys` when there are no symbols, so a string-only shape keeps one array
    const allKeys = symbolKeys.length ? [...keys, ...symbolKeys] : keys;
    for (const k of allKeys) {
        if (!def.shape?.[k]?._zod?.traits?.has("$ZodType")) {
            throw new Error(`Invalid element at key "${String(k)}": expected a Zod schema`);
        }
    }
    const okeys = optionalKeys(def.shape);
    return {
        ...def,
        allKeys,
        symbolKeys,
        // string-only: handleCatchall matches it against `for...in`, which never yields a symbol
        keySet: new Set(keys),
        numKeys: keys.length,
        optionalKeys: new Set(okeys),
    };
}
function handleCatchall(proms, input, payload, ctx, def, inst, abortEarly) {
    const unrecognized = [];
    const keySet = def.keySet;
    const _catchall = def.catchall._zod;
    const t = _catchall.def.type;
    const optin = _catchall.optin;
    const optout = _catchall.optout;
    // starts at 0, not the current length: the shape phase already ran and may have aborted
    let seen = 0;
    for (const key in input) {
        if (abortEarly && payload.issues.length !== seen) {
            if (aborted(payload, seen))
                break;
            seen = payload.issues.length;
        }
        // Must precede the __proto__ branch: a declared key is not unrecognized, even though the shape loop deliberately strips __proto__ from the parsed output.
        if (keySet.has(key))
            continue;
        // Don't copy an undeclared __proto__ into the result; assignment to a plain {} would replace the result prototype. But in strict mode it is still an unknown key, so report it before skipping.
        if (key === "__proto__") {
            if (t === "never")
                unrecognized.push(key);
            continue;
        }
        if (t === "never") {
            unrecognized.push(key);
            continue;
        }
        const r = _catchall.run({ value: input[key], issues: [] }, ctx);
        if (r instanceof Promise) {
            proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
        }
        else {
            handlePropertyResult(r, payload, key, input, optin, optout);
        }
    }
    if (unrecognized.length) {
        payload.issues.push({
            code: "unrecognized_keys",
            keys: unrecognized,
            input,
            inst,
            // Describes the shape of the input, not the validity of the parsed value, so it never aborts. The parse still fails; the schema's own checks just get to run first, and an enclosing intersection can reconcile the key against a sibling operand.
            continue: true,
        });
    }
    if (!proms.length)
        return payload;
    return Promise.all(proms).then(() => {
        return payload;
    });
}
const $ZodObject = /*@__PURE__*/ $constructor("$ZodObject", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodType.init(inst, def);
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    // a cloned def carries its source's accessor, which knows the shape it answers from; adopting that keeps the clone's keys readable without running it
    const sh = desc?.get ? desc.get.raw : (def.shape ?? {});
    if (sh) {
        // Freezes the shape on first read, so its getters resolve once and every later read sees the same schemas.
        const get = () => {
            const newSh = { ...sh };
            Object.defineProperty(def, "shape", { value: newSh });
            get.raw = newSh;
            return newSh;
        };
        get.raw = sh;
        Object.defineProperty(def, "shape", { get });
    }
    const _normalized = cached(() => normalizeDef(def));
    defineLazyInternal(inst, "propValues", (zod) => {
        const shape = zod.def.shape;
        const propValues = {};
        for (const key in shape) {
            const field = shape[key]._zod;
            if (field.values) {
                if (!Object.prototype.hasOwnProperty.call(propValues, key)) {
                    util_assignProp(propValues, key, new Set());
                }
                for (const v of field.values)
                    propValues[key].add(v);
                // An omittable slot reads back as undefined at a discriminator lookup, so it has to claim undefined: two options that can both omit the key are not discriminable on it.
                if (field.optin !== undefined)
                    propValues[key].add(undefined);
            }
        }
        return propValues;
    });
    const isObject = util_isObject;
    const catchall = def.catchall;
    let value;
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
        const proms = [];
        const shape = value.shape;
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const key of value.allKeys) {
            if (abortEarly && payload.issues.length !== seen) {
                if (aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            if (key === "__proto__")
                continue;
            const el = shape[key];
            const optin = el._zod.optin;
            const optout = el._zod.optout;
            const r = el._zod.run({ value: input[key], issues: [] }, ctx);
            if (r instanceof Promise) {
                proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
            }
            else {
                handlePropertyResult(r, payload, key, input, optin, optout);
            }
        }
        if (!catchall) {
            return proms.length ? Promise.all(proms).then(() => payload) : payload;
        }
        return handleCatchall(proms, input, payload, ctx, _normalized.value, inst, abortEarly === true);
    };
});
const $ZodObjectJIT = /*@__PURE__*/ $constructor("$ZodObjectJIT", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodObject.init(inst, def);
    const superParse = inst._zod.parse;
    const _normalized = cached(() => normalizeDef(def));
    const memo = globalConfig.memoizer;
    const generateFastpass = (shape) => {
        const normalized = _normalized.value;
        const syms = normalized.symbolKeys;
        // a symbol has no source literal, so it is read as `syms[i]` off the closed-over scope
        const doc = new Doc(["payload", "ctx"], { shape, inst, memo, syms });
        const parseStr = (k) => `shape[${k}]._zod.run({ value: input[${k}], issues: [] }, ctx)`;
        // prefixes in place, like util.prefixIssues. newResult must land before the early return: a catchall runs after this and would otherwise write onto the caller's input
        const prefixStr = (id, k) => `
          let ${id}_ab = false;
          for (let i = 0; i < ${id}.issues.length; i++) {
            const iss = ${id}.issues[i];
            iss.path = iss.path ? [${k}, ...iss.path] : [${k}];
            payload.issues.push(iss);
            if (iss.continue !== true) ${id}_ab = true;
          }
          if (${id}_ab && ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }`;
        doc.write(`const input = payload.value;`);
        const ids = Object.create(null);
        let counter = 0;
        for (const key of normalized.allKeys) {
            ids[key] = `key_${counter++}`;
        }
        // A: preserve key order {
        doc.write(memo ? `const newResult = memo.alloc(inst, payload, {}, ctx);` : `const newResult = {};`);
        for (const key of normalized.allKeys) {
            if (key === "__proto__")
                continue;
            const id = ids[key];
            const k = typeof key === "symbol" ? `syms[${syms.indexOf(key)}]` : esc(key);
            const isPresent = `${k} in input`;
            const schema = shape[key];
            const optin = schema?._zod?.optin;
            const isOptionalIn = optin !== undefined;
            const isOptionalOut = schema?._zod?.optout === "optional";
            doc.write(`const ${id} = ${parseStr(k)};`);
            if (isOptionalIn && isOptionalOut) {
                // For optional-in/out schemas, ignore errors on absent keys — and, like the interpreted path, drop the value produced alongside them. The middle rung goes further: it permits absence without supplying anything in its place, so an absent key contributes nothing at all.
                const assign = optin === "optional" ? `${id}_present` : `${id}.value !== undefined || ${id}_present`;
                doc.write(`
        const ${id}_present = ${isPresent};
        if (!${id}.issues.length || ${id}_present) {
          if (${id}.issues.length) {${prefixStr(id, k)}
          }

          if (${assign}) {
            newResult[${k}] = ${id}.value;
          }
        }

      `);
            }
            else if (!isOptionalIn) {
                doc.write(`
        const ${id}_present = ${isPresent};
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
        if (!${id}_present && !${id}.issues.length) {
          payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: undefined,
            path: [${k}]
          });
          if (ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }
        }

        if (${id}_present) {
          newResult[${k}] = ${id}.value;
        }

      `);
            }
            else {
                doc.write(`
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
      `);
                if (optin === "defaulted") {
                    doc.write(`newResult[${k}] = ${id}.value;`);
                }
                else {
                    doc.write(`
        if (${id}.value !== undefined || ${isPresent}) {
          newResult[${k}] = ${id}.value;
        }
      `);
                }
            }
        }
        doc.write(`payload.value = newResult;`);
        doc.write(`return payload;`);
        // closing `shape` in is what pays: turbofan specializes the parser against that one shape object, so every `shape[k]._zod.run` folds to a known callee. as a parameter it stays a generic load and measures 13% slower even with the forwarding frame gone
        return doc.compile();
    };
    let fastpass;
    const isObject = util_isObject;
    const jit = !globalConfig.jitless;
    const allowsEval = util_allowsEval;
    const fastEnabled = jit && allowsEval.value; // && !def.catchall;
    const catchall = def.catchall;
    let value;
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        if (jit && fastEnabled && ctx?.async === false && ctx.jitless !== true) {
            // always synchronous
            if (!fastpass)
                fastpass = generateFastpass(def.shape);
            payload = fastpass(payload, ctx);
            if (!catchall)
                return payload;
            return handleCatchall([], input, payload, ctx, value, inst, ctx?.abortEarly === true);
        }
        return superParse(payload, ctx);
    };
});
function handleUnionResults(results, final, inst, ctx) {
    for (const result of results) {
        if (result.issues.length === 0) {
            final.value = result.value;
            return final;
        }
    }
    const nonaborted = results.filter((r) => !aborted(r));
    if (nonaborted.length === 1) {
        final.value = nonaborted[0].value;
        return nonaborted[0];
    }
    final.issues.push({
        code: "invalid_union",
        input: final.value,
        inst,
        errors: results.map((result) => result.issues.map((iss) => finalizeIssue(iss, ctx, config()))),
    });
    return final;
}
const $ZodUnion = /*@__PURE__*/ $constructor("$ZodUnion", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.options.some((o) => o._zod.optin === "defaulted")
        ? "defaulted"
        : zod.def.options.some((o) => o._zod.optin !== undefined)
            ? "optional"
            : undefined);
    defineLazyInternal(inst, "optout", (zod) => zod.def.options.some((o) => o._zod.optout === "optional") ? "optional" : undefined);
    defineLazyInternal(inst, "values", (zod) => {
        if (zod.def.options.every((o) => o._zod.values)) {
            return new Set(zod.def.options.flatMap((option) => Array.from(option._zod.values)));
        }
        return undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        if (zod.def.options.every((o) => o._zod.pattern)) {
            const patterns = zod.def.options.map((o) => o._zod.pattern);
            return new RegExp(`^(${patterns.map((p) => cleanRegex(p.source)).join("|")})$`);
        }
        return undefined;
    });
    const first = def.options.length === 1 ? def.options[0]._zod.run : null;
    inst._zod.parse = (payload, ctx) => {
        if (first) {
            return first(payload, ctx);
        }
        let async = false;
        const results = [];
        for (const option of def.options) {
            const result = option._zod.run({
                value: payload.value,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                results.push(result);
                async = true;
            }
            else {
                if (result.issues.length === 0)
                    return result;
                results.push(result);
            }
        }
        if (!async)
            return handleUnionResults(results, payload, inst, ctx);
        return Promise.all(results).then((results) => {
            return handleUnionResults(results, payload, inst, ctx);
        });
    };
});
function handleExclusiveUnionResults(results, final, inst, ctx) {
    const matches = [];
    for (let i = 0; i < results.length; i++) {
        if (results[i].issues.length === 0)
            matches.push(i);
    }
    if (matches.length === 1) {
        final.value = results[matches[0]].value;
        return final;
    }
    if (matches.length === 0) {
        // No matches - same as regular union
        final.issues.push({
            code: "invalid_union",
            input: final.value,
            inst,
            errors: results.map((result) => result.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config()))),
        });
    }
    else {
        // Multiple matches - exclusive union failure
        final.issues.push({
            code: "invalid_union",
            input: final.value,
            inst,
            errors: [],
            inclusive: false,
            matches,
        });
    }
    return final;
}
const $ZodXor = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodXor", (inst, def) => {
    $ZodUnion.init(inst, def);
    def.inclusive = false;
    const first = def.options.length === 1 ? def.options[0]._zod.run : null;
    inst._zod.parse = (payload, ctx) => {
        if (first) {
            return first(payload, ctx);
        }
        let async = false;
        const results = [];
        for (const option of def.options) {
            const result = option._zod.run({
                value: payload.value,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                results.push(result);
                async = true;
            }
            else {
                results.push(result);
            }
        }
        if (!async)
            return handleExclusiveUnionResults(results, payload, inst, ctx);
        return Promise.all(results).then((results) => {
            return handleExclusiveUnionResults(results, payload, inst, ctx);
        });
    };
})));
/** Returns the option whose discriminator claims `value`, or throws if ambiguous. */
function getDiscriminatedOption(union, value) {
    const internals = union._zod;
    let map = internals.bag.optionsMap;
    if (!map) {
        map = discriminatorMap(internals.def);
        internals.bag.optionsMap = map;
    }
    const option = map.get(value);
    if (option === null)
        throw new Error(`Ambiguous discriminator value "${String(value)}"`);
    return option;
}
function discriminatorMap(def) {
    const map = new Map();
    for (const option of def.options) {
        const values = option._zod.propValues?.[def.discriminator];
        if (!values || values.size === 0)
            throw new Error(`Invalid discriminated union option at index "${def.options.indexOf(option)}"`);
        for (const value of values) {
            if (map.has(value)) {
                if (value !== undefined)
                    throw new Error(`Duplicate discriminator value "${String(value)}"`);
                // keep the collision marked so a later member cannot reclaim it
                map.set(value, null);
            }
            else {
                map.set(value, option);
            }
        }
    }
    return map;
}
const $ZodDiscriminatedUnion = 
/*@__PURE__*/
$constructor("$ZodDiscriminatedUnion", (inst, def) => {
    def.inclusive = false;
    $ZodUnion.init(inst, def);
    const _super = inst._zod.parse;
    defineLazyInternal(inst, "propValues", (zod) => {
        const propValues = {};
        let undefinedCount = 0;
        for (const option of zod.def.options) {
            const pv = option._zod.propValues;
            if (!pv || Object.keys(pv).length === 0)
                throw new Error(`Invalid discriminated union option at index "${zod.def.options.indexOf(option)}"`);
            if (pv[zod.def.discriminator]?.has(undefined))
                undefinedCount++;
            for (const [k, v] of Object.entries(pv)) {
                if (!Object.prototype.hasOwnProperty.call(propValues, k)) {
                    util_assignProp(propValues, k, new Set());
                }
                for (const val of v) {
                    propValues[k].add(val);
                }
            }
        }
        if (!zod.def.unionFallback && undefinedCount > 1)
            propValues[zod.def.discriminator]?.delete(undefined);
        return propValues;
    });
    // Checked now rather than in the lookup map below, so an option that lacks the discriminator fails at the `discriminatedUnion` call instead of on the first object parsed. Options whose shape cannot be enumerated without resolving it — pipes and lazies — are left to the map.
    def.options.forEach((option, i) => {
        const propShape = rawShape(option._zod.def);
        if (propShape && !Object.prototype.hasOwnProperty.call(propShape, def.discriminator)) {
            throw new Error(`Invalid discriminated union option at index "${i}"`);
        }
    });
    const disc = cached(() => discriminatorMap(def));
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!util_isObject(input)) {
            payload.issues.push({
                code: "invalid_type",
                expected: "object",
                input,
                inst,
            });
            return payload;
        }
        const value = input?.[def.discriminator];
        const opt = disc.value.get(value);
        // forward metadata cannot choose an encoder for an absent tag
        if (opt && (value !== undefined || ctx.direction !== "backward")) {
            return opt._zod.run(payload, ctx);
        }
        // Fall back to union matching when the fast discriminator path fails:
        // - explicitly enabled via unionFallback, or
        // - during backward direction (encode), since codec-based discriminators have different values in forward vs backward directions
        if (def.unionFallback || ctx.direction === "backward") {
            return _super(payload, ctx);
        }
        // no matching discriminator
        payload.issues.push({
            code: "invalid_union",
            errors: [],
            note: "No matching discriminator",
            discriminator: def.discriminator,
            options: Array.from(disc.value.keys()).filter((value) => disc.value.get(value) !== null),
            input,
            path: [def.discriminator],
            inst,
        });
        return payload;
    };
});
const $ZodIntersection = /*@__PURE__*/ $constructor("$ZodIntersection", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        const left = def.left._zod.run({ value: input, issues: [] }, ctx);
        const right = def.right._zod.run({ value: input, issues: [] }, ctx);
        const async = left instanceof Promise || right instanceof Promise;
        if (async) {
            return Promise.all([left, right]).then(([left, right]) => {
                return handleIntersectionResults(payload, left, right);
            });
        }
        return handleIntersectionResults(payload, left, right);
    };
});
function mergeValues(a, b) {
    // const aType = parse.t(a);
    // const bType = parse.t(b);
    if (a === b) {
        return { valid: true, data: a };
    }
    if (a instanceof Date && b instanceof Date && +a === +b) {
        return { valid: true, data: a };
    }
    if (isPlainObject(a) && isPlainObject(b)) {
        const bKeys = Object.keys(b);
        const sharedKeys = Object.keys(a).filter((key) => bKeys.indexOf(key) !== -1);
        const newObj = { ...a, ...b };
        if (Object.prototype.hasOwnProperty.call(newObj, "__proto__"))
            delete newObj.__proto__;
        for (const key of sharedKeys) {
            if (key === "__proto__")
                continue;
            const sharedValue = mergeValues(a[key], b[key]);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [key, ...sharedValue.mergeErrorPath],
                };
            }
            newObj[key] = sharedValue.data;
        }
        return { valid: true, data: newObj };
    }
    if (Array.isArray(a) && Array.isArray(b)) {
        if (a.length !== b.length) {
            return { valid: false, mergeErrorPath: [] };
        }
        const newArray = [];
        for (let index = 0; index < a.length; index++) {
            const itemA = a[index];
            const itemB = b[index];
            const sharedValue = mergeValues(itemA, itemB);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [index, ...sharedValue.mergeErrorPath],
                };
            }
            newArray.push(sharedValue.data);
        }
        return { valid: true, data: newArray };
    }
    return { valid: false, mergeErrorPath: [] };
}
function handleIntersectionResults(result, left, right) {
    // Track which side(s) reject each key. A key rejection is reported only when BOTH sides reject it, so a key owned by one branch survives the other's key schema. strictObject reports these as unrecognized_keys; a record with an open key schema reports one invalid_key per key.
    const unrecKeys = new Map();
    let unrecIssue;
    const keyIssues = new Map();
    const collect = (iss, side) => {
        let keys;
        if (iss.code === "unrecognized_keys" && !iss.path?.length) {
            unrecIssue ?? (unrecIssue = iss);
            keys = iss.keys;
        }
        else if (iss.code === "invalid_key" && iss.origin === "record" && iss.path?.length === 1) {
            const k = String(iss.path[0]);
            if (!keyIssues.has(k))
                keyIssues.set(k, iss);
            keys = [k];
        }
        else {
            return false;
        }
        for (const k of keys) {
            if (!unrecKeys.has(k))
                unrecKeys.set(k, {});
            unrecKeys.get(k)[side] = true;
        }
        return true;
    };
    for (const iss of left.issues) {
        if (!collect(iss, "l"))
            result.issues.push(iss);
    }
    for (const iss of right.issues) {
        if (!collect(iss, "r"))
            result.issues.push(iss);
    }
    // Report only keys rejected by BOTH sides
    const bothKeys = [...unrecKeys].filter(([, f]) => f.l && f.r).map(([k]) => k);
    if (bothKeys.length) {
        const aggregated = unrecIssue ? bothKeys.filter((k) => unrecIssue.keys.includes(k)) : [];
        if (aggregated.length)
            result.issues.push({ ...unrecIssue, keys: aggregated });
        for (const k of bothKeys) {
            if (!aggregated.includes(k) && keyIssues.has(k))
                result.issues.push(keyIssues.get(k));
        }
    }
    const merged = mergeValues(left.value, right.value);
    if (!merged.valid) {
        if (aborted(result))
            return result;
        throw new Error(`Unmergable intersection. Error path: ` + `${JSON.stringify(merged.mergeErrorPath)}`);
    }
    result.value = merged.data;
    return result;
}
const $ZodTuple = /*@__PURE__*/ $constructor("$ZodTuple", (inst, def) => {
    $ZodType.init(inst, def);
    const items = def.items;
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!Array.isArray(input)) {
            payload.issues.push({
                input,
                inst,
                expected: "tuple",
                code: "invalid_type",
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, [], ctx) : [];
        const proms = [];
        const optinStart = getTupleOptStart(items, "optin");
        const optoutStart = getTupleOptStart(items, "optout");
        if (!def.rest) {
            if (input.length < optinStart) {
                payload.issues.push({
                    code: "too_small",
                    minimum: optinStart,
                    inclusive: true,
                    input,
                    inst,
                    origin: "array",
                });
                return payload;
            }
            if (input.length > items.length) {
                payload.issues.push({
                    code: "too_big",
                    maximum: items.length,
                    inclusive: true,
                    input,
                    inst,
                    origin: "array",
                });
            }
        }
        // Run every item in parallel, collecting results into an indexed array. The post-processing in `handleTupleResults` walks them in order so it can decide whether an absent optional-output error can truncate the tail or must be reported to preserve required output.
        const itemResults = new Array(items.length);
        // only tracked when there is a rest loop to skip
        const abortEarly = def.rest ? ctx?.abortEarly : undefined;
        let itemAborted = false;
        for (let i = 0; i < items.length; i++) {
            const r = items[i]._zod.run({ value: input[i], issues: [] }, ctx);
            if (r instanceof Promise) {
                proms.push(r.then((rr) => {
                    itemResults[i] = rr;
                }));
            }
            else {
                itemResults[i] = r;
                if (abortEarly && !itemAborted && r.issues.length)
                    itemAborted = aborted(r);
            }
        }
        // sound because rest is non-empty exactly when every fixed index is present, the one case handleTupleResults cannot discard an item's issues
        if (def.rest && !itemAborted) {
            let i = items.length - 1;
            const rest = input.slice(items.length);
            let seen = payload.issues.length;
            for (const el of rest) {
                if (abortEarly && payload.issues.length !== seen) {
                    if (aborted(payload, seen))
                        break;
                    seen = payload.issues.length;
                }
                i++;
                const result = def.rest._zod.run({ value: el, issues: [] }, ctx);
                if (result instanceof Promise) {
                    proms.push(result.then((r) => handleTupleResult(r, payload, i)));
                }
                else {
                    handleTupleResult(result, payload, i);
                }
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => handleTupleResults(itemResults, payload, items, input, optoutStart));
        }
        return handleTupleResults(itemResults, payload, items, input, optoutStart);
    };
});
function getTupleOptStart(items, key) {
    for (let i = items.length - 1; i >= 0; i--) {
        // optin is a three-rung ladder so any rung above `undefined` permits an absent slot; optout stays two-valued.
        const omittable = key === "optin" ? items[i]._zod.optin !== undefined : items[i]._zod.optout === "optional";
        if (!omittable)
            return i + 1;
    }
    return 0;
}
function handleTupleResult(result, final, index) {
    if (result.issues.length) {
        final.issues.push(...prefixIssues(index, result.issues));
    }
    final.value[index] = result.value;
}
function handleTupleResults(itemResults, final, items, input, optoutStart) {
    // Walk results in order. Mirror $ZodObject's swallow-on-absent-optional rule, but only after `optoutStart`: the first index where the output tuple tail can be absent.
    for (let i = 0; i < items.length; i++) {
        const r = itemResults[i];
        const isPresent = i < input.length;
        // The array analog of `handlePropertyResult`'s absent-key early return: the middle rung permits absence without supplying anything in its place, so the tail truncates here instead of materializing whatever the item made of `undefined`.
        if (!isPresent && i >= optoutStart && items[i]._zod.optin === "optional") {
            final.value.length = i;
            break;
        }
        if (r.issues.length) {
            if (!isPresent && i >= optoutStart) {
                final.value.length = i;
                break;
            }
            final.issues.push(...prefixIssues(i, r.issues));
        }
        final.value[i] = r.value;
    }
    // Drop trailing slots that produced `undefined` for absent input
    // (the array analog of an absent optional key on an object). The
    // `i >= input.length` floor is critical: an explicit `undefined`
    // *inside* the input must be preserved even when the schema is
    // optional-out (e.g. `z.string().or(z.undefined())` accepting an
    // explicit undefined value).
    for (let i = final.value.length - 1; i >= input.length; i--) {
        if (items[i]._zod.optout === "optional" && final.value[i] === undefined) {
            final.value.length = i;
        }
        else {
            break;
        }
    }
    return final;
}
const $ZodRecord = /*@__PURE__*/ $constructor("$ZodRecord", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!isPlainObject(input)) {
            payload.issues.push({
                expected: "record",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        // no guard in either loop below: a record's invalid_key aborts but an enclosing intersection can reconcile it, so a stopped loop hides keys the sibling does not own and the intersection then rejects nothing
        const proms = [];
        const values = def.keyType._zod.values;
        if (values && !def.partial) {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            const recordKeys = new Set();
            for (const key of values) {
                if (typeof key === "string" || typeof key === "number" || typeof key === "symbol") {
                    recordKeys.add(typeof key === "number" ? key.toString() : key);
                    // A declared __proto__ is stripped but is not an unrecognized key.
                    if (key === "__proto__")
                        continue;
                    const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                    if (keyResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (keyResult.issues.length) {
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                        continue;
                    }
                    const outKey = keyResult.value;
                    if (outKey === "__proto__")
                        continue;
                    const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                    if (result instanceof Promise) {
                        proms.push(result.then((result) => {
                            if (result.issues.length) {
                                payload.issues.push(...prefixIssues(key, result.issues));
                            }
                            payload.value[outKey] = result.value;
                        }));
                    }
                    else {
                        if (result.issues.length) {
                            payload.issues.push(...prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }
                }
            }
            let unrecognized;
            for (const key in input) {
                if (!recordKeys.has(key)) {
                    if (def.mode === "loose") {
                        // skip __proto__ so it can't replace the result prototype via the assignment setter on the plain {} we build into
                        if (key === "__proto__")
                            continue;
                        payload.value[key] = input[key];
                    }
                    else {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        else {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            // An enumerable key schema declares which keys the record owns, so a key outside the set is unrecognized. A non-enumerable one (regex, refine) is a constraint every key must satisfy, so a failing key is invalid. Only the former is reconcilable against the other side of an intersection.
            let unrecognized;
            // Reflect.ownKeys for Symbol-key support; filter non-enumerable to match z.object()
            for (const key of Reflect.ownKeys(input)) {
                if (key === "__proto__")
                    continue;
                if (!Object.prototype.propertyIsEnumerable.call(input, key))
                    continue;
                let keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                if (keyResult instanceof Promise) {
                    throw new Error("Async schemas not supported in object keys currently");
                }
                // Numeric string fallback: if key is a numeric string and failed, retry with Number(key). This handles z.number(), z.literal([1, 2, 3]), and unions containing numeric literals
                const checkNumericKey = typeof key === "string" && number.test(key) && keyResult.issues.length;
                if (checkNumericKey) {
                    const retryResult = def.keyType._zod.run({ value: Number(key), issues: [] }, ctx);
                    if (retryResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (retryResult.issues.length === 0) {
                        keyResult = retryResult;
                    }
                }
                if (keyResult.issues.length) {
                    if (def.mode === "loose") {
                        // Pass through unchanged
                        payload.value[key] = input[key];
                    }
                    else if (values) {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                    else {
                        // Default "strict" behavior: error on invalid key
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                    }
                    continue;
                }
                // the guard above tests the raw input key, but the key schema can normalize an ordinary key into __proto__; re-check the key we actually write under
                const outKey = keyResult.value;
                if (outKey === "__proto__")
                    continue;
                const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                if (result instanceof Promise) {
                    proms.push(result.then((result) => {
                        if (result.issues.length) {
                            payload.issues.push(...prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }));
                }
                else {
                    if (result.issues.length) {
                        payload.issues.push(...prefixIssues(key, result.issues));
                    }
                    payload.value[outKey] = result.value;
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload;
    };
});
const $ZodMap = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodMap", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = core.globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!(input instanceof Map)) {
            payload.issues.push({
                expected: "map",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        const proms = [];
        payload.value = memo ? memo.alloc(inst, payload, new Map(), ctx) : new Map();
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const [key, value] of input) {
            if (abortEarly && payload.issues.length !== seen) {
                if (util.aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
            const valueResult = def.valueType._zod.run({ value: value, issues: [] }, ctx);
            if (keyResult instanceof Promise || valueResult instanceof Promise) {
                proms.push(Promise.all([keyResult, valueResult]).then(([keyResult, valueResult]) => {
                    handleMapResult(keyResult, valueResult, payload, key, input, inst, ctx);
                }));
            }
            else {
                handleMapResult(keyResult, valueResult, payload, key, input, inst, ctx);
            }
        }
        if (proms.length)
            return Promise.all(proms).then(() => payload);
        return payload;
    };
    capSize(inst, mapSize);
})));
function handleMapResult(keyResult, valueResult, final, key, input, inst, ctx) {
    if (keyResult.issues.length) {
        if (util.propertyKeyTypes.has(typeof key)) {
            final.issues.push(...util.prefixIssues(key, keyResult.issues));
        }
        else {
            final.issues.push({
                code: "invalid_key",
                origin: "map",
                input,
                inst,
                issues: keyResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
            });
        }
    }
    if (valueResult.issues.length) {
        if (util.propertyKeyTypes.has(typeof key)) {
            final.issues.push(...util.prefixIssues(key, valueResult.issues));
        }
        else {
            final.issues.push({
                origin: "map",
                code: "invalid_element",
                input,
                inst,
                key: key,
                issues: valueResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
            });
        }
    }
    final.value.set(keyResult.value, valueResult.value);
}
const $ZodSet = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSet", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = core.globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!(input instanceof Set)) {
            payload.issues.push({
                input,
                inst,
                expected: "set",
                code: "invalid_type",
            });
            return payload;
        }
        const proms = [];
        payload.value = memo ? memo.alloc(inst, payload, new Set(), ctx) : new Set();
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const item of input) {
            if (abortEarly && payload.issues.length !== seen) {
                if (util.aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            const result = def.valueType._zod.run({ value: item, issues: [] }, ctx);
            if (result instanceof Promise) {
                proms.push(result.then((result) => handleSetResult(result, payload)));
            }
            else
                handleSetResult(result, payload);
        }
        if (proms.length)
            return Promise.all(proms).then(() => payload);
        return payload;
    };
    capSize(inst, setSize);
})));
function handleSetResult(result, final) {
    if (result.issues.length) {
        final.issues.push(...result.issues);
    }
    final.value.add(result.value);
}
const $ZodEnum = /*@__PURE__*/ $constructor("$ZodEnum", (inst, def) => {
    $ZodType.init(inst, def);
    const values = getEnumValues(def.entries);
    const valuesSet = new Set(values);
    inst._zod.values = valuesSet;
    defineLazyInternal(inst, "pattern", (zod) => {
        const patternValues = getEnumValues(zod.def.entries).filter((k) => propertyKeyTypes.has(typeof k));
        // unmatchable fallback, RE2-safe: an empty alternation would compile to /^()$/, which matches ""
        return new RegExp(patternValues.length ? `^(${patternValues.map((o) => escapeRegex(o.toString())).join("|")})$` : "^[^\\s\\S]$");
    });
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (valuesSet.has(input)) {
            return payload;
        }
        payload.issues.push({
            code: "invalid_value",
            values,
            input,
            inst,
        });
        return payload;
    };
});
const $ZodLiteral = /*@__PURE__*/ $constructor("$ZodLiteral", (inst, def) => {
    $ZodType.init(inst, def);
    const values = new Set(def.values);
    inst._zod.values = values;
    defineLazyInternal(inst, "pattern", (zod) => {
        const vals = zod.def.values;
        // unmatchable fallback, RE2-safe: an empty alternation would compile to /^()$/, which matches ""
        return new RegExp(vals.length
            ? `^(${vals
                .map((o) => typeof o === "string" ? escapeRegex(o) : o ? escapeRegex(o.toString()) : String(o))
                .join("|")})$`
            : "^[^\\s\\S]$");
    });
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (values.has(input)) {
            return payload;
        }
        payload.issues.push({
            code: "invalid_value",
            values: def.values,
            input,
            inst,
        });
        return payload;
    };
});
const $ZodFile = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodFile", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        // @ts-ignore
        if (input instanceof File)
            return payload;
        payload.issues.push({
            expected: "file",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodTransform = /*@__PURE__*/ $constructor("$ZodTransform", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "optional";
    globalConfig.memoizer?.guard(inst);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            throw new $ZodEncodeError(inst.constructor.name);
        }
        const _out = def.transform(payload.value, payload);
        if (ctx.async) {
            const output = _out instanceof Promise ? _out : Promise.resolve(_out);
            return output.then((output) => {
                payload.value = output;
                return payload;
            });
        }
        if (_out instanceof Promise) {
            throw new $ZodAsyncError();
        }
        payload.value = _out;
        return payload;
    };
});
function handleOptionalResult(payload, result) {
    // A substituting schema that still failed has no usable answer; yield undefined. Its issues are simply dropped: it ran on a payload of its own, so there is no shared array to truncate and nothing of the caller's to lose with it.
    payload.value = result.issues.length ? undefined : result.value;
    return payload;
}
const $ZodOptional = /*@__PURE__*/ $constructor("$ZodOptional", (inst, def) => {
    $ZodType.init(inst, def);
    // .optional() propagates absence rather than substituting for it, so a defaulted inner keeps its rung.
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    inst._zod.optout = "optional";
    defineLazyInternal(inst, "values", (zod) => {
        const values = zod.def.innerType._zod.values;
        return values ? new Set([...values, undefined]) : undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)})?$`) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        if (payload.value === undefined) {
            // Only the top rung substitutes a value for absence; everything else leaves it intact, which is what .optional() means.
            if (def.innerType._zod.optin !== "defaulted")
                return payload;
            // Its own payload, for the same reason $ZodCatch gets one: a pipe forwards an unrecognized key through the caller's issues array, and this must not read that as the substituting schema failing and drop it.
            const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
            if (result instanceof Promise)
                return result.then((result) => handleOptionalResult(payload, result));
            return handleOptionalResult(payload, result);
        }
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodExactOptional = /*@__PURE__*/ $constructor("$ZodExactOptional", (inst, def) => {
    // Call parent init - inherits optin/optout = "optional"
    $ZodOptional.init(inst, def);
    // Override values/pattern to NOT add undefined
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    defineLazyInternal(inst, "pattern", (zod) => zod.def.innerType._zod.pattern);
    // Override parse to just delegate (no undefined handling)
    inst._zod.parse = (payload, ctx) => {
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodNullable = /*@__PURE__*/ $constructor("$ZodNullable", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)}|null)$`) : undefined;
    });
    defineLazyInternal(inst, "values", (zod) => {
        return zod.def.innerType._zod.values ? new Set([...zod.def.innerType._zod.values, null]) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        // Forward direction (decode): allow null to pass through
        if (payload.value === null)
            return payload;
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodDefault = /*@__PURE__*/ $constructor("$ZodDefault", (inst, def) => {
    $ZodType.init(inst, def);
    // inst._zod.qin = "true";
    inst._zod.optin = "defaulted";
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply defaults for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
            /**
             * $ZodDefault returns the default value immediately in forward direction.
             * It doesn't pass the default value into the validator ("prefault"). There's no reason to pass the default value through validation. The validity of the default is enforced by TypeScript statically. Otherwise, it's the responsibility of the user to ensure the default is valid. In the case of pipes with divergent in/out types, you can specify the default on the `in` schema of your ZodPipe to set a "prefault" for the pipe.   */
            return payload;
        }
        // Forward direction: continue with default handling
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleDefaultResult(result, def));
        }
        return handleDefaultResult(result, def);
    };
});
function handleDefaultResult(payload, def) {
    if (payload.value === undefined) {
        payload.value = def.defaultValue;
    }
    return payload;
}
const $ZodPrefault = /*@__PURE__*/ $constructor("$ZodPrefault", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "defaulted";
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply prefault for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
        }
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodNonOptional = /*@__PURE__*/ $constructor("$ZodNonOptional", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "values", (zod) => {
        const v = zod.def.innerType._zod.values;
        return v ? new Set([...v].filter((x) => x !== undefined)) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleNonOptionalResult(result, inst));
        }
        return handleNonOptionalResult(result, inst);
    };
});
function handleNonOptionalResult(payload, inst) {
    if (!payload.issues.length && payload.value === undefined) {
        payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: payload.value,
            inst,
        });
    }
    return payload;
}
const $ZodSuccess = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSuccess", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            throw new core.$ZodEncodeError("ZodSuccess");
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => {
                payload.value = result.issues.length === 0;
                return payload;
            });
        }
        payload.value = result.issues.length === 0;
        return payload;
    };
})));
function handleCatchResult(payload, result, def, ctx) {
    if (!result.issues.length) {
        payload.value = result.value;
        // The value carries up, so the flag describing it has to carry with it: a back-edge into a node still being parsed must not be frozen by an enclosing readonly, and its checks belong to the node itself. Guarded so the ordinary case adds no own property.
        if (result.memo)
            payload.memo = true;
        return payload;
    }
    // Spread the inner's own payload, not ours: `value` has to stay the input the catch was handed, and the inner ran on a payload of its own so its issues are already private to this call.
    payload.value = def.catchValue({
        ...result,
        value: payload.value,
        error: {
            issues: result.issues.map((iss) => finalizeIssue(iss, ctx, config())),
        },
        input: payload.value,
    });
    return payload;
}
const $ZodCatch = /*@__PURE__*/ $constructor("$ZodCatch", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply catch logic
        const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleCatchResult(payload, result, def, ctx));
        }
        return handleCatchResult(payload, result, def, ctx);
    };
});
const $ZodNaN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodNaN", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "number" || !Number.isNaN(payload.value)) {
            payload.issues.push({
                input: payload.value,
                inst,
                expected: "nan",
                code: "invalid_type",
            });
            return payload;
        }
        return payload;
    };
})));
const $ZodPipe = /*@__PURE__*/ $constructor("$ZodPipe", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
    defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
    defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            const right = def.out._zod.run(payload, ctx);
            if (right instanceof Promise) {
                return right.then((right) => handlePipeResult(right, def.in, ctx));
            }
            return handlePipeResult(right, def.in, ctx);
        }
        const left = def.in._zod.run(payload, ctx);
        if (left instanceof Promise) {
            return left.then((left) => handlePipeResult(left, def.out, ctx));
        }
        return handlePipeResult(left, def.out, ctx);
    };
});
function handlePipeResult(left, next, ctx) {
    // Any issue stops the pipe, so a failing refinement never feeds its transform. An unrecognized key is the exception: it describes the input's extra properties, not the value being piped, and an enclosing intersection may yet reconcile it.
    if (left.issues.some((iss) => iss.code !== "unrecognized_keys")) {
        // prevent further checks
        left.aborted = true;
        return left;
    }
    return next._zod.run({ value: left.value, issues: left.issues }, ctx);
}
const $ZodCodec = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCodec", (inst, def) => {
    $ZodType.init(inst, def);
    util.defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
    util.defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
    util.defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
    util.defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
    inst._zod.parse = (payload, ctx) => {
        const direction = ctx.direction || "forward";
        if (direction === "forward") {
            const left = def.in._zod.run(payload, ctx);
            if (left instanceof Promise) {
                return left.then((left) => handleCodecAResult(left, def, ctx));
            }
            return handleCodecAResult(left, def, ctx);
        }
        else {
            const right = def.out._zod.run(payload, ctx);
            if (right instanceof Promise) {
                return right.then((right) => handleCodecAResult(right, def, ctx));
            }
            return handleCodecAResult(right, def, ctx);
        }
    };
})));
function handleCodecAResult(result, def, ctx) {
    if (result.issues.length) {
        // prevent further checks
        result.aborted = true;
        return result;
    }
    const direction = ctx.direction || "forward";
    if (direction === "forward") {
        const transformed = def.transform(result.value, result);
        if (transformed instanceof Promise) {
            return transformed.then((value) => handleCodecTxResult(result, value, def.out, ctx));
        }
        return handleCodecTxResult(result, transformed, def.out, ctx);
    }
    else {
        const transformed = def.reverseTransform(result.value, result);
        if (transformed instanceof Promise) {
            return transformed.then((value) => handleCodecTxResult(result, value, def.in, ctx));
        }
        return handleCodecTxResult(result, transformed, def.in, ctx);
    }
}
function handleCodecTxResult(left, value, nextSchema, ctx) {
    // Check if transform added any issues
    if (left.issues.length) {
        left.aborted = true;
        return left;
    }
    return nextSchema._zod.run({ value, issues: left.issues }, ctx);
}
const $ZodPreprocess = /*@__PURE__*/ $constructor("$ZodPreprocess", (inst, def) => {
    $ZodPipe.init(inst, def);
});
const $ZodReadonly = /*@__PURE__*/ $constructor("$ZodReadonly", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "propValues", (zod) => zod.def.innerType._zod.propValues);
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType?._zod?.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType?._zod?.optout);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then(handleReadonlyResult);
        }
        return handleReadonlyResult(result);
    };
});
function handleReadonlyResult(payload) {
    // A repeat visit hands back a node that is still being built; freezing it here would make the rest of its keys fail to assign.
    if (!payload.memo)
        payload.value = Object.freeze(payload.value);
    return payload;
}
// a leaf's pattern source with its own checks folded in: the last pattern-carrying check wins, else length bounds narrow the catch-all, else an integer format narrows the number form. the fold lives here instead of on `_zod.pattern` so a bundle without template literals never pays for it
function leafPattern(schema) {
    const def = schema._zod.def;
    let pattern = def.pattern;
    let isInt = !!def.format?.includes("int");
    let minimum;
    let maximum;
    for (const ch of def.checks ?? []) {
        const d = ch._zod.def;
        if (d.pattern)
            pattern = d.pattern;
        isInt || (isInt = !!d.format?.includes("int"));
        const lo = d.minimum ?? d.length;
        const hi = d.maximum ?? d.length;
        if (lo !== undefined && (minimum === undefined || lo > minimum))
            minimum = lo;
        if (hi !== undefined && (maximum === undefined || hi < maximum))
            maximum = hi;
    }
    if (pattern)
        return pattern.source;
    // an empty range matches nothing at runtime, and `{8,5}` is not a legal quantifier
    if (minimum !== undefined && maximum !== undefined && minimum > maximum)
        return "(?!)";
    if (minimum !== undefined || maximum !== undefined)
        return regexes.string({ minimum, maximum }).source;
    const own = schema._zod.pattern;
    return (isInt && own === regexes.number ? regexes.integer : own)?.source;
}
// a part's pattern source. a wrapper's pattern embeds its inner pattern's source verbatim, so the folded form is substituted in place without knowing the wrapper's own composition; a union's options are joined the way the union builds its own pattern
function partPattern(schema) {
    const def = schema._zod.def;
    const own = schema._zod.pattern?.source;
    // lazy resolves its inner on the internals, not the def
    const inner = def.innerType ?? schema._zod.innerType;
    if (inner) {
        const before = inner._zod.pattern?.source;
        const after = partPattern(inner);
        if (own && before && after && after !== before) {
            return own.replace(util.cleanRegex(before), () => util.cleanRegex(after));
        }
        return own;
    }
    if (def.options) {
        const sources = def.options.map(partPattern);
        if (sources.every(Boolean))
            return `^(${sources.map((s) => util.cleanRegex(s)).join("|")})$`;
    }
    return leafPattern(schema);
}
const $ZodTemplateLiteral = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodTemplateLiteral", (inst, def) => {
    $ZodType.init(inst, def);
    const regexParts = [];
    for (const part of def.parts) {
        if (typeof part === "object" && part !== null) {
            // is Zod schema
            const source = partPattern(part);
            if (!source) {
                throw new Error(`Invalid template literal part, no pattern found: ${[...part._zod.traits].shift()}`);
            }
            regexParts.push(util.cleanRegex(source));
        }
        else if (part === null || util.primitiveTypes.has(typeof part)) {
            regexParts.push(util.escapeRegex(`${part}`));
        }
        else {
            throw new Error(`Invalid template literal part: ${part}`);
        }
    }
    inst._zod.pattern = new RegExp(`^${regexParts.join("")}$`);
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "string") {
            payload.issues.push({
                input: payload.value,
                inst,
                expected: "string",
                code: "invalid_type",
            });
            return payload;
        }
        inst._zod.pattern.lastIndex = 0;
        if (!inst._zod.pattern.test(payload.value)) {
            payload.issues.push({
                input: payload.value,
                inst,
                code: "invalid_format",
                format: def.format ?? "template_literal",
                pattern: inst._zod.pattern.source,
            });
            return payload;
        }
        return payload;
    };
})));
const $ZodFunction = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodFunction", (inst, def) => {
    $ZodType.init(inst, def);
    // Defined, not assigned: the classic prototype exposes `_def` as a getter with no setter.
    Object.defineProperty(inst, "_def", { value: def });
    inst._zod.def = def;
    inst.implement = (func) => {
        if (typeof func !== "function") {
            throw new Error("implement() must be called with a function");
        }
        // Defined inline so the closure stays anonymous: binding it to a `const` first names it, which costs 256 bytes per implemented function.
        return Object.defineProperty(function (...args) {
            const parsedArgs = inst._def.input ? parse(inst._def.input, args) : args;
            const result = Reflect.apply(func, this, parsedArgs);
            if (inst._def.output) {
                return parse(inst._def.output, result);
            }
            return result;
        }, "_zod", { value: inst._zod, enumerable: false });
    };
    inst.implementAsync = (func) => {
        if (typeof func !== "function") {
            throw new Error("implementAsync() must be called with a function");
        }
        return Object.defineProperty(async function (...args) {
            const parsedArgs = inst._def.input ? await parseAsync(inst._def.input, args) : args;
            const result = await Reflect.apply(func, this, parsedArgs);
            if (inst._def.output) {
                return await parseAsync(inst._def.output, result);
            }
            return result;
        }, "_zod", { value: inst._zod, enumerable: false });
    };
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "function") {
            payload.issues.push({
                code: "invalid_type",
                expected: "function",
                input: payload.value,
                inst,
            });
            return payload;
        }
        // Check if output is a promise type to determine if we should use async implementation
        const hasPromiseOutput = inst._def.output && inst._def.output._zod.def.type === "promise";
        if (hasPromiseOutput) {
            payload.value = inst.implementAsync(payload.value);
        }
        else {
            payload.value = inst.implement(payload.value);
        }
        return payload;
    };
    inst.input = (...args) => {
        const F = inst.constructor;
        if (Array.isArray(args[0])) {
            return new F({
                type: "function",
                input: new $ZodTuple({
                    type: "tuple",
                    items: args[0],
                    rest: args[1],
                }),
                output: inst._def.output,
            });
        }
        return new F({
            type: "function",
            input: args[0],
            output: inst._def.output,
        });
    };
    inst.output = (output) => {
        const F = inst.constructor;
        return new F({
            type: "function",
            input: inst._def.input,
            output,
        });
    };
    return inst;
})));
const $ZodPromise = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodPromise", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        return Promise.resolve(payload.value).then((inner) => def.innerType._zod.run({ value: inner, issues: [] }, ctx));
    };
})));
const $ZodLazy = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodLazy", (inst, def) => {
    $ZodType.init(inst, def);
    // Cache the resolved inner type on the shared `def` so all clones of this lazy (e.g. via `.describe()`/`.meta()`) share the same inner instance, preserving identity for cycle detection on recursive schemas.
    util.defineLazy(inst._zod, "innerType", () => {
        const d = def;
        if (!d._cachedInner)
            d._cachedInner = def.getter();
        return d._cachedInner;
    });
    util.defineLazyInternal(inst, "pattern", (zod) => zod.innerType?._zod?.pattern);
    util.defineLazyInternal(inst, "propValues", (zod) => zod.innerType?._zod?.propValues);
    util.defineLazyInternal(inst, "optin", (zod) => zod.innerType?._zod?.optin ?? undefined);
    util.defineLazyInternal(inst, "optout", (zod) => zod.innerType?._zod?.optout ?? undefined);
    inst._zod.parse = (payload, ctx) => {
        const inner = inst._zod.innerType;
        return inner._zod.run(payload, ctx);
    };
})));
const $ZodCustom = /*@__PURE__*/ $constructor("$ZodCustom", (inst, def) => {
    $ZodCheck.init(inst, def);
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _) => {
        return payload;
    };
    inst._zod.check = (payload) => {
        const input = payload.value;
        const r = def.fn(input);
        if (r instanceof Promise) {
            return r.then((r) => handleRefineResult(r, payload, input, inst));
        }
        handleRefineResult(r, payload, input, inst);
        return;
    };
});
function handleRefineResult(result, payload, input, inst) {
    if (!result) {
        const _iss = {
            code: "custom",
            input,
            inst, // incorporates params.error into issue reporting
            path: [...(inst._zod.def.path ?? [])], // incorporates params.error into issue reporting
            continue: !inst._zod.def.abort,
            // params: inst._zod.def.params,
        };
        if (inst._zod.def.params)
            _iss.params = inst._zod.def.params;
        payload.issues.push(util_issue(_iss));
    }
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/registries.js
var registries_a;
const $output = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("ZodOutput")));
const $input = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("ZodInput")));
class $ZodRegistry {
    constructor() {
        this._map = new WeakMap();
        this._idmap = new Map();
    }
    add(schema, ..._meta) {
        const meta = _meta[0];
        this._map.set(schema, meta);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.set(meta.id, schema);
        }
        return this;
    }
    clear() {
        this._map = new WeakMap();
        this._idmap = new Map();
        return this;
    }
    remove(schema) {
        const meta = this._map.get(schema);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.delete(meta.id);
        }
        this._map.delete(schema);
        return this;
    }
    get(schema) {
        // return this._map.get(schema) as any;
        // inherit metadata
        const p = schema._zod.parent;
        if (p) {
            const pm = { ...(this.get(p) ?? {}) };
            delete pm.id; // do not inherit id
            const f = { ...pm, ...this._map.get(schema) };
            return Object.keys(f).length ? f : undefined;
        }
        return this._map.get(schema);
    }
    has(schema) {
        return this._map.has(schema);
    }
}
// registries
function registry() {
    return new $ZodRegistry();
}
(registries_a = globalThis).__zod_globalRegistry ?? (registries_a.__zod_globalRegistry = registry());
const globalRegistry = globalThis.__zod_globalRegistry;

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/api.js




function snapshotChecks(def) {
    if (def.checks)
        def.checks = [...def.checks];
    return def;
}
// @__NO_SIDE_EFFECTS__
function _string(Class, params) {
    return new Class(snapshotChecks({ type: "string", ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _coercedString(Class, params) {
    return new Class(snapshotChecks({ type: "string", coerce: true, ...util.normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _email(Class, params) {
    return new Class({
        type: "string",
        format: "email",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _guid(Class, params) {
    return new Class({
        type: "string",
        format: "guid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuid(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv4(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v4",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv6(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v6",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv7(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v7",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _url(Class, params) {
    return new Class({
        type: "string",
        format: "url",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_emoji(Class, params) {
    return new Class({
        type: "string",
        format: "emoji",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _nanoid(Class, params) {
    return new Class({
        type: "string",
        format: "nanoid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link _cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
// @__NO_SIDE_EFFECTS__
function _cuid(Class, params) {
    return new Class({
        type: "string",
        format: "cuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cuid2(Class, params) {
    return new Class({
        type: "string",
        format: "cuid2",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ulid(Class, params) {
    return new Class({
        type: "string",
        format: "ulid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _xid(Class, params) {
    return new Class({
        type: "string",
        format: "xid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ksuid(Class, params) {
    return new Class({
        type: "string",
        format: "ksuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv4(Class, params) {
    return new Class({
        type: "string",
        format: "ipv4",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv6(Class, params) {
    return new Class({
        type: "string",
        format: "ipv6",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _mac(Class, params) {
    return new Class({
        type: "string",
        format: "mac",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv4(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv4",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv6(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv6",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64(Class, params) {
    return new Class({
        type: "string",
        format: "base64",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64url(Class, params) {
    return new Class({
        type: "string",
        format: "base64url",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _e164(Class, params) {
    return new Class({
        type: "string",
        format: "e164",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _creditCard(Class, params) {
    return new Class({
        type: "string",
        format: "credit_card",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _iban(Class, params) {
    return new Class({
        type: "string",
        format: "iban",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _jwt(Class, params) {
    return new Class({
        type: "string",
        format: "jwt",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
const TimePrecision = {
    Any: null,
    Minute: -1,
    Second: 0,
    Millisecond: 3,
    Microsecond: 6,
};
// @__NO_SIDE_EFFECTS__
function _isoDateTime(Class, params) {
    return new Class({
        type: "string",
        format: "datetime",
        check: "string_format",
        offset: false,
        local: false,
        precision: null,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDate(Class, params) {
    return new Class({
        type: "string",
        format: "date",
        check: "string_format",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoTime(Class, params) {
    return new Class({
        type: "string",
        format: "time",
        check: "string_format",
        precision: null,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDuration(Class, params) {
    return new Class({
        type: "string",
        format: "duration",
        check: "string_format",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _number(Class, params) {
    return new Class(snapshotChecks({ type: "number", checks: [], ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _coercedNumber(Class, params) {
    return new Class(snapshotChecks({ type: "number", coerce: true, checks: [], ...util.normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _int(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "safeint",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _float32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "float32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _float64(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "float64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _int32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "int32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uint32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "uint32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _boolean(Class, params) {
    return new Class({
        type: "boolean",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedBoolean(Class, params) {
    return new Class({
        type: "boolean",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _bigint(Class, params) {
    return new Class({
        type: "bigint",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedBigint(Class, params) {
    return new Class({
        type: "bigint",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _int64(Class, params) {
    return new Class({
        type: "bigint",
        check: "bigint_format",
        abort: false,
        format: "int64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uint64(Class, params) {
    return new Class({
        type: "bigint",
        check: "bigint_format",
        abort: false,
        format: "uint64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _symbol(Class, params) {
    return new Class({
        type: "symbol",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_undefined(Class, params) {
    return new Class({
        type: "undefined",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_null(Class, params) {
    return new Class({
        type: "null",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _any(Class) {
    return new Class({
        type: "any",
    });
}
// @__NO_SIDE_EFFECTS__
function _unknown(Class) {
    return new Class({
        type: "unknown",
    });
}
// @__NO_SIDE_EFFECTS__
function _never(Class, params) {
    return new Class({
        type: "never",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _void(Class, params) {
    return new Class({
        type: "void",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _date(Class, params) {
    return new Class({
        type: "date",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedDate(Class, params) {
    return new Class({
        type: "date",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _nan(Class, params) {
    return new Class({
        type: "nan",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _lt(value, params) {
    return new $ZodCheckLessThan({
        check: "less_than",
        ...normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _lte(value, params) {
    return new $ZodCheckLessThan({
        check: "less_than",
        ...normalizeParams(params),
        value,
        inclusive: true,
    });
}

// @__NO_SIDE_EFFECTS__
function _gt(value, params) {
    return new $ZodCheckGreaterThan({
        check: "greater_than",
        ...normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _gte(value, params) {
    return new $ZodCheckGreaterThan({
        check: "greater_than",
        ...normalizeParams(params),
        value,
        inclusive: true,
    });
}

// @__NO_SIDE_EFFECTS__
function _positive(params) {
    return _gt(0, params);
}
// negative
// @__NO_SIDE_EFFECTS__
function _negative(params) {
    return _lt(0, params);
}
// nonpositive
// @__NO_SIDE_EFFECTS__
function _nonpositive(params) {
    return _lte(0, params);
}
// nonnegative
// @__NO_SIDE_EFFECTS__
function _nonnegative(params) {
    return _gte(0, params);
}
// @__NO_SIDE_EFFECTS__
function _multipleOf(value, params) {
    return new $ZodCheckMultipleOf({
        check: "multiple_of",
        ...normalizeParams(params),
        value,
    });
}
// @__NO_SIDE_EFFECTS__
function _maxSize(maximum, params) {
    return new checks.$ZodCheckMaxSize({
        check: "max_size",
        ...util.normalizeParams(params),
        maximum,
    });
}
// @__NO_SIDE_EFFECTS__
function _minSize(minimum, params) {
    return new checks.$ZodCheckMinSize({
        check: "min_size",
        ...util.normalizeParams(params),
        minimum,
    });
}
// @__NO_SIDE_EFFECTS__
function _size(size, params) {
    return new checks.$ZodCheckSizeEquals({
        check: "size_equals",
        ...util.normalizeParams(params),
        size,
    });
}
// @__NO_SIDE_EFFECTS__
function _maxLength(maximum, params) {
    const ch = new $ZodCheckMaxLength({
        check: "max_length",
        ...normalizeParams(params),
        maximum,
    });
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _minLength(minimum, params) {
    return new $ZodCheckMinLength({
        check: "min_length",
        ...normalizeParams(params),
        minimum,
    });
}
// @__NO_SIDE_EFFECTS__
function _length(length, params) {
    return new $ZodCheckLengthEquals({
        check: "length_equals",
        ...normalizeParams(params),
        length,
    });
}
// @__NO_SIDE_EFFECTS__
function _regex(pattern, params) {
    return new $ZodCheckRegex({
        check: "string_format",
        format: "regex",
        ...normalizeParams(params),
        pattern,
    });
}
// @__NO_SIDE_EFFECTS__
function _lowercase(params) {
    return new $ZodCheckLowerCase({
        check: "string_format",
        format: "lowercase",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uppercase(params) {
    return new $ZodCheckUpperCase({
        check: "string_format",
        format: "uppercase",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _includes(includes, params) {
    return new $ZodCheckIncludes({
        check: "string_format",
        format: "includes",
        ...normalizeParams(params),
        includes,
    });
}
// @__NO_SIDE_EFFECTS__
function _startsWith(prefix, params) {
    return new $ZodCheckStartsWith({
        check: "string_format",
        format: "starts_with",
        ...normalizeParams(params),
        prefix,
    });
}
// @__NO_SIDE_EFFECTS__
function _endsWith(suffix, params) {
    return new $ZodCheckEndsWith({
        check: "string_format",
        format: "ends_with",
        ...normalizeParams(params),
        suffix,
    });
}
// @__NO_SIDE_EFFECTS__
function _property(property, schema, params) {
    return new checks.$ZodCheckProperty({
        check: "property",
        property,
        schema,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _properties(shape, params) {
    return new $ZodCheckProperties({
        check: "properties",
        shape,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _mime(types, params) {
    return new checks.$ZodCheckMimeType({
        check: "mime_type",
        mime: types,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _overwrite(tx) {
    return new $ZodCheckOverwrite({
        check: "overwrite",
        tx,
    });
}
// normalize
// @__NO_SIDE_EFFECTS__
function _normalize(form) {
    return _overwrite((input) => input.normalize(form));
}
// trim
// @__NO_SIDE_EFFECTS__
function _trim() {
    return _overwrite((input) => input.trim());
}
// toLowerCase
// @__NO_SIDE_EFFECTS__
function _toLowerCase() {
    return _overwrite((input) => input.toLowerCase());
}
// toUpperCase
// @__NO_SIDE_EFFECTS__
function _toUpperCase() {
    return _overwrite((input) => input.toUpperCase());
}
// slugify
// @__NO_SIDE_EFFECTS__
function _slugify() {
    return _overwrite((input) => slugify(input));
}
// @__NO_SIDE_EFFECTS__
function _array(Class, element, params) {
    return new Class({
        type: "array",
        element,
        // get element() {
        //   return element;
        // },
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _union(Class, options, params) {
    return new Class({
        type: "union",
        options,
        ...util.normalizeParams(params),
    });
}
function _xor(Class, options, params) {
    return new Class({
        type: "union",
        options,
        inclusive: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _discriminatedUnion(Class, discriminator, options, params) {
    return new Class({
        type: "union",
        options: options,
        discriminator,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _intersection(Class, left, right) {
    return new Class({
        type: "intersection",
        left,
        right,
    });
}
// export function _tuple(
//   Class: util.SchemaClass<schemas.$ZodTuple>,
//   items: [],
//   params?: string | $ZodTupleParams
// ): schemas.$ZodTuple<[], null>;
// @__NO_SIDE_EFFECTS__
function _tuple(Class, items, _paramsOrRest, _params) {
    const hasRest = _paramsOrRest instanceof schemas.$ZodType;
    const params = hasRest ? _params : _paramsOrRest;
    const rest = hasRest ? _paramsOrRest : null;
    return new Class({
        type: "tuple",
        items,
        rest,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _record(Class, keyType, valueType, params) {
    return new Class({
        type: "record",
        keyType,
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _map(Class, keyType, valueType, params) {
    return new Class({
        type: "map",
        keyType,
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _set(Class, valueType, params) {
    return new Class({
        type: "set",
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _enum(Class, values, params) {
    const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
    // if (Array.isArray(values)) {
    //   for (const value of values) {
    //     entries[value] = value;
    //   }
    // } else {
    //   Object.assign(entries, values);
    // }
    // const entries: util.EnumLike = {};
    // for (const val of values) {
    //   entries[val] = val;
    // }
    return new Class({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
/** @deprecated This API has been merged into `z.enum()`. Use `z.enum()` instead.
 *
 * ```ts
 * enum Colors { red, green, blue }
 * z.enum(Colors);
 * ```
 */
function _nativeEnum(Class, entries, params) {
    return new Class({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _literal(Class, value, params) {
    return new Class({
        type: "literal",
        values: Array.isArray(value) ? value : [value],
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _file(Class, params) {
    return new Class({
        type: "file",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _transform(Class, fn) {
    return new Class({
        type: "transform",
        transform: fn,
    });
}
// @__NO_SIDE_EFFECTS__
function _optional(Class, innerType) {
    return new Class({
        type: "optional",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _nullable(Class, innerType) {
    return new Class({
        type: "nullable",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _default(Class, innerType, defaultValue) {
    return new Class({
        type: "default",
        innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : util.shallowClone(defaultValue);
        },
    });
}
// @__NO_SIDE_EFFECTS__
function _nonoptional(Class, innerType, params) {
    return new Class({
        type: "nonoptional",
        innerType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _success(Class, innerType) {
    return new Class({
        type: "success",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _catch(Class, innerType, catchValue) {
    return new Class({
        type: "catch",
        innerType,
        catchValue: (typeof catchValue === "function" ? catchValue : util.constantCatch(catchValue)),
    });
}
// @__NO_SIDE_EFFECTS__
function _pipe(Class, in_, out) {
    return new Class({
        type: "pipe",
        in: in_,
        out,
    });
}
// @__NO_SIDE_EFFECTS__
function _readonly(Class, innerType) {
    return new Class({
        type: "readonly",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _templateLiteral(Class, parts, params) {
    return new Class({
        type: "template_literal",
        parts,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _lazy(Class, getter) {
    return new Class({
        type: "lazy",
        getter,
    });
}
// @__NO_SIDE_EFFECTS__
function _promise(Class, innerType) {
    return new Class({
        type: "promise",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _custom(Class, fn, _params) {
    const norm = util.normalizeParams(_params);
    norm.abort ?? (norm.abort = true); // default to abort:false
    const schema = new Class({
        type: "custom",
        check: "custom",
        fn: fn,
        ...norm,
    });
    return schema;
}
// same as _custom but defaults to abort:false
// @__NO_SIDE_EFFECTS__
function _refine(Class, fn, _params) {
    const schema = new Class({
        type: "custom",
        check: "custom",
        fn: fn,
        ...normalizeParams(_params),
    });
    return schema;
}
// @__NO_SIDE_EFFECTS__
function _superRefine(fn, params) {
    const ch = _check((payload) => {
        payload.addIssue = (issue) => {
            if (typeof issue === "string") {
                payload.issues.push(util_issue(issue, payload.value, ch._zod.def));
            }
            else {
                // for Zod 3 backwards compatibility
                const _issue = issue;
                if (_issue.fatal)
                    _issue.continue = false;
                _issue.code ?? (_issue.code = "custom");
                if (!("input" in _issue))
                    _issue.input = payload.value;
                _issue.inst ?? (_issue.inst = ch);
                _issue.continue ?? (_issue.continue = !ch._zod.def.abort); // abort is always undefined, so this is always true...
                payload.issues.push(util_issue(_issue));
            }
        };
        return fn(payload.value, payload);
    }, params);
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _check(fn, params) {
    const ch = new $ZodCheck({
        check: "custom",
        ...normalizeParams(params),
    });
    ch._zod.check = fn;
    return ch;
}
// @__NO_SIDE_EFFECTS__
function describe(description) {
    const ch = new $ZodCheck({ check: "describe" });
    ch._zod.onattach = [
        (inst) => {
            const existing = globalRegistry.get(inst) ?? {};
            globalRegistry.add(inst, { ...existing, description });
        },
    ];
    ch._zod.check = () => { }; // no-op check
    return ch;
}
// @__NO_SIDE_EFFECTS__
function meta(metadata) {
    const ch = new $ZodCheck({ check: "meta" });
    ch._zod.onattach = [
        (inst) => {
            const existing = globalRegistry.get(inst) ?? {};
            globalRegistry.add(inst, { ...existing, ...metadata });
        },
    ];
    ch._zod.check = () => { }; // no-op check
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _stringbool(Classes, _params) {
    const params = util.normalizeParams(_params);
    let truthyArray = params.truthy ?? ["true", "1", "yes", "on", "y", "enabled"];
    let falsyArray = params.falsy ?? ["false", "0", "no", "off", "n", "disabled"];
    if (params.case !== "sensitive") {
        truthyArray = truthyArray.map((v) => (typeof v === "string" ? v.toLowerCase() : v));
        falsyArray = falsyArray.map((v) => (typeof v === "string" ? v.toLowerCase() : v));
    }
    const truthySet = new Set(truthyArray);
    const falsySet = new Set(falsyArray);
    const _Codec = Classes.Codec ?? schemas.$ZodCodec;
    const _Boolean = Classes.Boolean ?? schemas.$ZodBoolean;
    const _String = Classes.String ?? schemas.$ZodString;
    const stringSchema = new _String({ type: "string", error: params.error });
    const booleanSchema = new _Boolean({ type: "boolean", error: params.error });
    const codec = new _Codec({
        type: "pipe",
        in: stringSchema,
        out: booleanSchema,
        transform: ((input, payload) => {
            let data = input;
            if (params.case !== "sensitive")
                data = data.toLowerCase();
            if (truthySet.has(data)) {
                return true;
            }
            else if (falsySet.has(data)) {
                return false;
            }
            else {
                payload.issues.push({
                    code: "invalid_value",
                    expected: "stringbool",
                    values: [...truthySet, ...falsySet],
                    input: payload.value,
                    inst: codec,
                    continue: false,
                });
                return {};
            }
        }),
        reverseTransform: ((input, _payload) => {
            if (input === true) {
                return truthyArray[0] || "true";
            }
            else {
                return falsyArray[0] || "false";
            }
        }),
        error: params.error,
    });
    codec._zod.bag.truthy = truthyArray;
    codec._zod.bag.falsy = falsyArray;
    codec._zod.bag.case = params.case ?? "insensitive";
    return codec;
}
// @__NO_SIDE_EFFECTS__
function _stringFormat(Class, format, fnOrRegex, _params = {}) {
    const params = util.normalizeParams(_params);
    const def = {
        check: "string_format",
        type: "string",
        format,
        fn: typeof fnOrRegex === "function" ? fnOrRegex : (val) => fnOrRegex.test(val),
        ...params,
    };
    if (fnOrRegex instanceof RegExp) {
        def.pattern = fnOrRegex;
    }
    const inst = new Class(def);
    return inst;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/to-json-schema.js


function assignProps(target, ...sources) {
    for (const source of sources) {
        for (const key of Reflect.ownKeys(source)) {
            if (Object.prototype.propertyIsEnumerable.call(source, key)) {
                util_assignProp(target, key, source[key]);
            }
        }
    }
    return target;
}
// function initializeContext<T extends schemas.$ZodType>(inputs: JSONSchemaGeneratorParams<T>): ToJSONSchemaContext<T> {
//   return {
//     processor: inputs.processor,
//     metadataRegistry: inputs.metadata ?? globalRegistry,
//     target: inputs.target ?? "draft-2020-12",
//     unrepresentable: inputs.unrepresentable ?? "throw",
//   };
// }
function to_json_schema_initializeContext(params) {
    // Normalize target: convert old non-hyphenated versions to hyphenated versions
    let target = params?.target ?? "draft-2020-12";
    if (target === "draft-4")
        target = "draft-04";
    if (target === "draft-7")
        target = "draft-07";
    return {
        processors: params.processors ?? {},
        metadataRegistry: params?.metadata ?? globalRegistry,
        target,
        unrepresentable: params?.unrepresentable ?? "throw",
        override: params?.override ?? (() => { }),
        io: params?.io ?? "output",
        counter: 0,
        seen: new Map(),
        sharedDefsExtractedFor: undefined,
        sharedEmitDoneFor: undefined,
        cycles: params?.cycles ?? "ref",
        reused: params?.reused ?? "inline",
        intersections: [],
        deferred: [],
        external: params?.external ?? undefined,
    };
}
/**
 * Applies the `unrepresentable` setting at a site that has no JSON Schema equivalent. Throws
 * `message` unless the setting (or the handler's return value) says otherwise. Returns `true` if a
 * custom JSON Schema was written into `json`, in which case the caller must not write its own.
 */
function handleUnrepresentable(schema, ctx, json, params, message) {
    const result = typeof ctx.unrepresentable === "function"
        ? ctx.unrepresentable({ zodSchema: schema, path: params.path, message })
        : ctx.unrepresentable;
    if (result === "any")
        return false;
    if (result === undefined || result === "throw")
        throw new Error(message);
    Object.assign(json, result);
    return true;
}
// never rename this back to `process`: bundler polyfills inject a top-level `const process` that a lexical declaration of the same name collides with (#6397)
function to_json_schema_processSchema(schema, ctx, _params = { path: [], schemaPath: [] }) {
    var _a;
    const def = schema._zod.def;
    // check for schema in seens
    const seen = ctx.seen.get(schema);
    if (seen) {
        seen.count++;
        // check if cycle
        const isCycle = _params.schemaPath.includes(schema);
        if (isCycle) {
            seen.cycle = _params.path;
        }
        return seen.schema;
    }
    // initialize
    const result = { schema: {}, count: 1, cycle: undefined, path: _params.path };
    ctx.seen.set(schema, result);
    ctx.sharedDefsExtractedFor = undefined;
    ctx.sharedEmitDoneFor = undefined;
    // custom method overrides default behavior
    const overrideSchema = schema._zod.toJSONSchema?.();
    if (overrideSchema) {
        result.schema = overrideSchema;
    }
    else {
        const params = {
            ..._params,
            schemaPath: [..._params.schemaPath, schema],
            path: _params.path,
        };
        if (schema._zod.processJSONSchema) {
            schema._zod.processJSONSchema(ctx, result.schema, params);
        }
        else {
            const _json = result.schema;
            const processor = ctx.processors[def.type];
            if (!processor) {
                throw new Error(`[toJSONSchema]: Non-representable type encountered: ${def.type}`);
            }
            processor(schema, ctx, _json, params);
        }
        const parent = schema._zod.parent;
        if (parent) {
            // Also set ref if processor didn't (for inheritance)
            if (!result.ref)
                result.ref = parent;
            to_json_schema_processSchema(parent, ctx, params);
            ctx.seen.get(parent).isParent = true;
        }
    }
    // metadata
    const meta = ctx.metadataRegistry.get(schema);
    if (meta)
        assignProps(result.schema, meta);
    if (ctx.io === "input" && isTransforming(schema)) {
        // examples/defaults only apply to output type of pipe
        delete result.schema.examples;
        delete result.schema.default;
    }
    // set prefault as default
    if (ctx.io === "input" && "_prefault" in result.schema)
        (_a = result.schema).default ?? (_a.default = result.schema._prefault);
    delete result.schema._prefault;
    // pulling fresh from ctx.seen in case it was overwritten
    const _result = ctx.seen.get(schema);
    return _result.schema;
}
/** @deprecated Renamed to `processSchema`. An export alias declares no binding, so it is safe to keep. */

// Escape a reference token for use in a JSON Pointer fragment (RFC 6901): `~` becomes `~0` and `/` becomes `~1`. The `~` replacement must run first.
function encodeJSONPointerSegment(segment) {
    return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
function to_json_schema_extractDefs(ctx, schema
// params: EmitParams
) {
    // iterate over seen map;
    const root = ctx.seen.get(schema);
    if (!root)
        throw new Error("Unprocessed schema. This is a bug in Zod.");
    // With `external` set, every registered schema resolves through the external branch of `makeURI`, so the root branch below produces the same ref the external branch would — this pass is identical whichever schema it is called with, and only needs to run once.
    if (ctx.external && ctx.sharedDefsExtractedFor === ctx.external)
        return;
    // Track ids to detect duplicates across different schemas
    const idToSchema = new Map();
    for (const entry of ctx.seen.entries()) {
        const id = ctx.metadataRegistry.get(entry[0])?.id;
        if (id) {
            const existing = idToSchema.get(id);
            if (existing && existing !== entry[0]) {
                throw new Error(`Duplicate schema id "${id}" detected during JSON Schema conversion. Two different schemas cannot share the same id when converted together.`);
            }
            idToSchema.set(id, entry[0]);
        }
    }
    // returns a ref to the schema defId will be empty if the ref points to an external schema (or #)
    const makeURI = (entry) => {
        // comparing the seen objects because sometimes multiple schemas map to the same seen object. e.g. lazy
        // external is configured
        const defsSegment = ctx.target === "draft-2020-12" ? "$defs" : "definitions";
        if (ctx.external) {
            const externalId = ctx.external.registry.get(entry[0])?.id; // ?? "__shared";// `__schema${ctx.counter++}`;
            // check if schema is in the external registry
            const uriGenerator = ctx.external.uri ?? ((id) => id);
            if (externalId) {
                return { ref: uriGenerator(externalId) };
            }
            // otherwise, add to __shared
            const id = entry[1].defId ?? entry[1].schema.id ?? `schema${ctx.counter++}`;
            entry[1].defId = id; // set defId so it will be reused if needed
            return { defId: id, ref: `${uriGenerator("__shared")}#/${defsSegment}/${encodeJSONPointerSegment(id)}` };
        }
        const uriPrefix = `#`;
        const defUriPrefix = `${uriPrefix}/${defsSegment}/`;
        // an id-less root has nowhere to be extracted to, so it stays inline and self-references as `#`
        if (entry[1] === root && !entry[1].schema.id) {
            return { ref: uriPrefix };
        }
        // self-contained schema
        const defId = entry[1].schema.id ?? `__schema${ctx.counter++}`;
        return { defId, ref: defUriPrefix + encodeJSONPointerSegment(defId) };
    };
    // stored cached version in `def` property remove all properties, set $ref
    const extractToDef = (entry) => {
        // if the schema is already a reference, do not extract it
        if (entry[1].schema.$ref) {
            return;
        }
        const seen = entry[1];
        const { ref, defId } = makeURI(entry);
        seen.def = { ...seen.schema };
        // defId won't be set if the schema is a reference to an external schema or if the schema is the root schema
        if (defId)
            seen.defId = defId;
        // wipe away all properties except $ref
        const schema = seen.schema;
        for (const key in schema) {
            delete schema[key];
        }
        schema.$ref = ref;
    };
    // throw on cycles
    // break cycles
    if (ctx.cycles === "throw") {
        for (const entry of ctx.seen.entries()) {
            const seen = entry[1];
            if (seen.cycle) {
                throw new Error("Cycle detected: " +
                    `#/${seen.cycle?.join("/")}/<root>` +
                    '\n\nSet the `cycles` parameter to `"ref"` to resolve cyclical schemas with defs.');
            }
        }
    }
    // extract schemas into $defs
    for (const entry of ctx.seen.entries()) {
        const seen = entry[1];
        // convert root schema to # $ref
        if (schema === entry[0]) {
            extractToDef(entry); // this has special handling for the root schema
            continue;
        }
        // extract schemas that are in the external registry
        if (ctx.external) {
            const ext = ctx.external.registry.get(entry[0])?.id;
            if (schema !== entry[0] && ext) {
                extractToDef(entry);
                continue;
            }
        }
        // extract schemas with `id` meta
        const id = ctx.metadataRegistry.get(entry[0])?.id;
        if (id) {
            extractToDef(entry);
            continue;
        }
        // break cycles
        if (seen.cycle) {
            // any
            extractToDef(entry);
            continue;
        }
        // extract reused schemas
        if (seen.count > 1) {
            if (ctx.reused === "ref") {
                extractToDef(entry);
            }
        }
    }
    if (ctx.external)
        ctx.sharedDefsExtractedFor = ctx.external;
}
/** Rewrites `anyOf: [{type: "a"}, {type: "b"}]` to `type: ["a", "b"]`, which every JSON Schema draft treats as equivalent and most consumers render far better for the nullable case. Only branches that are a bare type assertion qualify — anything carrying a constraint, `$ref`, `const` or metadata is left alone. Runs after `flattenRef`, so a branch an override decorated or `$defs` extraction turned into a `$ref` is no longer bare and correctly stays in `anyOf`. `oneOf` is excluded: `integer` and `number` overlap, so "exactly one" and "at least one" are not the same there. OpenAPI 3.0 is excluded: its `type` must be a single string. */
function compactTypeUnion(schema) {
    const options = schema.anyOf;
    if (!Array.isArray(options) || options.length === 0 || schema.type !== undefined)
        return;
    const types = [];
    for (const option of options) {
        if (!option || typeof option !== "object")
            return;
        // A branch that is itself a compactible union folds into this one — nested `anyOf` and a flat `type` array say the same thing. Compacting it first also makes the result independent of the order this pass walks the seen map in.
        compactTypeUnion(option);
        const keys = Object.keys(option);
        if (keys.length !== 1 || keys[0] !== "type")
            return;
        const type = option.type;
        for (const member of Array.isArray(type) ? type : [type]) {
            if (typeof member !== "string")
                return;
            if (!types.includes(member))
                types.push(member);
        }
    }
    delete schema.anyOf;
    // A `type` array must be non-empty and unique (metaschema); a single member is spelled as a bare string.
    schema.type = types.length === 1 ? types[0] : types;
}
/** Keywords `foldIntersection` knows how to combine. Anything else — `$ref`, `patternProperties`,
 * an annotation like `description` — makes a member unfoldable, so a constraint this does not
 * understand leaves the `allOf` alone instead of being silently dropped or misattributed. */
const FOLDABLE_KEYS = new Set(["type", "properties", "required", "additionalProperties"]);
const UNION_KEYS = ["oneOf", "anyOf"];
/** A member's constraint on a key it does not declare itself. A `catchall` states one; `false`, an absent `additionalProperties`, and the empty schema a loose object emits state nothing. */
function undeclaredConstraint(member) {
    const extra = member.additionalProperties;
    if (extra === undefined || extra === false || typeof extra !== "object" || extra === null)
        return null;
    return Object.keys(extra).length ? extra : null;
}
/** Combines object members into the single object they describe together, or returns `null` if any of them carries a keyword outside {@link FOLDABLE_KEYS}. */
function foldObjects(members) {
    const objects = [];
    for (const member of members) {
        // A boolean subschema is legal JSON Schema and carries no keywords to fold.
        if (typeof member !== "object" || member.type !== "object")
            return null;
        for (const key in member) {
            if (!FOLDABLE_KEYS.has(key))
                return null;
        }
        objects.push(member);
    }
    const properties = {};
    const required = new Set();
    for (const object of objects) {
        for (const key in object.properties) {
            // `in` would report a `__proto__` key as already present via the prototype chain and skip it.
            if (Object.prototype.hasOwnProperty.call(properties, key))
                continue;
            // Every member constrains this key: the ones that declare it say how, and a `catchall` member constrains it too even though it does not name it. The key has to satisfy all of them, which is the same intersection one level down.
            const parts = [];
            for (const other of objects) {
                const part = other.properties?.[key] ?? undeclaredConstraint(other);
                if (part === null || part === undefined)
                    continue;
                if (!parts.some((seen) => JSON.stringify(seen) === JSON.stringify(part)))
                    parts.push(part);
            }
            const merged = parts.length === 1
                ? parts[0]
                : (foldObjects(parts) ?? { allOf: parts });
            util_assignProp(properties, key, merged);
        }
        for (const key of object.required ?? [])
            required.add(key);
    }
    const folded = { type: "object", properties };
    if (required.size)
        folded.required = [...required];
    // A key no member declares is rejected only when every member rejects it, so the fold is closed only when every member is. Otherwise it carries whatever the `catchall` members demand of such a key.
    if (objects.every((object) => object.additionalProperties === false)) {
        folded.additionalProperties = false;
    }
    else {
        const constraints = [];
        for (const object of objects) {
            const constraint = undeclaredConstraint(object);
            if (constraint && !constraints.some((seen) => JSON.stringify(seen) === JSON.stringify(constraint)))
                constraints.push(constraint);
        }
        if (constraints.length === 1)
            folded.additionalProperties = constraints[0];
        else if (constraints.length > 1)
            folded.additionalProperties = { allOf: constraints };
    }
    return folded;
}
/** `additionalProperties` in an `allOf` member sees only that member's own `properties`, so two
 * closed object members reject each other's keys and the schema validates nothing. Zod's parser
 * pools the key sets instead — `handleIntersectionResults` reports a key as unrecognized only when
 * *every* side rejects it — so the emitted schema has to pool them too, and folding the members
 * into one object is the encoding that says so on every target.
 *
 * This runs from `finalize`, after `extractDefs`, which is what keeps it clear of the `$ref`
 * machinery: a member extracted into `$defs` is already a `$ref` by now and declines to fold, so it
 * keeps its reference and its own closedness rather than being inlined as a stale copy. */
function foldIntersection(json) {
    const allOf = json.allOf;
    if (!Array.isArray(allOf) || allOf.length < 2)
        return;
    // An `override` runs before this pass and may have written object keywords onto the intersection itself. Those are deliberate, so decline rather than overwrite them.
    for (const key of FOLDABLE_KEYS)
        if (key in json)
            return;
    // An intersection distributes over a union: `A & (X | Y)` is `(A & X) | (A & Y)`. Only the first union is distributed over; a second one stays among the members every branch folds against, where it fails the object check and declines the whole intersection rather than multiplying out.
    const unions = allOf.filter((m) => UNION_KEYS.some((k) => Array.isArray(m[k])));
    let folded = null;
    if (!unions.length) {
        folded = foldObjects(allOf);
    }
    else {
        const union = unions[0];
        const keyword = UNION_KEYS.find((k) => Array.isArray(union[k]));
        if (Object.keys(union).length !== 1)
            return;
        const rest = allOf.filter((m) => m !== union);
        const branches = union[keyword].map((branch) => foldObjects([...rest, branch]));
        if (branches.some((b) => !b))
            return;
        folded = { [keyword]: branches };
    }
    if (!folded)
        return;
    delete json.allOf;
    assignProps(json, folded);
}
function to_json_schema_finalize(ctx, schema) {
    const root = ctx.seen.get(schema);
    if (!root)
        throw new Error("Unprocessed schema. This is a bug in Zod.");
    // flatten refs - inherit properties from parent schemas
    const flattenRef = (zodSchema) => {
        const seen = ctx.seen.get(zodSchema);
        // already processed
        if (seen.ref === null)
            return;
        const schema = seen.def ?? seen.schema;
        const _cached = { ...schema };
        const ref = seen.ref;
        seen.ref = null; // prevent infinite recursion
        if (ref) {
            flattenRef(ref);
            const refSeen = ctx.seen.get(ref);
            const refSchema = refSeen.schema;
            // merge referenced schema into current
            if (refSchema.$ref && (ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0")) {
                // older drafts can't combine $ref with other properties
                schema.allOf = schema.allOf ?? [];
                schema.allOf.push(refSchema);
            }
            else {
                assignProps(schema, refSchema);
            }
            // restore child's own properties (child wins)
            assignProps(schema, _cached);
            const isParentRef = zodSchema._zod.parent === ref;
            // For parent chain, child is a refinement - remove parent-only properties
            if (isParentRef) {
                for (const key in schema) {
                    if (key === "$ref" || key === "allOf")
                        continue;
                    if (!(key in _cached)) {
                        delete schema[key];
                    }
                }
            }
            // When ref was extracted to $defs, remove properties that match the definition
            if (refSchema.$ref && refSeen.def) {
                for (const key in schema) {
                    if (key === "$ref" || key === "allOf")
                        continue;
                    if (key in refSeen.def && JSON.stringify(schema[key]) === JSON.stringify(refSeen.def[key])) {
                        delete schema[key];
                    }
                }
            }
        }
        // If parent was extracted (has $ref), propagate $ref to this schema. This handles cases like: readonly().meta({id}).describe() where processor sets ref to innerType but parent should be referenced
        const parent = zodSchema._zod.parent;
        if (parent && parent !== ref) {
            // Ensure parent is processed first so its def has inherited properties
            flattenRef(parent);
            const parentSeen = ctx.seen.get(parent);
            if (parentSeen?.schema.$ref) {
                schema.$ref = parentSeen.schema.$ref;
                // De-duplicate with parent's definition
                if (parentSeen.def) {
                    for (const key in schema) {
                        if (key === "$ref" || key === "allOf")
                            continue;
                        if (key in parentSeen.def && JSON.stringify(schema[key]) === JSON.stringify(parentSeen.def[key])) {
                            delete schema[key];
                        }
                    }
                }
            }
        }
        // execute overrides
        ctx.override({
            zodSchema: zodSchema,
            jsonSchema: schema,
            path: seen.path ?? [],
        });
    };
    // Flattening walks the whole map and clears each `ref` as it goes, so a second call over the same map is a no-op scan. Skip it outright once it has run for a registry conversion.
    if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
        for (const entry of [...ctx.seen.entries()].reverse()) {
            flattenRef(entry[0]);
        }
        if (ctx.target !== "openapi-3.0") {
            for (const entry of ctx.seen.entries()) {
                compactTypeUnion(entry[1].def ?? entry[1].schema);
            }
        }
        for (const rewrite of ctx.deferred)
            rewrite();
        // After flattening, every member that was extracted is a `$ref`, so the fold sees the final shape. A schema that inherits an intersection — through `z.lazy`, or any `ref` chain — holds the same `allOf` array, so fold by array identity to catch every copy.
        if (ctx.intersections.length) {
            const carriers = new Map();
            for (const seen of ctx.seen.values()) {
                for (const json of [seen.schema, seen.def]) {
                    const allOf = json?.allOf;
                    if (!Array.isArray(allOf))
                        continue;
                    const existing = carriers.get(allOf);
                    if (existing)
                        existing.push(json);
                    else
                        carriers.set(allOf, [json]);
                }
            }
            for (const allOf of ctx.intersections) {
                for (const json of carriers.get(allOf) ?? [])
                    foldIntersection(json);
            }
        }
    }
    const result = {};
    if (ctx.target === "draft-2020-12") {
        result.$schema = "https://json-schema.org/draft/2020-12/schema";
    }
    else if (ctx.target === "draft-07") {
        result.$schema = "http://json-schema.org/draft-07/schema#";
    }
    else if (ctx.target === "draft-04") {
        result.$schema = "http://json-schema.org/draft-04/schema#";
    }
    else if (ctx.target === "openapi-3.0") {
        // OpenAPI 3.0 schema objects should not include a $schema property
    }
    else {
        // Arbitrary string values are allowed but won't have a $schema property set
    }
    if (ctx.external?.uri) {
        const id = ctx.external.registry.get(schema)?.id;
        if (!id)
            throw new Error("Schema is missing an `id` property");
        result.$id = ctx.external.uri(id);
    }
    // when the root was extracted into $defs, `root.schema` is the `$ref` wrapper and `root.def` is the body that now lives under $defs
    assignProps(result, root.defId ? root.schema : (root.def ?? root.schema));
    // The `id` in `.meta()` is a Zod-specific registration tag used to extract schemas into $defs — it is not user-facing JSON Schema metadata. Strip it from the output body where it would otherwise leak. The id is preserved implicitly via the $defs key (and via $ref paths).
    const rootMetaId = ctx.metadataRegistry.get(schema)?.id;
    if (rootMetaId !== undefined && result.id === rootMetaId)
        delete result.id;
    // build defs object. With `external`, `defs` is the shared object every schema writes into, so the same entries are reassigned on every call. Without it, `defs` is fresh per call and must be rebuilt.
    const defs = ctx.external?.defs ?? {};
    if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
        for (const entry of ctx.seen.entries()) {
            const seen = entry[1];
            if (seen.def && seen.defId) {
                if (seen.def.id === seen.defId)
                    delete seen.def.id;
                util_assignProp(defs, seen.defId, seen.def);
            }
        }
    }
    if (ctx.external)
        ctx.sharedEmitDoneFor = ctx.external;
    // set definitions in result
    if (ctx.external) {
    }
    else {
        if (Object.keys(defs).length > 0) {
            if (ctx.target === "draft-2020-12") {
                result.$defs = defs;
            }
            else {
                result.definitions = defs;
            }
        }
    }
    try {
        // this "finalizes" this schema and ensures all cycles are removed each call to finalize() is functionally independent though the seen map is shared
        const finalized = JSON.parse(JSON.stringify(result));
        Object.defineProperty(finalized, "~standard", {
            value: {
                ...schema["~standard"],
                jsonSchema: {
                    input: createStandardJSONSchemaMethod(schema, "input", ctx.processors),
                    output: createStandardJSONSchemaMethod(schema, "output", ctx.processors),
                },
            },
            enumerable: false,
            writable: false,
        });
        return finalized;
    }
    catch (_err) {
        throw new Error("Error converting schema to JSON.");
    }
}
function isTransforming(_schema, _ctx) {
    const ctx = _ctx ?? { seen: new Set() };
    if (ctx.seen.has(_schema))
        return false;
    ctx.seen.add(_schema);
    const def = _schema._zod.def;
    if (def.type === "transform")
        return true;
    if (def.type === "array")
        return isTransforming(def.element, ctx);
    if (def.type === "set")
        return isTransforming(def.valueType, ctx);
    if (def.type === "lazy")
        return isTransforming(def.getter(), ctx);
    if (def.type === "promise" ||
        def.type === "optional" ||
        def.type === "nonoptional" ||
        def.type === "nullable" ||
        def.type === "readonly" ||
        def.type === "default" ||
        def.type === "prefault" ||
        def.type === "catch") {
        return isTransforming(def.innerType, ctx);
    }
    if (def.type === "intersection") {
        return isTransforming(def.left, ctx) || isTransforming(def.right, ctx);
    }
    if (def.type === "record" || def.type === "map") {
        return isTransforming(def.keyType, ctx) || isTransforming(def.valueType, ctx);
    }
    if (def.type === "pipe") {
        if (_schema._zod.traits.has("$ZodCodec"))
            return true;
        return isTransforming(def.in, ctx) || isTransforming(def.out, ctx);
    }
    if (def.type === "object") {
        for (const key in def.shape) {
            if (isTransforming(def.shape[key], ctx))
                return true;
        }
        return false;
    }
    if (def.type === "union") {
        for (const option of def.options) {
            if (isTransforming(option, ctx))
                return true;
        }
        return false;
    }
    if (def.type === "tuple") {
        for (const item of def.items) {
            if (isTransforming(item, ctx))
                return true;
        }
        if (def.rest && isTransforming(def.rest, ctx))
            return true;
        return false;
    }
    return false;
}
/**
 * Creates a toJSONSchema method for a schema instance.
 * This encapsulates the logic of initializing context, processing, extracting defs, and finalizing.
 */
const createToJSONSchemaMethod = (schema, processors = {}) => (params) => {
    const ctx = to_json_schema_initializeContext({ ...params, processors });
    to_json_schema_processSchema(schema, ctx);
    to_json_schema_extractDefs(ctx, schema);
    return to_json_schema_finalize(ctx, schema);
};
const createStandardJSONSchemaMethod = (schema, io, processors = {}) => (params) => {
    const { libraryOptions, target } = params ?? {};
    const ctx = to_json_schema_initializeContext({ ...(libraryOptions ?? {}), target, io, processors });
    to_json_schema_processSchema(schema, ctx);
    to_json_schema_extractDefs(ctx, schema);
    return to_json_schema_finalize(ctx, schema);
};

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/json-schema-processors.js




const narrowMin = (agg, key, value) => {
    if (agg[key] === undefined || value > agg[key])
        agg[key] = value;
};
const narrowMax = (agg, key, value) => {
    if (agg[key] === undefined || value < agg[key])
        agg[key] = value;
};
const narrowBoth = (agg, value) => {
    narrowMin(agg, "minimum", value);
    narrowMax(agg, "maximum", value);
};
const addDivisor = (agg, value) => {
    agg.multipleOf ?? (agg.multipleOf = []);
    if (!agg.multipleOf.includes(value))
        agg.multipleOf.push(value);
};
const addPattern = (agg, pattern) => {
    agg.patterns ?? (agg.patterns = new Set());
    agg.patterns.add(pattern);
};
const intersectMime = (agg, mime) => {
    agg.mime = agg.mime ? agg.mime.filter((m) => mime.includes(m)) : [...mime];
};
// last-wins, matching the bag's historical write order; the flag keeps an integer format from being lost to a later float one
const setFormat = (agg, format) => {
    agg.format = format;
    if (format.includes("int"))
        agg.isInt = true;
};
const minContributor = (agg, def) => narrowMin(agg, "minimum", def.minimum);
const maxContributor = (agg, def) => narrowMax(agg, "maximum", def.maximum);
const formatContributor = (ranges) => (agg, def) => {
    setFormat(agg, def.format);
    const [minimum, maximum] = ranges[def.format];
    narrowMin(agg, "minimum", minimum);
    narrowMax(agg, "maximum", maximum);
};
const contributors = {
    greater_than: (agg, def) => narrowMin(agg, def.inclusive ? "minimum" : "exclusiveMinimum", def.value),
    less_than: (agg, def) => narrowMax(agg, def.inclusive ? "maximum" : "exclusiveMaximum", def.value),
    multiple_of: (agg, def) => addDivisor(agg, def.value),
    number_format: formatContributor(NUMBER_FORMAT_RANGES),
    bigint_format: formatContributor(BIGINT_FORMAT_RANGES),
    min_length: minContributor,
    max_length: maxContributor,
    length_equals: (agg, def) => narrowBoth(agg, def.length),
    min_size: minContributor,
    max_size: maxContributor,
    size_equals: (agg, def) => narrowBoth(agg, def.size),
    string_format: (agg, def) => {
        setFormat(agg, def.format);
        if (def.pattern)
            addPattern(agg, def.pattern);
        if (def.format === "base64" || def.format === "base64url")
            agg.contentEncoding = def.format;
        if (def.local || def.precision === -1)
            agg.laxFormat = true;
    },
    mime_type: (agg, def) => intersectMime(agg, def.mime),
};
function aggregateChecks(schema) {
    const agg = {};
    const def = schema._zod.def;
    // a format schema is its own first check, same rule as $ZodType init
    const list = schema._zod.traits.has("$ZodCheck")
        ? [schema, ...(def.checks ?? [])]
        : (def.checks ?? []);
    for (const ch of list)
        contributors[ch._zod.def.check]?.(agg, ch._zod.def);
    // reconcile with the bag so third-party onattach contributions still land; first-party residue is never tighter than the fold, so merging it back is idempotent for one and additive for the other
    const bag = schema._zod.bag;
    if (bag.minimum !== undefined)
        narrowMin(agg, "minimum", bag.minimum);
    if (bag.exclusiveMinimum !== undefined)
        narrowMin(agg, "exclusiveMinimum", bag.exclusiveMinimum);
    if (bag.maximum !== undefined)
        narrowMax(agg, "maximum", bag.maximum);
    if (bag.exclusiveMaximum !== undefined)
        narrowMax(agg, "exclusiveMaximum", bag.exclusiveMaximum);
    if (bag.multipleOf !== undefined)
        addDivisor(agg, bag.multipleOf);
    if (bag.format !== undefined) {
        agg.format ?? (agg.format = bag.format);
        if (bag.format.includes("int"))
            agg.isInt = true;
    }
    if (bag.mime)
        intersectMime(agg, bag.mime);
    for (const pattern of bag.patterns ?? [])
        addPattern(agg, pattern);
    return agg;
}
const formatMap = {
    guid: "uuid",
    url: "uri",
    datetime: "date-time",
    json_string: "json-string",
    regex: "", // do not set
};
// ==================== SIMPLE TYPE PROCESSORS ====================
// the runtime patterns are lax so parse paths never overflow the regex stack; the emitted schema swaps in the exact block forms, which zod itself never executes
const exactPatterns = new Map([
    [base64Charset, base64],
    [base64urlCharset, base64url],
]);
const exactPattern = (p) => exactPatterns.get(p) ?? p;
const stringProcessor = (schema, ctx, _json, _params) => {
    const json = _json;
    json.type = "string";
    const { minimum, maximum, format, patterns, contentEncoding, laxFormat } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minLength = minimum;
    if (typeof maximum === "number")
        json.maxLength = maximum;
    // custom pattern overrides format
    if (format) {
        json.format = formatMap[format] ?? format;
        if (json.format === "")
            delete json.format; // empty format is not valid
        // `z.iso.time()` is never full-time, and `laxFormat` carries the datetime shapes that also accept what their keyword forbids
        if (format === "time" || laxFormat) {
            delete json.format;
        }
    }
    if (contentEncoding)
        json.contentEncoding = contentEncoding;
    if (patterns && patterns.size > 0) {
        const patternList = [...patterns].map(exactPattern);
        if (patternList.length === 1)
            json.pattern = patternList[0].source;
        else if (patternList.length > 1) {
            json.allOf = [
                ...patternList.map((regex) => ({
                    ...(ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0"
                        ? { type: "string" }
                        : {}),
                    pattern: regex.source,
                })),
            ];
        }
    }
};
const numberProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const { minimum, maximum, multipleOf, exclusiveMaximum, exclusiveMinimum, isInt } = aggregateChecks(schema);
    json.type = isInt ? "integer" : "number";
    // when both minimum and exclusiveMinimum exist, pick the more restrictive one
    const exMin = typeof exclusiveMinimum === "number" && exclusiveMinimum >= (minimum ?? Number.NEGATIVE_INFINITY);
    const exMax = typeof exclusiveMaximum === "number" && exclusiveMaximum <= (maximum ?? Number.POSITIVE_INFINITY);
    const legacy = ctx.target === "draft-04" || ctx.target === "openapi-3.0";
    if (exMin) {
        if (legacy) {
            json.minimum = exclusiveMinimum;
            json.exclusiveMinimum = true;
        }
        else {
            json.exclusiveMinimum = exclusiveMinimum;
        }
    }
    else if (typeof minimum === "number") {
        json.minimum = minimum;
    }
    if (exMax) {
        if (legacy) {
            json.maximum = exclusiveMaximum;
            json.exclusiveMaximum = true;
        }
        else {
            json.exclusiveMaximum = exclusiveMaximum;
        }
    }
    else if (typeof maximum === "number") {
        json.maximum = maximum;
    }
    if (multipleOf) {
        // JSON Schema requires a divisor strictly greater than zero, and a non-finite one does not survive JSON at all. A negative divisor accepts exactly what its absolute value accepts, so it still maps; zero, NaN and Infinity have no keyword form.
        const divisors = new Set();
        for (const divisor of multipleOf) {
            if (Number.isFinite(divisor) && divisor !== 0)
                divisors.add(Math.abs(divisor));
            else
                handleUnrepresentable(schema, ctx, json, params, `A multipleOf divisor of ${divisor} cannot be represented in JSON Schema`);
        }
        // chained divisors are a conjunction the keyword cannot carry alone, so extras ride an allOf, same as stacked patterns
        const [first, ...rest] = divisors;
        if (first !== undefined)
            json.multipleOf = first;
        if (rest.length)
            json.allOf = [...(json.allOf ?? []), ...rest.map((m) => ({ multipleOf: m }))];
    }
};
const booleanProcessor = (_schema, _ctx, json, _params) => {
    json.type = "boolean";
};
const bigintProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "BigInt cannot be represented in JSON Schema");
};
const symbolProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Symbols cannot be represented in JSON Schema");
};
const nullProcessor = (_schema, ctx, json, _params) => {
    if (ctx.target === "openapi-3.0") {
        json.type = "string";
        json.nullable = true;
        json.enum = [null];
    }
    else {
        json.type = "null";
    }
};
const undefinedProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Undefined cannot be represented in JSON Schema");
};
const voidProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Void cannot be represented in JSON Schema");
};
const neverProcessor = (_schema, _ctx, json, _params) => {
    json.not = {};
};
const anyProcessor = (_schema, _ctx, _json, _params) => {
    // empty schema accepts anything
};
const unknownProcessor = (_schema, _ctx, _json, _params) => {
    // empty schema accepts anything
};
const dateProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Date cannot be represented in JSON Schema");
};
const enumProcessor = (schema, _ctx, json, _params) => {
    const def = schema._zod.def;
    const values = getEnumValues(def.entries);
    // an empty enum accepts nothing, same as z.never()
    if (values.length === 0) {
        json.not = {};
        return;
    }
    // Number enums can have both string and number values
    if (values.every((v) => typeof v === "number"))
        json.type = "number";
    if (values.every((v) => typeof v === "string"))
        json.type = "string";
    json.enum = values;
};
const literalProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    // a literal with no values accepts nothing, same as z.never()
    if (def.values.length === 0) {
        json.not = {};
        return;
    }
    const vals = [];
    for (const val of def.values) {
        if (val === undefined) {
            // a custom schema replaces the whole literal, so there is nothing left to accumulate
            if (handleUnrepresentable(schema, ctx, json, params, "Literal `undefined` cannot be represented in JSON Schema"))
                return;
            // otherwise do not add to vals
        }
        else if (typeof val === "bigint") {
            if (handleUnrepresentable(schema, ctx, json, params, "BigInt literals cannot be represented in JSON Schema"))
                return;
            vals.push(Number(val));
        }
        else {
            vals.push(val);
        }
    }
    if (vals.length === 0) {
        // do nothing (an undefined literal was stripped)
    }
    else if (vals.length === 1) {
        const val = vals[0];
        json.type = val === null ? "null" : typeof val;
        if (ctx.target === "draft-04" || ctx.target === "openapi-3.0") {
            json.enum = [val];
        }
        else {
            json.const = val;
        }
    }
    else {
        if (vals.every((v) => typeof v === "number"))
            json.type = "number";
        if (vals.every((v) => typeof v === "string"))
            json.type = "string";
        if (vals.every((v) => typeof v === "boolean"))
            json.type = "boolean";
        if (vals.every((v) => v === null))
            json.type = "null";
        json.enum = vals;
    }
};
const nanProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "NaN cannot be represented in JSON Schema");
};
const templateLiteralProcessor = (schema, _ctx, json, _params) => {
    const _json = json;
    const pattern = schema._zod.pattern;
    if (!pattern)
        throw new Error("Pattern not found in template literal");
    _json.type = "string";
    _json.pattern = pattern.source;
};
const fileProcessor = (schema, _ctx, json, _params) => {
    const _json = json;
    _json.type = "string";
    _json.format = "binary";
    _json.contentEncoding = "binary";
    const { minimum, maximum, mime } = aggregateChecks(schema);
    if (minimum !== undefined)
        _json.minLength = minimum;
    if (maximum !== undefined)
        _json.maxLength = maximum;
    if (!mime)
        return;
    // an empty intersection means the mime checks share no value, so nothing passes at runtime; `anyOf` must be non-empty, so the false schema is `not: {}`
    if (mime.length === 0)
        _json.not = {};
    else if (mime.length === 1)
        _json.contentMediaType = mime[0];
    // only contentMediaType differs, so the shared props stay at the root
    else
        _json.anyOf = mime.map((m) => ({ contentMediaType: m }));
};
const successProcessor = (_schema, _ctx, json, _params) => {
    json.type = "boolean";
};
const customProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Custom types cannot be represented in JSON Schema");
};
const functionProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Function types cannot be represented in JSON Schema");
};
const transformProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Transforms cannot be represented in JSON Schema");
};
const mapProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Map cannot be represented in JSON Schema");
};
const setProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Set cannot be represented in JSON Schema");
};
// ==================== COMPOSITE TYPE PROCESSORS ====================
const arrayProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    const { minimum, maximum } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minItems = minimum;
    if (typeof maximum === "number")
        json.maxItems = maximum;
    json.type = "array";
    json.items = to_json_schema_processSchema(def.element, ctx, {
        ...params,
        path: [...params.path, "items"],
    });
};
// Transform and catch set `optin = "optional"` at runtime so the parser lets them observe an
// absent key, but their declared input type stays required. An input JSON Schema describes the
// declared type, so resolve past them to the schema that actually carries the optionality.
// Used by both `objectProcessor` (for `required`) and `tupleProcessor` (for `minItems`); see
// wiki/optionality.md, "The JSON Schema emitter reads the *static* value".
function inputOptin(schema) {
    const def = schema._zod.def;
    if (def.type === "pipe" && def.in._zod.traits.has("$ZodTransform")) {
        return inputOptin(def.out);
    }
    if (def.type === "catch") {
        return inputOptin(def.innerType);
    }
    return schema._zod.optin;
}
const objectProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    const shape = def.shape;
    // dropping it while still emitting `additionalProperties: false` would emit a schema that rejects data this one requires
    const symbolKeys = Object.getOwnPropertySymbols(shape);
    if (symbolKeys.length &&
        handleUnrepresentable(schema, ctx, json, params, "Symbol keys cannot be represented in JSON Schema")) {
        return;
    }
    json.type = "object";
    json.properties = {};
    for (const key in shape) {
        // assignProp so a __proto__ key becomes an own property instead of hitting the inherited setter on the plain {} we build into
        util_assignProp(json.properties, key, to_json_schema_processSchema(shape[key], ctx, {
            ...params,
            path: [...params.path, "properties", key],
        }));
    }
    // required keys
    const requiredKeys = [];
    for (const key of Object.keys(shape)) {
        const field = def.shape[key];
        if (ctx.io === "input" ? inputOptin(field) === undefined : field._zod.optout === undefined) {
            requiredKeys.push(key);
        }
    }
    if (requiredKeys.length > 0) {
        json.required = requiredKeys;
    }
    // catchall
    if (def.catchall?._zod.def.type === "never") {
        // strict
        json.additionalProperties = false;
    }
    else if (!def.catchall) {
        // regular
        if (ctx.io === "output")
            json.additionalProperties = false;
    }
    else if (def.catchall) {
        json.additionalProperties = to_json_schema_processSchema(def.catchall, ctx, {
            ...params,
            path: [...params.path, "additionalProperties"],
        });
    }
};
const unionProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    // Exclusive unions (inclusive === false) use oneOf (exactly one match) instead of anyOf (one or more matches). This includes both z.xor() and discriminated unions
    const isExclusive = def.inclusive === false;
    const options = def.options.map((x, i) => to_json_schema_processSchema(x, ctx, {
        ...params,
        path: [...params.path, isExclusive ? "oneOf" : "anyOf", i],
    }));
    if (isExclusive) {
        json.oneOf = options;
    }
    else {
        json.anyOf = options;
    }
};
const intersectionProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    const a = to_json_schema_processSchema(def.left, ctx, {
        ...params,
        path: [...params.path, "allOf", 0],
    });
    const b = to_json_schema_processSchema(def.right, ctx, {
        ...params,
        path: [...params.path, "allOf", 1],
    });
    const isSimpleIntersection = (val) => "allOf" in val && Object.keys(val).length === 1;
    const allOf = [
        ...(isSimpleIntersection(a) ? a.allOf : [a]),
        ...(isSimpleIntersection(b) ? b.allOf : [b]),
    ];
    json.allOf = allOf;
    // Recorded innermost first, so a nested intersection has already folded by the time this one is considered. The array is the handle rather than the schema, because a wrapper that inherits this schema shares the same array; `finalize` folds every object holding it. See `foldIntersection`.
    ctx.intersections.push(allOf);
};
const tupleProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    json.type = "array";
    const prefixPath = ctx.target === "draft-2020-12" ? "prefixItems" : "items";
    const restPath = ctx.target === "draft-2020-12" ? "items" : ctx.target === "openapi-3.0" ? "items" : "additionalItems";
    const prefixItems = def.items.map((x, i) => to_json_schema_processSchema(x, ctx, {
        ...params,
        path: [...params.path, prefixPath, i],
    }));
    const rest = def.rest
        ? to_json_schema_processSchema(def.rest, ctx, {
            ...params,
            path: [...params.path, restPath, ...(ctx.target === "openapi-3.0" ? [def.items.length] : [])],
        })
        : null;
    let minItems = def.items.length;
    while (minItems > 0) {
        const item = def.items[minItems - 1];
        const optional = ctx.io === "input" ? inputOptin(item) !== undefined : item._zod.optout === "optional";
        if (!optional)
            break;
        minItems--;
    }
    const maxItems = def.items.length;
    const isClosed = !def.rest;
    if (ctx.target === "draft-2020-12") {
        json.prefixItems = prefixItems;
        if (isClosed) {
            json.items = false;
        }
        else if (rest) {
            json.items = rest;
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    else if (ctx.target === "openapi-3.0") {
        json.items = {
            anyOf: prefixItems,
        };
        if (rest) {
            json.items.anyOf.push(rest);
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    else {
        json.items = prefixItems;
        if (isClosed) {
            json.additionalItems = false;
        }
        else if (rest) {
            json.additionalItems = rest;
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    // explicit user-defined length checks take precedence
    const { minimum, maximum } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minItems = minimum;
    if (typeof maximum === "number")
        json.maxItems = maximum;
};
/** JSON object keys are always strings, so a numeric record key schema is re-expressed over the
 * numeric-string form the record parser matches. Deferred to `finalize`, after the flatten: a key
 * behind a wrapper only carries its own `type` before then, and a union key only has its branches.
 *
 * A numeric bound cannot apply to a property name, so `minimum` and its siblings are dropped rather
 * than carried over: keeping them beside `type: "string"` reproduces the match-nothing schema this
 * exists to fix. A key that carries one therefore emits wider than the record parses — `z.record(z.number().min(5), V)`
 * accepts `"3"` — which is the deliberate trade, since throwing on it would reject an ordinary schema
 * outright. */
function stringifyKeyNames(bySchema, json, visited) {
    // an extracted key that rewrites cannot go on sharing its definition — the string form a key position needs is not the number form every other reference wants — so it inlines. One that does not rewrite keeps the `$ref`.
    if (json.$ref) {
        // a recursive key holds its own reference inside its definition, so a node already on the path is left alone rather than resolved again
        if (visited.has(json))
            return json;
        visited.add(json);
        const def = bySchema.get(json)?.def;
        if (!def)
            return json;
        const inlined = stringifyKeyNames(bySchema, def, visited);
        return inlined === def ? json : inlined;
    }
    for (const keyword of ["anyOf", "oneOf"]) {
        const branches = json[keyword];
        if (!Array.isArray(branches))
            continue;
        const mapped = branches.map((branch) => stringifyKeyNames(bySchema, branch, visited));
        // rebuilding regardless would detach a key that had nothing to re-express, dropping its `$ref` and leaking the internal `id`
        if (mapped.some((branch, i) => branch !== branches[i]))
            json = { ...json, [keyword]: mapped };
    }
    // a member that already admits a string leaves the key unconstrained, so the node's own type re-expresses only when every member is numeric
    const types = Array.isArray(json.type) ? json.type : [json.type];
    const numericType = !types.includes("string") && types.some((t) => t === "number" || t === "integer");
    // a heterogeneous key carries no type at all, so its numeric members are caught here instead
    const values = json.enum ?? (json.const !== undefined ? [json.const] : undefined);
    if (!numericType && !values?.some((v) => typeof v === "number"))
        return json;
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, format, id, ...rest } = json;
    if (rest.enum)
        rest.enum = rest.enum.map((v) => (typeof v === "number" ? String(v) : v));
    else if (typeof rest.const === "number")
        rest.const = String(rest.const);
    // a heterogeneous key keeps its absent type: the stringified members already say what a key may be
    if (!numericType)
        return rest;
    rest.type = "string";
    if (!values)
        rest.pattern = (types.includes("number") ? number : integer).source;
    return rest;
}
/** Every record of one conversion, so the carriers are found in a single pass rather than once per record. */
const pendingRecords = new WeakMap();
function rewriteKeyNames(ctx) {
    // an extracted key is resolved by the object `extractToDef` left in its place, so the map is built once rather than searched per reference. `_zod.toJSONSchema` can hand the same object to two schemas, so the first entry carrying a body wins, as a search would have found it.
    const bySchema = new Map();
    for (const entry of ctx.seen.values()) {
        if (entry.def && !bySchema.has(entry.schema))
            bySchema.set(entry.schema, entry);
    }
    const rewrites = new Map();
    for (const record of pendingRecords.get(ctx) ?? []) {
        const seen = ctx.seen.get(record);
        const names = (seen?.def ?? seen?.schema)?.propertyNames;
        if (!names || names === true || rewrites.has(names))
            continue;
        const rewritten = stringifyKeyNames(bySchema, names, new Set());
        if (rewritten !== names)
            rewrites.set(names, rewritten);
    }
    if (!rewrites.size)
        return;
    // the flatten has already copied each record's own properties onto every wrapper by reference, and an extracted body is another such copy, so every carrier holding a rewritten key is updated together
    for (const entry of ctx.seen.values()) {
        for (const carrier of [entry.schema, entry.def]) {
            const rewritten = carrier && rewrites.get(carrier.propertyNames);
            if (rewritten)
                carrier.propertyNames = rewritten;
        }
    }
}
const recordProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    json.type = "object";
    // For looseRecord with regex patterns, use patternProperties. This correctly represents "only validate keys matching the pattern" semantics and composes well with allOf (intersections)
    const keyType = def.keyType;
    const patterns = aggregateChecks(keyType).patterns;
    if (def.mode === "loose" && patterns && patterns.size > 0) {
        // Use patternProperties for looseRecord with regex patterns
        const valueSchema = to_json_schema_processSchema(def.valueType, ctx, {
            ...params,
            path: [...params.path, "patternProperties", "*"],
        });
        json.patternProperties = {};
        for (const pattern of patterns) {
            util_assignProp(json.patternProperties, exactPattern(pattern).source, valueSchema);
        }
    }
    else {
        // Default behavior: use propertyNames + additionalProperties
        if (ctx.target === "draft-07" || ctx.target === "draft-2020-12") {
            json.propertyNames = to_json_schema_processSchema(def.keyType, ctx, {
                ...params,
                path: [...params.path, "propertyNames"],
            });
            let pending = pendingRecords.get(ctx);
            if (!pending) {
                pending = [];
                pendingRecords.set(ctx, pending);
                ctx.deferred.push(() => rewriteKeyNames(ctx));
            }
            pending.push(schema);
        }
        json.additionalProperties = to_json_schema_processSchema(def.valueType, ctx, {
            ...params,
            path: [...params.path, "additionalProperties"],
        });
    }
    // Add required for keys with discrete values (enum, literal, etc.)
    const keyValues = keyType._zod.values;
    // Every key shares one value schema, so an optional-in value makes the whole key set omittable on input. Output keeps them: the exhaustive branch assigns every key, even one whose value came back undefined.
    const omittableOnInput = ctx.io === "input" && inputOptin(def.valueType) !== undefined;
    if (keyValues && !def.partial && !omittableOnInput) {
        const validKeyValues = [...keyValues].filter((v) => typeof v === "string" || typeof v === "number");
        if (validKeyValues.length > 0) {
            json.required = validKeyValues.map(String);
        }
    }
};
const nullableProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    const inner = to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    if (ctx.target === "openapi-3.0") {
        seen.ref = def.innerType;
        json.nullable = true;
    }
    else {
        json.anyOf = [inner, { type: "null" }];
    }
};
const nonoptionalProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
/** Round-trips a default value through JSON so the emitted schema is guaranteed to be valid JSON.
 * A BigInt has no reliable encoding, so it goes through `unrepresentable` like any other
 * unrepresentable value. Returns a sentinel when the caller must not write a default of its own. */
const UNREPRESENTABLE_DEFAULT = Symbol();
function serializeDefaultValue(value, schema, ctx, json, params) {
    let unrepresentable = false;
    const serialized = JSON.stringify(value, (_, val) => {
        if (typeof val !== "bigint")
            return val;
        unrepresentable = true;
        return null;
    });
    if (!unrepresentable)
        return JSON.parse(serialized);
    handleUnrepresentable(schema, ctx, json, params, "BigInt defaults cannot be represented in JSON Schema");
    return UNREPRESENTABLE_DEFAULT;
}
const defaultProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
    if (value !== UNREPRESENTABLE_DEFAULT)
        json.default = value;
};
const prefaultProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    if (ctx.io !== "input")
        return;
    const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
    if (value !== UNREPRESENTABLE_DEFAULT)
        json._prefault = value;
};
const catchProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    let catchValue;
    try {
        catchValue = def.catchValue(undefined);
    }
    catch {
        handleUnrepresentable(schema, ctx, json, params, "Dynamic catch values are not supported in JSON Schema");
        return;
    }
    json.default = catchValue;
};
const pipeProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    const inIsTransform = def.in._zod.traits.has("$ZodTransform");
    const innerType = ctx.io === "input" ? (inIsTransform ? def.out : def.in) : def.out;
    to_json_schema_processSchema(innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = innerType;
};
const readonlyProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    json.readOnly = true;
};
const promiseProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
const optionalProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    to_json_schema_processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
const lazyProcessor = (schema, ctx, _json, params) => {
    const innerType = schema._zod.innerType;
    to_json_schema_processSchema(innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = innerType;
};
// ==================== ALL PROCESSORS ====================
const allProcessors = {
    string: stringProcessor,
    number: numberProcessor,
    boolean: booleanProcessor,
    bigint: bigintProcessor,
    symbol: symbolProcessor,
    null: nullProcessor,
    undefined: undefinedProcessor,
    void: voidProcessor,
    never: neverProcessor,
    any: anyProcessor,
    unknown: unknownProcessor,
    date: dateProcessor,
    enum: enumProcessor,
    literal: literalProcessor,
    nan: nanProcessor,
    template_literal: templateLiteralProcessor,
    file: fileProcessor,
    success: successProcessor,
    custom: customProcessor,
    function: functionProcessor,
    transform: transformProcessor,
    map: mapProcessor,
    set: setProcessor,
    array: arrayProcessor,
    object: objectProcessor,
    union: unionProcessor,
    intersection: intersectionProcessor,
    tuple: tupleProcessor,
    record: recordProcessor,
    nullable: nullableProcessor,
    nonoptional: nonoptionalProcessor,
    default: defaultProcessor,
    prefault: prefaultProcessor,
    catch: catchProcessor,
    pipe: pipeProcessor,
    readonly: readonlyProcessor,
    promise: promiseProcessor,
    optional: optionalProcessor,
    lazy: lazyProcessor,
};
function toJSONSchema(input, params) {
    if ("_idmap" in input) {
        // Registry case
        const registry = input;
        const ctx = initializeContext({ ...params, processors: allProcessors });
        const defs = {};
        // First pass: process all schemas to build the seen map
        for (const entry of registry._idmap.entries()) {
            const [_, schema] = entry;
            processSchema(schema, ctx);
        }
        const schemas = {};
        const external = {
            registry,
            uri: params?.uri,
            defs,
        };
        // Update the context with external configuration
        ctx.external = external;
        // Second pass: emit each schema
        for (const entry of registry._idmap.entries()) {
            const [key, schema] = entry;
            extractDefs(ctx, schema);
            assignProp(schemas, key, finalize(ctx, schema));
        }
        if (Object.keys(defs).length > 0) {
            const defsSegment = ctx.target === "draft-2020-12" ? "$defs" : "definitions";
            schemas.__shared = {
                [defsSegment]: defs,
            };
        }
        return { schemas };
    }
    // Single schema case
    const ctx = initializeContext({ ...params, processors: allProcessors });
    processSchema(input, ctx);
    extractDefs(ctx, input);
    return finalize(ctx, input);
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/locales/en.js

const error = () => {
    const Sizable = {
        string: { unit: "characters", verb: "to have" },
        file: { unit: "bytes", verb: "to have" },
        array: { unit: "items", verb: "to have" },
        set: { unit: "items", verb: "to have" },
        map: { unit: "entries", verb: "to have" },
    };
    function getSizing(origin) {
        return Sizable[origin] ?? null;
    }
    const FormatDictionary = {
        regex: "input",
        email: "email address",
        url: "URL",
        emoji: "emoji",
        uuid: "UUID",
        uuidv4: "UUIDv4",
        uuidv6: "UUIDv6",
        nanoid: "nanoid",
        guid: "GUID",
        cuid: "cuid",
        cuid2: "cuid2",
        ulid: "ULID",
        xid: "XID",
        ksuid: "KSUID",
        datetime: "ISO datetime",
        date: "ISO date",
        time: "ISO time",
        duration: "ISO duration",
        ipv4: "IPv4 address",
        ipv6: "IPv6 address",
        mac: "MAC address",
        cidrv4: "IPv4 range",
        cidrv6: "IPv6 range",
        base64: "base64-encoded string",
        base64url: "base64url-encoded string",
        json_string: "JSON string",
        e164: "E.164 number",
        currency_code: "currency code",
        credit_card: "credit card number",
        iban: "IBAN",
        jwt: "JWT",
        template_literal: "input",
    };
    // type names: missing keys = do not translate (use raw value via ?? fallback)
    const TypeDictionary = {
        // Compatibility: "nan" -> "NaN" for display
        nan: "NaN",
        // All other type names omitted - they fall back to raw values via ?? operator
    };
    function getTypeName(type, input) {
        if (type === "number" && typeof input === "number" && !Number.isFinite(input)) {
            return String(input);
        }
        return TypeDictionary[type] ?? type;
    }
    return (issue) => {
        switch (issue.code) {
            case "invalid_type": {
                const expected = getTypeName(issue.expected);
                const receivedType = parsedType(issue.input);
                const received = getTypeName(receivedType, issue.input);
                return `Invalid input: expected ${expected}, received ${received}`;
            }
            case "invalid_value":
                if (issue.values.length === 1)
                    return `Invalid input: expected ${stringifyPrimitive(issue.values[0])}`;
                return `Invalid option: expected one of ${joinValues(issue.values, "|")}`;
            case "too_big": {
                const adj = issue.exact ? "exactly " : issue.inclusive ? "<=" : "<";
                const sizing = getSizing(issue.origin);
                if (sizing)
                    return `Too big: expected ${issue.origin ?? "value"} to have ${adj}${issue.maximum.toString()} ${sizing.unit ?? "elements"}`;
                return `Too big: expected ${issue.origin ?? "value"} to be ${adj}${issue.maximum.toString()}`;
            }
            case "too_small": {
                const adj = issue.exact ? "exactly " : issue.inclusive ? ">=" : ">";
                const sizing = getSizing(issue.origin);
                if (sizing) {
                    return `Too small: expected ${issue.origin} to have ${adj}${issue.minimum.toString()} ${sizing.unit}`;
                }
                return `Too small: expected ${issue.origin} to be ${adj}${issue.minimum.toString()}`;
            }
            case "invalid_format": {
                const _issue = issue;
                if (_issue.format === "starts_with") {
                    return `Invalid string: must start with "${_issue.prefix}"`;
                }
                if (_issue.format === "ends_with")
                    return `Invalid string: must end with "${_issue.suffix}"`;
                if (_issue.format === "includes")
                    return `Invalid string: must include "${_issue.includes}"`;
                if (_issue.format === "regex")
                    return `Invalid string: must match pattern ${_issue.pattern}`;
                return `Invalid ${FormatDictionary[_issue.format] ?? issue.format}`;
            }
            case "not_multiple_of":
                return `Invalid number: must be a multiple of ${issue.divisor}`;
            case "unrecognized_keys":
                return `Unrecognized key${issue.keys.length > 1 ? "s" : ""}: ${joinValues(issue.keys, ", ")}`;
            case "invalid_key":
                return `Invalid key in ${issue.origin}`;
            case "invalid_union":
                if (issue.options && Array.isArray(issue.options) && issue.options.length > 0) {
                    const opts = issue.options.map((o) => `'${o}'`).join(" | ");
                    return `Invalid discriminator value. Expected ${opts}`;
                }
                if (issue.inclusive === false) {
                    return "Invalid input: more than one option matched";
                }
                return "Invalid input";
            case "invalid_element":
                return `Invalid value in ${issue.origin}`;
            default:
                return `Invalid input`;
        }
    };
};
/* harmony default export */ function en() {
    return {
        localeError: error(),
    };
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/errors.js


/* Computing the message eagerly is expensive (pretty-printed JSON of all
 * issues), so defer it until first read. The accessor functions and
 * descriptors are shared across instances to keep error construction
 * cheap; the computed message is cached on the internals object. The
 * setter preserves plain assignment semantics for consumers that
 * overwrite `message`. */
function _getMessage() {
    const internals = this._zod;
    internals.message ?? (internals.message = JSON.stringify(internals.def, jsonStringifyReplacer, 2));
    return internals.message;
}
function _setMessage(value) {
    this._zod.message = value;
}
const _messageDesc = {
    get: _getMessage,
    set: _setMessage,
    enumerable: true,
    configurable: true,
};
const _issuesDesc = { value: undefined, enumerable: false };
/* Prototypes that already carry the lazy `toString`. Seeded with the
 * intrinsics so that `init` on a foreign object — it accepts any object —
 * can never install an accessor onto a prototype we do not own. */
const _installedToString = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
const initializer = (inst, def) => {
    inst.name = "$ZodError";
    // `_zod` is already non-enumerable: $constructor's init defined it with this same descriptor
    _issuesDesc.value = def;
    Object.defineProperty(inst, "issues", _issuesDesc);
    // Clear the shared slot; a retained `value` pins the last error's issues.
    _issuesDesc.value = undefined;
    Object.defineProperty(inst, "message", _messageDesc);
    /* `toString` lives as a non-enumerable lazy getter on the shared
     * prototype; on first access it caches a per-instance closure so
     * detached usage still works. */
    const proto = Object.getPrototypeOf(inst);
    if (!_installedToString.has(proto)) {
        _installedToString.add(proto);
        Object.defineProperty(proto, "toString", {
            configurable: true,
            enumerable: false,
            get() {
                const value = () => this.message;
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
                return value;
            },
            set(value) {
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
            },
        });
    }
};
const $ZodError = $constructor("$ZodError", initializer);
const $ZodRealError = $constructor("$ZodError", initializer, undefined, {
    Parent: Error,
});
/** Get-or-create `obj[key]` as an own data property. A path segment naming an inherited member
 * ("toString", "constructor") would otherwise read through to the prototype, and assigning
 * "__proto__" would hit the setter instead of creating a key. */
function node(obj, key, make) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) {
        if (key === "__proto__") {
            Object.defineProperty(obj, key, { value: make(), writable: true, enumerable: true, configurable: true });
        }
        else {
            obj[key] = make();
        }
    }
    return obj[key];
}
function flattenError(error, mapper = (issue) => issue.message) {
    const fieldErrors = {};
    const formErrors = [];
    for (const sub of error.issues) {
        if (sub.path.length > 0) {
            node(fieldErrors, sub.path[0], () => []).push(mapper(sub));
        }
        else {
            formErrors.push(mapper(sub));
        }
    }
    return { formErrors, fieldErrors };
}
function formatError(error, mapper = (issue) => issue.message) {
    const fieldErrors = { _errors: [] };
    const processError = (error, path = []) => {
        for (const issue of error.issues) {
            if (issue.code === "invalid_union" && issue.errors.length) {
                issue.errors.map((issues) => processError({ issues }, [...path, ...issue.path]));
            }
            else if (issue.code === "invalid_key") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else if (issue.code === "invalid_element") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else {
                const fullpath = [...path, ...issue.path];
                if (fullpath.length === 0) {
                    fieldErrors._errors.push(mapper(issue));
                }
                else {
                    let curr = fieldErrors;
                    let i = 0;
                    while (i < fullpath.length) {
                        const el = fullpath[i];
                        const terminal = i === fullpath.length - 1;
                        // `_errors` is reserved by this legacy format, so merge a matching path segment into the current node instead of treating its array as a child.
                        if (el === "_errors") {
                            if (terminal)
                                curr._errors.push(mapper(issue));
                            i++;
                            continue;
                        }
                        // A path element may collide with an inherited property name such as
                        // "__proto__" or "constructor". Truthiness checks read the prototype
                        // (so no node is created, then ._errors.push throws), and bracket
                        // assignment of "__proto__" hits the setter instead of creating an
                        // own key. Guard the read with hasOwnProperty and create the node
                        // with defineProperty so any path element becomes a real own key.
                        if (!Object.prototype.hasOwnProperty.call(curr, el)) {
                            Object.defineProperty(curr, el, {
                                value: { _errors: [] },
                                enumerable: true,
                                writable: true,
                                configurable: true,
                            });
                        }
                        const node = curr[el];
                        if (terminal) {
                            node._errors.push(mapper(issue));
                        }
                        curr = node;
                        i++;
                    }
                }
            }
        }
    };
    processError(error);
    return fieldErrors;
}
function treeifyError(error, mapper = (issue) => issue.message) {
    const result = { errors: [] };
    const processError = (error, path = []) => {
        var _a;
        for (const issue of error.issues) {
            if (issue.code === "invalid_union" && issue.errors.length) {
                // regular union error
                issue.errors.map((issues) => processError({ issues }, [...path, ...issue.path]));
            }
            else if (issue.code === "invalid_key") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else if (issue.code === "invalid_element") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else {
                const fullpath = [...path, ...issue.path];
                if (fullpath.length === 0) {
                    result.errors.push(mapper(issue));
                    continue;
                }
                let curr = result;
                let i = 0;
                while (i < fullpath.length) {
                    const el = fullpath[i];
                    const terminal = i === fullpath.length - 1;
                    if (typeof el === "string") {
                        curr.properties ?? (curr.properties = {});
                        // el may collide with an inherited property name ("__proto__",
                        // "constructor", ...); ??= reads the prototype so the node is never
                        // created and curr.errors.push throws. Guard with hasOwnProperty and
                        // create the node with defineProperty so "__proto__" becomes a real
                        // own key rather than invoking the prototype setter.
                        if (!Object.prototype.hasOwnProperty.call(curr.properties, el)) {
                            Object.defineProperty(curr.properties, el, {
                                value: { errors: [] },
                                enumerable: true,
                                writable: true,
                                configurable: true,
                            });
                        }
                        curr = curr.properties[el];
                    }
                    else {
                        curr.items ?? (curr.items = []);
                        (_a = curr.items)[el] ?? (_a[el] = { errors: [] });
                        curr = curr.items[el];
                    }
                    if (terminal) {
                        curr.errors.push(mapper(issue));
                    }
                    i++;
                }
            }
        }
    };
    processError(error);
    return result;
}
/** Format a ZodError as a human-readable string in the following form.
 *
 * From
 *
 * ```ts
 * ZodError {
 *   issues: [
 *     {
 *       expected: 'string',
 *       code: 'invalid_type',
 *       path: [ 'username' ],
 *       message: 'Invalid input: expected string'
 *     },
 *     {
 *       expected: 'number',
 *       code: 'invalid_type',
 *       path: [ 'favoriteNumbers', 1 ],
 *       message: 'Invalid input: expected number'
 *     }
 *   ];
 * }
 * ```
 *
 * to
 *
 * ```
 * username
 *   ✖ Expected number, received string at "username
 * favoriteNumbers[0]
 *   ✖ Invalid input: expected number
 * ```
 */
function toDotPath(_path) {
    const segs = [];
    const path = _path.map((seg) => (typeof seg === "object" ? seg.key : seg));
    for (const seg of path) {
        if (typeof seg === "number")
            segs.push(`[${seg}]`);
        else if (typeof seg === "symbol")
            segs.push(`[${JSON.stringify(String(seg))}]`);
        else if (/[^\w$]/.test(seg))
            segs.push(`[${JSON.stringify(seg)}]`);
        else {
            if (segs.length)
                segs.push(".");
            segs.push(seg);
        }
    }
    return segs.join("");
}
function prettifyError(error) {
    const lines = [];
    // sort by path length
    const issues = [...error.issues].sort((a, b) => (a.path ?? []).length - (b.path ?? []).length);
    // Process each issue
    for (const issue of issues) {
        lines.push(`✖ ${issue.message}`);
        if (issue.path?.length)
            lines.push(`  → at ${toDotPath(issue.path)}`);
    }
    // Convert Map to formatted string
    return lines.join("\n");
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/parse.js



// Always both keys, so the `_params` read site in `_parse` sees one object shape rather than two.
function finalizeParams(callee, params) {
    return { callee: params?.callee ?? callee, Err: params?.Err };
}
const _parse = (_Err) => {
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
        const result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise) {
            throw new $ZodAsyncError();
        }
        if (result.issues.length) {
            const e = new (_params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, _params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const parse_parse = /* @__PURE__*/ _parse($ZodRealError);
const _parseAsync = (_Err) => {
    const fn = async (schema, value, _ctx, params) => {
        const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
        let result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise)
            result = await result;
        if (result.issues.length) {
            const e = new (params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const parse_parseAsync = /* @__PURE__*/ _parseAsync($ZodRealError);
const _safeParse = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
    const result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise) {
        throw new $ZodAsyncError();
    }
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
const safeParse = /* @__PURE__*/ _safeParse($ZodRealError);
// the error is built on the first read of `error`: finalizing the issues and constructing the instance is most of a failing parse, and a caller that only branches on `success` never pays it. a getter in the literal keeps this small; the alternative, one shared accessor descriptor plus a hidden state slot, reads ~15% faster but costs ~75 B gzipped in every bundle
function failure(Err, issues, ctx) {
    let error;
    return {
        success: false,
        get error() {
            if (!error) {
                error = new Err(issues.map((iss) => finalizeIssue(iss, ctx, config())));
                // finalizeIssue drops `input`, so the built error holds nothing; keeping the raw issues past this point pins the parsed value for the life of the result
                issues = undefined;
                ctx = undefined;
            }
            return error;
        },
        set error(e) {
            error = e;
            // a replacement makes the getter's branch unreachable, so the captures have to go here too
            issues = undefined;
            ctx = undefined;
        },
    };
}
const _safeParseAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
const safeParseAsync = /* @__PURE__*/ _safeParseAsync($ZodRealError);
// registry mirrors of the compiler's sentinels, so this module never imports the compiler
const COMPILE_INVALID = /* @__PURE__ */ Symbol.for("zod.compile.invalid");
const COMPILE_FALLBACK = /* @__PURE__ */ Symbol.for("zod.compile.fallback");
// Deliberately tiny, because v8 will not inline a body carrying the fallback's object literals and throw. Everything that is not the compiled happy path lives in validateFallback, and that split is worth ~35% on a compiled schema.
const validate = ((schema, value, _ctx) => {
    const validator = schema._zod.bag.validator;
    if (validator !== undefined) {
        if (validator(value) !== COMPILE_INVALID)
            return true;
        // a definite sentinel means the runtime would reject, so skip the re-parse; a ctx can still change the answer
        if (validator.definite === true && _ctx === undefined)
            return false;
    }
    return validateFallback(schema, value, _ctx);
});
function validateFallback(schema, value, _ctx) {
    const ctx = _ctx
        ? { ..._ctx, async: false, abortEarly: true }
        : { async: false, abortEarly: true };
    const fallbackRun = schema._zod.bag.fallbackRun;
    let result;
    if (fallbackRun) {
        // skip nested fast paths on the fallback, so user callbacks keep the at-most-twice bound
        ctx[COMPILE_FALLBACK] = true;
        result = fallbackRun({ value, issues: [] }, ctx);
    }
    else {
        result = schema._zod.run({ value, issues: [] }, ctx);
    }
    if (result instanceof Promise) {
        throw new $ZodAsyncError();
    }
    return result.issues.length === 0;
}
// no fast path: the compiler keeps async parses on the runtime, because a promise-returning callback that is not declared async compiles to a throw
const parse_validateAsync = async (schema, value, _ctx) => {
    const ctx = _ctx
        ? { ..._ctx, async: true, abortEarly: true }
        : { async: true, abortEarly: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length === 0;
};
const _encode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return parse(schema, value, ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const encode = /* @__PURE__*/ _encode($ZodRealError);
const _decode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        return parse(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const decode = /* @__PURE__*/ _decode($ZodRealError);
const _encodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return (await parseAsync(schema, value, ctx, finalizeParams(fn, _params)));
    };
    return fn;
};
const encodeAsync = /* @__PURE__*/ _encodeAsync($ZodRealError);
const _decodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        return await parseAsync(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const decodeAsync = /* @__PURE__*/ _decodeAsync($ZodRealError);
const _safeEncode = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParse(_Err)(schema, value, ctx);
};
const safeEncode = /* @__PURE__*/ _safeEncode($ZodRealError);
const _safeDecode = (_Err) => (schema, value, _ctx) => {
    return _safeParse(_Err)(schema, value, _ctx);
};
const safeDecode = /* @__PURE__*/ _safeDecode($ZodRealError);
const _safeEncodeAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParseAsync(_Err)(schema, value, ctx);
};
const safeEncodeAsync = /* @__PURE__*/ _safeEncodeAsync($ZodRealError);
const _safeDecodeAsync = (_Err) => async (schema, value, _ctx) => {
    return _safeParseAsync(_Err)(schema, value, _ctx);
};
const safeDecodeAsync = /* @__PURE__*/ _safeDecodeAsync($ZodRealError);

;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/errors.js



/* Prototypes that already carry the lazy helper methods. Seeded with the
 * intrinsics so that `init` on a foreign object — it accepts any object —
 * can never install an accessor onto a prototype we do not own. */
const _installedErrorProtos = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
/* Helper methods live as non-enumerable lazy getters on the shared
 * prototype instead of own properties on every instance. On first
 * access the getter allocates the per-instance closure and caches it
 * as a non-enumerable own property, so detached usage still works and
 * the allocation only happens for methods actually touched. */
function _lazyMethod(proto, key, make) {
    Object.defineProperty(proto, key, {
        configurable: true,
        enumerable: false,
        get() {
            const value = make(this);
            Object.defineProperty(this, key, { value, configurable: true, writable: true });
            return value;
        },
        set(value) {
            Object.defineProperty(this, key, { value, configurable: true, writable: true });
        },
    });
}
const errors_initializer = (inst, issues) => {
    $ZodError.init(inst, issues);
    inst.name = "ZodError";
    const proto = Object.getPrototypeOf(inst);
    if (_installedErrorProtos.has(proto))
        return;
    _installedErrorProtos.add(proto);
    _lazyMethod(proto, "format", (self) => (mapper) => formatError(self, mapper));
    _lazyMethod(proto, "flatten", (self) => (mapper) => flattenError(self, mapper));
    _lazyMethod(proto, "addIssue", (self) => (issue) => {
        self.issues.push(issue);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
    });
    _lazyMethod(proto, "addIssues", (self) => (issues) => {
        self.issues.push(...issues);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
    });
    Object.defineProperty(proto, "isEmpty", {
        configurable: true,
        enumerable: false,
        get() {
            return this.issues.length === 0;
        },
    });
};
const ZodError = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodError", errors_initializer)));
const ZodRealError = /*@__PURE__*/ $constructor("ZodError", errors_initializer, undefined, {
    Parent: Error,
});
// /** @deprecated Use `z.core.$ZodErrorMapCtx` instead. */
// export type ErrorMapCtx = core.$ZodErrorMapCtx;

;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/parse.js


const classic_parse_parse = /* @__PURE__ */ _parse(ZodRealError);
const classic_parse_parseAsync = /* @__PURE__ */ _parseAsync(ZodRealError);
const parse_safeParse = /* @__PURE__ */ _safeParse(ZodRealError);
const parse_safeParseAsync = /* @__PURE__ */ _safeParseAsync(ZodRealError);

// Codec functions
const parse_encode = /* @__PURE__ */ _encode(ZodRealError);
const parse_decode = /* @__PURE__ */ _decode(ZodRealError);
const parse_encodeAsync = /* @__PURE__ */ _encodeAsync(ZodRealError);
const parse_decodeAsync = /* @__PURE__ */ _decodeAsync(ZodRealError);
const parse_safeEncode = /* @__PURE__ */ _safeEncode(ZodRealError);
const parse_safeDecode = /* @__PURE__ */ _safeDecode(ZodRealError);
const parse_safeEncodeAsync = /* @__PURE__ */ _safeEncodeAsync(ZodRealError);
const parse_safeDecodeAsync = /* @__PURE__ */ _safeDecodeAsync(ZodRealError);

;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/schemas.js








// Register English as the default locale on first ZodType construction. Hooked into the `ZodType` `$constructor` (rather than a top-level `config(en())` in `external.ts`) so bundlers honoring `sideEffects: false` can't tree-shake it out — see #5953, #5725. An explicit `z.config(z.locales.xx())` call wins regardless of order, since this only sets the default when none is present.
function _ensureDefaultLocale() {
    if (!globalConfig.localeError)
        config(en());
}
// the default memoizer is read by the core container init, which runs before `ZodType.init`, so each container calls this first
function _ensureDefaultMemoizer() {
    if (!globalConfig.memoizer)
        config({ memoizer: memoizer() });
}
const ZodType = /*@__PURE__*/ $constructor("ZodType", (inst, def) => {
    _ensureDefaultLocale();
    $ZodType.init(inst, def);
    inst.def = def;
    inst.type = def.type;
    return inst;
}, {
    check(...chks) {
        const def = this.def;
        return this.clone(mergeDefs(def, {
            checks: [
                ...(def.checks ?? []),
                ...chks.map((ch) => typeof ch === "function" ? { _zod: { check: ch, def: { check: "custom" }, onattach: [] } } : ch),
            ],
        }), { parent: true });
    },
    with(...chks) {
        return this.check(...chks);
    },
    clone(def, params) {
        return clone(this, def, params);
    },
    brand() {
        return this;
    },
    register(reg, meta) {
        reg.add(this, meta);
        return this;
    },
    refine(check, params) {
        return this.check(refine(check, params));
    },
    superRefine(refinement, params) {
        return this.check(superRefine(refinement, params));
    },
    overwrite(fn) {
        return this.check(_overwrite(fn));
    },
    optional() {
        return optional(this);
    },
    exactOptional() {
        return exactOptional(this);
    },
    nullable() {
        return nullable(this);
    },
    nullish() {
        return optional(nullable(this));
    },
    nonoptional(params) {
        return nonoptional(this, params);
    },
    array() {
        return array(this);
    },
    or(arg) {
        return union([this, arg]);
    },
    and(arg) {
        return intersection(this, arg);
    },
    transform(tx) {
        return pipe(this, transform(tx));
    },
    default(d) {
        return schemas_default(this, d);
    },
    prefault(d) {
        return prefault(this, d);
    },
    catch(params) {
        return schemas_catch(this, params);
    },
    pipe(target) {
        return pipe(this, target);
    },
    readonly() {
        return readonly(this);
    },
    describe(description) {
        const cl = this.clone();
        globalRegistry.add(cl, { description });
        return cl;
    },
    meta(...args) {
        // overloaded: meta() returns the registered metadata, meta(data) returns a clone with `data` registered. The mapped type picks up the second overload, so we accept variadic any-args and return `any` to satisfy both at runtime.
        if (args.length === 0)
            return globalRegistry.get(this);
        const cl = this.clone();
        globalRegistry.add(cl, args[0]);
        return cl;
    },
    isOptional() {
        return this.safeParse(undefined).success;
    },
    isNullable() {
        return this.safeParse(null).success;
    },
    apply(fn, ...args) {
        return args.length === 0 ? fn(this) : fn(this, ...args);
    },
    // Overrides core's `~standard` to add `jsonSchema`. Must stay a prototype entry: redefining it per instance demotes instances to dictionary mode.
    get "~standard"() {
        return hide(this, "~standard", {
            ...standardProps(this),
            jsonSchema: {
                input: createStandardJSONSchemaMethod(this, "input"),
                output: createStandardJSONSchemaMethod(this, "output"),
            },
        });
    },
    set "~standard"(value) {
        own(this, "~standard", value);
    },
    parse: function _parse(data, params) {
        return classic_parse_parse(this, data, params, { callee: _parse });
    },
    parseAsync: async function _parseAsync(data, params) {
        return await classic_parse_parseAsync(this, data, params, { callee: _parseAsync });
    },
    safeParse(data, params) {
        return parse_safeParse(this, data, params);
    },
    async safeParseAsync(data, params) {
        return parse_safeParseAsync(this, data, params);
    },
    // `spa` is an alias: same function object as `safeParseAsync`, as before.
    get spa() {
        return this?.safeParseAsync;
    },
    set spa(value) {
        own(this, "spa", value);
    },
    validate(data, params) {
        return validate(this, data, params);
    },
    validateAsync(data, params) {
        return parse_validateAsync(this, data, params);
    },
    encode: function _encode(data, params) {
        return parse_encode(this, data, params, { callee: _encode });
    },
    decode: function _decode(data, params) {
        return parse_decode(this, data, params, { callee: _decode });
    },
    encodeAsync: async function _encodeAsync(data, params) {
        return await parse_encodeAsync(this, data, params, { callee: _encodeAsync });
    },
    decodeAsync: async function _decodeAsync(data, params) {
        return await parse_decodeAsync(this, data, params, { callee: _decodeAsync });
    },
    safeEncode(data, params) {
        return parse_safeEncode(this, data, params);
    },
    safeDecode(data, params) {
        return parse_safeDecode(this, data, params);
    },
    async safeEncodeAsync(data, params) {
        return parse_safeEncodeAsync(this, data, params);
    },
    async safeDecodeAsync(data, params) {
        return parse_safeDecodeAsync(this, data, params);
    },
    toJSONSchema(params) {
        return createToJSONSchemaMethod(this, {})(params);
    },
    // Reads through to the registry on every access, so it must not cache.
    get description() {
        return globalRegistry.get(this)?.description;
    },
    // No setter: `schema._def = x` throws, as it did when `_def` was a non-writable own property.
    get _def() {
        return this._zod.def;
    },
});
/** @internal */
const _ZodString = /*@__PURE__*/ $constructor("_ZodString", (inst, def) => {
    $ZodString.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => stringProcessor(inst, ctx, json, params);
}, 
/*@__PURE__*/ derived({
    format: (inst) => aggregateChecks(inst).format ?? null,
    minLength: (inst) => aggregateChecks(inst).minimum ?? null,
    maxLength: (inst) => aggregateChecks(inst).maximum ?? null,
}, {
    regex(...args) {
        return this.check(_regex(...args));
    },
    includes(...args) {
        return this.check(_includes(...args));
    },
    startsWith(...args) {
        return this.check(_startsWith(...args));
    },
    endsWith(...args) {
        return this.check(_endsWith(...args));
    },
    min(...args) {
        return this.check(_minLength(...args));
    },
    max(...args) {
        return this.check(_maxLength(...args));
    },
    length(...args) {
        return this.check(_length(...args));
    },
    nonempty(...args) {
        return this.check(_minLength(1, ...args));
    },
    lowercase(params) {
        return this.check(_lowercase(params));
    },
    uppercase(params) {
        return this.check(_uppercase(params));
    },
    trim() {
        return this.check(_trim());
    },
    normalize(...args) {
        return this.check(_normalize(...args));
    },
    toLowerCase() {
        return this.check(_toLowerCase());
    },
    toUpperCase() {
        return this.check(_toUpperCase());
    },
    slugify() {
        return this.check(_slugify());
    },
}));
const ZodString = /*@__PURE__*/ $constructor("ZodString", (inst, def) => {
    $ZodString.init(inst, def);
    _ZodString.init(inst, def);
}, {
    email(params) {
        return this.check(_email(ZodEmail, params));
    },
    url(params) {
        return this.check(_url(ZodURL, params));
    },
    jwt(params) {
        return this.check(_jwt(ZodJWT, params));
    },
    emoji(params) {
        return this.check(api_emoji(ZodEmoji, params));
    },
    guid(params) {
        return this.check(_guid(ZodGUID, params));
    },
    uuid(params) {
        return this.check(_uuid(ZodUUID, params));
    },
    uuidv4(params) {
        return this.check(_uuidv4(ZodUUID, params));
    },
    uuidv6(params) {
        return this.check(_uuidv6(ZodUUID, params));
    },
    uuidv7(params) {
        return this.check(_uuidv7(ZodUUID, params));
    },
    nanoid(params) {
        return this.check(_nanoid(ZodNanoID, params));
    },
    cuid(params) {
        return this.check(_cuid(ZodCUID, params));
    },
    cuid2(params) {
        return this.check(_cuid2(ZodCUID2, params));
    },
    ulid(params) {
        return this.check(_ulid(ZodULID, params));
    },
    base64(params) {
        return this.check(_base64(ZodBase64, params));
    },
    base64url(params) {
        return this.check(_base64url(ZodBase64URL, params));
    },
    xid(params) {
        return this.check(_xid(ZodXID, params));
    },
    ksuid(params) {
        return this.check(_ksuid(ZodKSUID, params));
    },
    ipv4(params) {
        return this.check(_ipv4(ZodIPv4, params));
    },
    ipv6(params) {
        return this.check(_ipv6(ZodIPv6, params));
    },
    cidrv4(params) {
        return this.check(_cidrv4(ZodCIDRv4, params));
    },
    cidrv6(params) {
        return this.check(_cidrv6(ZodCIDRv6, params));
    },
    e164(params) {
        return this.check(_e164(ZodE164, params));
    },
    datetime(params) {
        return this.check(_isoDateTime(ZodISODateTime, params));
    },
    date(params) {
        return this.check(_isoDate(ZodISODate, params));
    },
    time(params) {
        return this.check(_isoTime(schemas_ZodISOTime, params));
    },
    duration(params) {
        return this.check(_isoDuration(schemas_ZodISODuration, params));
    },
});
function schemas_string(params) {
    return _string(ZodString, params);
}
const ZodStringFormat = /*@__PURE__*/ $constructor("ZodStringFormat", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    _ZodString.init(inst, def);
});
const ZodISODateTime = /*@__PURE__*/ $constructor("ZodISODateTime", (inst, def) => {
    $ZodISODateTime.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodISODate = /*@__PURE__*/ $constructor("ZodISODate", (inst, def) => {
    $ZodISODate.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const schemas_ZodISOTime = /*@__PURE__*/ $constructor("ZodISOTime", (inst, def) => {
    $ZodISOTime.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const schemas_ZodISODuration = /*@__PURE__*/ $constructor("ZodISODuration", (inst, def) => {
    $ZodISODuration.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodEmail = /*@__PURE__*/ $constructor("ZodEmail", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodEmail.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_email(params) {
    return core._email(ZodEmail, params);
}
const ZodGUID = /*@__PURE__*/ $constructor("ZodGUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodGUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_guid(params) {
    return core._guid(ZodGUID, params);
}
const ZodUUID = /*@__PURE__*/ $constructor("ZodUUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodUUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_uuid(params) {
    return core._uuid(ZodUUID, params);
}
function uuidv4(params) {
    return core._uuidv4(ZodUUID, params);
}
// ZodUUIDv6
function uuidv6(params) {
    return core._uuidv6(ZodUUID, params);
}
// ZodUUIDv7
function uuidv7(params) {
    return core._uuidv7(ZodUUID, params);
}
const ZodURL = /*@__PURE__*/ $constructor("ZodURL", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodURL.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function url(params) {
    return _url(ZodURL, params);
}
function httpUrl(params) {
    return core._url(ZodURL, {
        protocol: regexes.httpProtocol,
        hostname: regexes.domain,
        ...util.normalizeParams(params),
    });
}
const ZodEmoji = /*@__PURE__*/ $constructor("ZodEmoji", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodEmoji.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_emoji(params) {
    return core._emoji(ZodEmoji, params);
}
const ZodNanoID = /*@__PURE__*/ $constructor("ZodNanoID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodNanoID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_nanoid(params) {
    return core._nanoid(ZodNanoID, params);
}
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link ZodCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const ZodCUID = /*@__PURE__*/ $constructor("ZodCUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodCUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
/**
 * Validates a CUID v1 string.
 *
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link cuid2 | `z.cuid2()`} instead.
 * See https://github.com/paralleldrive/cuid.
 */
function schemas_cuid(params) {
    return core._cuid(ZodCUID, params);
}
const ZodCUID2 = /*@__PURE__*/ $constructor("ZodCUID2", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodCUID2.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_cuid2(params) {
    return core._cuid2(ZodCUID2, params);
}
const ZodULID = /*@__PURE__*/ $constructor("ZodULID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodULID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ulid(params) {
    return core._ulid(ZodULID, params);
}
const ZodXID = /*@__PURE__*/ $constructor("ZodXID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodXID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_xid(params) {
    return core._xid(ZodXID, params);
}
const ZodKSUID = /*@__PURE__*/ $constructor("ZodKSUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodKSUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ksuid(params) {
    return core._ksuid(ZodKSUID, params);
}
const ZodIPv4 = /*@__PURE__*/ $constructor("ZodIPv4", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodIPv4.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ipv4(params) {
    return core._ipv4(ZodIPv4, params);
}
const ZodMAC = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMAC", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    core.$ZodMAC.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function schemas_mac(params) {
    return core._mac(ZodMAC, params);
}
const ZodIPv6 = /*@__PURE__*/ $constructor("ZodIPv6", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodIPv6.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_ipv6(params) {
    return core._ipv6(ZodIPv6, params);
}
const ZodCIDRv4 = /*@__PURE__*/ $constructor("ZodCIDRv4", (inst, def) => {
    $ZodCIDRv4.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_cidrv4(params) {
    return core._cidrv4(ZodCIDRv4, params);
}
const ZodCIDRv6 = /*@__PURE__*/ $constructor("ZodCIDRv6", (inst, def) => {
    $ZodCIDRv6.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_cidrv6(params) {
    return core._cidrv6(ZodCIDRv6, params);
}
const ZodBase64 = /*@__PURE__*/ $constructor("ZodBase64", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodBase64.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_base64(params) {
    return core._base64(ZodBase64, params);
}
const ZodBase64URL = /*@__PURE__*/ $constructor("ZodBase64URL", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodBase64URL.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_base64url(params) {
    return core._base64url(ZodBase64URL, params);
}
const ZodE164 = /*@__PURE__*/ $constructor("ZodE164", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodE164.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function schemas_e164(params) {
    return core._e164(ZodE164, params);
}
const ZodCreditCard = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodCreditCard", (inst, def) => {
    core.$ZodCreditCard.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function schemas_creditCard(params) {
    return core._creditCard(ZodCreditCard, params);
}
const ZodIBAN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodIBAN", (inst, def) => {
    core.$ZodIBAN.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function schemas_iban(params) {
    return core._iban(ZodIBAN, params);
}
const ZodJWT = /*@__PURE__*/ $constructor("ZodJWT", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodJWT.init(inst, def);
    ZodStringFormat.init(inst, def);
});
function jwt(params) {
    return core._jwt(ZodJWT, params);
}
const ZodCustomStringFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodCustomStringFormat", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    core.$ZodCustomStringFormat.init(inst, def);
    ZodStringFormat.init(inst, def);
})));
function stringFormat(format, fnOrRegex, _params = {}) {
    return core._stringFormat(ZodCustomStringFormat, format, fnOrRegex, _params);
}
function schemas_hostname(_params) {
    return core._stringFormat(ZodCustomStringFormat, "hostname", regexes.hostname, _params);
}
function schemas_hex(_params) {
    return core._stringFormat(ZodCustomStringFormat, "hex", regexes.hex, _params);
}
function schemas_currencyCode(_params) {
    return core._stringFormat(ZodCustomStringFormat, "currency_code", regexes.currencyCode, _params);
}
function hash(alg, params) {
    const enc = params?.enc ?? "hex";
    const format = `${alg}_${enc}`;
    const regex = core.regexes[format];
    if (!regex)
        throw new Error(`Unrecognized hash format: ${format}`);
    return core._stringFormat(ZodCustomStringFormat, format, regex, params);
}
const ZodNumber = /*@__PURE__*/ $constructor("ZodNumber", (inst, def) => {
    $ZodNumber.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => numberProcessor(inst, ctx, json, params);
    inst.isFinite = true;
}, 
/*@__PURE__*/ derived({
    minValue: (inst) => {
        const { minimum, exclusiveMinimum } = aggregateChecks(inst);
        return Math.max(minimum ?? Number.NEGATIVE_INFINITY, exclusiveMinimum ?? Number.NEGATIVE_INFINITY);
    },
    maxValue: (inst) => {
        const { maximum, exclusiveMaximum } = aggregateChecks(inst);
        return Math.min(maximum ?? Number.POSITIVE_INFINITY, exclusiveMaximum ?? Number.POSITIVE_INFINITY);
    },
    isInt: (inst) => {
        const { isInt, multipleOf } = aggregateChecks(inst);
        return !!isInt || !!multipleOf?.some(Number.isSafeInteger);
    },
    format: (inst) => aggregateChecks(inst).format ?? null,
}, {
    gt(value, params) {
        return this.check(_gt(value, params));
    },
    gte(value, params) {
        return this.check(_gte(value, params));
    },
    min(value, params) {
        return this.check(_gte(value, params));
    },
    lt(value, params) {
        return this.check(_lt(value, params));
    },
    lte(value, params) {
        return this.check(_lte(value, params));
    },
    max(value, params) {
        return this.check(_lte(value, params));
    },
    int(params) {
        return this.check(schemas_int(params));
    },
    safe(params) {
        return this.check(schemas_int(params));
    },
    positive(params) {
        return this.check(_gt(0, params));
    },
    nonnegative(params) {
        return this.check(_gte(0, params));
    },
    negative(params) {
        return this.check(_lt(0, params));
    },
    nonpositive(params) {
        return this.check(_lte(0, params));
    },
    multipleOf(value, params) {
        return this.check(_multipleOf(value, params));
    },
    step(value, params) {
        return this.check(_multipleOf(value, params));
    },
    finite() {
        return this;
    },
}));
function schemas_number(params) {
    return _number(ZodNumber, params);
}
const ZodNumberFormat = /*@__PURE__*/ $constructor("ZodNumberFormat", (inst, def) => {
    $ZodNumberFormat.init(inst, def);
    ZodNumber.init(inst, def);
});
function schemas_int(params) {
    return _int(ZodNumberFormat, params);
}
function float32(params) {
    return core._float32(ZodNumberFormat, params);
}
function float64(params) {
    return core._float64(ZodNumberFormat, params);
}
function int32(params) {
    return core._int32(ZodNumberFormat, params);
}
function uint32(params) {
    return core._uint32(ZodNumberFormat, params);
}
const ZodBoolean = /*@__PURE__*/ $constructor("ZodBoolean", (inst, def) => {
    $ZodBoolean.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => booleanProcessor(inst, ctx, json, params);
});
function schemas_boolean(params) {
    return _boolean(ZodBoolean, params);
}
const ZodBigInt = /*@__PURE__*/ $constructor("ZodBigInt", (inst, def) => {
    $ZodBigInt.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => bigintProcessor(inst, ctx, json, params);
}, 
/*@__PURE__*/ derived({
    minValue: (inst) => aggregateChecks(inst).minimum ?? null,
    maxValue: (inst) => aggregateChecks(inst).maximum ?? null,
    format: (inst) => aggregateChecks(inst).format ?? null,
}, {
    gte(value, params) {
        return this.check(_gte(value, params));
    },
    min(value, params) {
        return this.check(_gte(value, params));
    },
    gt(value, params) {
        return this.check(_gt(value, params));
    },
    lt(value, params) {
        return this.check(_lt(value, params));
    },
    lte(value, params) {
        return this.check(_lte(value, params));
    },
    max(value, params) {
        return this.check(_lte(value, params));
    },
    positive(params) {
        return this.check(_gt(BigInt(0), params));
    },
    negative(params) {
        return this.check(_lt(BigInt(0), params));
    },
    nonpositive(params) {
        return this.check(_lte(BigInt(0), params));
    },
    nonnegative(params) {
        return this.check(_gte(BigInt(0), params));
    },
    multipleOf(value, params) {
        return this.check(_multipleOf(value, params));
    },
}));
function schemas_bigint(params) {
    return core._bigint(ZodBigInt, params);
}
const ZodBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodBigIntFormat", (inst, def) => {
    core.$ZodBigIntFormat.init(inst, def);
    ZodBigInt.init(inst, def);
})));
function int64(params) {
    return core._int64(ZodBigIntFormat, params);
}
function uint64(params) {
    return core._uint64(ZodBigIntFormat, params);
}
const ZodSymbol = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodSymbol", (inst, def) => {
    core.$ZodSymbol.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.symbolProcessor(inst, ctx, json, params);
})));
function symbol(params) {
    return core._symbol(ZodSymbol, params);
}
const ZodUndefined = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodUndefined", (inst, def) => {
    core.$ZodUndefined.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.undefinedProcessor(inst, ctx, json, params);
})));
function schemas_undefined(params) {
    return core._undefined(ZodUndefined, params);
}

const ZodNull = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodNull", (inst, def) => {
    core.$ZodNull.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.nullProcessor(inst, ctx, json, params);
})));
function schemas_null(params) {
    return core._null(ZodNull, params);
}

const ZodAny = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodAny", (inst, def) => {
    core.$ZodAny.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.anyProcessor(inst, ctx, json, params);
})));
function any() {
    return core._any(ZodAny);
}
const ZodUnknown = /*@__PURE__*/ $constructor("ZodUnknown", (inst, def) => {
    $ZodUnknown.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => unknownProcessor(inst, ctx, json, params);
});
function unknown() {
    return _unknown(ZodUnknown);
}
const ZodNever = /*@__PURE__*/ $constructor("ZodNever", (inst, def) => {
    $ZodNever.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => neverProcessor(inst, ctx, json, params);
});
function never(params) {
    return _never(ZodNever, params);
}
const ZodVoid = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodVoid", (inst, def) => {
    core.$ZodVoid.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.voidProcessor(inst, ctx, json, params);
})));
function schemas_void(params) {
    return core._void(ZodVoid, params);
}

const ZodDate = /*@__PURE__*/ $constructor("ZodDate", (inst, def) => {
    $ZodDate.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => dateProcessor(inst, ctx, json, params);
    inst.min = (value, params) => inst.check(_gte(value, params));
    inst.max = (value, params) => inst.check(_lte(value, params));
}, 
/*@__PURE__*/ derived({
    minDate: (inst) => {
        const { minimum } = aggregateChecks(inst);
        return minimum ? new Date(minimum) : null;
    },
    maxDate: (inst) => {
        const { maximum } = aggregateChecks(inst);
        return maximum ? new Date(maximum) : null;
    },
}, {}));
function schemas_date(params) {
    return core._date(ZodDate, params);
}
const ZodArray = /*@__PURE__*/ $constructor("ZodArray", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodArray.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => arrayProcessor(inst, ctx, json, params);
    inst.element = def.element;
}, {
    min(n, params) {
        return this.check(_minLength(n, params));
    },
    nonempty(params) {
        return this.check(_minLength(1, params));
    },
    max(n, params) {
        return this.check(_maxLength(n, params));
    },
    length(n, params) {
        return this.check(_length(n, params));
    },
    unwrap() {
        return this.element;
    },
});
function array(element, params) {
    return _array(ZodArray, element, params);
}
// .keyof
function keyof(schema) {
    const shape = schema._zod.def.shape;
    return schemas_enum(Object.keys(shape));
}
const ZodObject = /*@__PURE__*/ $constructor("ZodObject", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodObjectJIT.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => objectProcessor(inst, ctx, json, params);
    installLazyProp(inst, "shape", (self) => self._zod.def.shape, false);
}, {
    keyof() {
        return schemas_enum(Object.keys(this._zod.def.shape));
    },
    catchall(catchall) {
        // `mergeDefs` rather than a spread: spreading reads `shape`, and resolving it can mint a whole fresh subtree
        return this.clone(mergeDefs(this._zod.def, { catchall: catchall }));
    },
    passthrough() {
        return this.clone(mergeDefs(this._zod.def, { catchall: unknown() }));
    },
    loose() {
        return this.clone(mergeDefs(this._zod.def, { catchall: unknown() }));
    },
    strict() {
        return this.clone(mergeDefs(this._zod.def, { catchall: never() }));
    },
    strip() {
        return this.clone(mergeDefs(this._zod.def, { catchall: undefined }));
    },
    extend(incoming) {
        return extend(this, incoming);
    },
    safeExtend(incoming) {
        return safeExtend(this, incoming);
    },
    merge(other) {
        return merge(this, other);
    },
    pick(mask) {
        return pick(this, mask);
    },
    omit(mask) {
        return omit(this, mask);
    },
    partial(...args) {
        return partial(ZodOptional, this, args[0]);
    },
    exactPartial(...args) {
        return partial(ZodExactOptional, this, args[0], "exactPartial");
    },
    required(...args) {
        return required(ZodNonOptional, this, args[0]);
    },
});
function object(shape, params) {
    const def = {
        type: "object",
        shape: shape ?? {},
        ...normalizeParams(params),
    };
    return new ZodObject(def);
}
// strictObject
function strictObject(shape, params) {
    return new ZodObject({
        type: "object",
        shape,
        catchall: never(),
        ...util.normalizeParams(params),
    });
}
// looseObject
function looseObject(shape, params) {
    return new ZodObject({
        type: "object",
        shape,
        catchall: unknown(),
        ...util.normalizeParams(params),
    });
}
const ZodUnion = /*@__PURE__*/ $constructor("ZodUnion", (inst, def) => {
    $ZodUnion.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => unionProcessor(inst, ctx, json, params);
    inst.options = def.options;
});
function union(options, params) {
    return new ZodUnion({
        type: "union",
        options: options,
        ...normalizeParams(params),
    });
}
const ZodXor = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodXor", (inst, def) => {
    ZodUnion.init(inst, def);
    core.$ZodXor.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.unionProcessor(inst, ctx, json, params);
    inst.options = def.options;
})));
/** Creates an exclusive union (XOR) where exactly one option must match.
 * Unlike regular unions that succeed when any option matches, xor fails if
 * zero or more than one option matches the input. */
function xor(options, params) {
    return new ZodXor({
        type: "union",
        options: options,
        inclusive: false,
        ...util.normalizeParams(params),
    });
}
const ZodDiscriminatedUnion = /*@__PURE__*/ $constructor("ZodDiscriminatedUnion", (inst, def) => {
    ZodUnion.init(inst, def);
    $ZodDiscriminatedUnion.init(inst, def);
});
function discriminatedUnion(discriminator, options, params) {
    // const [options, params] = args;
    return new ZodDiscriminatedUnion({
        type: "union",
        options: options,
        discriminator,
        ...normalizeParams(params),
    });
}
const ZodIntersection = /*@__PURE__*/ $constructor("ZodIntersection", (inst, def) => {
    $ZodIntersection.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => intersectionProcessor(inst, ctx, json, params);
});
function intersection(left, right) {
    return new ZodIntersection({
        type: "intersection",
        left: left,
        right: right,
    });
}
const ZodTuple = /*@__PURE__*/ $constructor("ZodTuple", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodTuple.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => tupleProcessor(inst, ctx, json, params);
}, {
    rest(rest) {
        return this.clone({
            ...this._zod.def,
            rest: rest,
        });
    },
    partial() {
        const def = this._zod.def;
        // a refinement was authored against the full arity; partialing would run it on a shorter array
        if (def.checks?.length)
            throw new Error(".partial() cannot be used on tuple schemas containing refinements");
        return this.clone({
            ...def,
            items: def.items.map((item) => new ZodOptional({ type: "optional", innerType: item })),
        });
    },
});
function tuple(items, _paramsOrRest, _params) {
    const hasRest = _paramsOrRest instanceof core.$ZodType;
    const params = hasRest ? _params : _paramsOrRest;
    const rest = hasRest ? _paramsOrRest : null;
    return new ZodTuple({
        type: "tuple",
        items: items,
        rest,
        ...util.normalizeParams(params),
    });
}
const ZodRecord = /*@__PURE__*/ $constructor("ZodRecord", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodRecord.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => recordProcessor(inst, ctx, json, params);
    inst.keyType = def.keyType;
    inst.valueType = def.valueType;
});
function record(keyType, valueType, params) {
    // v3-compat: z.record(valueType, params?) — defaults keyType to z.string()
    if (!valueType || !valueType._zod) {
        return new ZodRecord({
            type: "record",
            keyType: schemas_string(),
            valueType: keyType,
            ...normalizeParams(valueType),
        });
    }
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        ...normalizeParams(params),
    });
}
// type alksjf = core.output<core.$ZodRecordKey>;
function partialRecord(keyType, valueType, params) {
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        ...normalizeParams(params),
        partial: true,
    });
}
function looseRecord(keyType, valueType, params) {
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        mode: "loose",
        ...util.normalizeParams(params),
    });
}
const ZodMap = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMap", (inst, def) => {
    _ensureDefaultMemoizer();
    core.$ZodMap.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.mapProcessor(inst, ctx, json, params);
    inst.keyType = def.keyType;
    inst.valueType = def.valueType;
    inst.min = (...args) => inst.check(core._minSize(...args));
    inst.nonempty = (params) => inst.check(core._minSize(1, params));
    inst.max = (...args) => inst.check(core._maxSize(...args));
    inst.size = (...args) => inst.check(core._size(...args));
})));
function map(keyType, valueType, params) {
    return new ZodMap({
        type: "map",
        keyType: keyType,
        valueType: valueType,
        ...util.normalizeParams(params),
    });
}
const ZodSet = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodSet", (inst, def) => {
    _ensureDefaultMemoizer();
    core.$ZodSet.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.setProcessor(inst, ctx, json, params);
    inst.min = (...args) => inst.check(core._minSize(...args));
    inst.nonempty = (params) => inst.check(core._minSize(1, params));
    inst.max = (...args) => inst.check(core._maxSize(...args));
    inst.size = (...args) => inst.check(core._size(...args));
})));
function set(valueType, params) {
    return new ZodSet({
        type: "set",
        valueType: valueType,
        ...util.normalizeParams(params),
    });
}
const ZodEnum = /*@__PURE__*/ $constructor("ZodEnum", (inst, def) => {
    $ZodEnum.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => enumProcessor(inst, ctx, json, params);
    inst.enum = def.entries;
    // reuse the parsed value set so a numeric TS enum's reverse-mapping keys stay out
    inst.options = [...inst._zod.values];
    const keys = new Set(Object.keys(def.entries));
    inst.extract = (values, params) => {
        const newEntries = {};
        for (const value of values) {
            if (keys.has(value)) {
                newEntries[value] = def.entries[value];
            }
            else
                throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
            ...def,
            checks: [],
            ...normalizeParams(params),
            entries: newEntries,
        });
    };
    inst.exclude = (values, params) => {
        const newEntries = { ...def.entries };
        for (const value of values) {
            if (keys.has(value)) {
                delete newEntries[value];
            }
            else
                throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
            ...def,
            checks: [],
            ...normalizeParams(params),
            entries: newEntries,
        });
    };
});
function schemas_enum(values, params) {
    const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
    return new ZodEnum({
        type: "enum",
        entries,
        ...normalizeParams(params),
    });
}

/** @deprecated This API has been merged into `z.enum()`. Use `z.enum()` instead.
 *
 * ```ts
 * enum Colors { red, green, blue }
 * z.enum(Colors);
 * ```
 */
function nativeEnum(entries, params) {
    return new ZodEnum({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
const ZodLiteral = /*@__PURE__*/ $constructor("ZodLiteral", (inst, def) => {
    $ZodLiteral.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => literalProcessor(inst, ctx, json, params);
    inst.values = new Set(def.values);
    Object.defineProperty(inst, "value", {
        get() {
            if (def.values.length > 1) {
                throw new Error("This schema contains multiple valid literal values. Use `.values` instead.");
            }
            return def.values[0];
        },
    });
});
function literal(value, params) {
    return new ZodLiteral({
        type: "literal",
        values: Array.isArray(value) ? value : [value],
        ...normalizeParams(params),
    });
}
const ZodFile = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodFile", (inst, def) => {
    core.$ZodFile.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.fileProcessor(inst, ctx, json, params);
    inst.min = (size, params) => inst.check(core._minSize(size, params));
    inst.max = (size, params) => inst.check(core._maxSize(size, params));
    inst.mime = (types, params) => inst.check(core._mime(Array.isArray(types) ? types : [types], params));
})));
function file(params) {
    return core._file(ZodFile, params);
}
const ZodTransform = /*@__PURE__*/ $constructor("ZodTransform", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodTransform.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => transformProcessor(inst, ctx, json, params);
    inst._zod.parse = (payload, _ctx) => {
        if (_ctx.direction === "backward") {
            throw new $ZodEncodeError(inst.constructor.name);
        }
        payload.addIssue = (issue) => {
            if (typeof issue === "string") {
                payload.issues.push(util_issue(issue, payload.value, def));
            }
            else {
                // for Zod 3 backwards compatibility
                const _issue = issue;
                if (_issue.fatal)
                    _issue.continue = false;
                _issue.code ?? (_issue.code = "custom");
                if (!("input" in _issue))
                    _issue.input = payload.value;
                _issue.inst ?? (_issue.inst = inst);
                // _issue.continue ??= true;
                payload.issues.push(util_issue(_issue));
            }
        };
        const output = def.transform(payload.value, payload);
        if (output instanceof Promise) {
            return output.then((output) => {
                payload.value = output;
                return payload;
            });
        }
        payload.value = output;
        return payload;
    };
});
function transform(fn) {
    return new ZodTransform({
        type: "transform",
        transform: fn,
    });
}
const ZodOptional = /*@__PURE__*/ $constructor("ZodOptional", (inst, def) => {
    $ZodOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function optional(innerType) {
    return new ZodOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodExactOptional = /*@__PURE__*/ $constructor("ZodExactOptional", (inst, def) => {
    $ZodExactOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function exactOptional(innerType) {
    return new ZodExactOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodNullable = /*@__PURE__*/ $constructor("ZodNullable", (inst, def) => {
    $ZodNullable.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => nullableProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function nullable(innerType) {
    return new ZodNullable({
        type: "nullable",
        innerType: innerType,
    });
}
// nullish
function schemas_nullish(innerType) {
    return optional(nullable(innerType));
}
const ZodDefault = /*@__PURE__*/ $constructor("ZodDefault", (inst, def) => {
    $ZodDefault.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => defaultProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
    inst.removeDefault = inst.unwrap;
});
function schemas_default(innerType, defaultValue) {
    return new ZodDefault({
        type: "default",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : shallowClone(defaultValue);
        },
    });
}
const ZodPrefault = /*@__PURE__*/ $constructor("ZodPrefault", (inst, def) => {
    $ZodPrefault.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => prefaultProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function prefault(innerType, defaultValue) {
    return new ZodPrefault({
        type: "prefault",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : shallowClone(defaultValue);
        },
    });
}
const ZodNonOptional = /*@__PURE__*/ $constructor("ZodNonOptional", (inst, def) => {
    $ZodNonOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => nonoptionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function nonoptional(innerType, params) {
    return new ZodNonOptional({
        type: "nonoptional",
        innerType: innerType,
        ...normalizeParams(params),
    });
}
const ZodSuccess = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodSuccess", (inst, def) => {
    core.$ZodSuccess.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.successProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
})));
function success(innerType) {
    return new ZodSuccess({
        type: "success",
        innerType: innerType,
    });
}
const ZodCatch = /*@__PURE__*/ $constructor("ZodCatch", (inst, def) => {
    $ZodCatch.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => catchProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
    inst.removeCatch = inst.unwrap;
});
function schemas_catch(innerType, catchValue) {
    return new ZodCatch({
        type: "catch",
        innerType: innerType,
        catchValue: (typeof catchValue === "function" ? catchValue : constantCatch(catchValue)),
    });
}

const ZodNaN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodNaN", (inst, def) => {
    core.$ZodNaN.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.nanProcessor(inst, ctx, json, params);
})));
function nan(params) {
    return core._nan(ZodNaN, params);
}
const ZodPipe = /*@__PURE__*/ $constructor("ZodPipe", (inst, def) => {
    $ZodPipe.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => pipeProcessor(inst, ctx, json, params);
    inst.in = def.in;
    inst.out = def.out;
});
function pipe(in_, out) {
    return new ZodPipe({
        type: "pipe",
        in: in_,
        out: out,
        // ...util.normalizeParams(params),
    });
}
const ZodCodec = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodCodec", (inst, def) => {
    ZodPipe.init(inst, def);
    core.$ZodCodec.init(inst, def);
})));
function codec(in_, out, params) {
    return new ZodCodec({
        type: "pipe",
        in: in_,
        out: out,
        transform: params.decode,
        reverseTransform: params.encode,
    });
}
function invertCodec(codec) {
    const def = codec._zod.def;
    return new ZodCodec({
        type: "pipe",
        in: def.out,
        out: def.in,
        transform: def.reverseTransform,
        reverseTransform: def.transform,
    });
}
const ZodPreprocess = /*@__PURE__*/ $constructor("ZodPreprocess", (inst, def) => {
    ZodPipe.init(inst, def);
    $ZodPreprocess.init(inst, def);
});
const ZodReadonly = /*@__PURE__*/ $constructor("ZodReadonly", (inst, def) => {
    $ZodReadonly.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => readonlyProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function readonly(innerType) {
    return new ZodReadonly({
        type: "readonly",
        innerType: innerType,
    });
}
const ZodTemplateLiteral = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodTemplateLiteral", (inst, def) => {
    core.$ZodTemplateLiteral.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.templateLiteralProcessor(inst, ctx, json, params);
})));
function templateLiteral(parts, params) {
    return new ZodTemplateLiteral({
        type: "template_literal",
        parts,
        ...util.normalizeParams(params),
    });
}
const ZodLazy = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodLazy", (inst, def) => {
    core.$ZodLazy.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.lazyProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.getter();
})));
function lazy(getter) {
    return new ZodLazy({
        type: "lazy",
        getter: getter,
    });
}
const ZodPromise = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodPromise", (inst, def) => {
    core.$ZodPromise.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.promiseProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
})));
function promise(innerType) {
    return new ZodPromise({
        type: "promise",
        innerType: innerType,
    });
}
const ZodFunction = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodFunction", (inst, def) => {
    core.$ZodFunction.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => processors.functionProcessor(inst, ctx, json, params);
})));
function _function(params) {
    return new ZodFunction({
        type: "function",
        input: Array.isArray(params?.input) ? tuple(params?.input) : (params?.input ?? array(unknown())),
        output: params?.output ?? unknown(),
    });
}

const ZodCustom = /*@__PURE__*/ $constructor("ZodCustom", (inst, def) => {
    $ZodCustom.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => customProcessor(inst, ctx, json, params);
});
// custom checks
function check(fn) {
    const ch = new core.$ZodCheck({
        check: "custom",
        // ...util.normalizeParams(params),
    });
    ch._zod.check = fn;
    return ch;
}
function custom(fn, _params) {
    return core._custom(ZodCustom, fn ?? (() => true), _params);
}
function refine(fn, _params = {}) {
    return _refine(ZodCustom, fn, _params);
}
// superRefine
function superRefine(fn, params) {
    return _superRefine(fn, params);
}
// Re-export describe and meta from core
const schemas_describe = describe;
const schemas_meta = meta;
const ZodInstanceOf = /*@__PURE__*/ $constructor("ZodInstanceOf", (inst, def) => {
    ZodCustom.init(inst, def);
}, {
    properties(shape, params) {
        // asserts in place, so the narrowed output type is truthful without a wrapper
        return this.check(_properties(shape, params));
    },
});
function _instanceof(cls, params = {}) {
    const inst = new ZodInstanceOf({
        type: "custom",
        check: "custom",
        fn: (data) => data instanceof cls,
        abort: true,
        ...util.normalizeParams(params),
    });
    inst._zod.bag.Class = cls;
    // Override check to emit invalid_type instead of custom
    inst._zod.check = (payload) => {
        if (!(payload.value instanceof cls)) {
            payload.issues.push({
                code: "invalid_type",
                expected: cls.name,
                input: payload.value,
                inst,
                path: [...(inst._zod.def.path ?? [])],
            });
        }
    };
    return inst;
}

// stringbool
const stringbool = (...args) => core._stringbool({
    Codec: ZodCodec,
    Boolean: ZodBoolean,
    String: ZodString,
}, ...args);
function json(params) {
    const jsonSchema = lazy(() => {
        return union([schemas_string(params), schemas_number(), schemas_boolean(), schemas_null(), array(jsonSchema), record(schemas_string(), jsonSchema)]);
    });
    return jsonSchema;
}
// preprocess
function preprocess(fn, schema) {
    return new ZodPreprocess({
        type: "pipe",
        in: transform(fn),
        out: schema,
    });
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/iso.js



function iso_datetime(params) {
    return _isoDateTime(ZodISODateTime, params);
}
function iso_date(params) {
    return _isoDate(ZodISODate, params);
}
function iso_time(params) {
    return core._isoTime(ZodISOTime, params);
}
function iso_duration(params) {
    return core._isoDuration(ZodISODuration, params);
}

;// CONCATENATED MODULE: ./server/schemas/common.js
// Generated by `npm run build` from server/schemas/common.ts; edit that file.

// server/schemas/common.ts

var ErrorResponse = object({
  detail: schemas_string().meta({ description: "Human-readable message" }),
  error_code: schemas_string().meta({ description: "Machine-readable code", example: "VALIDATION_ERROR" }),
  field: schemas_string().optional().meta({ description: "The offending input field (validation errors)" })
}).meta({ id: "Error" });
var ACCOUNT_EMAIL_PATTERN = /^[^\s@\u0000-\u001f\u007f-\u009f]+@[^\s@\u0000-\u001f\u007f-\u009f]+$/;
var ACCOUNT_EMAIL_MAX = 320;
var AccountEmail = schemas_string().max(ACCOUNT_EMAIL_MAX, { error: `must be at most ${ACCOUNT_EMAIL_MAX} characters` }).regex(ACCOUNT_EMAIL_PATTERN, { error: "must be an e-mail address (local@domain)" }).meta({ example: "alice@example.com" });
var Timestamp = iso_datetime().meta({ example: "2026-01-31T12:00:00.000Z" });
function strictWholeNumber(schema) {
  return preprocess(
    (value) => typeof value === "string" && /^\d{1,16}$/.test(value) ? Number(value) : value,
    schema
  );
}
var MAX_PAGE = 1e6;
var Page = strictWholeNumber(
  schemas_number({ error: "must be a whole number" }).int({ error: "must be a whole number" }).min(1, { error: "must be at least 1" }).max(MAX_PAGE, { error: `must be at most ${MAX_PAGE}` })
).default(1).meta({ description: "Page number, from 1; a page past the end answers empty `items`" });
var PerPage = strictWholeNumber(
  schemas_number({ error: "must be a whole number" }).int({ error: "must be a whole number" }).min(1, { error: "must be at least 1" }).max(100, { error: "must be at most 100" })
).default(20).meta({ description: "Items per page, 1-100" });
var PaginationQuery = object({ page: Page, per_page: PerPage });
function paginated(item, id) {
  return object({
    items: array(item),
    total: schemas_number().int(),
    page: schemas_number().int(),
    per_page: schemas_number().int(),
    pages: schemas_number().int()
  }).meta({ id });
}
function pageOf(items, total, page, perPage) {
  return { items, total, page, per_page: perPage, pages: Math.ceil(total / perPage) };
}
var Plan = schemas_enum(["startup", "professional", "enterprise"]);
var Permission = schemas_enum([
  "read:scans",
  "write:scans",
  "read:findings",
  "write:findings",
  "read:grc",
  "write:grc"
]);
var Role = schemas_enum(["admin", "member", "viewer"]);
var DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/i;
function parseDateParam(value) {
  const m = DATE_TIME.exec(value);
  if (!m) return void 0;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((v) => Number(v ?? 0));
  const calendar = new Date(Date.UTC(year, month - 1, day));
  const realDay = calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
  if (!realDay || hour > 23 || minute > 59 || second > 59) return void 0;
  const text = m[4] === void 0 ? `${value}T00:00:00Z` : m[8] ? value : `${value}Z`;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? void 0 : date;
}
var DATE_PARAM_PATTERN = "^\\d{4}-\\d{2}-\\d{2}([Tt]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2})?)?$";
var DateParam = schemas_string().max(40, { error: "must be an ISO 8601 date or date-time, e.g. 2026-01-31" }).transform((value, ctx) => {
  const date = parseDateParam(value);
  if (!date) {
    ctx.addIssue({ code: "custom", message: "must be an ISO 8601 date or date-time, e.g. 2026-01-31" });
    return NEVER;
  }
  return date;
}).meta({
  description: "ISO 8601 date (00:00Z) or date-time",
  example: "2026-01-31",
  pattern: DATE_PARAM_PATTERN
});
var ID_PATTERN = /^[a-z0-9_]{1,100}$/;
var idParamNouns = registry();
function IdParam(noun, example) {
  const schema = schemas_string().regex(ID_PATTERN).meta({ description: `The ${noun} id`, example });
  idParamNouns.add(schema, { noun });
  return schema;
}
var IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
var HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;
function isIpv6(text) {
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const groupsOf = (half) => half === "" ? [] : half.split(":");
  const groups = halves.flatMap(groupsOf);
  const last = groups.at(-1);
  const tail = last !== void 0 && last.includes(".") ? IPV4.test(last) ? 2 : -99 : 0;
  if (tail < 0) return false;
  const hex = tail ? groups.slice(0, -1) : groups;
  if (!hex.every((g) => HEX_GROUP.test(g))) return false;
  const count = hex.length + tail;
  return halves.length === 2 ? count <= 7 : count === 8;
}
function parseCidr(value) {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(value);
  if (!m) return void 0;
  const address = m[1];
  const prefix = Number(m[2]);
  if (IPV4.test(address)) return prefix <= 32 ? { address, prefix, version: 4 } : void 0;
  if (isIpv6(address)) return prefix <= 128 ? { address, prefix, version: 6 } : void 0;
  return void 0;
}

//# sourceMappingURL=common.js.map

;// CONCATENATED MODULE: ./server/schemas/findings.js
// Generated by `npm run build` from server/schemas/findings.ts; edit that file.

// server/schemas/findings.ts



var FINDING_SEVERITIES = ["critical", "high", "medium", "low", "info"];
var FINDING_STATUSES = ["open", "in_progress", "resolved", "false_positive", "accepted"];
var FINDING_PRIORITIES = ["p1", "p2", "p3", "p4"];
var FINDING_SORTS = ["severity", "created_at", "cvss_score"];
var EXPORT_FORMATS = ["csv", "json", "pdf"];
var FindingSeverity = schemas_enum(FINDING_SEVERITIES).meta({ id: "FindingSeverity" });
var FindingStatus = schemas_enum(FINDING_STATUSES).meta({ id: "FindingStatus" });
var FindingPriority = schemas_enum(FINDING_PRIORITIES).meta({ id: "FindingPriority" });
var FindingId = schemas_string().meta({ example: "finding_3k9x0c2m4q8w1e5r7t6y2u0i" });
var findingCore = {
  id: FindingId,
  title: schemas_string(),
  severity: FindingSeverity,
  status: FindingStatus,
  cvss_score: schemas_number().meta({
    description: "CVSS base score computed from cvss_vector; without one, the score an imported report stated, else 0.0"
  }),
  epss_score: schemas_number().nullable().meta({ description: "EPSS probability (0\u20131); null when unknown" }),
  target: schemas_string().meta({ description: "The concrete host scanned" }),
  affected_component: schemas_string().meta({ example: "https://app.example.com:443/login" }),
  tool: schemas_string(),
  template_id: schemas_string().meta({ description: "Canonical detection check id" }),
  cve_ids: array(schemas_string()),
  cwe_ids: array(schemas_string()),
  scan_id: schemas_string().meta({ description: "The owning scan: the first scan that detected the finding" }),
  detected_at: Timestamp,
  first_seen_at: Timestamp,
  last_seen_at: Timestamp,
  times_seen: schemas_number().int().meta({ description: "How many scans have detected the finding" }),
  last_scan_id: schemas_string().meta({ description: "The latest scan that detected the finding" })
};
var deadlineFields = {
  due_date: Timestamp.nullable().meta({
    description: "When the finding should be dealt with: set at detection from the SLA policy, or by a person"
  }),
  overdue: schemas_boolean().meta({
    description: "Past its `due_date` and still `open` or `in_progress` at the time of the answer"
  })
};
var FindingListItem = object({
  ...findingCore,
  frameworks: array(schemas_string()).meta({ description: "Framework slugs the finding maps to" }),
  ...deadlineFields
}).meta({ id: "FindingListItem" });
var FindingList = paginated(FindingListItem, "FindingList");
var Remediation = object({
  summary: schemas_string(),
  steps: array(schemas_string()),
  code_example: schemas_string(),
  references: array(schemas_string())
}).meta({ id: "Remediation" });
var Evidence = object({
  request: schemas_string(),
  response: schemas_string(),
  screenshot_url: schemas_string().nullable(),
  established: schemas_enum(["confirmed", "inferred from version"]).optional().meta({
    description: "How the weakness is known: `confirmed` (a probe proved it: request and response) or `inferred from version` (the announced version lies in the vendor range); absent on findings recorded before it was kept"
  })
}).meta({ id: "Evidence" });
var FrameworkMapping = object({ name: schemas_string().meta({ example: "pci-dss" }), controls: array(schemas_string()) }).meta({ id: "FrameworkMapping" });
var MappedControl = object({
  id: schemas_string().meta({ example: "ctrl_pcidss_1_3_1" }),
  reference: schemas_string().meta({ description: "The framework's own identifier", example: "1.3.1" }),
  name: schemas_string().meta({ example: "Inbound traffic to the cardholder data environment is restricted" })
}).meta({ id: "MappedControl" });
var FrameworkMappingDetail = FrameworkMapping.extend({
  control_details: array(MappedControl).meta({ description: "The controls of `controls`, in that order, named" })
}).meta({ id: "FrameworkMappingDetail" });
var Comment = object({
  id: schemas_string().meta({ example: "comment_0a1b2c3d4e5f6g7h8i9j0k1l" }),
  finding_id: schemas_string().optional().meta({ description: "Present in the create response" }),
  user: schemas_string().meta({ description: "The author's e-mail address" }),
  text: schemas_string(),
  created_at: Timestamp
}).meta({ id: "Comment" });
var CreatedComment = Comment.required({ finding_id: true }).meta({ id: "CreatedComment" });
var HistoryEntry = object({
  action: schemas_string().meta({ example: "status_changed" }),
  from: schemas_string().nullable(),
  to: schemas_string(),
  user: schemas_string().meta({ description: "An e-mail address, or `system` for automatic changes" }),
  justification: schemas_string().nullable().meta({ description: "The reason given with a move to `accepted` or `false_positive`" }),
  note: schemas_string().nullable().meta({
    description: "The note sent with this change (`notes` of the update); null when it came without one. `note_added` entries record a note given without a change of status"
  }),
  timestamp: Timestamp
}).meta({ id: "HistoryEntry" });
var acceptanceFields = {
  justification: schemas_string().nullable().meta({
    description: "Why the finding is `accepted` or `false_positive`; null in the other statuses"
  }),
  justified_by: schemas_string().nullable().meta({ description: "Who gave the justification (an e-mail address)" }),
  justified_at: Timestamp.nullable(),
  acceptance_expires_at: Timestamp.nullable().meta({
    description: "When the acceptance lapses and the finding reopens by itself; null: it does not"
  })
};
var JUSTIFIED_STATUSES = ["accepted", "false_positive"];
var Justification = schemas_string().trim().min(1, { error: "must not be empty" }).max(2e3, { error: "must be at most 2000 characters" }).meta({
  description: "Why, with `status` `accepted` or `false_positive`: optional (absent: `notes` stands for it), unless the organization's triage policy requires one (`require_justification`, `GET /api/v1/settings/sla`)"
});
var AcceptanceExpiry = iso_datetime({ offset: true, error: "must be an ISO 8601 date-time" }).meta({
  description: "With `status: accepted` only: when the acceptance lapses and the finding reopens by itself",
  example: "2027-03-01T00:00:00.000Z"
});
function checkJustified(change, ctx) {
  const records = JUSTIFIED_STATUSES.includes(change.status ?? "");
  if (!records && change.justification !== void 0) {
    ctx.addIssue({
      code: "custom",
      path: ["justification"],
      message: "is given only with status accepted or false_positive"
    });
  }
  if (change.expires_at !== void 0 && change.status !== "accepted") {
    ctx.addIssue({ code: "custom", path: ["expires_at"], message: "is given only with status accepted" });
  }
}
var Ticket = object({
  integration_id: schemas_string(),
  key: schemas_string().meta({ example: "SEC-12" }),
  url: schemas_string(),
  state: schemas_enum(["open", "closed"])
}).meta({ id: "Ticket" });
var FindingSourceView = object({
  source: schemas_enum(["scan", "import"]).meta({
    description: "`scan`: Scanward's own scans; `import`: one tool's imported reports (POST /api/v1/imports)"
  }),
  tool: schemas_string().meta({ description: "The check tool or the report tool", example: "nuclei" }),
  headline: schemas_boolean().meta({
    description: "Whether the finding's severity, score and evidence are this source's (the strongest)"
  }),
  status: schemas_enum(["active", "resolved"]).meta({
    description: "`resolved`: the source no longer reports it (its own view only; the finding resolves when no source reports it)"
  }),
  established: schemas_enum(["confirmed", "inferred from version"]).meta({
    description: "A proof (`confirmed`) or a version match (`inferred from version`)"
  }),
  severity: FindingSeverity,
  cvss_score: schemas_number().meta({ description: "0.0 when the source states no score" }),
  cvss_vector: schemas_string().nullable(),
  first_scan_id: schemas_string().nullable(),
  last_scan_id: schemas_string().nullable().meta({ description: "The scan (or import) that last saw it" }),
  first_seen_at: Timestamp,
  last_seen_at: Timestamp,
  evidence: Evidence
}).meta({ id: "FindingSource" });
var FindingDetail = object({
  ...findingCore,
  cvss_vector: schemas_string().nullable(),
  epss_snapshot_date: iso_date().nullable().meta({
    description: 'The date of the EPSS snapshot behind epss_score (docs/checks.md, "EPSS"); null when epss_score is null',
    example: "2025-12-26"
  }),
  description: schemas_string(),
  impact: schemas_string(),
  remediation: Remediation,
  evidence: Evidence,
  frameworks: array(FrameworkMappingDetail),
  comments: array(Comment),
  history: array(HistoryEntry),
  sources: array(FindingSourceView).meta({
    description: `Every source that saw the finding, strongest first: Scanward's scans and each imported tool, with what each saw (docs/finding-lifecycle.md, "Sources")`
  }),
  asset_id: schemas_string().nullable().meta({
    description: "The asset the finding is on (`GET /api/v1/assets/{asset_id}`, docs/assets.md): the host of its affected component or target in the inventory of its organization; null while no scan or import has recorded that host",
    example: "asset_3k9x0c2m4q8w1e5r7t6y2u0i"
  }),
  assignee: schemas_string().nullable(),
  priority: FindingPriority.nullable(),
  ...deadlineFields,
  notes: schemas_string().nullable(),
  ...acceptanceFields,
  updated_at: Timestamp,
  tickets: array(Ticket).optional().meta({
    description: "The tracker issues opened for the finding (GitHub, Jira), kept in step with its status"
  })
}).meta({ id: "FindingDetail" });
var FindingIdParams = object({
  finding_id: IdParam("finding", "finding_3k9x0c2m4q8w1e5r7t6y2u0i")
});
var Trimmed = (max) => schemas_string().trim().min(1, { error: "must not be empty" }).max(max);
var TargetFilter = Trimmed(253).refine((value) => !value.includes("/") || parseCidr(value) !== void 0, {
  error: "must be a host name, an address, a leading part of one, or an address range (127.0.0.0/24)"
}).meta({
  description: "A range in CIDR notation (`127.0.0.0/24`, `::1/128`): targets that are addresses inside it. Anything else, ignoring case: the target itself, and targets it begins up to a dot (`redis` finds `redis` and `redis.internal`, `127.0.0` finds `127.0.0.1` but not `127.0.01.1`); a value ending in a dot matches every target that begins with it",
  example: "127.0.0.0/24"
});
var findingFilters = {
  severity: FindingSeverity.optional().meta({ description: "Only findings of this severity" }),
  status: schemas_string().regex(new RegExp(`^(${FINDING_STATUSES.join("|")})(,(${FINDING_STATUSES.join("|")}))*$`), {
    error: `must be a status (${FINDING_STATUSES.join(", ")}) or several, separated by commas`
  }).optional().meta({
    description: "A status, or several separated by commas: `open,in_progress` lists the unresolved findings an asset\u2019s `open_findings` counts",
    example: "open"
  }),
  scan_id: Trimmed(100).optional().meta({ description: "Findings observed by this scan" }),
  target: TargetFilter.optional(),
  asset_id: Trimmed(100).optional().meta({
    description: "Findings on this asset (`GET /api/v1/assets`); another organization\u2019s id finds nothing"
  }),
  template_id: Trimmed(200).optional().meta({
    description: "Findings of this check (exact `template_id`), as `GET /findings/groups?by=check` keys them"
  }),
  tool: Trimmed(100).optional().meta({
    description: "Findings reported by this tool (`scanward`, or the tool of an import: `nuclei`, `zap`, \u2026)"
  }),
  cve: Trimmed(50).regex(/^[Cc][Vv][Ee]-\d{4}-\d{4,}$/, { error: "must be a CVE id (CVE-YYYY-NNNN\u2026)" }).optional().meta({
    description: "Findings whose cve_ids contain this id (any case); anything else is a 422",
    example: "CVE-2021-44228"
  }),
  sort: schemas_enum(FINDING_SORTS).optional().meta({
    description: "`severity` (critical > \u2026 > info), `created_at` (first detection) or `cvss_score`"
  }),
  order: schemas_enum(["asc", "desc"]).optional().meta({ description: "Default `desc`" })
};
var searchFilters = {
  overdue: schemas_enum(["true", "false"], { error: "must be true or false" }).optional().meta({
    description: "`true`: only findings past their `due_date` that are still `open` or `in_progress`; `false` (the default): no such filter"
  }),
  q: Trimmed(200).optional().meta({
    description: "Free text: findings whose title, affected component, target, CVE ids or description contain it, ignoring case",
    example: "redis"
  }),
  kev: schemas_enum(["true", "false"], { error: "must be true or false" }).optional().meta({
    description: "`true`: only findings of a CVE on the CISA KEV list; `false`: only the others"
  }),
  assignee: Trimmed(254).optional().meta({ description: "Assigned to this address, ignoring case" })
};
var resolvedDates = {
  resolved_from: DateParam.optional().meta({ description: "Resolved at or after (inclusive)" }),
  resolved_to: DateParam.optional().meta({ description: "Resolved before (exclusive)" })
};
var ListFindingsQuery = object({
  page: Page,
  per_page: PerPage,
  ...findingFilters,
  ...searchFilters,
  from_date: DateParam.optional().meta({ description: "Detected at or after (inclusive)" }),
  to_date: DateParam.optional().meta({ description: "Detected before (exclusive)" }),
  ...resolvedDates
});
var ExportFindingsQuery = object({
  format: schemas_enum(EXPORT_FORMATS).default("csv").meta({ description: "The file format; default `csv`" }),
  ...findingFilters,
  ...searchFilters,
  from_date: DateParam.optional().meta({ description: "Detected at or after (inclusive)" }),
  to_date: DateParam.optional().meta({ description: "Detected before (exclusive)" }),
  ...resolvedDates
});
var FindingStatsQuery = object({
  from_date: DateParam.optional().meta({ description: "Detected at or after (inclusive)" }),
  to_date: DateParam.optional().meta({ description: "Detected before (exclusive)" }),
  target: TargetFilter.optional()
});
var counts = (keys) => object(Object.fromEntries(keys.map((k) => [k, schemas_number().int()])));
var FindingStats = object({
  total: schemas_number().int(),
  by_severity: counts(FINDING_SEVERITIES),
  by_status: counts(FINDING_STATUSES),
  by_tool: record(schemas_string(), schemas_number().int()),
  trends: object({
    new_this_week: schemas_number().int().meta({ description: "Detected in the last 7 days" }),
    resolved_this_week: schemas_number().int().meta({ description: "Resolved in the last 7 days" }),
    average_resolution_days: schemas_number().meta({ description: "Mean days from detection to resolution over resolved findings; 0 when none" })
  })
}).meta({ id: "FindingStats" });
var UpdateFindingBody = object({
  status: FindingStatus.optional(),
  assignee: AccountEmail.nullable().optional().meta({
    description: "E-mail address (any address an account can have, e.g. admin@localhost); null clears it"
  }),
  priority: FindingPriority.nullable().optional(),
  due_date: iso_datetime({ offset: true, error: "must be an ISO 8601 date-time" }).nullable().optional().meta({ example: "2026-02-15T00:00:00.000Z" }),
  notes: schemas_string().max(1e4).nullable().optional(),
  justification: Justification.optional(),
  expires_at: AcceptanceExpiry.optional()
}).refine((b) => Object.values(b).some((v) => v !== void 0), {
  error: "send at least one of status, assignee, priority, due_date, notes"
}).superRefine(checkJustified).meta({ id: "UpdateFinding" });
var UpdatedFinding = object({
  id: schemas_string(),
  status: FindingStatus,
  assignee: schemas_string().nullable(),
  priority: FindingPriority.nullable(),
  due_date: Timestamp.nullable(),
  notes: schemas_string().nullable(),
  ...acceptanceFields,
  updated_at: Timestamp
}).meta({ id: "UpdatedFinding" });
var CreateCommentBody = object({
  text: schemas_string({ error: "is required" }).max(1e4, { error: "must be at most 10000 characters" }).refine((t) => t.trim().length > 0, { error: "must not be empty" })
}).meta({ id: "CreateComment" });
var BULK_MAX_IDS = 1e3;
var BulkUpdateBody = object({
  finding_ids: array(schemas_string().max(100)).min(1, { error: "must list at least one id" }).max(BULK_MAX_IDS, { error: `must list at most ${BULK_MAX_IDS} ids` }),
  update: object({
    status: FindingStatus,
    notes: schemas_string().max(1e4).optional(),
    justification: Justification.optional(),
    expires_at: AcceptanceExpiry.optional()
  }).superRefine(checkJustified)
}).meta({ id: "BulkUpdateFindings" });
var BulkUpdateResult = object({
  updated: schemas_number().int(),
  failed: array(object({ id: schemas_string(), error_code: schemas_string(), detail: schemas_string() }))
}).meta({ id: "BulkUpdateResult" });
var FINDING_GROUP_BYS = ["asset", "cve", "check"];
var FindingGroupBy = schemas_enum(FINDING_GROUP_BYS, { error: "must be asset, cve or check" }).meta({ id: "FindingGroupBy" });
var GroupFindingsQuery = ListFindingsQuery.omit({ sort: true, order: true }).extend({
  by: FindingGroupBy.meta({
    description: "`asset`: by the host the finding is on (key null: no asset yet); `cve`: by each CVE id (a finding with two is in both groups, one with none in no group); `check`: by check (`template_id`)"
  })
});
var FindingGroup = object({
  key: schemas_string().nullable().meta({
    description: "The list filter that shows the group\u2019s findings: `asset_id`, `cve` or `template_id`; null: the findings with no asset yet"
  }),
  label: schemas_string().meta({ description: "The asset\u2019s address, the CVE id or the check id" }),
  detail: schemas_string().nullable().meta({ description: "The asset\u2019s names, or the check\u2019s title" }),
  total: schemas_number().int(),
  by_severity: counts(FINDING_SEVERITIES)
}).meta({ id: "FindingGroup" });
var FindingGroupList = object({
  by: FindingGroupBy,
  items: array(FindingGroup),
  total: schemas_number().int().meta({ description: "How many groups" }),
  page: schemas_number().int(),
  per_page: schemas_number().int(),
  pages: schemas_number().int()
}).meta({ id: "FindingGroupList" });
var AssigneeSuggestions = object({
  items: array(
    object({ email: schemas_string().meta({ example: "ada@example.com" }) }).meta({ id: "AssigneeSuggestion" })
  )
}).meta({ id: "AssigneeSuggestions" });

//# sourceMappingURL=findings.js.map

;// CONCATENATED MODULE: ./action/core/scan.ts

const SEVERITIES = FINDING_SEVERITIES;
const RANK = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };
/** Most severe first, then highest score, then id: the same input always gives the same order. */
function bySeverity(a, b) {
    return (RANK[b.severity] - RANK[a.severity] ||
        (b.cvss_score ?? 0) - (a.cvss_score ?? 0) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
/** Whether the finding's severity is `severity` or worse. */
function atOrAbove(finding, severity) {
    return RANK[finding.severity] >= RANK[severity];
}
/** Statuses a team sets to say "this does not need fixing". */
const TRIAGED_AWAY = new Set(['false_positive', 'accepted']);
/** Findings a scan found for the first time or reopened. */
function isNew(finding) {
    return finding.change === 'new' || finding.change === 'reopened';
}
function emptyCounts() {
    return { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
}
/** The scan's own counts (all of its findings, triaged ones included), as the service keeps them. */
function scanCounts(scan) {
    return {
        critical: scan.critical_count,
        high: scan.high_count,
        medium: scan.medium_count,
        low: scan.low_count,
        info: scan.info_count ?? 0,
    };
}
function formatCounts(counts, severities = SEVERITIES) {
    return severities.map((s) => `${counts[s]} ${s}`).join(', ');
}

;// CONCATENATED MODULE: ./action/core/gate.ts

const FAIL_ON_VALUES = [...SEVERITIES, 'none'];
/** Counts of the findings that still need attention. */
function countOpenFindings(findings) {
    const counts = emptyCounts();
    let ignored = 0;
    for (const finding of findings) {
        if (TRIAGED_AWAY.has(finding.status))
            ignored++;
        else
            counts[finding.severity]++;
    }
    return { counts, ignored };
}
/** Severities at or above the threshold, most severe first. */
function severitiesAtOrAbove(failOn) {
    if (failOn === 'none')
        return [];
    return SEVERITIES.slice(0, SEVERITIES.indexOf(failOn) + 1);
}
/** The gate over a completed scan's findings, in the given mode. */
function gateFindings(findings, failOn, mode) {
    const counted = mode === 'new' ? findings.filter(isNew) : findings;
    const open = countOpenFindings(counted);
    const gate = evaluateGate(open.counts, failOn, open.ignored, mode);
    const gated = new Set(severitiesAtOrAbove(failOn));
    gate.failing = gate.failed
        ? counted.filter((f) => !TRIAGED_AWAY.has(f.status) && gated.has(f.severity)).sort(bySeverity)
        : [];
    return gate;
}
function evaluateGate(counts, failOn, ignored = 0, mode = 'all') {
    const gated = severitiesAtOrAbove(failOn);
    const over = gated.filter((s) => counts[s] > 0);
    const failed = over.length > 0;
    const ignoredNote = ignored > 0 ? ` (${ignored} finding(s) triaged as false positive or accepted not counted)` : '';
    const kind = mode === 'new' ? 'new ' : '';
    let message;
    if (failOn === 'none')
        message = `fail-on is none: findings never fail the build${ignoredNote}.`;
    else if (failed) {
        message =
            `Scanward found ${formatCounts(counts, over)} ${kind}finding(s) at or above the fail-on threshold (${failOn}). ` +
                `All ${kind}findings: ${formatCounts(counts)}${ignoredNote}.`;
    }
    else
        message = `No ${kind}findings at or above the fail-on threshold (${failOn})${ignoredNote}.`;
    return { failOn, mode, failed, counts, ignored, message, failing: [] };
}

;// CONCATENATED MODULE: ./action/core/inputs/read.ts
/**
 * What every input group's parser is handed: a reader of the inputs and the two lists the
 * composer (../inputs.ts) reports at the end, so every problem is listed at once.
 */
function inputReader(getInput) {
    return { read: (name) => getInput(name).trim(), raw: getInput, problems: [], warnings: [] };
}
/** `name`'s value lower-cased (or `fallback` when unset) if it is one of `allowed`, else a problem. */
function parseChoice({ read, problems }, name, fallback, allowed, help) {
    const raw = (read(name) || fallback).toLowerCase();
    if (allowed.includes(raw))
        return raw;
    problems.push(help(raw));
    return undefined;
}
function parseNumber(name, raw, problems, range) {
    const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
    const tooSmall = range.exclusiveMin ? value <= range.min : value < range.min;
    if (Number.isNaN(value) || tooSmall || value > range.max) {
        const lower = range.exclusiveMin ? `more than ${range.min}` : `at least ${range.min}`;
        problems.push(`\`${name}\` is "${raw}"; use a number ${lower} and at most ${range.max}.`);
        return undefined;
    }
    return value;
}
/** YAML 1.2 core booleans, as `@actions/core` getBooleanInput reads them. */
function parseBoolean(name, raw, problems) {
    if (['true', 'True', 'TRUE'].includes(raw))
        return true;
    if (['false', 'False', 'FALSE'].includes(raw))
        return false;
    problems.push(`\`${name}\` is "${raw}"; use true or false.`);
    return undefined;
}

;// CONCATENATED MODULE: ./action/core/inputs/gate.ts


/** The gate group: at which severity the build fails (`fail-on`) and which findings count (`gate`). */
function parseGateInputs(input) {
    const failOn = parseChoice(input, 'fail-on', 'high', FAIL_ON_VALUES, (raw) => `\`fail-on\` is "${raw}"; use one of ${FAIL_ON_VALUES.join(', ')}.`);
    const mode = parseChoice(input, 'gate', 'all', ['all', 'new'], (raw) => `\`gate\` is "${raw}"; use all (every open finding counts) or new (only findings this scan found first or reopened).`);
    return { failOn, mode };
}

;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: ./action/core/inputs/idempotency.ts

/** `idempotency-key` as given, else the default for this job and these scan inputs. */
function parseIdempotencyKey({ read, problems }, context, scan) {
    const raw = read('idempotency-key');
    if (raw !== '' && !/^[\x21-\x7e]{1,255}$/.test(raw)) {
        problems.push('`idempotency-key` must be 1-255 printable ASCII characters without spaces.');
    }
    return raw || defaultIdempotencyKey(context, scan);
}
/**
 * The default `Idempotency-Key`: the same for every try of this step in this
 * run attempt (so a retried request, or the step started again within the
 * attempt, finds the scan it already created), different per repository, run,
 * attempt, job and step, and per scan inputs, so two Scanward steps or matrix
 * legs never collide. "Re-run jobs" is a new attempt and scans afresh. Outside
 * GitHub Actions every run gets a new key.
 */
function defaultIdempotencyKey(context, scan) {
    if (!context.repository || !context.runId)
        return `scanward-action:${(0,external_node_crypto_namespaceObject.randomUUID)()}`;
    const request = (0,external_node_crypto_namespaceObject.createHash)('sha256')
        .update(JSON.stringify([
        scan.target.toLowerCase(),
        scan.scan_type,
        scan.ports ?? '',
        [...scan.frameworks].sort(),
        ...(scan.credential_checks ? [scan.credential_checks] : []),
        // The web options without their secrets (a changed password alone is the same request).
        ...(scan.web ? [webFingerprint(scan.web)] : []),
    ]))
        .digest('hex')
        .slice(0, 16);
    const parts = [
        context.repository,
        context.runId,
        context.runAttempt ?? '1',
        context.job ?? '',
        context.step ?? '',
    ];
    const key = `scanward-action:${parts.join(':')}:${request}`;
    if (/^[\x21-\x7e]{1,255}$/.test(key))
        return key;
    return `scanward-action:${(0,external_node_crypto_namespaceObject.createHash)('sha256').update(key).digest('hex')}`;
}
/** The web inputs that carry no secret, in a fixed order. */
function webFingerprint(web) {
    const auth = web.authentication;
    return [
        web.active,
        [...web.exclude_paths].sort(),
        auth?.type === 'form'
            ? ['form', auth.login_url, auth.username]
            : auth?.type === 'headers'
                ? ['headers', Object.keys(auth.headers).sort()]
                : [],
    ];
}
/** The CI run this job is (`acme/app run 123, attempt 1`), named on a report it records. */
function ciRunLabel(context) {
    if (!context.repository || !context.runId)
        return undefined;
    return `${context.repository} run ${context.runId}${context.runAttempt ? `, attempt ${context.runAttempt}` : ''}`;
}

;// CONCATENATED MODULE: ./action/core/inputs/local.ts
/** `asset` (mode: local only), and what a local scan without a service means for `gate: new`. */
function parseLocalInputs({ read, problems, warnings }, context, target, local, serviceNamed) {
    const assetRaw = read('asset');
    const asset = assetRaw || (context.repository ? `${context.repository}:${target}` : target);
    if (local && asset.length > 255)
        problems.push(`\`asset\` "${asset.slice(0, 40)}…" must be at most 255 characters; set a shorter \`asset\`.`);
    if (!local && assetRaw !== '')
        warnings.push('`asset` is only used with mode: local; it is not used.');
    if (local && !serviceNamed && (read('gate') || 'all').toLowerCase() === 'new')
        warnings.push('gate is new but no Scanward service is named (api-url): every finding of a local scan is new without the history the service keeps, so the gate counts them all.');
    return local ? { asset } : undefined;
}

;// CONCATENATED MODULE: ./action/core/inputs/reports.ts


function parseReportInputs(input) {
    const { read, problems } = input;
    const reportSeverity = parseChoice(input, 'report-severity', 'info', FINDING_SEVERITIES, (raw) => `\`report-severity\` is "${raw}"; use one of ${FINDING_SEVERITIES.join(', ')}.`);
    const comment = parseBoolean('comment', read('comment') || 'false', problems);
    const uploadSarif = parseBoolean('upload-sarif', read('upload-sarif') || 'true', problems);
    const githubToken = read('github-token') || undefined;
    if (uploadSarif && !githubToken) {
        problems.push('`github-token` is empty but upload-sarif is true. Leave github-token at its default (${{ github.token }}) or set upload-sarif: false.');
    }
    if (comment && !githubToken) {
        problems.push('`github-token` is empty but comment is true; leave github-token at its default (${{ github.token }}).');
    }
    const sarifFile = read('sarif-file') || 'scanward.sarif';
    return { reportSeverity, github: { uploadSarif: uploadSarif, sarifFile, comment: comment, githubToken } };
}

;// CONCATENATED MODULE: ./server/schemas/web-testing.js
// Generated by `npm run build` from server/schemas/web-testing.ts; edit that file.

// server/schemas/web-testing.ts

var LoginPattern = schemas_string().min(1).max(500, { error: "must be at most 500 characters" }).meta({ description: "A regular expression (JavaScript syntax) tested against a page body." });
var FormAuthentication = object({
  type: literal("form"),
  login_url: url({ error: "must be an http(s) URL", protocol: /^https?$/ }).meta({
    description: "The page that shows the log-in form (same origin as the scan target)."
  }),
  username: schemas_string().min(1).max(500).meta({ description: "The user name to sign in with." }),
  password: schemas_string().min(1).max(1e3).meta({ description: "The password. Write-only: sealed at rest, never answered.", writeOnly: true }),
  username_field: schemas_string().min(1).max(200).optional().meta({ description: "Name of the user-name field when it cannot be told by its type and name." }),
  password_field: schemas_string().min(1).max(200).optional().meta({ description: "Name of the password field when the form has more than one." }),
  logged_in_pattern: LoginPattern.optional().meta({
    description: "Matches a page only a signed-in user sees; by default, the log-in form no longer shown."
  }),
  logged_out_pattern: LoginPattern.optional().meta({
    description: "Matches a page that means the session was lost (besides a redirect to the log-in page)."
  })
}).strict().meta({ id: "WebFormAuthentication", description: "Sign in through an HTML log-in form." });
var HeaderAuthentication = object({
  type: literal("headers"),
  headers: record(
    schemas_string().min(1).max(200).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: "must be an HTTP header name" }),
    schemas_string().max(8e3)
  ).meta({
    description: "Headers sent with every request, e.g. Cookie or Authorization. Write-only: values are never answered.",
    writeOnly: true
  })
}).strict().meta({ id: "WebHeaderAuthentication", description: "Sign in by sending fixed headers." });
var WebAuthentication = discriminatedUnion("type", [FormAuthentication, HeaderAuthentication]).meta({ id: "WebAuthentication" });
var WebTestingOptions = object({
  active: schemas_boolean().default(false).meta({
    description: "Run attack checks (SQL injection, XSS, command injection, \u2026) against every crawled parameter. Off by default: they submit forms and may write data (docs/web-testing.md)."
  }),
  authentication: WebAuthentication.optional(),
  exclude_paths: array(schemas_string().min(1).max(500)).max(100).default([]).meta({ description: "Paths never requested: prefixes (`/admin`) or globs (`/api/*/delete`)." })
}).strict().meta({ id: "WebTestingOptions" });

//# sourceMappingURL=web-testing.js.map

;// CONCATENATED MODULE: ./server/schemas/web-testing-view.js
// Generated by `npm run build` from server/schemas/web-testing-view.ts; edit that file.

// server/schemas/web-testing-view.ts

var WebFormAuthenticationView = object({
  type: literal("form"),
  login_url: schemas_string(),
  username: schemas_string(),
  has_password: literal(true).meta({ description: "A password is stored (sealed); it is never answered." }),
  username_field: schemas_string().optional(),
  password_field: schemas_string().optional(),
  logged_in_pattern: schemas_string().optional(),
  logged_out_pattern: schemas_string().optional()
}).meta({ id: "WebFormAuthenticationView", description: "A form log-in, without its password." });
var WebHeaderAuthenticationView = object({
  type: literal("headers"),
  header_names: array(schemas_string()).meta({
    description: "The names of the headers sent, sorted; their values are sealed and never answered."
  })
}).meta({ id: "WebHeaderAuthenticationView", description: "Header authentication, names only." });
var WebTestingView = object({
  active: schemas_boolean(),
  authentication: discriminatedUnion("type", [WebFormAuthenticationView, WebHeaderAuthenticationView]).nullable().meta({ description: "How the scanner signs in; null when it does not." }),
  exclude_paths: array(schemas_string())
}).meta({
  id: "WebTestingView",
  description: "The web application options of a scan or schedule, without their secrets."
});
function webTestingView(web) {
  const auth = web.authentication;
  return {
    active: web.active,
    authentication: auth === void 0 ? null : auth.type === "form" ? {
      type: "form",
      login_url: auth.login_url,
      username: auth.username,
      has_password: true,
      ...auth.username_field !== void 0 ? { username_field: auth.username_field } : {},
      ...auth.password_field !== void 0 ? { password_field: auth.password_field } : {},
      ...auth.logged_in_pattern !== void 0 ? { logged_in_pattern: auth.logged_in_pattern } : {},
      ...auth.logged_out_pattern !== void 0 ? { logged_out_pattern: auth.logged_out_pattern } : {}
    } : { type: "headers", header_names: Object.keys(auth.headers).sort((a, b) => a.localeCompare(b)) },
    exclude_paths: [...web.exclude_paths]
  };
}
function bareHost(host) {
  return host.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "").toLowerCase();
}
function loginUrlProblem(target, web) {
  const auth = web?.authentication;
  if (auth?.type !== "form") return void 0;
  let login;
  try {
    login = new URL(auth.login_url);
  } catch {
    return "must be an http(s) URL";
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    let origin;
    try {
      origin = new URL(target).origin;
    } catch {
      return void 0;
    }
    return login.origin === origin ? void 0 : `must be on the target's origin ${origin}`;
  }
  if (target.includes("/")) return "a form log-in needs a target of one host, not a range";
  return bareHost(login.hostname) === bareHost(target) ? void 0 : `must be on the scan's target ${target} (same host)`;
}

//# sourceMappingURL=web-testing-view.js.map

;// CONCATENATED MODULE: ./server/schemas/scans.js
// Generated by `npm run build` from server/schemas/scans.ts; edit that file.

// server/schemas/scans.ts





var ScanType = schemas_enum(["quick", "full", "compliance"], { error: "must be quick, full or compliance" }).meta({ id: "ScanType" });
var ScanStatus = schemas_enum(["pending", "running", "completed", "failed", "cancelled"]).meta({ id: "ScanStatus" });
var Framework = schemas_enum(["soc2", "pci-dss", "iso27001"], { error: "must be soc2, pci-dss or iso27001" }).meta({ id: "Framework" });
var Phase = schemas_enum([
  "discovery",
  "enumeration",
  "vulnerability_scanning",
  "web_analysis",
  "cloud_analysis",
  "threat_intelligence",
  "correlation",
  "compliance_mapping",
  "ai_analysis",
  "remediation_planning",
  "reporting",
  "complete"
]).meta({ id: "ScanPhase" });
var MAX_PORT = 65535;
function portSpecProblem(spec) {
  if (spec.trim() === "") return 'must list at least one port, e.g. "80", "1-1024" or "22,80,443"';
  for (const raw of spec.split(",")) {
    const entry = raw.trim();
    const match = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(entry);
    if (!match) return `"${entry}" is not a port or a range like "1-1024"`;
    const first = Number(match[1]);
    const last = match[2] === void 0 ? first : Number(match[2]);
    if (first < 1 || last < 1 || first > MAX_PORT || last > MAX_PORT) {
      return `"${entry}" is outside 1-${MAX_PORT}`;
    }
    if (first > last) return `range "${entry}" is reversed; write it as "${last}-${first}"`;
  }
  return void 0;
}
var PortSpec = schemas_string({ error: 'must be a string such as "1-1024" or "22,80,443"' }).max(2e3, { error: "must be at most 2000 characters" }).superRefine((value, ctx) => {
  const problem = portSpecProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
}).meta({
  description: "Ports to scan: single ports and inclusive ranges, comma-separated, 1-65535. Default: the 1,000 most common TCP ports.",
  example: "22,80,443,8000-8100"
});
var Target = schemas_string({ error: "must be a domain name, an IP address or a CIDR range" }).trim().min(1, { error: "must be a domain name, an IP address or a CIDR range" }).max(253, { error: "must be at most 253 characters" }).meta({ description: "A DNS name, an IPv4 or IPv6 address, or a CIDR range", example: "app.example.com" });
var Authorized = literal(true, {
  error: "must be true: confirm that you are authorized to scan the target"
});
var Frameworks = array(Framework, { error: "must be an array of soc2, pci-dss, iso27001" }).max(3).transform((list) => [...new Set(list)]);
var CredentialChecks = schemas_enum(["defaults", "none"], { error: "must be defaults or none" }).meta({
  id: "CredentialChecks",
  description: "Try a short fixed list of vendor-default and empty credentials (at most a few attempts per service, never a password list): `defaults`, or `none`. Default: `defaults` for full and compliance scans, `none` for quick scans."
});
function credentialChecksFor(scanType, chosen) {
  return chosen ?? (scanType === "quick" ? "none" : "defaults");
}
var CreateScanRequest = object({
  target: Target,
  scan_type: ScanType.default("full"),
  frameworks: Frameworks.optional(),
  ports: PortSpec.optional(),
  credential_checks: CredentialChecks.optional(),
  web: WebTestingOptions.optional(),
  authorized: Authorized
}).meta({ id: "CreateScanRequest" });
var ScanCreated = object({
  id: schemas_string().meta({ example: "scan_3k2j4h5g6f7d8s9a0q1w2e3r" }),
  target: schemas_string(),
  scan_type: ScanType,
  status: literal("pending"),
  created_at: Timestamp,
  estimated_duration: schemas_number().int().meta({ description: "Seconds" })
}).meta({ id: "ScanCreated" });
var count = schemas_number().int().min(0);
var ScanListItem = object({
  id: schemas_string(),
  target: schemas_string(),
  scan_type: ScanType,
  status: ScanStatus,
  progress: schemas_number().int().min(0).max(100),
  phase: Phase,
  created_at: Timestamp,
  completed_at: Timestamp.optional().meta({ description: "Present once completed" }),
  vulnerabilities_found: count.meta({ description: "critical + high + medium + low" }),
  critical_count: count,
  high_count: count,
  medium_count: count,
  low_count: count,
  info_count: count,
  error: schemas_string().optional().meta({ description: "Why the scan failed; present on failed scans" }),
  message: schemas_string().optional().meta({ description: "Present on cancelled scans" }),
  source: schemas_enum(["scan", "import"]).meta({
    description: "`scan`: Scanward's engine ran it; `import`: another tool's report, brought in by POST /api/v1/imports"
  }),
  tool: schemas_string().nullable().meta({
    description: "The tool that produced an imported report (`nuclei`, `zap`, \u2026); null for Scanward's own scans"
  }),
  report_name: schemas_string().nullable().meta({
    description: "An import's report file name (as uploaded, or its `report_name` field); null otherwise",
    example: "nuclei-2026-11-28.jsonl"
  }),
  ci_run: schemas_string().nullable().meta({
    description: "The CI run a local engine run came from (its `ci_run` field, a URL or a name); null otherwise"
  }),
  results_read: schemas_number().int().nullable().meta({
    description: "How many results an import read from its report; null for Scanward's own scans"
  }),
  label: schemas_string().meta({
    description: "What the scan was, for a person: `Imported from a nuclei report (nuclei.jsonl), 18 results, 9 findings`, `Full scan by Scanward`",
    example: "Imported from a nuclei report, 18 results, 9 findings"
  })
}).meta({ id: "ScanListItem" });
var ScanChanges = object({ new: count, reopened: count, resolved: count, unchanged: count }).meta({ id: "ScanChanges", description: "Findings compared with the previous scans" });
var PhaseTimings = object({
  queue_wait: count.optional().meta({
    description: "Milliseconds between the creation of the scan and its first claim by a runner; present once started"
  }),
  phases: partialRecord(Phase.exclude(["complete"]), count).meta({
    description: "Milliseconds each completed phase took, by phase (a phase resumed by another runner counts its last run)"
  }),
  completion: count.optional().meta({
    description: "Milliseconds of the final step (findings resolved, evidence recorded, scan completed); present once completed"
  }),
  skipped: partialRecord(Phase.exclude(["complete"]), schemas_string()).optional().meta({
    description: "The phases that had nothing to do on the target, with why (`no cloud endpoints on a loopback target`); a skipped phase is not in `phases`"
  })
}).meta({ id: "PhaseTimings", description: "Where the time of a scan went" });
var ScanSource = schemas_enum(["scan", "import"]).meta({
  id: "ScanSource",
  description: "`scan`: Scanward's engine ran it; `import`: another tool's report, brought in by POST /api/v1/imports"
});
var ScanDetail = ScanListItem.extend({
  current_tool: schemas_string().optional().meta({ description: "Present on a running scan" }),
  started_at: Timestamp.optional().meta({ description: "Present once started" }),
  phases_completed: array(Phase),
  phases_remaining: array(Phase),
  frameworks: array(Framework),
  ports: schemas_string().nullable().meta({ description: "The requested ports; null for the default list" }),
  credential_checks: CredentialChecks,
  estimated_duration: schemas_number().int().meta({ description: "Seconds" }),
  changes: ScanChanges.optional().meta({ description: "Present once completed" }),
  phase_timings: PhaseTimings,
  source: ScanSource,
  web: WebTestingView.optional()
}).meta({ id: "ScanDetail" });
var ScanList = paginated(ScanListItem, "ScanList");
var ScanCancelled = object({ id: schemas_string(), status: literal("cancelled"), message: schemas_string() }).meta({ id: "ScanCancelled" });
var ScanQuota = object({
  plan: Plan,
  monthly_limit: schemas_number().int().meta({ description: "-1 = unlimited" }),
  used_this_month: count,
  remaining: schemas_number().int().meta({ description: "-1 = unlimited" }),
  resets_at: Timestamp
}).meta({ id: "ScanQuota" });
var ScanStatusFilter = schemas_enum(["pending", "running", "completed", "failed", "cancelled"], {
  error: "must be pending, running, completed, failed or cancelled"
});
var ListScansQuery = PaginationQuery.extend({
  status: ScanStatusFilter.optional().meta({ description: "Only scans in this state" }),
  target: schemas_string().trim().min(1).max(253).optional().meta({ description: "Exact target, ignoring case" }),
  from_date: DateParam.optional().meta({ description: "Scans created at or after this instant" }),
  to_date: DateParam.optional().meta({ description: "Scans created before this instant" })
});
var ScanIdParams = object({ scan_id: IdParam("scan", "scan_3k2j4h5g6f7d8s9a0q1w2e3r") });
var scans_FindingSeverity = schemas_enum(["critical", "high", "medium", "low", "info"], {
  error: "must be critical, high, medium, low or info"
});
var scans_FindingStatus = schemas_enum(["open", "in_progress", "resolved", "false_positive", "accepted"], {
  error: "must be open, in_progress, resolved, false_positive or accepted"
});
var FINDING_CHANGES = ["new", "reopened", "unchanged"];
var FindingChange = schemas_enum(FINDING_CHANGES, { error: "must be new, reopened or unchanged" }).meta({
  description: "`new`: this scan detected the finding for the first time; `reopened`: it detected again a finding that was resolved; `unchanged`: the finding was already known and not resolved"
});
var ScanFindingsQuery = PaginationQuery.extend({
  severity: scans_FindingSeverity.optional().meta({ description: "Only findings of this severity" }),
  status: scans_FindingStatus.optional().meta({ description: "Only findings in this state" }),
  change: FindingChange.optional()
});
var ScanFinding = object({
  id: schemas_string(),
  title: schemas_string(),
  severity: scans_FindingSeverity,
  cvss_score: schemas_number(),
  status: scans_FindingStatus,
  tool: schemas_string(),
  affected_component: schemas_string(),
  description: schemas_string(),
  remediation: schemas_string().meta({ description: "The remediation summary" }),
  cve_ids: array(schemas_string()),
  detected_at: Timestamp,
  first_seen_at: Timestamp,
  last_seen_at: Timestamp,
  times_seen: schemas_number().int().meta({ description: "How many scans have detected the finding" }),
  last_scan_id: schemas_string().meta({ description: "The latest scan that detected the finding" }),
  due_date: Timestamp.nullable().meta({ description: "The finding\u2019s due date (SLA policy or a person)" }),
  overdue: schemas_boolean().meta({
    description: "Past its `due_date` and still `open` or `in_progress` at the time of the answer"
  }),
  change: FindingChange
}).meta({ id: "ScanFinding" });
var ScanFindingList = paginated(ScanFinding, "ScanFindingList");

//# sourceMappingURL=scans.js.map

;// CONCATENATED MODULE: ./server/schemas/imports.js
// Generated by `npm run build` from server/schemas/imports.ts; edit that file.

// server/schemas/imports.ts


var ImportFormat = schemas_enum(["scanward", "nuclei", "zap", "nmap", "openvas"], {
  error: "must be one of scanward, nuclei, zap, nmap, openvas"
}).meta({
  id: "ImportFormat",
  description: "The report format: `nuclei` (JSON array or JSON Lines), `zap` (XML or JSON report), `nmap` (XML), `openvas` (Greenbone XML or CSV), `scanward` (Scanward findings JSON). Detected from the report when omitted (an empty report needs it)."
});
var ImportParams = object({
  format: ImportFormat.optional(),
  target: schemas_string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters").meta({
    description: "The asset the report is about (a host, a URL or any stable name such as `acme/app:staging`): the scan's target and its findings' target. Imports of one tool and target resolve what a later one no longer reports."
  }),
  scan_type: ScanType.optional().meta({ description: "A label for the imported scan; default `full`" }),
  report_name: schemas_string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters").optional().meta({
    description: "The report's file name, shown with the scan (`nuclei.jsonl`); a multipart upload's file name when omitted"
  }),
  ci_run: schemas_string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters").optional().meta({
    description: "The CI run the report came from (a URL such as `https://github.com/acme/app/actions/runs/1`, or a name): a local engine run recorded on the service"
  })
});
var ImportUpload = ImportParams.extend({
  file: schemas_string().meta({ format: "binary", description: "The report file" })
}).meta({ id: "ImportUpload" });
var ImportResult = ScanDetail.extend({
  format: ImportFormat,
  results_read: schemas_number().int().min(0).meta({
    description: "Results read from the report (several on one weakness and place are one finding)"
  })
}).meta({ id: "ImportResult" });

//# sourceMappingURL=imports.js.map

;// CONCATENATED MODULE: ./action/core/inputs/scan.ts



/**
 * The scan group: what to scan (`target`, `scan-type`, `ports`, `frameworks`,
 * `credential-checks`), or which scan to follow (`scan-id`) or import (`import-file`,
 * `import-format`), and how to follow it (`wait`, `timeout-minutes`, `follow`,
 * `poll-interval-seconds`).
 */
/** GitHub ends a job after 6 hours. */
const MAX_TIMEOUT_MINUTES = 360;
const MAX_POLL_SECONDS = 600;
function parseScanSource(input, local) {
    const { read, problems, warnings } = input;
    const scanIdRaw = read('scan-id');
    if (scanIdRaw !== '' && !/^scan_[A-Za-z0-9]{1,95}$/.test(scanIdRaw)) {
        problems.push(`\`scan-id\` is "${scanIdRaw}"; use the id of a scan, like scan_0123456789abcdefghijklmn.`);
    }
    const scanId = scanIdRaw || undefined;
    const importPath = read('import-file');
    const importFormatRaw = read('import-format').toLowerCase();
    const importFormat = importFormatRaw === '' ? undefined : ImportFormat.safeParse(importFormatRaw);
    if (importFormat && !importFormat.success) {
        problems.push(`\`import-format\` is "${importFormatRaw}"; use nuclei, zap, nmap, openvas or scanward (or leave it out to detect it).`);
    }
    if (importPath && scanId)
        problems.push('Set `import-file` or `scan-id`, not both.');
    if (importPath === '' && importFormat)
        warnings.push('`import-format` is set but `import-file` is not; it is not used.');
    const target = read('target');
    if (local)
        checkLocalTarget(input, target, importPath);
    else if (target === '' && importPath) {
        problems.push('`target` is required with `import-file`: the asset the report is about (a host, URL or stable name).');
    }
    else if (target === '' && !scanId) {
        problems.push('`target` is required: the domain, IP address or CIDR range to scan (or set `scan-id`).');
    }
    else if (target.length > 253)
        problems.push('`target` must be at most 253 characters.');
    if (scanId && target !== '')
        warnings.push('`scan-id` is set, so `target` and the other scan inputs are not used.');
    return { target, scanId, importPath, importFormat: importFormat?.data };
}
/** mode: local scans `target`, a URL this job reaches, in this step: nothing else to follow. */
function checkLocalTarget({ read, problems, warnings }, target, importPath) {
    if (read('scan-id') !== '')
        problems.push('`scan-id` cannot be used with mode: local (the scan runs in this job).');
    if (importPath)
        problems.push('Set `import-file` or mode: local, not both.');
    if (read('wait') !== '' && read('wait') !== 'true')
        problems.push('`wait` must be true with mode: local (the scan runs in this step).');
    if (read('ports') !== '')
        warnings.push('`ports` is not used with mode: local: the scan reaches only the port `target` names.');
    if (target === '')
        problems.push('`target` is required with mode: local: the URL of the service this job started, e.g. http://localhost:8080.');
    else if (!/^https?:\/\/[^\s/]+/i.test(target))
        problems.push(`\`target\` is "${target}"; with mode: local, name the service as a URL: http://localhost:8080 (scheme, host and port).`);
}
function parseScanOptions({ read, problems, warnings }, local) {
    // Attack checks run in the web analysis phase, which quick scans skip (docs/web-testing.md).
    const scanTypeRaw = read('scan-type') || (local || read('active') === 'true' ? 'full' : 'quick');
    const scanType = ScanType.safeParse(scanTypeRaw);
    if (!scanType.success)
        problems.push(`\`scan-type\` is "${scanTypeRaw}"; use quick, full or compliance.`);
    const portsRaw = read('ports');
    if (portsRaw !== '') {
        const problem = portSpecProblem(portsRaw);
        if (problem)
            problems.push(`\`ports\`: ${problem}.`);
    }
    const frameworks = parseFrameworks(read('frameworks'), problems);
    if (frameworks.length > 0 && scanType.success && scanType.data !== 'compliance') {
        warnings.push(`\`frameworks\` is set but scan-type is ${scanType.data}; frameworks matter most to compliance scans.`);
    }
    const credentialRaw = read('credential-checks').toLowerCase();
    const credentialChecks = credentialRaw === '' ? undefined : CredentialChecks.safeParse(credentialRaw);
    if (credentialChecks && !credentialChecks.success) {
        problems.push(`\`credential-checks\` is "${credentialRaw}"; use defaults (vendor-default and empty credentials, one attempt per service) or none.`);
    }
    return {
        scanType: scanType.success ? scanType.data : 'quick',
        ports: portsRaw || undefined,
        frameworks,
        credentialChecks: credentialChecks?.data,
    };
}
function parseFrameworks(raw, problems) {
    if (raw === '')
        return [];
    const names = raw
        .split(/[\s,]+/)
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean);
    const good = [];
    for (const name of names) {
        const parsed = Framework.safeParse(name);
        if (parsed.success) {
            if (!good.includes(parsed.data))
                good.push(parsed.data);
        }
        else {
            problems.push(`\`frameworks\` lists "${name}"; use a comma-separated list of soc2, pci-dss, iso27001.`);
        }
    }
    return good;
}
function parseFollowInputs(input) {
    const { read, problems } = input;
    const wait = parseBoolean('wait', read('wait') || 'true', problems);
    const timeoutMinutes = parseNumber('timeout-minutes', read('timeout-minutes') || '30', problems, {
        min: 0,
        exclusiveMin: true,
        max: MAX_TIMEOUT_MINUTES,
    });
    const pollSeconds = parseNumber('poll-interval-seconds', read('poll-interval-seconds') || '10', problems, {
        min: 0,
        max: MAX_POLL_SECONDS,
    });
    const follow = parseChoice(input, 'follow', 'stream', ['stream', 'poll'], (raw) => `\`follow\` is "${raw}"; use stream (the service's event stream: one request however long the scan runs, polling when the stream is not available) or poll (a status check every poll-interval-seconds).`);
    return {
        wait,
        timeoutMs: Math.round(timeoutMinutes * 60_000),
        follow,
        pollIntervalMs: Math.round(pollSeconds * 1000),
    };
}

;// CONCATENATED MODULE: ./action/core/inputs/web.ts



/**
 * The web group (docs/web-testing.md): `active`, a form log-in (`login-url`, `username`,
 * `password` or `password-env`, all three or none), `auth-headers` and `exclude-paths`.
 */
/** The input each field of `web` comes from, for messages. */
const WEB_INPUTS = {
    active: 'active',
    login_url: 'login-url',
    username: 'username',
    password: 'password',
    headers: 'auth-headers',
    exclude_paths: 'exclude-paths',
};
/**
 * The web application inputs: `active`, a form log-in (`login-url`, `username`, `password`,
 * all three or none), `auth-headers` (one `Name: value` per line) and `exclude-paths` (one per
 * line, or comma-separated). Undefined when none is set. Messages never repeat the password or
 * a header value.
 */
function parseWebInputs(read, target, problems, 
/** The password as given: not trimmed (a password may begin or end with a space). */
password = read('password')) {
    const activeRaw = read('active');
    const loginUrl = read('login-url');
    const username = read('username');
    const headersRaw = read('auth-headers');
    const excludeRaw = read('exclude-paths');
    if ([activeRaw, loginUrl, username, password, headersRaw, excludeRaw].every((v) => v === ''))
        return undefined;
    const before = problems.length;
    const active = activeRaw === '' ? false : parseBoolean('active', activeRaw, problems);
    const form = [loginUrl, username, password].some((v) => v !== '');
    const passwordSource = read('password-env');
    if (passwordSource !== '' && password === '')
        problems.push(`\`password-env\` names ${passwordSource}, which is empty or unset; export the password there.`);
    else if (form) {
        const missing = [
            loginUrl === '' && '`login-url`',
            username === '' && '`username`',
            password === '' && '`password`',
        ].filter(Boolean);
        if (missing.length > 0)
            problems.push(`A form log-in needs login-url, username and password; ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} empty.`);
    }
    const headers = parseHeaders(headersRaw, problems);
    if (form && headersRaw !== '')
        problems.push('Set a form log-in (login-url, username, password) or `auth-headers`, not both.');
    const exclude = excludeRaw
        .split(/[\n,]/)
        .map((p) => p.trim())
        .filter(Boolean);
    if (problems.length > before)
        return undefined;
    return checkWebOptions({
        active,
        exclude_paths: exclude,
        ...(form
            ? { authentication: { type: 'form', login_url: loginUrl, username, password } }
            : headersRaw !== ''
                ? { authentication: { type: 'headers', headers } }
                : {}),
    }, target, problems);
}
/** `auth-headers`: one `Name: value` per line. */
function parseHeaders(raw, problems) {
    const headers = {};
    if (raw === '')
        return headers;
    raw.split(/\r?\n/).forEach((line, i) => {
        if (line.trim() === '')
            return;
        const match = /^\s*([^:\s]+)\s*:\s?(.*)$/.exec(line);
        if (!match) {
            problems.push(`\`auth-headers\` line ${i + 1} is not \`Name: value\` (for example Authorization: Bearer …).`);
            return;
        }
        headers[match[1]] = match[2].trim();
    });
    return headers;
}
/** The options against the shared contract, and the log-in page against `target`. */
function checkWebOptions(options, target, problems) {
    const parsed = WebTestingOptions.safeParse(options);
    if (!parsed.success) {
        for (const issue of parsed.error.issues) {
            const field = issue.path.map(String).find((p) => p in WEB_INPUTS) ?? 'auth-headers';
            const name = WEB_INPUTS[field] ?? field;
            // A header name that is not a token: name the header, never its value.
            const header = field === 'headers' && issue.path.length > 3 ? ` (${String(issue.path[3])})` : '';
            problems.push(`\`${name}\`${header}: ${issue.message}.`);
        }
        return undefined;
    }
    const problem = target === '' ? undefined : loginUrlProblem(target, parsed.data);
    if (problem) {
        problems.push(`\`login-url\` ${problem}: the log-in page must be on \`target\`.`);
        return undefined;
    }
    return parsed.data;
}
/** The secrets among the web inputs (the password, every header value): what logs must mask. */
function webSecrets(web) {
    const auth = web?.authentication;
    if (!auth)
        return [];
    return auth.type === 'form' ? [auth.password] : Object.values(auth.headers).filter((v) => v !== '');
}

;// CONCATENATED MODULE: ./action/core/inputs.ts











function parseInputs(getInput, context, options = {}) {
    const input = inputReader(getInput);
    const { problems, warnings } = input;
    const mode = parseChoice(input, 'mode', 'remote', ['remote', 'local'], (raw) => `\`mode\` is "${raw}"; use remote (the Scanward service scans the target) or local (the engine scans it inside this job).`);
    const local = mode === 'local';
    const service = parseServiceInputs(input, local, options.idTokenAvailable ?? false);
    const source = parseScanSource(input, local);
    const scanOptions = parseScanOptions(input, local);
    const web = parseWebInputs(input.read, source.target, problems, getInput('password'));
    if (web && source.scanId)
        warnings.push('`scan-id` is set, so the web application inputs are not used.');
    if (web && source.importPath)
        problems.push('The web application inputs cannot be used with `import-file`.');
    const gate = parseGateInputs(input);
    const reports = parseReportInputs(input);
    const following = parseFollowInputs(input);
    const localInputs = parseLocalInputs(input, context, source.target, local, service.named);
    const idempotencyKey = parseIdempotencyKey(input, context, {
        target: source.target,
        scan_type: scanOptions.scanType,
        ports: scanOptions.ports,
        frameworks: scanOptions.frameworks,
        credential_checks: scanOptions.credentialChecks,
        web,
    });
    if (problems.length > 0) {
        const list = problems.map((p) => `  - ${p}`).join('\n');
        throw new ConfigurationError(`${options.heading ?? "The Scanward Action's inputs"} need fixing:\n${list}`);
    }
    const { importPath, importFormat } = source;
    const ciRun = ciRunLabel(context);
    return {
        inputs: {
            mode: mode,
            service: service.named ? { apiUrl: service.apiUrl, auth: service.auth } : undefined,
            local: localInputs,
            scan: {
                target: source.target,
                ...scanOptions,
                ...(web ? { web } : {}),
                scanId: source.scanId,
                wait: following.wait,
                timeoutMs: following.timeoutMs,
                follow: following.follow,
                pollIntervalMs: following.pollIntervalMs,
                idempotencyKey,
                ...(importPath ? { importFile: { path: importPath, format: importFormat } } : {}),
                ...(ciRun ? { ciRun } : {}),
            },
            policy: { failOn: gate.failOn, mode: gate.mode, reportSeverity: reports.reportSeverity },
            github: reports.github,
        },
        warnings,
    };
}

;// CONCATENATED MODULE: ./action/core/verdict.ts



/** Evaluates a finished scan against the gate policy. */
function judge(finished, policy) {
    if (finished.kind === 'unsuccessful') {
        const { scan, links, timedOut, timeoutMs } = finished;
        return { kind: 'unsuccessful', scan, links, timedOut, timeoutMs, passed: false };
    }
    const { scan, links, tool, findings } = finished;
    if (policy.mode === 'new' && findings.some((f) => f.change === undefined)) {
        throw new ConfigurationError('gate is new, but this Scanward service does not say which findings are new (no `change` in GET /api/v1/scans/{id}/findings). Upgrade the service, or use gate: all.');
    }
    const reported = findings.filter((f) => atOrAbove(f, policy.reportSeverity)).sort(bySeverity);
    const gate = gateFindings(findings, policy.failOn, policy.mode);
    return {
        kind: 'completed',
        scan,
        links,
        tool,
        policy,
        gate,
        reported,
        newFindings: reported.filter((f) => isNew(f) && !TRIAGED_AWAY.has(f.status)),
        passed: !gate.failed,
    };
}

;// CONCATENATED MODULE: ./action/core/version.ts
/**
 * The Action's own version (package.json's, kept equal by a unit test). It is
 * the SARIF tool version when the service does not say its own.
 */
const ACTION_VERSION = '0.1.0';

;// CONCATENATED MODULE: ./action/reports/json.ts
/**
 * The JSON report (`scanward-ci --json`): the scan as the service describes it and, for a
 * completed scan, the gate, the reported findings and which of them are new or failing. For a
 * scan that failed, was cancelled or timed out, the scan and whether it timed out.
 */
function jsonReport(verdict) {
    if (verdict.kind === 'unsuccessful') {
        return JSON.stringify({ scan: verdict.scan, timed_out: verdict.timedOut }, null, 2);
    }
    const { scan, gate } = verdict;
    const report = {
        scan,
        gate: {
            mode: gate.mode,
            fail_on: gate.failOn,
            failed: gate.failed,
            counts: gate.counts,
            message: gate.message,
        },
        new_finding_ids: verdict.newFindings.map((f) => f.id),
        failing_finding_ids: gate.failing.map((f) => f.id),
        findings: verdict.reported,
    };
    return JSON.stringify(report, null, 2);
}

;// CONCATENATED MODULE: ./action/reports/sarif/locations.ts
/**
 * Where a network finding is placed. GitHub requires a location and refuses URIs with a scheme
 * such as `https://`, so each result is placed on a repository-relative path that names the
 * component and does not exist in the repository: `scanward/<host>/<scheme>-<port>/<path>`.
 */
/** Locations are relative to the repository root, as GitHub reads them. */
const SRCROOT = '%SRCROOT%';
const DEFAULT_PORTS = { http: '80', https: '443', ws: '80', wss: '443', ftp: '21' };
const MAX_SEGMENTS = 8;
const MAX_SEGMENT_LENGTH = 64;
/**
 * The repository-relative path a network finding is placed on:
 * `https://app.example.com:443/admin/login?x=1` → `scanward/app.example.com/https-443/admin/login`,
 * `redis://[::1]:6379` → `scanward/__1/redis-6379`. Query strings and fragments
 * are left out (they vary between runs); a component that is not a URL is kept
 * as one segment under the target.
 */
function locationPath(component, target) {
    let url;
    try {
        url = new URL(component);
    }
    catch {
        url = undefined;
    }
    if (!url || !url.hostname)
        return `scanward/${pathSegment(target)}/${pathSegment(component)}`;
    const scheme = url.protocol.replace(/:$/, '');
    const port = url.port || DEFAULT_PORTS[scheme];
    const service = port ? `${scheme}-${port}` : scheme;
    const segments = url.pathname
        .split('/')
        .map((s) => pathSegment(locations_safeDecode(s)))
        .filter((s) => s !== '' && s !== '_' && s !== '.' && s !== '..')
        .slice(0, MAX_SEGMENTS);
    return ['scanward', pathSegment(url.hostname.replace(/^\[|\]$/g, '')), service, ...segments].join('/');
}
/** One path segment of letters, digits and `._~-`, everything else `_`, at most 64 characters. */
function pathSegment(value) {
    const cleaned = value.replace(/[^A-Za-z0-9._~-]/g, '_').slice(0, MAX_SEGMENT_LENGTH);
    return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}
function locations_safeDecode(value) {
    try {
        return decodeURIComponent(value);
    }
    catch {
        return value;
    }
}

;// CONCATENATED MODULE: ./action/reports/sarif/text.ts
/** Text as SARIF messages and GitHub's rule help want it. */
/** Text placed in Markdown: no raw HTML. */
function markdownText(text) {
    return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
function unique(values) {
    return [...new Set(values.filter((v) => v.trim() !== ''))];
}
function clip(text, max) {
    return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
function stripPeriod(text) {
    return text.trim().replace(/[.\s]+$/, '');
}
/** Ends the text with a period, as SARIF messages should. */
function sentence(text) {
    const trimmed = text.trim();
    return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

;// CONCATENATED MODULE: ./action/reports/sarif/rules.ts


/**
 * The rules of a SARIF run: one per `template_id` (the canonical check id), so GitHub groups
 * and filters alerts by check; `security-severity` is the highest CVSS score of the rule's
 * findings, which GitHub turns into its critical/high/medium/low.
 */
/** GitHub shows at most 10 tags of a rule (and rejects more than 20). */
const MAX_TAGS = 10;
/** GitHub's limit for rule descriptions. */
const MAX_DESCRIPTION = 1024;
const MAX_HELP = 20_000;
/** SARIF levels: GitHub shows error, warning and note. */
const LEVEL = {
    critical: 'error',
    high: 'error',
    medium: 'warning',
    low: 'note',
    info: 'note',
};
/** A score inside each GitHub band, for findings without a CVSS score. */
const SEVERITY_SCORE = { critical: 9.5, high: 8.0, medium: 5.5, low: 2.5, info: 0 };
/** The rule id of a finding: its canonical check id, or a slug of its title when the id is unknown. */
function ruleIdOf(finding) {
    if (finding.template_id && finding.template_id.trim() !== '')
        return finding.template_id.trim();
    const slug = finding.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 80);
    return `scanward/${slug || 'finding'}`;
}
/** The GitHub security-severity of one finding: its CVSS score, or a score inside its severity's band. */
function securityScore(finding) {
    if (finding.severity === 'info')
        return 0;
    const cvss = finding.cvss_score ?? 0;
    return cvss > 0 ? Math.min(10, cvss) : SEVERITY_SCORE[finding.severity];
}
function buildRule(id, findings) {
    const first = findings[0];
    const worst = findings.reduce((a, b) => (atOrAbove(a, b.severity) ? a : b));
    const score = Math.max(...findings.map(securityScore));
    const cves = unique(findings.flatMap((f) => f.cve_ids));
    const cwes = unique(findings.flatMap((f) => f.cwe_ids ?? []));
    const frameworks = unique(findings.flatMap((f) => f.frameworks ?? []));
    const remediation = first.remediation?.trim() || '';
    const description = first.description.trim() || first.title;
    const tags = unique([
        'security',
        'scanward',
        ...cwes.map(cweTag).filter((t) => t !== undefined),
        ...frameworks.map((f) => `compliance/${f}`),
        ...(first.tool ? [`tool/${first.tool}`] : []),
    ]).slice(0, MAX_TAGS);
    return {
        id,
        name: ruleName(id),
        shortDescription: { text: sentence(clip(first.title, MAX_DESCRIPTION)) },
        fullDescription: { text: sentence(clip(description, MAX_DESCRIPTION)) },
        defaultConfiguration: { level: LEVEL[worst.severity] },
        help: {
            text: clip(helpText(remediation, cves, cwes), MAX_HELP),
            markdown: clip(helpMarkdown(first, remediation, cves, cwes), MAX_HELP),
        },
        properties: {
            tags,
            precision: 'high',
            ...(score > 0 ? { 'security-severity': score.toFixed(1) } : { 'problem.severity': 'recommendation' }),
        },
    };
}
/** `CWE-79` → `external/cwe/cwe-079`, the tag form GitHub recognises. */
function cweTag(cwe) {
    const match = /^CWE-(\d+)$/i.exec(cwe.trim());
    return match ? `external/cwe/cwe-${match[1].padStart(3, '0')}` : undefined;
}
/** `redis-no-auth` → `RedisNoAuth`: SARIF rule names are readable identifiers. */
function ruleName(id) {
    const words = id.split(/[^A-Za-z0-9]+/).filter(Boolean);
    const name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
    return (name || 'Finding').slice(0, 255);
}
function helpText(remediation, cves, cwes) {
    const parts = [
        remediation ? `Remediation: ${sentence(remediation)}` : 'See the finding in Scanward for remediation.',
    ];
    if (cves.length > 0)
        parts.push(`CVE: ${cves.join(', ')}.`);
    if (cwes.length > 0)
        parts.push(`CWE: ${cwes.join(', ')}.`);
    return parts.join('\n');
}
function helpMarkdown(first, remediation, cves, cwes) {
    const lines = [`## ${markdownText(first.title)}`, ''];
    if (first.description.trim())
        lines.push(markdownText(first.description.trim()), '');
    lines.push('### Remediation', '', remediation ? markdownText(remediation) : 'See the finding in Scanward.', '');
    const refs = [
        ...cves.map((c) => `- [${c}](https://nvd.nist.gov/vuln/detail/${encodeURIComponent(c)})`),
        ...cwes.map((c) => {
            const n = /^CWE-(\d+)$/i.exec(c)?.[1];
            return n ? `- [${c}](https://cwe.mitre.org/data/definitions/${n}.html)` : `- ${markdownText(c)}`;
        }),
    ];
    if (refs.length > 0)
        lines.push('### References', '', ...refs, '');
    lines.push(`Detected by Scanward${first.tool ? ` (${markdownText(first.tool)})` : ''}.`);
    return lines.join('\n');
}

;// CONCATENATED MODULE: ./action/reports/sarif/results.ts




/**
 * One result per finding. GitHub tracks alerts across runs by
 * `partialFingerprints.primaryLocationLineHash` only, so that is derived from the Scanward
 * finding id, which stays the same for the same weakness on the same component in every later
 * scan (decisions.md "Findings").
 */
function buildResult(finding, ruleIndex, options) {
    const ruleId = ruleIdOf(finding);
    const cves = finding.cve_ids.length > 0 ? ` (${finding.cve_ids.join(', ')})` : '';
    const score = finding.cvss_score && finding.cvss_score > 0 ? `, CVSS ${finding.cvss_score.toFixed(1)}` : '';
    return {
        ruleId,
        ruleIndex: ruleIndex.get(ruleId),
        level: LEVEL[finding.severity],
        message: {
            text: `${stripPeriod(finding.title)}${cves} on ${finding.affected_component}. Severity ${finding.severity}${score}.`,
        },
        locations: [
            {
                physicalLocation: {
                    artifactLocation: {
                        uri: locationPath(finding.affected_component, finding.target ?? options.target),
                        uriBaseId: SRCROOT,
                    },
                    region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 },
                },
                message: { text: `Network location ${finding.affected_component}.` },
            },
        ],
        partialFingerprints: {
            primaryLocationLineHash: `${(0,external_node_crypto_namespaceObject.createHash)('sha256').update(finding.id).digest('hex').slice(0, 16)}:1`,
            'scanwardFindingId/v1': finding.id,
        },
        properties: {
            findingId: finding.id,
            severity: finding.severity,
            status: finding.status,
            affectedComponent: finding.affected_component,
            ...(finding.cvss_score !== null ? { cvssScore: finding.cvss_score } : {}),
            ...(finding.cve_ids.length > 0 ? { cveIds: finding.cve_ids } : {}),
            ...(finding.tool ? { detectedBy: finding.tool } : {}),
        },
    };
}

;// CONCATENATED MODULE: ./action/reports/sarif.ts






/** GitHub rejects a run with more results than this. */
const MAX_RESULTS = 25_000;
/** The SARIF of a completed scan: its reported findings (triaged ones are left out, see above). */
function sarifReport(verdict, context = {}) {
    const { scan, links, tool } = verdict;
    const build = buildSarif(verdict.reported, {
        scanId: scan.id,
        target: scan.target,
        scanType: scan.scan_type,
        toolVersion: tool.version,
        informationUri: tool.informationUri,
        scanUrl: links.scanUrl,
        startedAt: scan.started_at,
        completedAt: scan.completed_at,
        repository: context.repository,
    });
    return {
        ...build,
        text: JSON.stringify(build.log, null, 2),
        warnings: build.omitted > 0
            ? [
                `${build.omitted} finding(s) left out of the SARIF file: GitHub accepts at most ${MAX_RESULTS.toLocaleString('en-US')} results.`,
            ]
            : [],
    };
}
function buildSarif(findings, options) {
    const active = findings.filter((f) => !TRIAGED_AWAY.has(f.status));
    const ordered = [...active].sort(bySeverity);
    const kept = ordered.slice(0, MAX_RESULTS);
    const rules = [];
    const ruleIndex = new Map();
    const members = new Map();
    for (const finding of kept) {
        const id = ruleIdOf(finding);
        if (!ruleIndex.has(id)) {
            ruleIndex.set(id, ruleIndex.size);
            members.set(id, []);
        }
        members.get(id).push(finding);
    }
    for (const [id, list] of members)
        rules.push(buildRule(id, list));
    const results = kept.map((finding) => buildResult(finding, ruleIndex, options));
    const run = buildRun(rules, results, options);
    return {
        log: { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [run] },
        omitted: ordered.length - kept.length,
        triaged: findings.length - active.length,
    };
}
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
/** The run: the tool and its rules, the scan it describes, the commit it belongs to, the results. */
function buildRun(rules, results, options) {
    return {
        tool: {
            driver: {
                name: 'Scanward',
                version: options.toolVersion,
                ...(SEMVER.test(options.toolVersion) ? { semanticVersion: options.toolVersion } : {}),
                informationUri: options.informationUri,
                rules,
            },
        },
        automationDetails: {
            // "category/run-id": one category per target, so scanning two targets for one
            // commit keeps both analyses instead of the second replacing the first.
            id: `scanward/${pathSegment(options.target)}/${options.scanId}`,
        },
        invocations: [
            {
                executionSuccessful: true,
                ...(options.startedAt ? { startTimeUtc: options.startedAt } : {}),
                ...(options.completedAt ? { endTimeUtc: options.completedAt } : {}),
            },
        ],
        ...(options.repository
            ? {
                versionControlProvenance: [
                    {
                        repositoryUri: options.repository.uri,
                        mappedTo: { uriBaseId: SRCROOT },
                        ...(options.repository.revisionId ? { revisionId: options.repository.revisionId } : {}),
                        ...(options.repository.branch ? { branch: options.repository.branch } : {}),
                    },
                ],
            }
            : {}),
        results,
        columnKind: 'utf16CodeUnits',
        properties: {
            scanId: options.scanId,
            target: options.target,
            scanType: options.scanType,
            ...(options.scanUrl ? { scanUrl: options.scanUrl } : {}),
        },
    };
}

;// CONCATENATED MODULE: ./action/reports/junit.ts


/**
 * A JUnit XML report of a completed scan, the test report format every CI
 * renders (GitLab `artifacts:reports:junit`, Jenkins `junit`, Azure
 * `PublishTestResults`, CircleCI `store_test_results`): one test case per
 * reported finding, failed when it failed the gate (at or above fail-on and
 * counted by the gate mode), skipped when the team triaged it as a false
 * positive or accepted, passed otherwise.
 */
function renderJUnit(verdict) {
    const { scan, links, gate, reported } = verdict;
    const failing = new Set(gate.failing.map((f) => f.id));
    const cases = [];
    let failures = 0;
    let skipped = 0;
    for (const f of reported) {
        const name = `[${f.severity}] ${f.title} on ${f.affected_component}`;
        const attrs = `classname="${xml(`scanward.${ruleIdOf(f)}`)}" name="${xml(name)}" time="0"`;
        const details = [
            `Finding ${f.id}: ${links.findingUrl(f.id)}`,
            `Severity: ${f.severity}${f.cvss_score ? ` (CVSS ${f.cvss_score.toFixed(1)})` : ''}`,
            `Status: ${f.status}${f.change ? `; change in this scan: ${f.change}` : ''}`,
            ...(f.cve_ids.length > 0 ? [`CVE: ${f.cve_ids.join(', ')}`] : []),
            ...(f.description ? ['', f.description] : []),
            ...(f.remediation ? ['', `Remediation: ${f.remediation}`] : []),
        ].join('\n');
        if (failing.has(f.id)) {
            failures++;
            cases.push(`    <testcase ${attrs}>\n      <failure message="${xml(`${f.severity} finding at or above fail-on (${gate.failOn})`)}" type="${xml(f.severity)}">${xml(details)}</failure>\n    </testcase>`);
        }
        else if (TRIAGED_AWAY.has(f.status)) {
            skipped++;
            cases.push(`    <testcase ${attrs}>\n      <skipped message="${xml(`triaged as ${f.status}`)}"/>\n    </testcase>`);
        }
        else {
            cases.push(`    <testcase ${attrs}>\n      <system-out>${xml(details)}</system-out>\n    </testcase>`);
        }
    }
    const tests = reported.length;
    const time = (durationSeconds(scan.started_at, scan.completed_at) ?? 0).toFixed(3);
    const suite = `Scanward scan of ${scan.target}`;
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<testsuites name="Scanward" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}">`,
        `  <testsuite name="${xml(suite)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}"${scan.started_at ? ` timestamp="${xml(scan.started_at)}"` : ''}>`,
        '    <properties>',
        `      <property name="scan_id" value="${xml(scan.id)}"/>`,
        `      <property name="scan_url" value="${xml(links.scanUrl)}"/>`,
        `      <property name="gate" value="${xml(gate.mode)}"/>`,
        `      <property name="fail_on" value="${xml(gate.failOn)}"/>`,
        '    </properties>',
        ...cases,
        '  </testsuite>',
        '</testsuites>',
        '',
    ].join('\n');
}
/** Seconds the scan ran, when both ends are known. */
function durationSeconds(startedAt, completedAt) {
    const ms = (completedAt ? Date.parse(completedAt) : NaN) - (startedAt ? Date.parse(startedAt) : NaN);
    return Number.isFinite(ms) ? ms / 1000 : undefined;
}
/** Text safe in XML content and attributes; characters XML 1.0 forbids are dropped. */
function xml(text) {
    return text
        .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&apos;');
}

;// CONCATENATED MODULE: ./action/reports/messages.ts
const actionInputName = (input) => input;
const flagName = (input) => `--${input}`;
function failureMessage(verdict, name) {
    if (verdict.kind === 'completed')
        return verdict.passed ? undefined : verdict.gate.message;
    return unsuccessfulMessage(verdict, name);
}
function unsuccessfulMessage(verdict, name) {
    const { scan } = verdict;
    if (verdict.timedOut) {
        return (`Scanward scan ${scan.id} did not finish within ${name('timeout-minutes')} (${formatMinutes(verdict.timeoutMs / 60_000)}) and was cancelled. ` +
            `Raise ${name('timeout-minutes')}, or use a quicker ${name('scan-type')} (quick scans take 5-10 minutes, full scans 30-60).`);
    }
    const reason = scan.error ?? scan.message;
    return `Scanward scan ${scan.id} ${scan.status}${reason ? `: ${reason}` : ''}.`;
}
function formatMinutes(minutes) {
    return minutes >= 1 ? `${Math.round(minutes * 10) / 10} min` : `${Math.round(minutes * 60)} s`;
}

;// CONCATENATED MODULE: ./action/reports/text.ts

/**
 * The plain-text result `scanward-ci` prints on stdout for a completed scan: the scan and its
 * counts, how many findings are new, the findings that failed the gate (10 at most, each with
 * its link) and the gate's message.
 */
const LISTED = 10;
function renderText(verdict) {
    const { scan, links, gate, policy } = verdict;
    return [
        `Scanward scan ${scan.id} of ${scan.target}: completed (${formatCounts(scanCounts(scan))}).`,
        `${verdict.newFindings.length} new finding(s) at or above ${policy.reportSeverity}.`,
        ...gate.failing
            .slice(0, LISTED)
            .map((f) => `  ${f.severity}: ${f.title} on ${f.affected_component} (${links.findingUrl(f.id)})`),
        ...(gate.failing.length > LISTED ? [`  …and ${gate.failing.length - LISTED} more.`] : []),
        gate.message,
        '',
    ].join('\n');
}

;// CONCATENATED MODULE: ./action/service/http.ts

const DEFAULT_RETRY = {
    attempts: 6,
    baseDelayMs: 1000,
    maxDelayMs: 30_000,
    maxRetryAfterMs: 5 * 60_000,
    requestTimeoutMs: 60_000,
};
const TRANSIENT = new Set([500, 502, 503, 504]);
/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(header, now) {
    if (header === null || header.trim() === '')
        return undefined;
    const value = header.trim();
    if (/^\d+$/.test(value))
        return Number(value) * 1000;
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
function backoffMs(policy, retry, random = Math.random) {
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
/**
 * Sends the request, retrying as described above. `deadline` (epoch ms) stops
 * retrying when the next wait would end after it. Returns the last response
 * (which may be an error answer); throws `NetworkError` when no answer came.
 */
async function requestWithRetry(deps, url, init, description, deadline) {
    const { retry } = deps;
    for (let attempt = 1;; attempt++) {
        let response;
        let failure;
        try {
            const timeout = AbortSignal.timeout(retry.requestTimeoutMs);
            const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
            response = await deps.fetch(url, { ...init, redirect: 'manual', signal });
        }
        catch (error) {
            if (deps.signal?.aborted)
                throw error;
            failure = error;
        }
        if (response && isRedirect(response.status)) {
            await response.body?.cancel().catch(() => undefined);
            throw new RedirectError(response.status, locationOf(response, url), description);
        }
        if (response && response.status !== 429 && !TRANSIENT.has(response.status))
            return response;
        const last = attempt >= retry.attempts;
        let waitMs = backoffMs(retry, attempt);
        let reason;
        if (response) {
            reason = `${response.status}${response.status === 429 ? ' (rate limited)' : ''}`;
            const asked = retryAfterMs(response.headers.get('retry-after'), deps.now());
            if (asked !== undefined) {
                if (asked > retry.maxRetryAfterMs)
                    return response;
                waitMs = asked;
            }
        }
        else {
            reason = describeFailure(failure);
        }
        const pastDeadline = deadline !== undefined && deps.now() + waitMs > deadline;
        if (last || pastDeadline) {
            if (response)
                return response;
            throw new NetworkError(`${description} failed after ${attempt} attempt(s): ${reason}`, {
                cause: failure,
            });
        }
        // Free the connection of the answer we are not going to read.
        await response?.body?.cancel().catch(() => undefined);
        deps.onRetry?.(`${description}: ${reason}; retrying in ${formatWait(waitMs)} (attempt ${attempt + 1} of ${retry.attempts})`);
        await deps.sleep(waitMs, deps.signal);
    }
}
/** 3xx answers that point elsewhere (304 Not Modified is an answer, but no request here is conditional). */
function isRedirect(status) {
    return status >= 300 && status < 400;
}
/** The answer's `Location`, resolved against the request's URL (a relative one names the same host). */
function locationOf(response, url) {
    const location = response.headers.get('location');
    if (location === null || location.trim() === '')
        return undefined;
    try {
        return new URL(location, url).href;
    }
    catch {
        return location;
    }
}
/** An error and its cause in one line, for the log. */
function describeFailure(error) {
    if (error instanceof Error) {
        const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
        return `${error.message}${cause}`;
    }
    return String(error);
}
function formatWait(ms) {
    return ms >= 1000 ? `${Math.round(ms / 100) / 10}s` : `${ms}ms`;
}
/** The HTTP dependencies of a run, from its injected fetch, clock and sleep; retries are told to `log`. */
function httpDeps(deps, log) {
    return {
        fetch: deps.fetch,
        sleep: deps.sleep,
        now: deps.now,
        retry: deps.retry ?? DEFAULT_RETRY,
        signal: deps.signal,
        onRetry: log,
    };
}

;// CONCATENATED MODULE: ./action/service/api-errors.ts

/**
 * The Scanward API's error answers (`{detail, error_code, field?}`) as `ApiError`s that say
 * what the user can do about them.
 */
/** What the user can do about an error code (decisions.md "Success and error statuses"). */
const HINTS = {
    TARGET_NOT_ALLOWED: "The target is outside the server's scan scope policy. Scan a host you own that is in scope, or ask the Scanward operator to add it to SCANWARD_SCAN_ALLOW (and check SCANWARD_SCAN_DENY)",
    SCAN_QUOTA_EXCEEDED: "The organization's monthly scan quota is used up. GET /api/v1/scans/quota shows when it resets; an operator can raise it with `scanward admin org set-limits`",
    CONCURRENT_SCAN_LIMIT: "The plan's concurrent-scan ceiling stayed reached while the Action retried. Let running scans finish, or add `concurrency:` to the workflow so runs queue instead of overlapping",
    RATE_LIMIT_EXCEEDED: "The organization's API request limit is used up. Leave follow at stream (one request however long the scan runs), or with follow: poll raise poll-interval-seconds, so each run makes fewer requests",
    INVALID_API_KEY: 'The api-key is unknown, revoked or expired. Create a new key (Settings, API Keys) and store it as a repository secret',
    AUTHENTICATION_REQUIRED: 'Set the api-key input (or token) from a repository secret',
    INVALID_TOKEN: 'The token cannot be validated or its session was revoked. Obtain a new token, or use an api-key',
    TOKEN_EXPIRED: 'The bearer token has expired. Obtain a new token right before this step, or use an api-key',
    INSUFFICIENT_PERMISSION: "The API key lacks a permission. The Action needs 'read:scans' and 'write:scans', and 'read:findings' for rule ids in the SARIF",
    PLAN_UPGRADE_REQUIRED: "This feature is not on the organization's plan",
};
const FIELD_INPUTS = {
    target: 'target',
    scan_type: 'scan-type',
    ports: 'ports',
    frameworks: 'frameworks',
    credential_checks: 'credential-checks',
    'web.active': 'active',
    'web.authentication': 'login-url',
    'web.authentication.type': 'login-url',
    'web.authentication.login_url': 'login-url',
    'web.authentication.username': 'username',
    'web.authentication.password': 'password',
    'web.authentication.headers': 'auth-headers',
    'web.exclude_paths': 'exclude-paths',
    'Idempotency-Key': 'idempotency-key',
};
/** The input behind a field: the longest dotted prefix named (`web.authentication.headers.X-Api` → auth-headers). */
function inputOf(field) {
    const parts = field.split('.');
    for (let n = parts.length; n > 0; n--) {
        const input = FIELD_INPUTS[parts.slice(0, n).join('.')];
        if (input)
            return input;
    }
    return undefined;
}
/** What to check when the answer is not the Scanward API's at all. */
const NOT_SCANWARD_HINT = 'Check api-url (SCANWARD_API_URL): it should be the address of the Scanward service itself, not a web page or a proxy in front of it';
/**
 * A body that is not Scanward's JSON (a web server's page, a proxy's error), described in one
 * line without its markup: an HTML page by its `<title>`, any other text by its first 120
 * characters with line breaks folded.
 */
function describeForeignBody(text, contentType) {
    const html = /html/i.test(contentType ?? '') || /^\s*</.test(text);
    if (html) {
        // Its title, or else its first words: the markup, scripts and styles left out.
        const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
        const words = (title ?? text.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>?/g, ' '))
            .replace(/\s+/g, ' ')
            .trim();
        const shown = words.length > 80 ? `${words.slice(0, 80)}…` : words;
        return `an HTML page${shown ? ` ("${shown}")` : ''}, not the Scanward API`;
    }
    const line = text.replace(/\s+/g, ' ').trim();
    if (!line)
        return 'an empty answer, not the Scanward API';
    return `"${line.length > 120 ? `${line.slice(0, 120)}…` : line}", not the Scanward API`;
}
/** Turns an error answer into an `ApiError`, reading the spec's `{detail, error_code, field?}` shape. */
async function scanwardError(res, what) {
    const text = await res.text().catch(() => '');
    let code = `HTTP_${res.status}`;
    let detail;
    let field;
    try {
        const body = JSON.parse(text);
        if (typeof body.error_code === 'string')
            code = body.error_code;
        if (typeof body.detail === 'string')
            detail = body.detail;
        if (typeof body.field === 'string')
            field = body.field;
    }
    catch {
        // Not JSON: a proxy or another service answered; described below, never printed raw.
    }
    if (code === `HTTP_${res.status}`) {
        // Not the Scanward error shape: say what answered instead of printing its page.
        detail = `the answer is ${describeForeignBody(text, res.headers.get('content-type'))}`;
        const hint = res.status >= 500 ? `${NOT_SCANWARD_HINT}, or try again later` : NOT_SCANWARD_HINT;
        return new ApiError('Scanward', res.status, code, `could not ${what}: ${detail}`, undefined, hint);
    }
    detail = (detail ?? res.statusText) || 'no details';
    let hint = HINTS[code];
    const input = field ? inputOf(field) : undefined;
    if (code === 'VALIDATION_ERROR' && input) {
        hint =
            input === 'idempotency-key'
                ? 'This idempotency-key was already used with different scan inputs in the last 24 hours; use a new key'
                : `Check the \`${input}\` input`;
    }
    if (code === 'NOT_FOUND' && !hint)
        hint = 'Check api-url: it should be the address of the Scanward service';
    return new ApiError('Scanward', res.status, code, `could not ${what}: ${detail}`, field, hint);
}

;// CONCATENATED MODULE: ./action/service/responses.ts


/**
 * The parts of the Scanward API's answers the Action and scanward-ci read. They are looser
 * than the server's own contracts in server/schemas/ on purpose: a workflow
 * pins one Action version for months while the service is upgraded, so an
 * unknown phase, a new field or a new status must not break it. Only what the
 * Action needs is required.
 *
 * The per-scan findings list (`GET /api/v1/scans/{id}/findings`) has no
 * `template_id` or `cwe_ids` in its contract (server/schemas/scans.ts
 * `ScanFinding`), so the Action reads those from `GET /api/v1/findings?scan_id=`
 * (`FindingListItem` in server/schemas/findings.ts) and joins the two by id.
 */
const Severity = schemas_enum(FINDING_SEVERITIES);
const responses_count = schemas_number().int().min(0).catch(0);
const ScanCreatedBody = object({
    id: schemas_string().min(1),
    status: schemas_string(),
    estimated_duration: schemas_number().optional(),
});
const ScanBody = object({
    id: schemas_string().min(1),
    target: schemas_string(),
    scan_type: schemas_string(),
    status: schemas_string(),
    progress: schemas_number().catch(0),
    phase: schemas_string().catch(''),
    current_tool: schemas_string().optional(),
    created_at: schemas_string().optional(),
    started_at: schemas_string().optional(),
    completed_at: schemas_string().optional(),
    vulnerabilities_found: responses_count,
    critical_count: responses_count,
    high_count: responses_count,
    medium_count: responses_count,
    low_count: responses_count,
    info_count: responses_count.optional(),
    error: schemas_string().optional(),
    message: schemas_string().optional(),
});
// What the API answers is the scan record every report reads (core/scan.ts); the compiler holds them together.
const _scanIsARecord = (/* unused pure expression or super */ null && (ScanBody));
const ScanCancelledBody = object({
    id: schemas_string(),
    status: schemas_string(),
    message: schemas_string().optional(),
});
/** One item of the per-scan findings list, `template_id`/`cwe_ids` accepted should the server add them. */
const ScanFindingBody = object({
    id: schemas_string().min(1),
    title: schemas_string(),
    severity: Severity,
    cvss_score: schemas_number().nullable().catch(null),
    status: schemas_string(),
    tool: schemas_string().catch(''),
    affected_component: schemas_string(),
    description: schemas_string().catch(''),
    remediation: union([schemas_string(), object({ summary: schemas_string() }).transform((r) => r.summary)])
        .nullable()
        .catch(null),
    cve_ids: array(schemas_string()).catch([]),
    detected_at: schemas_string().optional(),
    /** What this scan's sighting was; absent from services older than the field. */
    change: schemas_enum(['new', 'reopened', 'unchanged']).optional().catch(undefined),
    template_id: schemas_string().optional(),
    cwe_ids: array(schemas_string()).optional(),
    target: schemas_string().optional(),
    frameworks: array(schemas_string()).optional(),
});
// …and the finding every report reads.
const _findingIsAFinding = (/* unused pure expression or super */ null && (ScanFindingBody));
/** The fields of the findings list view that the per-scan list lacks. */
const FindingRefBody = object({
    id: schemas_string(),
    template_id: schemas_string(),
    cwe_ids: array(schemas_string()).catch([]),
    target: schemas_string().optional(),
    frameworks: array(schemas_string()).catch([]),
});
function pageBody(item) {
    return object({
        items: array(item),
        total: schemas_number().int().optional(),
        page: schemas_number().int().optional(),
        pages: schemas_number().int().optional(),
    });
}
const HealthBody = object({ version: schemas_string().optional() });
const TokenBody = object({ access_token: schemas_string().min(1), expires_in: schemas_number().optional() });
/** POST /api/v1/auth/ci-token: a short-lived access token for a CI job's ID token. */
const CiAudienceBody = object({ audience: schemas_string().min(1) });
const CiTokenBody = object({
    access_token: schemas_string().min(1),
    expires_in: schemas_number().int().positive(),
    permissions: array(schemas_string()).optional(),
});

;// CONCATENATED MODULE: ./action/service/api-call.ts




/** Largest page the API serves (interface-spec.md "Other constants"). */
const PER_PAGE = 100;
/** No scan has this many findings pages; stops a server that never says "last page". */
const MAX_PAGES = 1000;
async function listAllPages(client, path, query, item, what) {
    const schema = pageBody(item);
    const all = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
        const params = new URLSearchParams({ ...query, page: String(page), per_page: String(PER_PAGE) });
        const body = await callApi(client, 'GET', `${path}?${params}`, schema, {
            what: `read ${what} (page ${page})`,
        });
        all.push(...body.items);
        const lastPage = body.pages !== undefined ? page >= body.pages : body.items.length < PER_PAGE;
        if (lastPage || body.items.length === 0)
            break;
    }
    return all;
}
async function callApi(client, method, path, schema, options) {
    const headers = {
        accept: 'application/json',
        'user-agent': client.userAgent,
        ...(await client.credentials.headers()),
        ...options.headers,
    };
    if (options.body !== undefined)
        headers['content-type'] = 'application/json';
    if (options.raw !== undefined)
        headers['content-type'] = 'application/octet-stream';
    const body = options.raw !== undefined
        ? { body: options.raw }
        : options.body !== undefined
            ? { body: JSON.stringify(options.body) }
            : {};
    const res = await requestWithRetry(options.http ?? client.http, `${client.baseUrl}${path}`, { method, headers, ...body }, `Scanward: ${options.what}`, options.deadline);
    if (!res.ok)
        throw await scanwardError(res, options.what);
    const text = await res.text();
    let json;
    try {
        json = JSON.parse(text);
    }
    catch {
        // Another web server answered (a page at api-url): the user's to fix, in one line.
        throw new ConfigurationError(`Scanward: could not ${options.what}: ${method} ${path} answered ${res.status} with ${describeForeignBody(text, res.headers.get('content-type'))}. ${NOT_SCANWARD_HINT}.`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
        throw new Error(`Scanward answered ${method} ${path} with an unexpected body (${parsed.error.issues
            .slice(0, 3)
            .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
            .join('; ')}); is api-url the Scanward service?`);
    }
    return parsed.data;
}

;// CONCATENATED MODULE: ./action/service/client.ts



class ScanwardClient {
    options;
    constructor(options) {
        this.options = options;
    }
    /** `POST /api/v1/scans`; the key makes a retried or repeated create return the same scan. */
    async createScan(input, idempotencyKey, deadline) {
        const body = {
            target: input.target,
            scan_type: input.scan_type,
            authorized: true,
        };
        if (input.ports !== undefined)
            body.ports = input.ports;
        if (input.frameworks !== undefined && input.frameworks.length > 0)
            body.frameworks = input.frameworks;
        if (input.credential_checks !== undefined)
            body.credential_checks = input.credential_checks;
        if (input.web !== undefined)
            body.web = input.web;
        return callApi(this.options, 'POST', '/api/v1/scans', ScanCreatedBody, {
            body,
            headers: { 'Idempotency-Key': idempotencyKey },
            deadline,
            what: 'create the scan',
        });
    }
    /**
     * `POST /api/v1/imports`: a report as a completed scan of `target`, sent as the raw body.
     * The key makes a retried import (after a timeout or a network failure) answer the scan the
     * first one recorded instead of recording a second one.
     */
    importReport(report, input, idempotencyKey, deadline) {
        const query = new URLSearchParams({ target: input.target, scan_type: input.scan_type });
        if (input.format)
            query.set('format', input.format);
        if (input.report_name)
            query.set('report_name', input.report_name.slice(0, 255));
        if (input.ci_run)
            query.set('ci_run', input.ci_run.slice(0, 500));
        return callApi(this.options, 'POST', `/api/v1/imports?${query.toString()}`, ScanBody, {
            raw: report,
            headers: { 'Idempotency-Key': idempotencyKey },
            deadline,
            what: 'import the report',
        });
    }
    getScan(scanId, deadline) {
        return callApi(this.options, 'GET', `/api/v1/scans/${encodeURIComponent(scanId)}`, ScanBody, {
            deadline,
            what: `read scan ${scanId}`,
        });
    }
    /**
     * `GET /api/v1/events`, the organization's live event stream, opened once: no retry and no
     * status check, since the caller (follow.ts) decides what a refusal means (an older service,
     * a key without `read:scans`). A redirect is not followed, so the credentials stay here.
     * The answer comes back with its body unread; `signal` ends the request and the reading.
     */
    async openEventStream(lastEventId, signal) {
        const headers = {
            accept: 'text/event-stream',
            'user-agent': this.options.userAgent,
            ...(await this.options.credentials.headers()),
        };
        if (lastEventId !== undefined)
            headers['last-event-id'] = lastEventId;
        return this.options.http.fetch(this.url('/api/v1/events'), { headers, redirect: 'manual', signal });
    }
    /** When the credentials will next be refreshed (credentials.ts); undefined when they do not expire. */
    credentialsRefreshDueAt() {
        return this.options.credentials.refreshDueAt?.();
    }
    /**
     * `DELETE /api/v1/scans/{id}`. Runs even after the job was cancelled (that is
     * when it matters most), with few, short tries: the runner kills the step soon.
     */
    cancelScan(scanId) {
        const { retry } = this.options.http;
        return callApi(this.options, 'DELETE', `/api/v1/scans/${encodeURIComponent(scanId)}`, ScanCancelledBody, {
            what: `cancel scan ${scanId}`,
            http: {
                ...this.options.http,
                signal: undefined,
                retry: {
                    ...retry,
                    attempts: Math.min(retry.attempts, 2),
                    requestTimeoutMs: Math.min(retry.requestTimeoutMs, 5000),
                },
            },
        });
    }
    /** Every finding the scan observed: `GET /api/v1/scans/{id}/findings`, all pages. */
    listScanFindings(scanId) {
        return listAllPages(this.options, `/api/v1/scans/${encodeURIComponent(scanId)}/findings`, {}, ScanFindingBody, 'findings');
    }
    /** Template ids, CWE ids and frameworks of the scan's findings: `GET /api/v1/findings?scan_id=`, all pages. */
    listFindingRefs(scanId) {
        return listAllPages(this.options, '/api/v1/findings', { scan_id: scanId }, FindingRefBody, 'finding details');
    }
    /** The service version from `GET /api/health`; undefined when it cannot be read. */
    async serviceVersion() {
        try {
            const res = await requestWithRetry({ ...this.options.http, retry: { ...this.options.http.retry, attempts: 1 } }, this.url('/api/health'), { headers: { accept: 'application/json', 'user-agent': this.options.userAgent } }, 'read the service version');
            if (!res.ok)
                return undefined;
            return HealthBody.parse(await res.json()).version;
        }
        catch {
            return undefined;
        }
    }
    url(path) {
        return `${this.options.baseUrl}${path}`;
    }
}

;// CONCATENATED MODULE: ./action/service/credentials.ts




/**
 * The audience of the organization's CI jobs, as the service tells it to anyone naming the
 * organization (`GET /api/v1/ci-trust/audience?organization_id=`, no credentials: the job has
 * none before its ID token is exchanged, and an audience is not a secret).
 */
async function organizationAudience(organizationId, deps) {
    const res = await requestWithRetry(deps.http, `${deps.baseUrl}/api/v1/ci-trust/audience?organization_id=${encodeURIComponent(organizationId)}`, { method: 'GET', headers: { accept: 'application/json', 'user-agent': deps.userAgent } }, "Scanward: ask the organization's CI audience");
    if (!res.ok)
        throw await scanwardError(res, "ask the organization's CI audience (keyless sign-in)");
    return CiAudienceBody.parse(await res.json()).audience;
}
/** Refresh a bearer token this long before it expires (tokens live one hour). */
const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;
function acquireCredentials(auth, deps) {
    switch (auth.kind) {
        case 'api-key':
            deps.onSecret?.(auth.apiKey);
            return { headers: async () => ({ 'x-api-key': auth.apiKey }) };
        case 'token':
            deps.onSecret?.(auth.token);
            return new RefreshingToken(auth.token, deps);
        case 'oidc': {
            const mint = deps.idToken;
            if (!mint)
                throw new ConfigurationError('`auth: oidc` works only in a GitHub Actions job.');
            let audience = auth.audience;
            return new ExchangedToken(async () => {
                audience ??= await organizationAudience(auth.organizationId, deps);
                return mint(audience);
            }, deps, auth.organizationId);
        }
        case 'id-token':
            return new ExchangedToken(async () => auth.idToken, deps);
    }
}
/** A bearer token of a user's session, refreshed through `POST /api/v1/auth/refresh` shortly before it expires. */
class RefreshingToken {
    token;
    deps;
    constructor(token, deps) {
        this.token = token;
        this.deps = deps;
    }
    async headers() {
        await this.refreshIfDue();
        return this.bearer();
    }
    refreshDueAt() {
        const expiresAt = tokenExpiry(this.token);
        return expiresAt === undefined ? undefined : expiresAt - TOKEN_REFRESH_MARGIN_MS;
    }
    bearer() {
        return { authorization: `Bearer ${this.token}` };
    }
    async refreshIfDue() {
        const expiresAt = tokenExpiry(this.token);
        const now = this.deps.http.now();
        if (expiresAt === undefined || expiresAt - now > TOKEN_REFRESH_MARGIN_MS || expiresAt <= now)
            return;
        const res = await requestWithRetry(this.deps.http, `${this.deps.baseUrl}/api/v1/auth/refresh`, {
            method: 'POST',
            headers: { accept: 'application/json', 'user-agent': this.deps.userAgent, ...this.bearer() },
        }, 'Scanward: refresh the bearer token');
        if (!res.ok)
            throw await scanwardError(res, 'refresh the bearer token');
        const { access_token } = TokenBody.parse(await res.json());
        this.deps.onSecret?.(access_token);
        this.token = access_token;
    }
}
/** The `exp` of a JWT in epoch ms, read without verifying; undefined for anything else. */
function tokenExpiry(token) {
    const payload = token.split('.')[1];
    if (!payload)
        return undefined;
    try {
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
        return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
    }
    catch {
        return undefined;
    }
}
/** Exchange again this long before the access token expires (it lives at most 15 minutes). */
const EXCHANGE_MARGIN_MS = 60_000;
/**
 * Keyless CI sign-in (docs/ci-trust.md): the CI provider's ID token exchanged at
 * `POST /api/v1/auth/ci-token` for a short-lived access token limited to the matching trust
 * policy's permissions. The access token cannot be refreshed: shortly before it expires a new ID
 * token is exchanged (the runner mints a fresh one; a token from a variable is reused, and the
 * service refuses it once it has expired).
 */
class ExchangedToken {
    idToken;
    deps;
    organizationId;
    token;
    expiresAt = 0;
    constructor(idToken, deps, organizationId) {
        this.idToken = idToken;
        this.deps = deps;
        this.organizationId = organizationId;
    }
    async headers() {
        if (!this.token || this.expiresAt - this.deps.http.now() <= EXCHANGE_MARGIN_MS)
            await this.exchange();
        return { authorization: `Bearer ${this.token}` };
    }
    refreshDueAt() {
        return this.token ? this.expiresAt - EXCHANGE_MARGIN_MS : undefined;
    }
    async exchange() {
        const idToken = await this.idToken();
        this.deps.onSecret?.(idToken);
        const res = await requestWithRetry(this.deps.http, `${this.deps.baseUrl}/api/v1/auth/ci-token`, {
            method: 'POST',
            headers: {
                accept: 'application/json',
                'content-type': 'application/json',
                'user-agent': this.deps.userAgent,
            },
            body: JSON.stringify({
                id_token: idToken,
                ...(this.organizationId ? { organization_id: this.organizationId } : {}),
            }),
        }, "Scanward: exchange the CI job's ID token");
        if (!res.ok)
            throw await scanwardError(res, "exchange the CI job's ID token (keyless sign-in)");
        const { access_token, expires_in } = CiTokenBody.parse(await res.json());
        this.deps.onSecret?.(access_token);
        this.token = access_token;
        this.expiresAt = this.deps.http.now() + expires_in * 1000;
    }
}

;// CONCATENATED MODULE: ./action/service/follow/followed.ts
const STREAM_SETTINGS = {
    stallMs: 60_000,
    maxReconnects: 5,
    maxReconnectDelayMs: 30_000,
};
/** The statuses a scan ends in. */
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
function formatSeconds(ms) {
    return `${Number((ms / 1000).toFixed(2))}s`;
}

;// CONCATENATED MODULE: ./action/service/follow/polling.ts

/**
 * The polling half of following a scan: `GET /api/v1/scans/{id}` every
 * `poll-interval-seconds`, one request each, until the scan ends or the deadline passes,
 * logging changes only. `follow: poll` asks for it; the stream half falls back to it.
 */
async function followByPolling(deps, client, scanId, request, deadline, progress) {
    const { http } = deps;
    let scan = await client.getScan(scanId, deadline);
    progress.report(scan);
    while (!TERMINAL.has(scan.status)) {
        const left = deadline - http.now();
        if (left <= 0)
            return { scan, timedOut: true };
        await http.sleep(Math.min(request.pollIntervalMs, left), http.signal);
        scan = await client.getScan(scanId, deadline);
        progress.report(scan);
    }
    return { scan, timedOut: false };
}

;// CONCATENATED MODULE: ./action/service/event-stream.ts
/**
 * An incremental parser: `push` text as it arrives (split anywhere, even inside a `\r\n`),
 * get back the events completed by it. `retry` is the reconnection delay the server asked for.
 */
class EventStreamParser {
    buffer = '';
    afterCR = false;
    data = [];
    eventType = '';
    /** The id of the last event that set one; kept across events, as EventSource keeps it. */
    lastEventId = '';
    /** The `retry:` the server sent, in milliseconds. */
    retry;
    push(text) {
        if (text === '')
            return [];
        // A `\r` that ended the last chunk ended a line; a `\n` right after it is the rest of a `\r\n`.
        if (this.afterCR && text.startsWith('\n'))
            text = text.slice(1);
        this.afterCR = false;
        this.buffer += text;
        const events = [];
        for (;;) {
            const end = this.buffer.search(/[\r\n]/);
            if (end < 0)
                break;
            const line = this.buffer.slice(0, end);
            const crlf = this.buffer.startsWith('\r\n', end);
            if (this.buffer[end] === '\r' && end === this.buffer.length - 1)
                this.afterCR = true;
            this.buffer = this.buffer.slice(end + (crlf ? 2 : 1));
            const event = this.line(line);
            if (event)
                events.push(event);
        }
        return events;
    }
    line(line) {
        if (line === '')
            return this.dispatch();
        if (line.startsWith(':'))
            return undefined; // a comment: the heartbeat
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' '))
            value = value.slice(1);
        if (field === 'event')
            this.eventType = value;
        else if (field === 'data')
            this.data.push(value);
        else if (field === 'id' && !value.includes('\0'))
            this.lastEventId = value;
        else if (field === 'retry' && /^\d+$/.test(value))
            this.retry = Number(value);
        return undefined;
    }
    dispatch() {
        const data = this.data;
        const event = this.eventType || 'message';
        this.data = [];
        this.eventType = '';
        if (data.length === 0)
            return undefined;
        return { event, data: data.join('\n'), lastEventId: this.lastEventId };
    }
}
const TERMINAL_EVENTS = new Set(['scan.completed', 'scan.failed', 'scan.cancelled']);
/**
 * The event as one of `scanId`'s, or undefined for anything else: another scan's event, a
 * finding event (whose `data.id` is a finding's), or data that is not the `{type, data}` JSON.
 */
function scanEventOf(event, scanId) {
    if (!event.event.startsWith('scan.'))
        return undefined;
    let body;
    try {
        body = JSON.parse(event.data);
    }
    catch {
        return undefined;
    }
    if (typeof body !== 'object' || body === null)
        return undefined;
    const { type, data } = body;
    if (typeof data !== 'object' || data === null)
        return undefined;
    const scan = data;
    if (scan.id !== scanId)
        return undefined;
    return { type: typeof type === 'string' ? type : event.event, scan };
}
/** The scan as an event of it says it is now (`scan.started`: the list view; `scan.progress`: the progress fields). */
function withEvent(scan, data) {
    const next = { ...scan };
    const sameStatus = data.status === undefined || data.status === scan.status;
    // An event older than the read that followed the stream's opening does not move progress back.
    if (sameStatus && typeof data.progress === 'number' && data.progress < scan.progress)
        return scan;
    if (typeof data.status === 'string')
        next.status = data.status;
    if (typeof data.progress === 'number')
        next.progress = data.progress;
    if (typeof data.phase === 'string')
        next.phase = data.phase;
    if ('current_tool' in data) {
        next.current_tool = typeof data.current_tool === 'string' ? data.current_tool : undefined;
    }
    return next;
}

;// CONCATENATED MODULE: ./action/service/follow/connection.ts




/** Reopen the stream this long after the credentials fell due for a refresh (so the next request refreshes them). */
const RENEW_AFTER_DUE_MS = 1000;
/**
 * Ends a connection from here: the wait for the next bytes (the stall bound, or the deadline
 * when sooner; re-armed on every byte) and the renewal of the credentials.
 */
class Watch {
    http;
    deadline;
    stallMs;
    controller = new AbortController();
    signal;
    /** Why the connection was aborted from here, if it was. */
    why;
    timer;
    renewal;
    constructor(http, deadline, stallMs) {
        this.http = http;
        this.deadline = deadline;
        this.stallMs = stallMs;
        this.signal = http.signal
            ? AbortSignal.any([http.signal, this.controller.signal])
            : this.controller.signal;
    }
    /** (Re)starts the wait for the next bytes. */
    arm() {
        clearTimeout(this.timer);
        const left = Math.max(0, this.deadline - this.http.now());
        const stall = left <= this.stallMs ? undefined : this.stallMs;
        this.timer = setTimeout(() => this.end(stall === undefined ? 'deadline' : 'stall'), stall ?? left);
    }
    disarm() {
        clearTimeout(this.timer);
    }
    /**
     * A bearer token is refreshed shortly before it expires, at the next request; the stream is
     * one request, so it is reopened then (the service would end it once the token expired).
     */
    renewAt(refreshDueAt) {
        const now = this.http.now();
        if (refreshDueAt === undefined || refreshDueAt <= now || refreshDueAt >= this.deadline)
            return;
        this.renewal = setTimeout(() => this.end('renew'), refreshDueAt - now + RENEW_AFTER_DUE_MS);
    }
    close() {
        clearTimeout(this.timer);
        clearTimeout(this.renewal);
        this.controller.abort();
    }
    end(why) {
        this.why = why;
        this.controller.abort();
    }
}
/** One connection: open, read the scan when no event id says where to resume, read events. */
async function connect(ctx, state) {
    const { http } = ctx.deps;
    const watch = new Watch(http, ctx.deadline, ctx.settings.stallMs);
    const openedAt = http.now();
    try {
        watch.arm();
        const opened = await connection_open(ctx, state, watch);
        if ('ended' in opened)
            return opened.ended;
        watch.renewAt(ctx.client.credentialsRefreshDueAt());
        // Without an event id to resume from, the stream starts now: read the scan once, after
        // the stream answered, so every change after this read comes as an event.
        if (state.lastEventId === undefined) {
            watch.disarm();
            state.scan = await ctx.client.getScan(ctx.scanId, ctx.deadline);
            ctx.progress.report(state.scan);
            if (TERMINAL.has(state.scan.status))
                return { kind: 'terminal', scan: state.scan };
            watch.arm();
        }
        return await readEvents(ctx, state, opened.body, watch, openedAt);
    }
    finally {
        watch.close();
    }
}
async function connection_open(ctx, state, watch) {
    const { http } = ctx.deps;
    let response;
    try {
        response = await ctx.client.openEventStream(state.lastEventId, watch.signal);
    }
    catch (error) {
        // The credentials could not be had (a refresh or a token exchange refused): as for any request.
        if (http.signal?.aborted || error instanceof ApiError || error instanceof ConfigurationError)
            throw error;
        if (watch.why === 'deadline')
            return { ended: { kind: 'deadline' } };
        if (watch.why === 'stall')
            return { ended: { kind: 'silent' } };
        return { ended: { kind: 'refused', status: 0, reason: `no answer: ${describeFailure(error)}` } };
    }
    if (response.status !== 200 || !response.body || !isEventStream(response)) {
        await response.body?.cancel().catch(() => undefined);
        return { ended: refusal(response, http.now()) };
    }
    return { body: response.body };
}
/** Reads events until the scan's terminal event or the end of the connection. */
async function readEvents(ctx, state, body, watch, openedAt) {
    const { http } = ctx.deps;
    const parser = new EventStreamParser();
    const decoder = new TextDecoder();
    const reader = body.getReader();
    let gotBytes = false;
    try {
        for (;;) {
            const { value, done } = await reader.read();
            if (done)
                return { kind: 'dropped', reason: 'the service ended it', lastedMs: http.now() - openedAt };
            if (value.byteLength > 0)
                gotBytes = true;
            watch.arm();
            for (const event of parser.push(decoder.decode(value, { stream: true }))) {
                if (event.lastEventId !== '')
                    state.lastEventId = event.lastEventId;
                const ours = scanEventOf(event, ctx.scanId);
                if (!ours)
                    continue;
                if (TERMINAL_EVENTS.has(ours.type))
                    return { kind: 'terminal' };
                if (state.scan) {
                    state.scan = withEvent(state.scan, ours.scan);
                    ctx.progress.report(state.scan);
                }
            }
            if (parser.retry !== undefined)
                state.retryMs = parser.retry;
        }
    }
    catch (error) {
        if (http.signal?.aborted)
            throw error;
        if (watch.why === 'deadline')
            return { kind: 'deadline' };
        if (watch.why === 'renew')
            return { kind: 'renew' };
        if (watch.why === 'stall' && !gotBytes)
            return { kind: 'silent' };
        const reason = watch.why === 'stall'
            ? `nothing arrived for ${formatSeconds(ctx.settings.stallMs)}`
            : describeFailure(error);
        return { kind: 'dropped', reason, lastedMs: http.now() - openedAt };
    }
    finally {
        reader.releaseLock();
    }
}
function isEventStream(response) {
    return (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}
function refusal(response, now) {
    const { status } = response;
    const reason = status === 404
        ? 'the service answered 404: it is older than GET /api/v1/events'
        : status === 403
            ? 'the service answered 403: the API key needs read:scans'
            : status === 200
                ? `the service answered ${response.headers.get('content-type') ?? 'no content type'}, not text/event-stream`
                : status >= 300 && status < 400
                    ? `the service answered ${status} with a redirect, which is not followed`
                    : `the service answered ${status}`;
    return {
        kind: 'refused',
        status,
        reason,
        retryAfterMs: retryAfterMs(response.headers.get('retry-after'), now),
    };
}

;// CONCATENATED MODULE: ./action/service/follow/stream.ts


/** The reconnection delay when the server did not ask for one (the service asks 3 s). */
const DEFAULT_RETRY_MS = 3000;
async function followByStream(ctx) {
    const state = {
        scan: undefined,
        lastEventId: undefined,
        retryMs: DEFAULT_RETRY_MS,
        dropsInARow: 0,
    };
    for (let first = true;; first = false) {
        if (ctx.deadline - ctx.deps.http.now() <= 0)
            return timedOut(ctx, state);
        const connection = await connect(ctx, state);
        const next = await afterConnection(ctx, state, connection, first);
        if (next !== 'reconnect')
            return next;
    }
}
async function afterConnection(ctx, state, connection, first) {
    switch (connection.kind) {
        case 'terminal': {
            const scan = connection.scan ?? (await ctx.client.getScan(ctx.scanId, ctx.deadline));
            state.scan = scan;
            ctx.progress.report(scan);
            if (TERMINAL.has(scan.status))
                return { kind: 'followed', scan, timedOut: false };
            return { kind: 'unavailable', reason: `it reported the scan ended, but the scan reads ${scan.status}` };
        }
        case 'deadline':
            return timedOut(ctx, state);
        case 'renew':
            ctx.deps.log.debug('Event stream: reopening it with refreshed credentials.');
            return 'reconnect';
        case 'silent':
            return {
                kind: 'unavailable',
                reason: `nothing arrived on it within ${formatSeconds(ctx.settings.stallMs)}; a proxy may be buffering it`,
            };
        case 'refused':
            return afterRefusal(ctx, state, connection, first);
        case 'dropped':
            return afterDrop(ctx, state, connection);
    }
}
async function afterRefusal(ctx, state, connection, first) {
    if (first || [401, 403, 404].includes(connection.status)) {
        return { kind: 'unavailable', reason: connection.reason };
    }
    state.dropsInARow++;
    if (state.dropsInARow > ctx.settings.maxReconnects) {
        return {
            kind: 'unavailable',
            reason: `reopening it failed ${state.dropsInARow} times: ${connection.reason}`,
        };
    }
    ctx.deps.log.debug(`Event stream: ${connection.reason}; trying again.`);
    await pause(ctx, connection.retryAfterMs ?? state.retryMs);
    return 'reconnect';
}
async function afterDrop(ctx, state, connection) {
    state.dropsInARow = connection.lastedMs >= ctx.settings.stallMs ? 1 : state.dropsInARow + 1;
    if (state.dropsInARow > ctx.settings.maxReconnects) {
        return {
            kind: 'unavailable',
            reason: `it dropped ${state.dropsInARow} times in a row (last: ${connection.reason})`,
        };
    }
    const after = state.lastEventId === undefined ? '' : ` after event ${state.lastEventId}`;
    ctx.deps.log.debug(`Event stream ended (${connection.reason}); reconnecting${after}.`);
    await pause(ctx, state.retryMs);
    return 'reconnect';
}
async function timedOut(ctx, state) {
    return {
        kind: 'followed',
        scan: state.scan ?? (await ctx.client.getScan(ctx.scanId, ctx.deadline)),
        timedOut: true,
    };
}
/** Waits before a reconnect: as asked, but at most `maxReconnectDelayMs` and never past the deadline. */
async function pause(ctx, ms) {
    const { http } = ctx.deps;
    const left = ctx.deadline - http.now();
    if (left <= 0)
        return;
    await http.sleep(Math.min(ms, ctx.settings.maxReconnectDelayMs, left), http.signal);
}

;// CONCATENATED MODULE: ./action/service/progress.ts
/**
 * Progress lines while the Action or scanward-ci polls: one line when the status, phase,
 * progress or running tool changes, nothing when a poll saw the same state,
 * so a 40-minute scan polled every 10 seconds does not flood the log.
 */
function progressLine(scan) {
    if (scan.status === 'pending')
        return `Scan ${scan.id}: pending, waiting for a scan runner`;
    const parts = [`${scan.status}`, `${Math.round(scan.progress)}%`];
    if (scan.phase && scan.phase !== 'complete')
        parts.push(`phase ${scan.phase.replace(/_/g, ' ')}`);
    if (scan.current_tool)
        parts.push(`running ${scan.current_tool}`);
    return `Scan ${scan.id}: ${parts.join(', ')}`;
}
class ProgressLog {
    log;
    last;
    constructor(log) {
        this.log = log;
    }
    /** Logs the scan's state if it differs from the last one logged; says whether it did. */
    report(scan) {
        const line = progressLine(scan);
        if (line === this.last)
            return false;
        this.last = line;
        this.log(line);
        return true;
    }
}

;// CONCATENATED MODULE: ./action/service/follow.ts




/**
 * Following a running scan to its end (or to the deadline), in one of two ways:
 *
 * - **stream** (the default, follow/stream.ts and follow/connection.ts): through the service's
 *   live event stream, `GET /api/v1/events`, which counts as one request against the
 *   organization's rate limit however long it stays open. The stream is opened first and the
 *   scan read once after it answered, so no event falls between the two; the scan's
 *   `scan.started` and `scan.progress` events are logged as progress; on its terminal event the
 *   scan is read once more for its final record. A stream that drops is reopened with
 *   `Last-Event-ID` (a bounded number of times in a row), so no event is missed. When the
 *   stream cannot be had (an older service answers 404, a key without the permission 403, a
 *   proxy buffers it so nothing arrives), one line says so and the scan is followed by polling
 *   instead.
 * - **poll** (follow/polling.ts): `GET /api/v1/scans/{id}` every `poll-interval-seconds`, one
 *   request each.
 *
 * Either way the deadline ends the following with `timedOut` (the caller cancels the scan),
 * and the run's abort signal throws out of it (the caller cancels the scan too).
 */

async function followScan(deps, client, scanId, request, deadline) {
    const progress = new ProgressLog((line) => deps.log.info(line));
    if (request.follow === 'poll')
        return followByPolling(deps, client, scanId, request, deadline, progress);
    const settings = { ...STREAM_SETTINGS, ...deps.stream };
    const streamed = await followByStream({ deps, client, scanId, deadline, progress, settings });
    if (streamed.kind === 'followed')
        return streamed;
    deps.log.info(`The event stream is not available (${streamed.reason}); following scan ${scanId} by polling every ${formatSeconds(request.pollIntervalMs)}.`);
    return followByPolling(deps, client, scanId, request, deadline, progress);
}

;// CONCATENATED MODULE: ./action/service/scan-results.ts

/**
 * What a completed scan on the service yields, however it got there (run, followed, imported,
 * or recorded from a local scan): its findings, the tool that found them, and its links.
 */
/** The service version from /api/health (the Action's own when it does not say) and its documentation. */
async function toolInfo(client, apiUrl) {
    return { version: (await client.serviceVersion()) ?? ACTION_VERSION, informationUri: `${apiUrl}/docs` };
}
/**
 * The scan's findings, each completed with its template id, CWE ids and
 * frameworks from the findings list when the per-scan list lacks them. That
 * second list needs `read:findings`; without it the SARIF falls back to
 * title-based rule ids, with a warning, rather than failing the build.
 */
async function readFindings(log, client, scanId) {
    const findings = await client.listScanFindings(scanId);
    if (findings.length === 0 || findings.every((f) => f.template_id))
        return findings;
    let refs;
    try {
        refs = await client.listFindingRefs(scanId);
    }
    catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        log.warning(`Could not read the findings' template ids, so SARIF rules are named after titles: ${reason}`);
        return findings;
    }
    const byId = new Map(refs.map((r) => [r.id, r]));
    return findings.map((f) => {
        const ref = byId.get(f.id);
        if (!ref)
            return f;
        return {
            ...f,
            template_id: f.template_id ?? ref.template_id,
            cwe_ids: f.cwe_ids ?? ref.cwe_ids,
            target: f.target ?? ref.target,
            frameworks: f.frameworks ?? ref.frameworks,
        };
    });
}
/**
 * The scan's and a finding's pages in the console (served by the service at its own address:
 * `/scans/:id`, `/findings/:id`, console/src/routes.tsx), and the scan's PDF report (the
 * findings export filtered to the scan).
 */
function serviceLinks(apiUrl, scanId) {
    const id = encodeURIComponent(scanId);
    return {
        scanUrl: `${apiUrl}/scans/${id}`,
        reportUrl: `${apiUrl}/api/v1/findings/export?format=pdf&scan_id=${id}`,
        findingUrl: (findingId) => `${apiUrl}/findings/${encodeURIComponent(findingId)}`,
    };
}

;// CONCATENATED MODULE: ./action/service/import-report.ts


/**
 * `import-file`: the report is sent to the import API, which answers with the completed scan
 * it recorded; its findings are then read exactly as a completed scan's are.
 */
async function importReport(deps, client, apiUrl, request, hooks, deadline) {
    const file = request.importFile;
    if (!deps.readFile)
        throw new Error('this front end cannot read report files');
    let report;
    try {
        report = await deps.readFile(file.path);
    }
    catch (error) {
        throw new ConfigurationError(`\`import-file\` ${file.path} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    return recordReport(deps.log, client, apiUrl, report, {
        target: request.target,
        scanType: request.scanType,
        format: file.format,
        reportName: file.path.split(/[\\/]/).pop(),
        ciRun: request.ciRun,
        what: `Imported ${file.path}`,
        idempotencyKey: request.idempotencyKey,
    }, hooks, deadline);
}
/**
 * Sends a report to the import API as a completed scan of `target` and reads that scan's
 * findings back exactly as a completed scan's are (so `change` is the service's: new, unchanged,
 * reopened for that target). `import-file` and the local engine's result both come this way.
 */
async function recordReport(log, client, apiUrl, report, input, hooks, deadline) {
    const scan = await client.importReport(report, {
        target: input.target,
        scan_type: input.scanType,
        format: input.format,
        report_name: input.reportName,
        ci_run: input.ciRun,
    }, input.idempotencyKey, deadline);
    const links = serviceLinks(apiUrl, scan.id);
    log.info(`${input.what} as Scanward scan ${scan.id} of ${input.target}: ${links.scanUrl}`);
    hooks.onScan?.(scan.id, links);
    const findings = await readFindings(log, client, scan.id);
    return { kind: 'completed', scan, links, tool: await toolInfo(client, apiUrl), findings };
}

;// CONCATENATED MODULE: ./action/service/scan-cancel.ts

/** Cancelling a followed scan: when time runs out, and when the step ends without a result. */
/**
 * Cancels a scan that ran out of time. When it finished between the last poll and the
 * cancel, its own end counts (a completed scan's result is used after all).
 */
async function cancelAtTimeout(log, client, running) {
    try {
        await client.cancelScan(running.id);
    }
    catch (error) {
        if (error instanceof ApiError && error.code === 'SCAN_NOT_CANCELLABLE') {
            const scan = await client.getScan(running.id);
            return { scan, timedOut: false };
        }
        log.warning(`Could not cancel scan ${running.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const scan = await client.getScan(running.id).catch(() => ({ ...running, status: 'cancelled' }));
    return { scan, timedOut: true };
}
async function cancelQuietly(log, client, scanId) {
    try {
        await client.cancelScan(scanId);
        log.info(`Cancelled scan ${scanId}.`);
    }
    catch (error) {
        log.debug(`Could not cancel scan ${scanId}: ${error instanceof Error ? error.message : String(error)}`);
    }
}

;// CONCATENATED MODULE: ./action/service/remote-scan.ts






function remoteScanSource(service, deps) {
    const client = serviceClient(service, deps);
    return { run: (request, hooks) => runRemoteScan(deps, client, service.apiUrl, request, hooks) };
}
/** The typed client of the service, with its credentials acquired in the one place that does. */
function serviceClient(service, deps) {
    return new ScanwardClient({
        baseUrl: service.apiUrl,
        credentials: acquireCredentials(service.auth, {
            baseUrl: service.apiUrl,
            http: deps.http,
            userAgent: deps.userAgent,
            onSecret: deps.onSecret,
            idToken: deps.idToken,
        }),
        http: deps.http,
        userAgent: deps.userAgent,
    });
}
async function runRemoteScan(deps, client, apiUrl, request, hooks = {}) {
    const { log } = deps;
    const deadline = deps.http.now() + request.timeoutMs;
    if (request.importFile)
        return importReport(deps, client, apiUrl, request, hooks, deadline);
    const scanId = await startOrAttach(log, client, apiUrl, request, deadline);
    const links = serviceLinks(apiUrl, scanId);
    hooks.onScan?.(scanId, links);
    if (!request.wait) {
        if (request.scanId)
            await client.getScan(scanId, deadline); // a wrong scan-id still fails the step
        log.info(`wait is false: not waiting for scan ${scanId} to finish.`);
        return { kind: 'started', scanId, links };
    }
    return followToEnd(deps, client, apiUrl, request, scanId, deadline);
}
/** The scan `scan-id` names, or a new one of `target`: its id. */
async function startOrAttach(log, client, apiUrl, request, deadline) {
    if (request.scanId) {
        log.info(`Following Scanward scan ${request.scanId} (scan-id).`);
        return request.scanId;
    }
    log.debug(`Idempotency-Key: ${request.idempotencyKey}`);
    const created = await client.createScan({
        target: request.target,
        scan_type: request.scanType,
        ports: request.ports,
        frameworks: request.frameworks,
        credential_checks: request.credentialChecks,
        web: request.web,
    }, request.idempotencyKey, deadline);
    const estimate = created.estimated_duration
        ? `, estimated ${Math.ceil(created.estimated_duration / 60)} min`
        : '';
    log.info(`Scanward scan ${created.id} of ${request.target} (${request.scanType}${estimate}): ${serviceLinks(apiUrl, created.id).scanUrl}`);
    return created.id;
}
/** Follows the scan to its end, cancelling it at the deadline or when the step is cancelled. */
async function followToEnd(deps, client, apiUrl, request, scanId, deadline) {
    const { log, http } = deps;
    const links = serviceLinks(apiUrl, scanId);
    const unsuccessful = (scan, timedOut) => ({
        kind: 'unsuccessful',
        scan,
        links,
        timedOut,
        timeoutMs: request.timeoutMs,
    });
    const completed = async (scan) => {
        const findings = await readFindings(log, client, scan.id);
        return { kind: 'completed', scan, links, tool: await toolInfo(client, apiUrl), findings };
    };
    let scan;
    try {
        const followed = await followScan(deps, client, scanId, request, deadline);
        scan = followed.scan;
        if (followed.timedOut) {
            const ended = await cancelAtTimeout(log, client, scan);
            if (!ended.timedOut && ended.scan.status === 'completed')
                return await completed(ended.scan);
            return unsuccessful(ended.scan, ended.timedOut);
        }
    }
    catch (error) {
        // The step is ending without a result: do not leave the scan holding a concurrency slot.
        if (!scan || !TERMINAL.has(scan.status))
            await cancelQuietly(log, client, scanId);
        if (http.signal?.aborted)
            return { kind: 'aborted', scanId, links };
        throw error;
    }
    if (scan.status !== 'completed')
        return unsuccessful(scan, false);
    return completed(scan);
}

;// CONCATENATED MODULE: ./server/schemas/local-scan.js
// Generated by `npm run build` from server/schemas/local-scan.ts; edit that file.

// server/schemas/local-scan.ts
var LOCAL_SCAN_REPORT_FORMAT = "scanward-local-scan/1";
var LOCAL_TARGET_ERROR = "LocalTargetError";

//# sourceMappingURL=local-scan.js.map

;// CONCATENATED MODULE: ./action/local/local-scan.ts






function localScanSource(local, deps) {
    return { run: (request, hooks) => runLocalScan(local, deps, request, hooks) };
}
async function runLocalScan(local, deps, request, hooks = {}) {
    const { log } = deps;
    const engine = await deps.loadEngine();
    const engineStarted = deps.sinceStart();
    // The step's own time limit, as for a remote scan: the scan is stopped and the step fails.
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
    let report;
    try {
        report = await engine.runLocalScan({
            target: request.target,
            scanType: request.scanType,
            credentialChecks: request.credentialChecks,
            ...(request.web ? { web: request.web } : {}),
            cacheDir: deps.cacheDir,
            log: (line) => log.info(line),
            signal,
        });
    }
    catch (error) {
        if (error instanceof Error && error.name === LOCAL_TARGET_ERROR)
            throw new ConfigurationError(error.message);
        if (deps.signal?.aborted)
            return { kind: 'aborted', scanId: 'local', links: localLinks(deps, request) };
        if (timeout.aborted) {
            return {
                kind: 'unsuccessful',
                scan: { ...scanRecord(request.target, request.scanType, emptyCounts()), status: 'cancelled' },
                links: localLinks(deps, request),
                timedOut: true,
                timeoutMs: request.timeoutMs,
            };
        }
        throw error;
    }
    if (report.first_probe_ms !== null) {
        log.info(`First probe ${Math.round(engineStarted + report.first_probe_ms)} ms after the step started; ` +
            `${report.findings.length} finding(s).`);
    }
    for (const note of report.notes)
        log.debug(note);
    if (deps.service)
        return recordOnService(deps.service, local, log, request, report, hooks);
    return finishedHere(deps, request, report, hooks);
}
/** The engine's findings recorded on the service as a completed scan of `asset`, and read back. */
function recordOnService(service, local, log, request, report, hooks) {
    const { inputs, ...clientDeps } = service;
    const client = serviceClient(inputs, clientDeps);
    const body = new TextEncoder().encode(JSON.stringify({ findings: report.findings }));
    return recordReport(log, client, inputs.apiUrl, body, {
        target: local.asset,
        scanType: report.scan_type,
        format: 'scanward',
        reportName: 'scanward-local.json',
        ciRun: request.ciRun,
        what: `Recorded the local scan of ${report.target}`,
        idempotencyKey: request.idempotencyKey,
    }, hooks, clientDeps.http.now() + request.timeoutMs);
}
/** With no service named: every finding is new, and the links point at the run's page. */
function finishedHere(deps, request, report, hooks) {
    const findings = report.findings.map(asFinding);
    const counts = emptyCounts();
    for (const f of findings)
        counts[f.severity] += 1;
    const scan = {
        ...scanRecord(report.target, report.scan_type, counts),
        started_at: report.started_at,
        completed_at: report.completed_at,
    };
    const links = localLinks(deps, request);
    hooks.onScan?.(scan.id, links);
    return {
        kind: 'completed',
        scan,
        links,
        tool: { version: ACTION_VERSION, informationUri: deps.runUrl ?? report.target },
        findings,
    };
}
/** A scan record for a scan the service never saw. */
function scanRecord(target, scanType, counts) {
    return {
        id: 'local',
        target,
        scan_type: scanType,
        status: 'completed',
        progress: 100,
        phase: 'complete',
        vulnerabilities_found: counts.critical + counts.high + counts.medium + counts.low,
        critical_count: counts.critical,
        high_count: counts.high,
        medium_count: counts.medium,
        low_count: counts.low,
        info_count: counts.info,
    };
}
function localLinks(deps, request) {
    const url = deps.runUrl ?? request.target;
    return { scanUrl: url, reportUrl: url, findingUrl: () => url };
}
/** An engine finding as the reports read findings: open, and new (there is no history here). */
function asFinding(f) {
    return {
        id: f.id,
        title: f.title,
        severity: f.severity,
        cvss_score: f.cvss_score,
        status: 'open',
        tool: f.tool,
        affected_component: f.affected_component,
        description: f.description,
        remediation: f.remediation?.summary || null,
        cve_ids: f.cve_ids,
        change: 'new',
        template_id: f.template_id,
        cwe_ids: f.cwe_ids,
        target: f.target,
        frameworks: f.frameworks,
    };
}

;// CONCATENATED MODULE: external "node:util"
const external_node_util_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");
;// CONCATENATED MODULE: ./action/ci/commands/group.ts
/** String flags named as the Action's inputs. */
function stringOptions(...names) {
    return Object.fromEntries(names.map((name) => [name, { type: 'string' }]));
}
/** A secret read from the variable another option names (never a flag), '' when none is named. */
function fromVariable(source, env) {
    return source ? (env[source] ?? '') : '';
}

;// CONCATENATED MODULE: ./action/ci/commands/follow.ts

/** Which scan to follow and how: `--scan-id`, `--wait`/`--no-wait`, the timeout, stream or poll, the key. */
const followOptions = {
    options: {
        ...stringOptions('scan-id', 'wait', 'timeout-minutes', 'follow', 'poll-interval-seconds', 'idempotency-key'),
        'no-wait': { type: 'boolean' },
    },
    help: `  --scan-id ID                 follow an existing scan instead of creating one
  --wait true|false            false: create the scan, print its id, exit 0
  --no-wait                    the same as --wait false
  --timeout-minutes N          cancel the scan and exit 3 after N minutes (default 30)
  --follow stream|poll         stream (default): follow the scan through the service's
                               event stream, one request however long it runs, polling
                               when the stream is not available; poll: a status check
                               every --poll-interval-seconds
  --poll-interval-seconds N    between status checks when polling (default 10)
  --idempotency-key KEY        default: derived from the CI job, or random
`,
    input: (name, values) => (name === 'wait' && values['no-wait'] ? 'false' : undefined),
};

;// CONCATENATED MODULE: ./action/ci/commands/gate.ts

/** How to gate the build and what to report: `--fail-on`, `--gate`, `--report-severity`. */
const gateOptions = {
    options: stringOptions('fail-on', 'gate', 'report-severity'),
    help: `  --fail-on SEVERITY           critical, high (default), medium, low, info, none
  --gate all|new               count every open finding (all, default) or only new/reopened ones
  --report-severity SEVERITY   least severe finding in the reports (default info)
`,
};

;// CONCATENATED MODULE: ./action/ci/commands/import.ts


/** `scanward-ci import FILE` (or `--import-file`): a report imported as a completed scan. */
const importOptions = {
    options: stringOptions('import-file', 'import-format'),
    help: `  --import-file FILE           import this report (nuclei, ZAP, nmap, OpenVAS or Scanward
                               JSON) as a completed scan of --target instead of scanning;
                               \`scanward-ci import FILE\` is the same  (SCANWARD_IMPORT_FILE)
  --import-format FORMAT       nuclei, zap, nmap, openvas, scanward (default: detected)
`,
};
/** `import FILE`: the report as a positional argument, into `values['import-file']`. */
function importCommand(positionals, values) {
    if (positionals[0] !== 'import' || positionals.length !== 2)
        throw new ConfigurationError(`unexpected argument "${positionals.join(' ')}"; the commands are \`scan\` and \`import FILE\`.\nRun scanward-ci --help for the options.`);
    if (typeof values['import-file'] === 'string')
        throw new ConfigurationError('give the report once: `import FILE` or --import-file, not both.');
    values['import-file'] = positionals[1];
}

;// CONCATENATED MODULE: ./action/ci/commands/local.ts

/** `scanward-ci scan --local`: the engine runs in the job (`--local` is `mode: local`), `--asset`. */
const localOptions = {
    options: { ...stringOptions('mode', 'asset'), local: { type: 'boolean' } },
    help: `  --local                      run Scanward's engine here, in the job, against --target, a
                               URL only this job reaches (http://localhost:8080): that host
                               and port only. --api-url and a key are then optional: with
                               them the result is recorded as a scan of --asset, so --gate
                               new compares with what the service knows  (SCANWARD_MODE=local)
  --asset NAME                 the stable name a local scan is recorded under
                               (default: <repository>:<target>)
`,
    input: (name, values) => (name === 'mode' && values.local ? 'local' : undefined),
};

;// CONCATENATED MODULE: ./action/ci/commands/reports.ts
/** The report files (`--sarif`, `--junit`, `--json`); GitHub's upload and comment are the Action's only. */
const reportOptions = {
    options: { sarif: { type: 'string' }, junit: { type: 'string' }, json: { type: 'string' } },
    help: `  --sarif FILE                 write SARIF 2.1.0
  --junit FILE                 write JUnit XML: one test case per reported finding
  --json FILE                  write the scan, gate and findings as JSON
`,
    input: (name) => (name === 'upload-sarif' || name === 'comment' ? 'false' : undefined),
};

;// CONCATENATED MODULE: ./action/ci/commands/scan.ts

/** What to scan (`scanward-ci scan`, the default command): the target and how to scan it. */
const scanOptions = {
    options: stringOptions('target', 'scan-type', 'ports', 'frameworks', 'credential-checks'),
    help: `  --target HOST                domain, IP or CIDR to scan      (SCANWARD_TARGET)
  --scan-type TYPE             quick (default), full, compliance
  --ports PORTS                e.g. 80,443 or 1-1024
  --frameworks LIST            soc2, pci-dss, iso27001
  --credential-checks MODE     defaults or none (default: the service's, by scan type)
`,
};

;// CONCATENATED MODULE: ./action/ci/commands/service.ts

/** How to reach the Scanward service and sign in: `--api-url`, `--api-key`, `--token`, `--id-token-env`. */
const serviceOptions = {
    options: stringOptions('api-url', 'api-key', 'token', 'id-token-env'),
    help: `  --api-url URL                Scanward service address        (SCANWARD_API_URL; required
                               except with --local)
  --api-key KEY                API key; prefer the variable    (SCANWARD_API_KEY)
  --token TOKEN                bearer token instead of a key   (SCANWARD_TOKEN)
  --id-token-env VAR           sign in with the CI's OpenID ID token in the
                               variable VAR (GitLab id_tokens:), no stored key
                               (SCANWARD_ID_TOKEN_ENV)
`,
    // The ID token itself, read from the variable --id-token-env names (never a flag: it is a secret).
    input: (name, _values, env, get) => name === 'id-token' ? fromVariable(get('id-token-env'), env) : undefined,
};

;// CONCATENATED MODULE: ./action/ci/commands/web.ts

/** Web application testing: `--active`, a form log-in, `--header`s and `--exclude`d paths. */
const webOptions = {
    options: {
        ...stringOptions('login-url', 'username', 'password-env'),
        active: { type: 'boolean' },
        header: { type: 'string', multiple: true },
        exclude: { type: 'string', multiple: true },
    },
    help: `
Web application testing (docs/web-testing.md), locally and remotely:
  --active                     run the attack checks (SQL injection, XSS, command
                               injection, ...): they submit forms and may write data,
                               so scan a test deployment       (SCANWARD_ACTIVE=true)
  --login-url URL              sign in through this log-in form first (on the target)
  --username USER              the user name for the form log-in
  --password-env VAR           the password, read from the variable VAR (never a flag)
  --header 'Name: value'       a header sent with every request instead of a form
                               log-in (Authorization, Cookie); repeatable
                               (SCANWARD_AUTH_HEADERS, one per line)
  --exclude PATH               a path never requested: a prefix (/logout) or a glob
                               (/api/*/delete); repeatable     (SCANWARD_EXCLUDE_PATHS)
`,
    input: (name, values, env, get) => {
        if (name === 'active' && values.active)
            return 'true';
        // Repeatable flags become the Action's one-per-line inputs.
        if (name === 'auth-headers' && Array.isArray(values.header))
            return values.header.join('\n');
        if (name === 'exclude-paths' && Array.isArray(values.exclude))
            return values.exclude.join('\n');
        // The password, read from the variable --password-env names (never a flag: it is a secret).
        if (name === 'password')
            return fromVariable(get('password-env'), env);
        return undefined;
    },
};

;// CONCATENATED MODULE: ./action/ci/command-line.ts










/**
 * `scanward-ci`'s command line: the Action's inputs as `--name` flags or `SCANWARD_NAME`
 * variables (flags win), the report files, `--help` and `--version`. Each group of options is
 * declared once in commands/ (its flags, its help lines, the inputs it spells its own way);
 * this file composes them, and reads the commands `scan` and `import FILE`.
 */
/** The groups, in the order `--help` lists them. */
const GROUPS = [
    serviceOptions,
    scanOptions,
    gateOptions,
    followOptions,
    importOptions,
    localOptions,
    webOptions,
    reportOptions,
];
const USAGE = `Usage: scanward-ci [options]
       scanward-ci import FILE --target ASSET [--import-format FORMAT] [options]
       scanward-ci scan --local --target http://localhost:8080 [--asset NAME] [options]

Scan a host you own with your Scanward service, wait for the result, write
reports and exit 0 (passed), 1 (gate failed), 2 (bad usage, or the service
refused the request or answered with a redirect) or 3 (the scan failed, was
cancelled or timed out, or the service could not be reached).

Every option can also be set as an environment variable: --fail-on high is
SCANWARD_FAIL_ON=high. Flags win.

${GROUPS.map((group) => group.help).join('')}  --help, --version

SCANWARD_DEBUG=1 adds debug lines (the Idempotency-Key, ...) to the log.
`;
function parseCommandLine(argv, env) {
    let values;
    let positionals;
    try {
        const parsed = (0,external_node_util_namespaceObject.parseArgs)({
            args: argv,
            options: {
                ...Object.assign({}, ...GROUPS.map((group) => group.options)),
                help: { type: 'boolean', short: 'h' },
                version: { type: 'boolean' },
            },
            strict: true,
            allowPositionals: true,
        });
        values = parsed.values;
        positionals = parsed.positionals;
    }
    catch (error) {
        throw new ConfigurationError(`${error instanceof Error ? error.message : String(error)}\nRun scanward-ci --help for the options.`);
    }
    if (values.help)
        return 'help';
    if (values.version)
        return 'version';
    // `scanward-ci scan --local`: the scan is the default command; `scan` may be named.
    if (positionals[0] === 'scan') {
        if (positionals.length !== 1)
            throw new ConfigurationError(`unexpected argument "${positionals.slice(1).join(' ')}"; give the target with --target.\nRun scanward-ci --help for the options.`);
        positionals = [];
    }
    if (positionals.length > 0)
        importCommand(positionals, values);
    const get = (name) => {
        for (const group of GROUPS) {
            const value = group.input?.(name, values, env, get);
            if (value !== undefined)
                return value;
        }
        const flag = values[name];
        if (typeof flag === 'string')
            return flag;
        return env[`SCANWARD_${name.toUpperCase().replace(/-/g, '_')}`] ?? '';
    };
    return {
        get,
        reports: {
            sarif: values.sarif,
            junit: values.junit,
            json: values.json,
        },
    };
}
/** The CI job, for a default Idempotency-Key that is the same on a retried request and new per job. */
function ciJob(env) {
    if (env.GITLAB_CI)
        return { repository: env.CI_PROJECT_PATH, runId: env.CI_JOB_ID };
    if (env.JENKINS_URL)
        return { repository: env.JOB_NAME, runId: env.BUILD_NUMBER };
    if (env.TF_BUILD)
        return {
            repository: env.BUILD_REPOSITORY_NAME,
            runId: env.BUILD_BUILDID,
            runAttempt: env.SYSTEM_JOBATTEMPT,
        };
    if (env.CIRCLECI)
        return { repository: env.CIRCLE_PROJECT_REPONAME, runId: env.CIRCLE_WORKFLOW_JOB_ID };
    return {};
}

;// CONCATENATED MODULE: ./action/ci/run.ts














/**
 * `scanward-ci`: the Action's scan, gate and reports for every other CI
 * (GitLab CI, Jenkins, Azure Pipelines, CircleCI, a shell). The same inputs
 * as flags (`--fail-on high`) or environment variables (`SCANWARD_FAIL_ON`),
 * progress on stderr, report files on request, and an exit code a pipeline
 * can act on. It runs the same scan source, verdict and report builders as
 * the Action; only this front end differs.
 */
const EXIT = { passed: 0, gateFailed: 1, usage: 2, scanFailed: 3 };

async function missingEngine() {
    throw new Error('this build of scanward-ci has no local engine (dist/local/engine.mjs)');
}
async function runCi(deps) {
    const err = (line) => deps.stderr(`${line}\n`);
    const fail = (error) => err(`error: ${error instanceof Error ? error.message : String(error)}`);
    let inputs;
    let commandLine;
    try {
        const parsed = parseCommandLine(deps.argv, deps.env);
        if (parsed === 'help') {
            deps.stdout(USAGE);
            return EXIT.passed;
        }
        if (parsed === 'version') {
            deps.stdout(`scanward-ci ${ACTION_VERSION}\n`);
            return EXIT.passed;
        }
        commandLine = parsed;
        const read = parseInputs(commandLine.get, ciJob(deps.env), { heading: "scanward-ci's options" });
        inputs = read.inputs;
        for (const warning of read.warnings)
            err(`warning: ${warning}`);
    }
    catch (error) {
        fail(error);
        return EXIT.usage;
    }
    const log = {
        info: err,
        warning: (m) => err(`warning: ${m}`),
        debug: (m) => void (deps.env.SCANWARD_DEBUG && err(`debug: ${m}`)),
    };
    const http = httpDeps(deps, err);
    const userAgent = `scanward-ci/${ACTION_VERSION}`;
    const source = inputs.mode === 'local'
        ? localScanSource(inputs.local, {
            log,
            loadEngine: deps.loadEngine ?? missingEngine,
            sinceStart: deps.sinceStart ?? (() => 0),
            service: inputs.service && { inputs: inputs.service, http, userAgent, onSecret: () => undefined },
            cacheDir: deps.cacheDir,
            signal: deps.signal,
        })
        : remoteScanSource(inputs.service, {
            log,
            http,
            userAgent,
            onSecret: () => undefined,
            readFile: deps.readFile && ((path) => deps.readFile((0,external_node_path_.resolve)(deps.cwd, path))),
        });
    let outcome;
    let verdict;
    try {
        outcome = await source.run(inputs.scan);
        if (outcome.kind === 'started') {
            deps.stdout(`${outcome.scanId}\n`);
            return EXIT.passed;
        }
        if (outcome.kind === 'aborted') {
            err(outcome.scanId === 'local'
                ? 'error: the job was cancelled; the local scan stopped.'
                : `error: the job was cancelled; Scanward scan ${outcome.scanId} was cancelled too.`);
            return EXIT.scanFailed;
        }
        verdict = judge(outcome, inputs.policy);
    }
    catch (error) {
        fail(error);
        return isUserError(error) ? EXIT.usage : EXIT.scanFailed;
    }
    if (verdict.kind === 'unsuccessful')
        err(`error: ${failureMessage(verdict, flagName)}`);
    await writeReports(deps, commandLine.reports, verdict);
    if (verdict.kind === 'unsuccessful')
        return EXIT.scanFailed;
    deps.stdout(renderText(verdict));
    return verdict.passed ? EXIT.passed : EXIT.gateFailed;
}
/**
 * The report files asked for. A scan that did not complete gets only its JSON report: an
 * empty SARIF file would tell a code scanning service that every alert was fixed, and an
 * empty JUnit file that every test passed.
 */
async function writeReports(deps, files, verdict) {
    const reports = [];
    if (verdict.kind === 'completed') {
        reports.push([files.sarif, () => sarifText(deps, verdict)], [files.junit, () => renderJUnit(verdict)]);
    }
    reports.push([files.json, () => jsonReport(verdict)]);
    for (const [file, build] of reports) {
        if (!file)
            continue;
        const path = (0,external_node_path_.resolve)(deps.cwd, file);
        await deps.mkdir((0,external_node_path_.dirname)(path));
        await deps.writeFile(path, build());
        deps.stderr(`Wrote ${path}\n`);
    }
}
function sarifText(deps, verdict) {
    const sarif = sarifReport(verdict);
    for (const warning of sarif.warnings)
        deps.stderr(`warning: ${warning}\n`);
    return sarif.text;
}


/***/ }),

/***/ 455:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");

/***/ }),

/***/ 760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 500:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:timers/promises");

/***/ }),

/***/ 136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/compat */
/******/ 
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = new URL('.', import.meta.url).pathname.slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(135);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
