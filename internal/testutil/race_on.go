//go:build race

package testutil

// RaceEnabled is set under the race detector, whose sync.Pool drops items
// at random: allocation counts are then meaningless.
const RaceEnabled = true
