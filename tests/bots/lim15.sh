#!/bin/sh
# Threshold bot (POSIX shell): hit below 15, else stand.
if [ "$1" -lt 15 ]; then echo H; else echo S; fi
