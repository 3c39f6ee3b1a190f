#!/bin/sh
# A fake "engine" that is not speaking GTP: it answers every line with prose
# and never sends the empty line that would end a GTP response.
while IFS= read -r line; do
  echo "Welcome to my program! You typed: $line"
done
