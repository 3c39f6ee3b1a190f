#!/bin/sh
# A fake GTP engine that answers `name` and then hangs on any other command,
# even `quit`, in a child process, as a stuck engine (or a wrapper script
# around one) would. The controller must kill it, child included.
while IFS= read -r line; do
  case "$line" in
    *name*) printf '= Hanging Engine\n\n' ;;
    *) sleep 600 ;;
  esac
done
