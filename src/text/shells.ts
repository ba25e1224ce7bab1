// The shells `mq completion` writes for, and how to install each script: read by its spec (the argument's
// choices, the examples of `mq completion --help`) and by the script's own header.
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** How to install each script, as shell lines. */
export const COMPLETION_INSTALL: Record<Shell, readonly string[]> = {
  bash: [
    'mkdir -p ~/.local/share/bash-completion/completions   # read by the bash-completion package',
    'mq completion bash > ~/.local/share/bash-completion/completions/mq',
    'source <(mq completion bash)   # or this line in ~/.bashrc',
  ],
  zsh: [
    'mq completion zsh > "${fpath[1]}/_mq"   # any directory in $fpath; then open a new shell',
    'source <(mq completion zsh)   # or this line in ~/.zshrc, after compinit',
  ],
  fish: ['mq completion fish > ~/.config/fish/completions/mq.fish'],
};
