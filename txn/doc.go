// Package txn will offer typed transactions (TransactWriteItems and
// TransactGetItems) over keyfirst entities: the same derived keys as every
// other write path, at most 100 actions and one action per item checked
// before the request, and cancellation reasons translated into typed errors
// that name the failing action.
package txn
