#!/bin/bash
# checkpatch --strict and sparse are clean on our files.
exec "$(dirname "$0")/../lint.sh"
