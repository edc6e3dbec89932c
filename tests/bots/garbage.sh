#!/bin/sh
# Prints something that is not an action.
echo "I think I will take another card, thanks"
