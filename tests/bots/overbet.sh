#!/bin/sh
# Raises by a negative number (B -15 raises by 15), then by more than it holds (under koth
# a stand, the stake unchanged; all in with overbet=all-in), then stands, in lower case with
# blanks.
case "$4" in
  10) echo "B -15" ;;
  25) echo "B 99999" ;;
  *) echo "  s  " ;;
esac
