#!/bin/sh
# Sleeps past any time limit (in a child process, which must be killed too), then stands.
sleep 31
echo S
