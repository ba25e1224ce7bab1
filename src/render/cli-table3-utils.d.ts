// cli-table3's own measure of a cell (ANSI colour codes take no room, wide characters two columns); its
// package ships no types for it.
declare module 'cli-table3/src/utils.js' {
  export function strlen(text: string): number;
}
