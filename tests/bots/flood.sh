#!/bin/sh
# Floods its output far past the bound croupier reads.
while :; do echo HHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH; done
