#!/usr/bin/env bash
# A maintenance window on a merge queue, as a script: pause the queue (with a reason for the CI log), let the
# PRs it already admitted finish (drain --wait), run the maintenance, resume.
#
#   examples/maintenance-window.sh "database migration" -- ./scripts/migrate.sh --apply
#
# mq finds its settings as always (MQ_REPO, MQ_BRANCH, MQ_TOKEN, a config file: `mq help config`).
# DRAIN_TIMEOUT (default 30m) bounds the drain; DRAIN_INTERVAL (default 10s) paces its checks.
#
# Exit codes:
#   0    done: the maintenance ran and the queue is running again
#   2    usage (this script's arguments, or a flag mq refused)
#   3-6  an mq step failed with that code (mq help exit-codes); the message says where the queue was left
#   7    the queue did not drain within DRAIN_TIMEOUT: it was resumed and no maintenance was done
#   10   the maintenance command failed: the queue is left drained, for a person to look before resuming
#   130  interrupted: the message says how to resume the queue
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
    130) echo 'interrupted' ;;
    *) echo 'failed' ;;
  esac
}

# Runs one mq step, saying it first. If it fails: what the code means, where the queue is left, and mq's code.
step() {
  local left=$1 code=0
  shift
  say "mq $*"
  mq "$@" || code=$?
  if ((code != 0)); then
    say "mq $1 $2 failed with exit $code ($(meaning "$code")); $left"
    exit "$code"
  fi
}

step 'the queue is unchanged' queue pause --reason "$reason" --yes

# From here until the resume, the queue is not running: an interruption must say so.
trap 'say "interrupted: the queue is not running; resume it with: mq queue resume"; exit 130' INT TERM

say "mq queue drain --yes --wait --timeout $drain_timeout --interval $drain_interval"
code=0
mq queue drain --yes --wait --timeout "$drain_timeout" --interval "$drain_interval" || code=$?
case $code in
  0) ;;
  7)
    say "the queue did not drain within $drain_timeout: resuming it; no maintenance was done"
    step 'the queue is still draining: resume it with: mq queue resume' queue resume
    exit 7
    ;;
  *)
    say "mq queue drain failed with exit $code ($(meaning "$code")); the queue is paused: resume it with: mq queue resume"
    exit "$code"
    ;;
esac

say "maintenance: $*"
code=0
"$@" || code=$?
if ((code != 0)); then
  say "the maintenance command failed with exit $code: the queue stays drained; when it is safe: mq queue resume"
  exit 10
fi

step 'the maintenance is done but the queue is still drained: resume it with: mq queue resume' queue resume
trap - INT TERM
say 'done: the queue is running again'
