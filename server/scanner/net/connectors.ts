/**
 * One TCP connection attempt per port, as cheaply as possible: the scanner needs only
 * "did the handshake complete, was it refused, or did something else happen", never a
 * byte of data.
 *
 * Two interchangeable engines:
 * - `libuv` drives Node's TCP handle (the object under every `net.Socket`) directly. It
 *   skips the stream machinery, events and timers a `net.Socket` sets up per connection,
 *   which is most of the per-port cost: a full 1-65535 loopback sweep takes about a third
 *   of the time. The handle is an internal Node interface, so it is feature-checked and
 *   the scanner falls back to `socket` when it is missing or looks different.
 * - `socket` uses the public `net.Socket` API.
 */
import { Socket } from 'node:net';
import { constants as osConstants } from 'node:os';
import { getSystemErrorName } from 'node:util';
import { sameAddress, type IpFamily } from './target-address.ts';

/**
 * - `open`: the handshake completed (and not with ourselves, see `isSelfConnect`).
 * - `closed`: the host answered with a reset.
 * - `unreachable`: the network or host said no route, or a local rule refused it.
 * - `resource`: this machine ran out of something (file descriptors, ephemeral ports, buffers); retry later.
 */
export type ConnectOutcome = 'open' | 'closed' | 'unreachable' | 'resource';

/**
 * Receives the outcome of one attempt: exactly once, always asynchronously, and never after
 * the attempt was cancelled. (An object rather than a callback, so that a sweep of 65,535
 * ports does not allocate a closure per port.)
 */
export interface ConnectListener {
  onConnectResult(outcome: ConnectOutcome, code: string | undefined): void;
}

export interface ConnectAttempt {
  /** Stops the attempt and releases its socket; the listener will not hear of it. */
  cancel(): void;
}

/** The built-in engines. */
export type ConnectorName = 'libuv' | 'socket';

export interface Connector {
  /** `libuv`, `socket`, or whatever a custom engine (in tests) calls itself. */
  readonly name: string;
  start(address: string, family: IpFamily, port: number, listener: ConnectListener): ConnectAttempt;
}

const RESOURCE_CODES = new Set([
  'EMFILE',
  'ENFILE',
  'EAGAIN',
  'ENOBUFS',
  'ENOMEM',
  'EADDRNOTAVAIL',
  'EADDRINUSE',
]);
const CLOSED_CODES = new Set(['ECONNREFUSED', 'ECONNRESET']);

export function classifyError(code: string | undefined): ConnectOutcome {
  if (code !== undefined && CLOSED_CODES.has(code)) return 'closed';
  if (code !== undefined && RESOURCE_CODES.has(code)) return 'resource';
  return 'unreachable';
}

/**
 * On loopback, connecting to a port in the ephemeral range with no listener can pick that
 * very port as its source and "succeed" by connecting to itself (TCP simultaneous open).
 * Such a port has nothing listening, so it is reported closed.
 */
export function isSelfConnect(
  target: { address: string; port: number },
  local: { address?: string; port?: number },
): boolean {
  return (
    local.port === target.port && local.address !== undefined && sameAddress(local.address, target.address)
  );
}

// ---------------------------------------------------------------------------------------
// socket engine

export const socketConnector: Connector = {
  name: 'socket',
  start(address, family, port, listener) {
    const socket = new Socket();
    let settled = false;
    const settle = (outcome: ConnectOutcome, code: string | undefined): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      listener.onConnectResult(outcome, code);
    };
    socket.once('connect', () => {
      const local = { address: socket.localAddress, port: socket.localPort };
      settle(isSelfConnect({ address, port }, local) ? 'closed' : 'open', undefined);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => settle(classifyError(error.code), error.code));
    // An IP literal with an explicit family never reaches DNS; `lookup` guards that promise.
    socket.connect({ host: address, port, family, lookup: refuseLookup });
    return {
      cancel() {
        settled = true;
        socket.destroy();
      },
    };
  },
};

function refuseLookup(hostname: string): never {
  throw new Error(`the scanner never resolves names (asked for "${hostname}")`);
}

// ---------------------------------------------------------------------------------------
// libuv engine

interface UvTcpHandle {
  connect(req: UvConnectRequest, address: string, port: number): number;
  connect6(req: UvConnectRequest, address: string, port: number): number;
  getsockname(out: { address?: string; port?: number }): number;
  close(): void;
}

/** Node calls `oncomplete` with the request as `this`; `attempt` is ours. */
interface UvConnectRequest {
  oncomplete: (this: UvConnectRequest, status: number) => void;
  address?: string;
  port?: number;
  attempt?: UvAttempt;
}

interface TcpWrapBinding {
  TCP: new (type: number) => UvTcpHandle;
  TCPConnectWrap: new () => UvConnectRequest;
  constants: { SOCKET: number };
}

function loadTcpWrap(): TcpWrapBinding | undefined {
  try {
    const binding = (process as unknown as { binding?: (name: string) => unknown }).binding?.('tcp_wrap');
    const candidate = binding as Partial<TcpWrapBinding> | undefined;
    if (
      typeof candidate?.TCP !== 'function' ||
      typeof candidate.TCPConnectWrap !== 'function' ||
      typeof candidate.constants?.SOCKET !== 'number'
    ) {
      return undefined;
    }
    const probe = new candidate.TCP(candidate.constants.SOCKET);
    const usable = ['connect', 'connect6', 'getsockname', 'close'].every(
      (method) => typeof (probe as unknown as Record<string, unknown>)[method] === 'function',
    );
    probe.close();
    return usable ? (candidate as TcpWrapBinding) : undefined;
  } catch {
    return undefined;
  }
}

/** libuv reports errors as negated errno values. */
const UV_ECONNREFUSED = -osConstants.errno.ECONNREFUSED;

function errorName(status: number): string {
  try {
    return getSystemErrorName(status);
  } catch {
    return `UV${status}`;
  }
}

/** One attempt on a bare libuv TCP handle; its request's completion is routed back here. */
class UvAttempt implements ConnectAttempt {
  private live = true;

  constructor(
    private readonly handle: UvTcpHandle,
    private readonly address: string,
    private readonly port: number,
    private readonly listener: ConnectListener,
  ) {}

  connected(): void {
    const local: { address?: string; port?: number } = {};
    this.handle.getsockname(local);
    const target = { address: this.address, port: this.port };
    this.finish(isSelfConnect(target, local) ? 'closed' : 'open', undefined);
  }

  failed(status: number): void {
    // The one answer almost every port gives, without a name lookup.
    if (status === UV_ECONNREFUSED) return this.finish('closed', 'ECONNREFUSED');
    const code = errorName(status);
    this.finish(classifyError(code), code);
  }

  cancel(): void {
    if (!this.live) return;
    this.live = false;
    this.handle.close();
  }

  private finish(outcome: ConnectOutcome, code: string | undefined): void {
    if (!this.live) return;
    this.live = false;
    this.handle.close();
    this.listener.onConnectResult(outcome, code);
  }
}

/** Shared by every request (Node calls it with the request as `this`); libuv also reports cancelled requests here. */
function onUvConnectComplete(this: UvConnectRequest, status: number): void {
  if (status === 0) this.attempt?.connected();
  else this.attempt?.failed(status);
}

function createLibuvConnector(binding: TcpWrapBinding): Connector {
  const { TCP, TCPConnectWrap, constants } = binding;
  return {
    name: 'libuv',
    start(address, family, port, listener) {
      const handle = new TCP(constants.SOCKET);
      const attempt = new UvAttempt(handle, address, port, listener);
      const request = new TCPConnectWrap();
      request.oncomplete = onUvConnectComplete;
      request.address = address;
      request.port = port;
      request.attempt = attempt;
      const status =
        family === 6 ? handle.connect6(request, address, port) : handle.connect(request, address, port);
      if (status !== 0) process.nextTick(() => attempt.failed(status));
      return attempt;
    },
  };
}

let libuvConnector: Connector | null | undefined;

/** The libuv engine where this Node exposes it, else `net.Socket`. */
export function fastestConnector(): Connector {
  if (libuvConnector === undefined) {
    const binding = loadTcpWrap();
    libuvConnector = binding ? createLibuvConnector(binding) : null;
  }
  return libuvConnector ?? socketConnector;
}

export function connectorByName(name: 'auto' | ConnectorName): Connector {
  if (name === 'socket') return socketConnector;
  const connector = fastestConnector();
  if (name === 'libuv' && connector.name !== 'libuv') {
    throw new Error('the libuv connect engine is not available on this Node version');
  }
  return connector;
}
