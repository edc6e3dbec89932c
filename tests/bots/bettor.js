#!/usr/bin/env node
// Bettor (JavaScript): raises by 20 on a fresh 10 or 11, then plays hit below 16.
const [score, hand, visible, stake, chips] = process.argv.slice(2);
if (hand.length === 2 && Number(stake) === 10 && (score === "10" || score === "11")) {
  console.log("B 20");
} else {
  console.log(Number(score) < 16 ? "H" : "S");
}
