// Repositories: found by their provider URL (known from then on) or by id.
import { isUuid } from '../../../../api/v2/schemas.js';
import { perform } from '../../../engine/changes.js';
import { repositoryId } from '../../../engine/ids.js';
import { repositoryWithId, requireRepository, validationFailed } from '../common.js';
import { pageOf } from '../pages.js';
import { V2Error, route } from '../route.js';
import { repositoryJson } from '../wire.js';

/** `https://host/owner/name`, with a `.git` suffix and trailing slashes allowed; anything else is no repository. */
const PROVIDER_URL = /^https:\/\/([A-Za-z0-9.-]+(?::\d+)?)\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/*$/;

export const resolveByProviderUrl = route('repositories.resolveByProviderUrl', (context) => {
  const query = context.input;
  const match = PROVIDER_URL.exec(query.providerUrl);
  if (!match || match[3] === '' || match[3]!.endsWith('.git')) {
    throw new V2Error(404, 'PROVIDER_URL_NOT_FOUND', `no repository at "${query.providerUrl}": give its https://host/owner/name URL`);
  }
  const repo = { host: match[1]!.toLowerCase(), owner: match[2]!, name: match[3]! };
  // Known from the first lookup on (journaled, so across restarts): a queue may then be created in it, and it
  // reads back by id. A repository already known is not written again.
  const fresh = context.engine.repositoryWithId(repositoryId(repo)) === undefined;
  const { change } = fresh ? perform(context.engine, 'knowRepository', { repo }) : { change: undefined };
  const known = repositoryWithId(context, repositoryId(repo))!;
  const page = pageOf(
    context,
    [known],
    (row) => repositoryId(row.repo),
    (row) => repositoryJson(row.repo, row.since),
  );
  return { ...page, ...(change && { change }) };
});

export const getRepository = route('repositories.get', (context) => {
  const id = context.params.id ?? '';
  if (!isUuid(id)) throw validationFailed(`id: "${id}" is not a UUID`);
  const { repo, since } = requireRepository(context, id);
  return { answer: { status: 200, json: repositoryJson(repo, since) } };
});
