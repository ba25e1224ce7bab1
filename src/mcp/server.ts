// `mq mcp`: the Model Context Protocol over stdio, with the official SDK (loaded only here). Each tool call runs
// its command's parse and handler with a context of its own (the call's cancellation, its warnings kept for its
// answer), and answers the command's --json document as structured content beside its text.
import { Readable, Writable } from 'node:stream';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, GetPromptResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ArgvIo } from '../command-kit/invocation.js';
import type { Context, QueueRef, WriteInFlight } from '../command-kit/context.js';
import { getQueue } from '../commands/queue/get.js';
import { aimCommands } from '../command-kit/next-commands.js';
import { checkCommand } from '../command-kit/uncertain.js';
import { WatchRounds } from '../command-kit/read-queue.js';
import { EXIT, exitCodeOf, InterruptedError, isNotFound, UsageError } from '../errors.js';
import { parsePrNumber } from '../command-kit/input.js';
import { briefWords } from '../text/brief.js';
import { exitMeaning } from '../help/exit-codes.js';
import type { Waited } from '../model/poll.js';
import type { MergeQueueService } from '../model/service.js';
import { resultExitCode } from '../model/result.js';
import { renderError } from '../render/failure.js';
import { toJson } from '../render/json.js';
import { PRINTERS, timedOut } from '../render/printers.js';
import type { ProgressOutput } from '../render/progress.js';
import { renderText } from '../render/text.js';
import { CAPABILITIES, INSTRUCTIONS, SERVER_INFO } from './initialize.js';
import { inputSchema, TOOLS, wordsOf, type ToolRow } from './tools.js';

export interface McpOptions {
  allowWrites: boolean;
  /** The pause between two reads of the subscribed queues. */
  intervalMs: number;
}

/** What a call may do besides its work: be cancelled, tell its progress, tell the server what it has done. */
interface Call {
  signal: AbortSignal;
  progress?: (message: string | undefined) => void;
  /** The server's record of what its calls did; a read of a resource or prompt, which writes nothing, keeps its own. */
  done?: DoneOfCalls;
}

const QUEUE_URI = 'mq://queue/{host}/{owner}/{name}/{branch}';

/** Serves until stdin ends, the client closes, or Ctrl-C / SIGTERM. */
export async function serveMcp(options: McpOptions, ctx: Context, streams: { stdin: Readable; stdout: Writable }): Promise<void> {
  const [{ Server }, { StdioServerTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const server = new Server(SERVER_INFO, {
    capabilities: CAPABILITIES,
    instructions: INSTRUCTIONS,
    // The SDK checks only the answers to elicitations against a schema, and mq asks none: its validator (Ajv) stays unmade.
    jsonSchemaValidator: { getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'mq mcp asks no questions' }) },
  });
  const offered = TOOLS.filter((row) => options.allowWrites || row.hints.readOnlyHint);
  const calls = doneOfCalls(ctx);
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
    tools: offered.map((row) => ({
      name: row.name,
      title: `mq ${commandWords(row)}`,
      description: [`${capitalise(row.spec.description)}.`, row.effect].filter(Boolean).join(' '),
      inputSchema: inputSchema(row),
      annotations: { ...row.hints, openWorldHint: true },
    })),
  }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const row = TOOLS.find((tool) => tool.name === request.params.name);
    // The protocol's answer to a tool it does not list: an error of the request, not of the tool.
    if (!row) throw protocolError(types.ErrorCode.InvalidParams, `no tool ${request.params.name}: tools/list names them`);
    const token = request.params._meta?.progressToken;
    let done = 0;
    const progress =
      token === undefined
        ? undefined
        : (message: string | undefined) =>
            void extra
              .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++done, ...(message && { message }) } })
              .catch(() => undefined);
    return callTool(row, request.params.arguments ?? {}, ctx, options, { signal: extra.signal, progress, done: calls });
  });

  const watcher = queueWatcher(ctx, options.intervalMs, (uri) => void server.sendResourceUpdated({ uri }).catch(() => undefined));
  server.setRequestHandler(types.ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      { uriTemplate: QUEUE_URI, name: 'queue', description: "a merge queue: its state, settings and PRs (mq queue get's JSON)", mimeType: 'application/json' },
    ],
  }));
  server.setRequestHandler(types.ListResourcesRequestSchema, async () => {
    const ref = settingsQueue(ctx);
    return {
      resources: ref ? [{ uri: queueUri(ref), name: `queue ${ref.repo.owner}/${ref.repo.name} ${ref.targetBranch}`, mimeType: 'application/json' }] : [],
    };
  });
  const refOf = (uri: string) => {
    const ref = parseQueueUri(uri);
    if (!ref) throw protocolError(types.ErrorCode.InvalidParams, `not a queue: ${uri} (${QUEUE_URI})`);
    return ref;
  };
  server.setRequestHandler(types.ReadResourceRequestSchema, async (request, extra) => {
    const ref = refOf(request.params.uri);
    try {
      return { contents: [{ uri: request.params.uri, mimeType: 'application/json', text: await readQueueJson(ctx, ref, extra.signal) }] };
    } catch (error) {
      // A queue that is not there is the protocol's "resource not found"; anything else the server's trouble.
      throw protocolError(isNotFound(error) ? RESOURCE_NOT_FOUND : types.ErrorCode.InternalError, errorLine(error));
    }
  });
  server.setRequestHandler(types.SubscribeRequestSchema, async (request) => {
    watcher.subscribe(request.params.uri, refOf(request.params.uri));
    return {};
  });
  server.setRequestHandler(types.UnsubscribeRequestSchema, async (request) => {
    watcher.unsubscribe(request.params.uri);
    return {};
  });

  server.setRequestHandler(types.ListPromptsRequestSchema, async () => ({ prompts: [WHY_PROMPT] }));
  server.setRequestHandler(types.GetPromptRequestSchema, async (request, extra) => {
    if (request.params.name !== WHY_PROMPT.name) throw protocolError(types.ErrorCode.InvalidParams, `no prompt ${request.params.name}`);
    const pr = request.params.arguments?.pr;
    // As status takes it: a PR number or nothing, refused as the command line refuses it, before anything is read.
    if (pr !== undefined) {
      try {
        parsePrNumber(pr);
      } catch (error) {
        throw protocolError(types.ErrorCode.InvalidParams, errorLine(error));
      }
    }
    return whyPrompt(pr, ctx, options, extra.signal);
  });

  const transport = answering(answeredOnce(plainErrors(new StdioServerTransport(streams.stdin, streams.stdout), types.ErrorCode)));
  answerUnreadable(transport, types.ErrorCode);
  const ended = new Promise<'ended' | 'stopped'>((resolve) => {
    server.onclose = () => resolve('ended');
    // What was asked before the input ended is answered first: closing aborts the calls in flight, unanswered.
    streams.stdin.once('end', () => void transport.allAnswered().then(() => resolve('ended')));
    ctx.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  await server.connect(transport);
  const how = await ended;
  watcher.stop();
  await server.close();
  // The client's end of the session is the server's done (0); Ctrl-C or SIGTERM, an interruption (130).
  if (how === 'stopped') throw new InterruptedError('mcp server stopped');
}

/**
 * The transport, keeping count of the client's requests not answered yet: a client that pipes its requests in
 * (`printf … | mq mcp`) ends stdin as soon as they are written, and must still get an answer to each. A request
 * the client cancelled gets none, as the protocol says, and is not waited for.
 */
function answering<T extends Transport>(transport: T): T & { allAnswered(): Promise<void> } {
  const open = new Set<string | number>();
  let idle: (() => void) | undefined;
  const settle = () => {
    if (open.size === 0) idle?.();
  };
  const heard = (message: JSONRPCMessage) => {
    if ('method' in message && 'id' in message) open.add(message.id);
    else if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === 'string' || typeof id === 'number') open.delete(id);
      settle();
    }
  };
  before(transport, 'onmessage', heard);
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      if (('result' in message || 'error' in message) && (typeof message.id === 'string' || typeof message.id === 'number')) open.delete(message.id);
      settle();
    }
  };
  return Object.assign(transport, {
    allAnswered: () =>
      new Promise<void>((resolve) => {
        idle = resolve;
        settle();
      }),
  });
}

/** `first` told what the transport hands the handler the SDK sets as `name` as it connects, before that handler. */
function before<K extends 'onmessage' | 'onerror'>(transport: Transport, name: K, first: NonNullable<Transport[K]>): void {
  let handler: Transport[K];
  const both = (...args: unknown[]) => {
    (first as (...args: unknown[]) => void)(...args);
    (handler as ((...args: unknown[]) => void) | undefined)?.(...args);
  };
  Object.defineProperty(transport, name, {
    configurable: true,
    get: () => handler && both,
    set: (value: Transport[K]) => {
      handler = value;
    },
  });
}

/**
 * A line that is not JSON (a parse error), or JSON that is no JSON-RPC message (an invalid request), answered as
 * JSON-RPC says, with the id null: the SDK's transport only reports such a line to its onerror, and the client
 * would wait for an answer that never comes.
 */
function answerUnreadable(transport: Transport, codes: { ParseError: number; InvalidRequest: number }): void {
  before(transport, 'onerror', (error: Error) => {
    const code = error instanceof SyntaxError ? codes.ParseError : error.name === 'ZodError' ? codes.InvalidRequest : undefined;
    if (code === undefined) return;
    const message = code === codes.ParseError ? 'Parse error: a line that is not JSON' : 'Invalid Request: not a JSON-RPC message';
    // id null: the protocol's types have no room for it, the wire has.
    void transport.send({ jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage).catch(() => undefined);
  });
}

/** MCP's code for a resource it does not have (its specification's, which the SDK's codes leave out). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * An error of the protocol in JSON-RPC's shape, its message as given, briefly: the SDK's McpError writes its code into
 * its message too ("MCP error -32603: …"), and a 100,000-character tool name came back whole.
 */
function protocolError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(briefWords(message)), { code });
}

/**
 * The transport, its errors as JSON-RPC's: the SDK checks a request's params itself and answers a mismatch as an
 * internal error (-32603) whose message is the checker's issues, many lines of JSON. That is invalid params (-32602),
 * said in one line.
 */
function plainErrors<T extends { send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> }>(
  transport: T,
  codes: { InternalError: number; InvalidParams: number },
): T {
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => send(invalidParamsOf(message, codes) ?? message, options);
  return transport;
}

function invalidParamsOf(message: JSONRPCMessage, codes: { InternalError: number; InvalidParams: number }): JSONRPCMessage | undefined {
  if (!('error' in message) || message.error.code !== codes.InternalError || !message.error.message.startsWith('[')) return undefined;
  let issues: unknown;
  try {
    issues = JSON.parse(message.error.message);
  } catch {
    return undefined;
  }
  const first = Array.isArray(issues) ? (issues[0] as { path?: unknown[]; message?: string } | undefined) : undefined;
  if (typeof first?.message !== 'string' || !Array.isArray(first.path)) return undefined;
  const where = first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return { ...message, error: { code: codes.InvalidParams, message: briefWords(`Invalid params: ${where}${first.message}`) } };
}

/**
 * The transport, less the SDK's answer to the `initialize` bin/mq.js already answered (from the same facts,
 * initialize.ts) before the program loaded: the SDK still reads the request, and keeps what the client said.
 */
function answeredOnce<T extends { send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> }>(transport: T): T {
  let answered = (globalThis as { mqMcpAnswered?: string | number }).mqMcpAnswered;
  if (answered === undefined) return transport;
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if (answered === undefined || !('result' in message) || message.id !== answered) return send(message, options);
    answered = undefined;
  };
  return transport;
}

/** One tool call, answered whatever happens: a failure is a tool error (isError) with mq's line and its exit code's meaning. */
async function callTool(row: ToolRow, args: Record<string, unknown>, ctx: Context, options: McpOptions, call: Call): Promise<CallToolResult> {
  const said: string[] = [];
  const callCtx = callContext(ctx, call, said);
  try {
    if (!row.hints.readOnlyHint && !options.allowWrites) {
      const start = startCommand(callCtx);
      throw new UsageError(`${row.name} changes the queue: start the server with ${start} to offer it`, { commands: [start] });
    }
    const parse = await row.spec.load!();
    const work = await parse(wordsOf(row, args), argvIo(callCtx));
    if (work.mode === 'result') {
      const result = await work.handler(work.input, callCtx);
      const text = await renderText(result, { color: false, now: await serviceNow(callCtx) });
      return answer(toJson(result), text, resultExitCode(result), said);
    }
    if (work.mode !== 'stream') throw new UsageError(`${row.name} is not a tool`);
    return await stream(work.printer, (events) => work.handler(work.input, callCtx, events), callCtx, call, said);
  } catch (error) {
    aimCommands(error, callCtx);
    return failure(error, said, () => checkCommand(callCtx, 'doctor'));
  } finally {
    // A write the client's own cancellation cut short was told in its answer; one the server's stop cut short,
    // or done before a read the stop cut short, stays for the stop to tell.
    if (!ctx.signal.aborted) {
      for (const write of callCtx.writesInFlight) ctx.writesInFlight.delete(write);
      callCtx.doneSoFar = undefined;
    }
  }
}

/** A command that reports as it goes, through its printer twice: as text (each line a progress notification, the summary the answer's text) and as JSON (the summary the structured answer). */
async function stream(
  printer: keyof typeof PRINTERS,
  run: (events: unknown) => Promise<Waited>,
  ctx: Context,
  call: Call,
  said: string[],
): Promise<CallToolResult> {
  const make = await PRINTERS[printer]();
  let text = '';
  let json = '';
  const out = (asJson: boolean, write: (chunk: string) => void): ProgressOutput => ({
    write,
    json: asJson,
    live: false,
    quiet: false,
    color: false,
    screen: () => ({}),
    now: ctx.now,
  });
  const asText = make(out(false, (chunk) => (text += chunk)));
  const asJson = make(out(true, (chunk) => (json = chunk)));
  // Each event reaches both; a round that wrote lines tells them as progress, one that wrote none still counts.
  const events = Object.fromEntries(
    Object.keys(asText.events).map((name) => [
      name,
      (...values: unknown[]) => {
        const before = text.length;
        asText.events[name](...values);
        asJson.events[name](...values);
        call.progress?.(text.slice(before).trim() || undefined);
      },
    ]),
  );
  try {
    const result = await run(events);
    text = '';
    asText.finish(result);
    asJson.finish(result);
    // Timed out: where each PR stood, then the failure (exit 7), as on the command line.
    if (result.timedOut) return failure(await timedOut(result), [...said, text.trimEnd()]);
    return answer(JSON.parse(json), text, result.ok ? EXIT.ok : (result.exitCode ?? EXIT.negative), said);
  } finally {
    asText.close();
    asJson.close();
  }
}

function answer(document: unknown, text: string, exitCode: number, said: readonly string[]): CallToolResult {
  const structured =
    typeof document === 'object' && document !== null && !Array.isArray(document) ? (document as Record<string, unknown>) : { value: document };
  const ending = exitCode === EXIT.ok ? '' : `\nexit code ${exitCode}: ${exitMeaning(exitCode)}`;
  return {
    content: [{ type: 'text', text: `${[...said, text.trimEnd()].join('\n')}${ending}` }],
    structuredContent: structured,
    ...(exitCode !== EXIT.ok && { isError: true }),
  };
}

/** `doctor`: mq doctor with the server's flags, for the hint of an API URL without the operation. */
function failure(error: unknown, said: readonly string[], doctor?: () => string): CallToolResult {
  const code = exitCodeOf(error);
  const options = { debug: false, color: false, ...(doctor !== undefined && { doctor }) };
  const document = JSON.parse(renderError(error, { json: true, ...options })) as { error: Record<string, unknown> };
  return {
    content: [{ type: 'text', text: [...said, errorLine(error, doctor).trimEnd(), `exit code ${code}: ${exitMeaning(code)}`].join('\n') }],
    structuredContent: { error: { ...document.error, exitCode: code } },
    isError: true,
  };
}

/** mq's message as the command line shows it, without the `mq: ` a terminal reader needs. */
function errorLine(error: unknown, doctor?: () => string): string {
  return renderError(error, { json: false, debug: false, color: false, ...(doctor !== undefined && { doctor }) })
    .replace(/^mq: /, '')
    .trimEnd();
}

/**
 * The server's context for one call: the call's cancellation beside Ctrl-C, its warnings and notes kept for its
 * answer (stdout is the protocol's), no terminal to ask on, and no deadline of its own pressed on the requests of
 * other calls (a wait's --timeout still bounds the wait).
 */
function callContext(ctx: Context, { signal, progress, done = doneOfCalls() }: Call, said: string[]): Context {
  const both = AbortSignal.any([ctx.signal, signal]);
  const call = Symbol('call');
  // A call is a command of its own, over the server's one service (its connection, budget and ids): it looks at the
  // queue as it is now, not as the order or PRs an earlier call read (v2 keeps them to spare requests within a
  // command), and calls at once do not clear each other's look (a wait's rounds start new ones). Where the service
  // has no look apart, the call starts a new one on the service's.
  let own: Promise<MergeQueueService> | undefined;
  return {
    ...ctx,
    service: () =>
      (own ??= ctx.service().then((service) => {
        const view = service.anotherLook?.() ?? service;
        if (view === service) service.readAfresh?.();
        return view;
      })),
    signal: both,
    interactive: false,
    writesInFlight: new CallWrites(ctx.writesInFlight),
    get doneSoFar() {
      return done.of(call);
    },
    set doneSoFar(said: string | undefined) {
      done.set(call, said);
    },
    sleep: (ms) => pause(ms, both),
    endBy: () => undefined,
    warn: (message) => said.push(`warning: ${message}`),
    note: (message) => said.push(message),
    // A long read's progress line (`fetched 300 of 10,000 PRs…`) as the call's progress, to a client that asked for
    // it; the line's clearing is no notice.
    progress: (line) => {
      if (line !== '') progress?.(line);
    },
    openInBrowser: async () => {
      throw new UsageError('the MCP server opens no browser');
    },
    confirm: async () => false,
  };
}

/** What each call in flight has done that a stop must not hide (its writes answered, a read after them under way). */
interface DoneOfCalls {
  of(call: symbol): string | undefined;
  set(call: symbol, said: string | undefined): void;
}

/** Each call's done so far, and all of them as the server's (where given): a stop (Ctrl-C, SIGTERM) says them under it. */
function doneOfCalls(server?: Context): DoneOfCalls {
  const calls = new Map<symbol, string>();
  return {
    of: (call) => calls.get(call),
    set(call, said) {
      if (said === undefined) calls.delete(call);
      else calls.set(call, said);
      if (server) server.doneSoFar = calls.size > 0 ? [...calls.values()].join('\n') : undefined;
    },
  };
}

/** A call's writes out, each also the server's: a stop (Ctrl-C, SIGTERM) says which may have been applied. */
class CallWrites extends Set<WriteInFlight> {
  constructor(private readonly server: Set<WriteInFlight>) {
    super();
  }

  override add(write: WriteInFlight): this {
    this.server.add(write);
    return super.add(write);
  }

  override delete(write: WriteInFlight): boolean {
    this.server.delete(write);
    return super.delete(write);
  }
}

/** What a command's parse may use: the call's clock and cancellation; stdin and stdout are the protocol's, never a command's. */
function argvIo(ctx: Context): ArgvIo {
  return { now: ctx.now(), stdin: Readable.from([]), stderr: new Writable({ write: (_chunk, _encoding, done) => done() }), signal: ctx.signal };
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await process.getBuiltinModule('node:timers/promises').setTimeout(ms, undefined, { signal });
  } catch {
    throw new InterruptedError();
  }
}

/** The service's clock, for ages shown in text ("4m"): its last answer's, else the local one. */
async function serviceNow(ctx: Context): Promise<number> {
  const service = await ctx.service().catch(() => undefined);
  return service?.serviceNow() ?? ctx.now();
}

/** The command a tool mirrors: queue_get is `mq queue get`, test_details `mq test-details`. */
function commandWords(row: ToolRow): string {
  return row.name.replace(/^(queue|flaky)_/, '$1 ').replaceAll('_', '-');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---------------------------------------------------------------- the queue as a resource

function queueUri(ref: QueueRef): string {
  return `mq://queue/${[ref.repo.host, ref.repo.owner, ref.repo.name].map(encodeURIComponent).join('/')}/${ref.targetBranch.split('/').map(encodeURIComponent).join('/')}`;
}

/** `mq://queue/github.com/acme/widgets/release/4.2` → the queue of acme/widgets's release/4.2 (a branch may hold slashes). */
function parseQueueUri(uri: string): QueueRef | undefined {
  const match = /^mq:\/\/queue\/([^/]+)\/([^/]+)\/([^/]+)\/(.+)$/.exec(uri);
  if (!match) return undefined;
  try {
    const [host, owner, name, branch] = match.slice(1).map((part) => decodeURIComponent(part)) as [string, string, string, string];
    return { repo: { host, owner, name }, targetBranch: branch };
  } catch {
    return undefined;
  }
}

/** The queue of mq's settings, if they name a repository. */
function settingsQueue(ctx: Context): QueueRef | undefined {
  try {
    return ctx.queueRef();
  } catch {
    return undefined;
  }
}

/** `mq queue get --json` of the queue `ref` names; `rounds`, a subscription's, which hand each read the one before. */
async function readQueueJson(ctx: Context, ref: QueueRef, signal: AbortSignal, rounds?: WatchRounds): Promise<string> {
  const result = await getQueue({ earlier: rounds?.next() }, { ...callContext(ctx, { signal }, []), queueRef: () => ref });
  if (rounds && result.kind === 'queue') rounds.read(result.queue);
  return JSON.stringify(toJson(result), null, 2);
}

/**
 * The subscribed queues, read in one round per interval however many subscribers: a queue whose JSON differs
 * from the last round's (a failure to read it counts as its content) is announced as updated.
 */
function queueWatcher(ctx: Context, intervalMs: number, updated: (uri: string) => void) {
  const subscribed = new Map<string, { ref: QueueRef; last?: string; rounds: WatchRounds }>();
  let running: AbortController | undefined;
  const loop = async (stop: AbortSignal) => {
    while (subscribed.size > 0 && !stop.aborted) {
      await Promise.all(
        [...subscribed].map(async ([uri, queue]) => {
          // A long queue's rounds read what its order shows changed, and the queue whole now and then (WatchRounds).
          const seen = await readQueueJson(ctx, queue.ref, stop, queue.rounds).catch((error: unknown) => `error: ${errorLine(error)}`);
          if (queue.last !== undefined && seen !== queue.last && subscribed.has(uri)) updated(uri);
          queue.last = seen;
        }),
      );
      await pause(intervalMs, stop).catch(() => undefined);
    }
    if (running?.signal === stop) running = undefined;
  };
  return {
    subscribe(uri: string, ref: QueueRef) {
      if (!subscribed.has(uri)) subscribed.set(uri, { ref, rounds: new WatchRounds(ctx.now) });
      // A loop told to stop (the last subscriber left) may not have ended yet: a new one starts.
      if (running && !running.signal.aborted) return;
      running = new AbortController();
      void loop(running.signal);
    },
    unsubscribe(uri: string) {
      subscribed.delete(uri);
      if (subscribed.size === 0) running?.abort();
    },
    stop() {
      subscribed.clear();
      running?.abort();
    },
  };
}

// ---------------------------------------------------------------- the prompt

const WHY_PROMPT = {
  name: 'why_not_merging',
  title: 'Why is my PR not merging?',
  description: "What holds a PR in the merge queue, from mq's status of it, and what to do about it",
  arguments: [{ name: 'pr', description: 'the PR number (default: the PR of the current git branch)', required: false }],
};

/** The question, with mq's answer to `status` read now, so the agent starts from the facts. */
async function whyPrompt(pr: string | undefined, ctx: Context, options: McpOptions, signal: AbortSignal): Promise<GetPromptResult> {
  const status = TOOLS.find((row) => row.name === 'status')!;
  const read = await callTool(status, pr === undefined ? {} : { pr }, ctx, options, { signal });
  const said = read.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  const which = pr === undefined ? 'the PR of my current branch' : `PR #${pr}`;
  const text =
    `Why is ${which} not merging?\n\nmq status says:\n\n${said}\n\n` +
    'Explain in a few sentences what holds it (its state, what it waits on, the queue itself) and what, if anything, I should do. ' +
    'Use the history and testing tools to see why a run failed, and queue_order for what tests ahead of it.';
  return { description: WHY_PROMPT.title, messages: [{ role: 'user', content: { type: 'text', text } }] };
}

/**
 * `mq mcp --allow-writes` with the flags the server was started with: a server started from the bare command serves
 * the environment's queue, not the one these flags chose. Bare where the settings do not resolve (the tool's own
 * read then says why).
 */
function startCommand(ctx: Context): string {
  try {
    return checkCommand(ctx, 'mcp', '--allow-writes');
  } catch {
    return 'mq mcp --allow-writes';
  }
}
