// The build writes the package's version in; tests that import the sources unbuilt see a dev marker.
declare const MQ_VERSION: string | undefined;

export const VERSION: string = typeof MQ_VERSION === 'string' ? MQ_VERSION : '0.0.0-dev';
export const USER_AGENT = `mq/${VERSION}`;
