//go:build !race

package runtime

// raceEnabled is set under the race detector, whose sync.Pool drops items
// at random: the kernels' allocation tests are then skipped.
const raceEnabled = false
