// Package sparse will decide index membership at write time: a rule per
// entity and index says when an item belongs to a sparse index, and every
// write path SETs the index key attributes when it qualifies and REMOVEs them
// when it leaves (never an empty string or a placeholder). It will also tell
// how many index writes, and roughly how many WCUs, a write causes on each
// index (write amplification).
package sparse
