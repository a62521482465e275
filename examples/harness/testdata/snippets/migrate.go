package snippet

import "github.com/keyfirst/keyfirst"

// Order is the entity the migrate doc's backfill brings up to date.
type Order struct {
	ID     string `dynamodbav:"id"`
	Status string `dynamodbav:"status"`
}

// What the migrate doc's fragments presuppose: the entity bound to its
// table, and the number of this worker (from the orchestrator: a Job's
// completion index, an array task's index).
var (
	orders *keyfirst.Entity[Order]
	index  int
)
