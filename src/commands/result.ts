// What a command hands back: plain data, printed by src/render. Commands never print.
import type {
  EnqueuedPullRequest,
  Queue,
  SubmittedPullRequest,
  TestCase,
  TestingDetails,
  UpdatedQueue,
} from '../api/schemas.js';

/** The outcome of one PR of a multi-PR command; `ok: false` carries the error as printed under --json. */
export type PrOutcome =
  | { pr: number; ok: true; state?: string }
  | { pr: number; ok: false; error: { code: string; status?: number; message: string } };

/** One resolved setting for `config show`; the token's value never appears, only whether it is set. */
export interface ConfigEntry {
  key: string;
  value: string | undefined;
  origin: string;
}

/** `mq config path`: a config file in effect, or where `mq config init` would write one. */
export interface ConfigFilePath {
  path: string;
  exists: boolean;
}

/** `mq config init`: the file written and the keys in it (never a token). */
export interface ConfigInitResult {
  kind: 'configInit';
  path: string;
  scope: 'project' | 'user';
  /** An existing file was replaced (--force). */
  replaced: boolean;
  values: Record<string, string>;
  /** Where the token will come from, when the file says: otherwise the environment must give it. */
  token: 'tokenCommand' | 'tokenFile' | null;
}

export type CommandResult =
  | { kind: 'queue'; queue: Queue }
  /** `queue`: the PR's queue as it was read alongside, to say where the PR stands (absent when unknown). */
  | { kind: 'pullRequest'; pullRequest: SubmittedPullRequest; queue?: Queue }
  | { kind: 'pullRequests'; pullRequests: EnqueuedPullRequest[]; nextCursor?: string }
  | { kind: 'perPr'; action: 'submit' | 'cancel' | 'restart'; results: PrOutcome[] }
  | { kind: 'testingDetails'; details: TestingDetails }
  | { kind: 'testDetails'; test: TestCase }
  | { kind: 'metrics'; text: string; raw: boolean }
  | {
      kind: 'queueChange';
      action: 'create' | 'update' | 'pause' | 'resume' | 'drain' | 'delete';
      branch: string;
      /** The service's answer, when it gave the queue back. */
      queue?: UpdatedQueue;
      /** `pause --reason`: the service stores none, so it lives in the printed result only. */
      reason?: string;
      /** `delete --cancel-all`: the PRs cancelled first. */
      cancelled?: PrOutcome[];
    }
  | { kind: 'targets'; pr: number; sha?: string; impactedTargets: string[] | 'ALL'; fellBackToAll: boolean }
  | { kind: 'config'; entries: ConfigEntry[]; files: string[] }
  | { kind: 'configPaths'; project: ConfigFilePath & { namedBy: '--config' | 'MQ_CONFIG' | 'search' | null }; user: ConfigFilePath }
  | ConfigInitResult;

/** Whether a result means "done, but negative" (exit 1): some PR of a multi-PR command failed. */
export function isNegative(result: CommandResult): boolean {
  if (result.kind === 'perPr') return result.results.some((r) => !r.ok);
  if (result.kind === 'queueChange') return (result.cancelled ?? []).some((r) => !r.ok);
  return false;
}
