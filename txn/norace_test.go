//go:build !race

package txn_test

// raceEnabled: the race detector is on (race_test.go).
const raceEnabled = false
