#!/bin/sh
# Checks its surroundings: a clean environment, HOME = the working directory, stdin closed.
if [ -n "$CROUPIER_PROBE" ] || [ "$HOME" != "$(pwd)" ] || [ "$LANG" != "C.UTF-8" ]; then
  echo "bad environment"
elif read -r line; then
  echo "stdin is open"
else
  echo S
fi
