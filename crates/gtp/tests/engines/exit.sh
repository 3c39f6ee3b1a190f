#!/bin/sh
# A fake GTP engine that dies at once, as an engine that cannot load its
# model or configuration does, leaving an explanation on stderr.
echo "loading weights from /nonexistent/model.bin" >&2
echo "error: cannot open model file" >&2
exit 7
