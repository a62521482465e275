// Package markers lets package txn tell the root package that a
// transaction action moves the markers of a unique field
// (keyfirst.EntitySpec.Unique), without an exported way for any other
// caller to say so: the root package sets Moved at init, txn calls it on
// the options of the actions of txn.Unique.
package markers

// Moved records in opts, a *keyfirst.TransactOptions, that the
// transaction moves the markers of the unique field goName (its Go name):
// the action's write of that field is then neither refused nor guarded by
// the root package. Set by package keyfirst.
var Moved func(opts any, goName string)
