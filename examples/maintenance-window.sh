#!/usr/bin/env bash
# A maintenance window on a merge queue, as a script: pause the queue (with a reason for the CI log), let the
# PRs it already admitted finish (drain --wait), run the maintenance, resume. A trap resumes the queue however
# the script ends (a failed step, a failed maintenance, Ctrl-C), so no window is left open by accident.
#
#   examples/maintenance-window.sh "database migration" -- ./scripts/migrate.sh --apply
#
# mq finds its settings as always (MQ_REPO, MQ_BRANCH, MQ_TOKEN, a config file: `mq help config`); against the
# sandbox, export what `mq sandbox` prints. DRAIN_TIMEOUT (default 30m) bounds the drain; DRAIN_INTERVAL
# (default 10s) paces its checks. HOLD_ON_FAILURE=1 leaves the queue drained when the maintenance fails, for a
# person to look before resuming. A queue that was already paused (another window) is paused again at the end,
# not resumed.
#
# Exit codes:
#   0    done: the maintenance ran and the queue is running again
#   2    usage (this script's arguments, or a flag mq refused)
#   3-6  an mq step failed with that code (mq help exit-codes); the queue was resumed if this script stopped it
#   7    the queue did not drain within DRAIN_TIMEOUT: it was resumed and no maintenance was done
#   10   the maintenance command failed: the queue was resumed (left drained with HOLD_ON_FAILURE=1)
#   130  interrupted: the queue was resumed
set -euo pipefail

if [[ $# -lt 3 || $2 != -- ]]; then
  echo "usage: $0 REASON -- COMMAND [ARG...]" >&2
  exit 2
fi
reason=$1
shift 2
drain_timeout=${DRAIN_TIMEOUT:-30m}
drain_interval=${DRAIN_INTERVAL:-10s}

say() { printf '==> %s\n' "$*" >&2; }

# What an exit code of mq means, in a few words (the full table: mq help exit-codes).
meaning() {
  case $1 in
    1) echo 'negative outcome' ;;
    2) echo 'usage: a bad flag or argument' ;;
    3) echo 'configuration or authentication: check MQ_TOKEN and MQ_REPO' ;;
    4) echo 'not found: is there a queue for this branch?' ;;
    5) echo 'refused by the service' ;;
    6) echo 'service or network unavailable' ;;
    7) echo 'timed out' ;;
    10) echo 'the maintenance failed' ;;
    130) echo 'interrupted' ;;
    *) echo 'failed' ;;
  esac
}

# How the queue is put back when the window ends (words after `mq queue`): `resume`, or `pause --yes` for a queue
# found paused. Empty until this script has stopped the queue: before that there is nothing to put back.
restore=

# The trap: on any exit but success, put the queue back as it was found, and say so.
finish() {
  local code=$?
  trap - EXIT INT TERM
  if [[ -n $restore && $code -ne 0 ]]; then
    if [[ $code -eq 10 && ${HOLD_ON_FAILURE:-} == 1 ]]; then
      say "the queue stays drained (HOLD_ON_FAILURE=1); when it is safe: mq queue $restore"
    else
      say "exit $code ($(meaning "$code")): putting the queue back: mq queue $restore"
      # shellcheck disable=SC2086 # $restore is words on purpose
      mq queue $restore >&2 || say "could not: the queue is not running; run: mq queue $restore"
    fi
  fi
  exit "$code"
}
trap finish EXIT
# Ctrl-C reaches mq too, which says what it left; the EXIT trap then puts the queue back.
trap 'exit 130' INT TERM

# Runs one mq step, saying it first. If it fails: what the code means, and mq's code (the trap does the rest).
step() {
  local code=0
  say "mq $*"
  mq "$@" || code=$?
  if ((code != 0)); then
    say "mq $1 $2 failed with exit $code ($(meaning "$code"))"
    exit "$code"
  fi
}

say "mq queue pause --reason $reason --yes"
paused=$(mq queue pause --reason "$reason" --yes --json) || {
  code=$?
  say "mq queue pause failed with exit $code ($(meaning "$code")); the queue is unchanged"
  exit "$code"
}
# `"changed": false`: it was paused before this window began, by someone else; leave it so at the end.
if [[ $paused == *'"changed": false'* ]]; then
  say 'the queue was already paused: it will be paused again, not resumed, when this window ends'
  restore='pause --yes'
else
  restore=resume
fi

say "mq queue drain --yes --wait --timeout $drain_timeout --interval $drain_interval"
code=0
mq queue drain --yes --wait --timeout "$drain_timeout" --interval "$drain_interval" || code=$?
case $code in
  0) ;;
  7)
    say "the queue did not drain within $drain_timeout; no maintenance was done"
    exit 7
    ;;
  *)
    say "mq queue drain failed with exit $code ($(meaning "$code"))"
    exit "$code"
    ;;
esac

say "maintenance: $*"
code=0
"$@" || code=$?
if ((code != 0)); then
  say "the maintenance command failed with exit $code"
  exit 10
fi

# shellcheck disable=SC2086 # $restore is words on purpose
step queue $restore
restore=
say "done: the queue is $([[ $paused == *'"changed": false'* ]] && echo 'paused again, as it was found' || echo 'running again')"
