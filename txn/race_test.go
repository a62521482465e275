//go:build race

package txn_test

// raceEnabled: the race detector is on, which makes sync.Pool drop a
// quarter of what is put back (an item plan's arena then made anew).
const raceEnabled = true
