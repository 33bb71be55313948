//go:build !race

package runtime

// visionRace is set under the race detector, whose sync.Pool drops items
// at random: the vision kernels' allocation tests are then skipped.
const visionRace = false
