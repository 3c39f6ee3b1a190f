#!/bin/sh
# A fake GTP engine that answers `name` and then hangs on any other command,
# even `quit`, in a child process, as a stuck engine (or a wrapper script
# around one) would. The controller must kill it, child included.
# With an argument, it appends each command it hangs on to that file first,
# so that a test can wait until the command has arrived.
marker=$1
while IFS= read -r line; do
  case "$line" in
    *name*) printf '= Hanging Engine\n\n' ;;
    *)
      if [ -n "$marker" ]; then echo "$line" >>"$marker"; fi
      sleep 600
      ;;
  esac
done
