// The system's idea of the home directory, for when $HOME says nothing. node:os is loaded then only: loading it
// (its functions made at load) was a share of every start, where HOME is nearly always set.
export function systemHomeDir(): string {
  return process.getBuiltinModule('node:os').homedir();
}
