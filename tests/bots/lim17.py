#!/usr/bin/env python3
"""Threshold bot (Python): hit below 17, else stand."""

import sys

print("H" if int(sys.argv[1]) < 17 else "S")
