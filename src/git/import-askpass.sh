#!/bin/sh
# GIT_ASKPASS of a source import (git, git svn): answers git's prompts from the
# environment the importer gave this process, so credentials never appear in any
# process's arguments. See import-credentials.ts.
case "$1" in
  [Uu]sername*) printf '%s\n' "$WHARF_IMPORT_USERNAME" ;;
  *) printf '%s\n' "$WHARF_IMPORT_PASSWORD" ;;
esac
