// The package's version, from its manifest (the bundle carries it in).
import manifest from '../package.json' with { type: 'json' };

export const VERSION: string = manifest.version;
export const USER_AGENT = `mq/${VERSION}`;
