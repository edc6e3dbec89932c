#!/usr/bin/env perl
# Threshold bot (Perl): hit below 16, else stand.
print $ARGV[0] < 16 ? "H\n" : "S\n";
