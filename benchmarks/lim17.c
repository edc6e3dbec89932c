/* The compiled kernel's play in plain C, as the machine's limit for benchmarks/kernel.py.
 *
 * One seat playing lim17 (hit below 17, soft or hard) at vegas-s17: 6 decks, the cut card
 * at 75%, S17, the dealer peeks under an ace or a ten, a natural pays 3:2 on a 10-chip bet.
 * Cards, shuffles and random numbers follow docs/tables.md ("Reproducing a chunk"), so for
 * the same key this program ends with the same totals as the kernel: the benchmark checks.
 *
 * usage: lim17 KEY ROUNDS   prints: hands net net_sq
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define DECKS 6
#define CARDS (52 * DECKS)

static uint64_t key, counter;

static uint64_t next64(void) {
    uint64_t z = key + (++counter) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint32_t below(uint32_t n) { /* Lemire: an unbiased integer in [0, n) */
    for (;;) {
        uint64_t m = (next64() >> 32) * (uint64_t)n;
        uint32_t low = (uint32_t)m;
        if (low >= n || low >= (uint32_t)(-n) % n) return (uint32_t)(m >> 32);
    }
}

static int shoe[CARDS], fresh[CARDS];

static void shuffle(void) {
    for (int i = 0; i < CARDS; i++) shoe[i] = fresh[i];
    for (int k = CARDS - 1; k > 0; k--) {
        int j = (int)below((uint32_t)k + 1), t = shoe[k];
        shoe[k] = shoe[j];
        shoe[j] = t;
    }
}

static int total(int hard, int ace) { return ace && hard <= 11 ? hard + 10 : hard; }

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    key = strtoull(argv[1], 0, 10);
    long long rounds = atoll(argv[2]);
    int k = 0;
    for (int d = 0; d < DECKS; d++)
        for (int r = 0; r < 10; r++)
            for (int c = 0; c < (r == 9 ? 16 : 4); c++) fresh[k++] = r;
    const int cut = (int)(CARDS * 0.75);
    int pos = CARDS;
    long long hands = 0, net = 0, net_sq = 0;
    const int bet = 10;
    for (long long round = 0; round < rounds; round++) {
        if (pos >= cut) { shuffle(); pos = 0; }
        /* the deal: player, upcard, player, hole (one seat never runs a 6-deck shoe dry) */
        int p1 = shoe[pos++], up = shoe[pos++], p2 = shoe[pos++], hole = shoe[pos++];
        int ph = p1 + p2 + 2, pa = p1 == 0 || p2 == 0;
        int dh = up + hole + 2, da = up == 0 || hole == 0;
        int pnat = ph == 11 && pa, dnat = dh == 11 && da;
        int result;
        if (dnat) { /* up is an ace or a ten whenever the dealer has a natural: peeked */
            result = pnat ? 0 : -bet;
        } else if (pnat) {
            result = bet * 3 / 2;
        } else {
            while (total(ph, pa) < 17) { int c = shoe[pos++]; ph += c + 1; pa |= c == 0; }
            int pt = total(ph, pa);
            if (pt > 21) {
                result = -bet;
            } else {
                while (total(dh, da) < 17) { int c = shoe[pos++]; dh += c + 1; da |= c == 0; }
                int dt = total(dh, da);
                result = dt > 21 || pt > dt ? bet : pt == dt ? 0 : -bet;
            }
        }
        hands++;
        net += result;
        net_sq += (long long)result * result;
    }
    printf("%lld %lld %lld\n", hands, net, net_sq);
    return 0;
}
