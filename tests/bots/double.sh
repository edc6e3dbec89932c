#!/bin/sh
# Always asks to double down (legal on the first move only: refused after that).
echo D
