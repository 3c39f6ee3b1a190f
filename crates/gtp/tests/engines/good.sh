#!/bin/sh
# A well-behaved fake GTP engine for the Engine tests. It echoes ids, answers a
# few commands, and has extra commands that exercise the controller's parser.
while IFS= read -r line; do
  set -f
  # shellcheck disable=SC2086 # splitting the command line into words is the point
  set -- $line
  set +f
  id=""
  case "$1" in
    '' | *[!0-9]*) ;;
    *) id=$1; shift ;;
  esac
  cmd=$1
  [ $# -gt 0 ] && shift
  case "$cmd" in
    "") ;;
    protocol_version) printf '=%s 2\n\n' "$id" ;;
    name) printf '=%s Fake Engine\n\n' "$id" ;;
    echo) printf '=%s %s\n\n' "$id" "$*" ;;
    genmove) printf '=%s Q16\n\n' "$id" ;;
    multi) printf '=%s first\nsecond\nthird\n\n' "$id" ;;
    crlf) printf '=%s windows\r\n\r\n' "$id" ;;
    blank_first) printf '\n\n=%s late\n\n' "$id" ;;
    binary) printf '=%s caf\351\n\n' "$id" ;;
    bell) printf '\007=%s ding\n\007\n' "$id" ;;
    wrong_id) printf '=999 mine\n\n' ;;
    chatty) echo "thinking hard" >&2; printf '=%s done\n\n' "$id" ;;
    slow) sleep 0.1; printf '=%s slept\n\n' "$id" ;;
    crash) echo "panic: simulated crash" >&2; exit 3 ;;
    quit) printf '=%s \n\n' "$id"; exit 0 ;;
    *) printf '?%s unknown command\n\n' "$id" ;;
  esac
done
