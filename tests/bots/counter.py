#!/usr/bin/env python3
"""Card counter (Python): Hi-Lo over the visible cards ('#' is the hole card, T a ten).

On a fresh hand (two cards, stake still the buy-in) it raises by 10 when the count is
+2 or more; then it stands on 17, or on 13 when the count is high."""

import sys

score, hand, visible, stake, chips = sys.argv[1:6]
count = 0
for c in visible:
    if c == "#":
        continue
    if c in "23456":
        count += 1
    elif c in "TJQKA":
        count -= 1
if len(hand) == 2 and int(stake) == 10 and count >= 2 and int(chips) >= 10:
    print("B 10")
elif int(score) < (13 if count >= 2 else 17):
    print("h")
else:
    print(" s ")
