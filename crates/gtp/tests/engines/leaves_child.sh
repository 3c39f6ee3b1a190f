#!/bin/sh
# A fake GTP engine (to be driven without command ids) that starts a child
# which hangs and does not read its input, answers `name` with that child's
# pid, and exits on any other command, leaving the child behind in its
# process group.
sleep 600 </dev/null >/dev/null 2>&1 &
while IFS= read -r line; do
  case "$line" in
    *name*) printf '= %s\n\n' "$!" ;;
    *) exit 0 ;;
  esac
done
