#!/usr/bin/env python3
"""Crashes on every decision (a traceback on stderr, exit status 1)."""

raise RuntimeError("this bot always crashes")
